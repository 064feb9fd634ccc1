package toolcall

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/sentinel-guard/sentinel/gate"
	"github.com/sentinel-guard/sentinel/register"
)

// minWait is the least any wait gets, however late the call already is.
const minWait = 20 * time.Millisecond

// Record appends the entry to the register, falling back to the journal,
// every wait bounded so that the whole fits before deadline. A decision
// that can be neither appended nor journaled is never allowed silently:
// an allow becomes the error verdict.
func (r *Result) Record(env *Environ, deadline time.Time, stderr io.Writer) {
	if env.StateErr != nil {
		r.fail("not registered: %v", env.StateErr)
		r.applyError()
		r.Entry.Decision = r.Verdict.String()
		return
	}
	err := appendEntry(env.StateDir, &r.Entry, deadline, r.Gate)
	var stale *register.StaleError
	if errors.As(err, &stale) {
		// The gate's cache is not the register's newest gate entry: the
		// decision may have released a rule the gate holds. Nothing was
		// appended; the call is the error verdict, recorded as such.
		r.fail("the must-keep gate's cache (%s) does not match the register: %v; every call is held closed until the operator runs 'sentinel gate check'", gate.File, stale)
		r.applyError()
		r.Entry.Decision = r.Verdict.String()
		r.Entry.Reason = r.entryReason(env.Problems)
		err = appendEntry(env.StateDir, &r.Entry, deadline, nil)
	}
	if err == nil {
		r.Seq = r.Entry.Seq
		return
	}
	fmt.Fprintf(stderr, "sentinel-hook: register: %v\n", err)
	if r.Verdict < ErrorVerdict(r.Unattended) && stale == nil && r.Gate != nil && (r.Gate.Seq != 0 || gate.InUse(env.ConfigDir)) {
		// A must-keep gate is in force but its cache could not be checked
		// against the register (a held lock, a full disk): a journaled
		// decision must not release what the gate holds.
		r.fail("the must-keep gate's cache could not be checked against the register (%v): held closed", err)
		r.applyError()
		r.Entry.Decision = r.Verdict.String()
		r.Entry.Reason = r.entryReason(env.Problems)
	}
	if errors.Is(err, register.ErrVanished) || errors.Is(err, register.ErrRefused) {
		// The register this machine had is gone, emptied or rolled back:
		// no call is allowed until the operator resets it (`sentinel
		// register reset --accept-loss`). Or one of its files was replaced
		// by a FIFO, a device, a directory or a symlink (a -wal linked to
		// /dev/zero swallows the entries): an attack on the record, not a
		// full disk. The decision is still journaled, and merged later.
		r.fail("%v", err)
		r.applyError()
		r.Entry.Decision = r.Verdict.String()
		r.Entry.Reason = r.entryReason(env.Problems)
	}
	if jerr := register.JournalWhy(env.StateDir, &r.Entry, err); jerr != nil {
		fmt.Fprintf(stderr, "sentinel-hook: journal: %v\n", jerr)
		fmt.Fprintln(stderr, "sentinel-hook: this decision could not be registered")
		r.fail("not registered: %v", err)
		if r.Verdict < ErrorVerdict(r.Unattended) {
			r.applyError()
			r.Entry.Decision = r.Verdict.String()
		}
		return
	}
	r.Journaled = true
	fmt.Fprintf(stderr, "sentinel-hook: the decision is in the fallback journal in %s; it is merged into the register on the next append\n", env.StateDir)
}

// appendEntry opens the register and appends, waiting at most a quarter of
// the time left in the queue and half of it for SQLite's lock, so that the
// journal still has its turn before the deadline.
//
// It deliberately does not close the register: the process exits right
// after, and closing the last connection makes SQLite checkpoint the WAL
// and delete it, two more fsyncs on every call. The append is durable when
// Append returns (synchronous=FULL).
func appendEntry(dir string, e *register.Entry, deadline time.Time, x *register.Expect) error {
	left := time.Until(deadline)
	reg, err := register.OpenWith(filepath.Join(dir, "register.db"),
		register.Options{BusyTimeout: max(left/2, minWait)})
	if err != nil {
		return err
	}
	if closeRegister {
		defer reg.Close()
	}
	defer queue(dir, max(left/4, minWait))()
	return reg.AppendExpecting(e, x)
}

// closeRegister closes the register after each append: for tests that run
// many calls in one process (FuzzPre), where the hook's exit cannot.
var closeRegister = false

// queue makes hook processes take turns at the register with an advisory
// flock on hook.lock beside it. SQLite's busy handler polls, with sleeps up
// to 100 ms, so with many parallel subagents a waiting writer can lose the
// race again and again; a blocked flock is woken by the kernel as soon as
// the holder is done. It is only an optimisation: the transaction's own
// lock keeps the chain linear, and any failure here (read-only directory,
// a holder that never lets go past wait) just skips the queue. The
// returned func leaves it (so does the process's exit).
func queue(dir string, wait time.Duration) func() {
	f, err := os.OpenFile(filepath.Join(dir, "hook.lock"), os.O_RDWR|os.O_CREATE|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return func() {}
	}
	// The usual case, nobody queued: take it without a goroutine and timer.
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		return func() { f.Close() }
	}
	got := make(chan error, 1)
	go func() { got <- syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return func() {}
		}
		return func() { f.Close() }
	case <-time.After(wait):
		// Leave the queue as soon as the turn comes, should it come.
		go func() { <-got; f.Close() }()
		return func() {}
	}
}
