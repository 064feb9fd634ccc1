package toolcall

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinel-guard/sentinel/internal/version"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

// Deadline keeps the hook's promise to answer whatever happens: at the
// budget it writes the fail-closed answer (ask when a human is known to be
// there, deny when nobody is or it is not yet known), records what it can
// within ExtraMoment (one journal line), and exits 0. Whoever claims the
// answer first (this timer, or the normal path when it is done) is the
// only one that writes it.
type Deadline struct {
	At       time.Time
	budget   time.Duration
	stdout   io.Writer
	stderr   io.Writer
	stateDir string
	exit     func(int)
	timer    *time.Timer
	claimed  atomic.Bool
	done     chan struct{} // closed when the timer's own work is over

	mu      sync.Mutex
	phase   string          // what the hook was doing
	known   bool            // attendance is known (the payload was read)
	unatt   bool            // and nobody is there
	pending *register.Entry // what is known of the call so far
	call    *judge.Call     // the parsed call, until Known: its input is canonicalised only if the deadline fires
	silent  bool            // post mode: no answer to write
	verdict judge.Verdict   // the judge's verdict, once known
	hit     judge.Hit       // and what explains it
	dialect Dialect         // whose contract the answer is in (DialectUnknown until the payload is read)
}

// Arm starts the deadline at start + env.Budget. exit ends the process
// (os.Exit in the hook; tests pass their own).
func Arm(start time.Time, env *Environ, stdout, stderr io.Writer, exit func(int)) *Deadline {
	d := &Deadline{At: start.Add(env.Budget), budget: env.Budget, stdout: stdout, stderr: stderr,
		stateDir: env.StateDir, exit: exit, done: make(chan struct{}), phase: "reading the payload"}
	d.unatt = env.Attendance.Unattended
	d.known = d.unatt // nobody there is known already; somebody there needs the payload's mode
	d.timer = time.AfterFunc(time.Until(d.At), d.fire)
	return d
}

// Claim takes the one right to write the answer; false when the deadline
// (or another path) has it already.
func (d *Deadline) Claim() bool {
	if !d.claimed.CompareAndSwap(false, true) {
		return false
	}
	d.timer.Stop()
	return true
}

// Wait blocks until the timer's answer and record are done (the process
// normally exits before that returns).
func (d *Deadline) Wait() { <-d.done }

// Phase notes what the hook is doing now, for the deadline's reason.
func (d *Deadline) Phase(what string) {
	d.mu.Lock()
	d.phase = what
	d.mu.Unlock()
}

// Parsed records which call this is as soon as the payload is decoded, so
// that a deadline during judging still journals its session, tool_use_id,
// tool and input (8 of 8 such records had none).
func (d *Deadline) Parsed(c judge.Call) {
	e := register.Entry{Kind: register.KindDecision, SessionID: c.SessionID, ToolUseID: c.ToolUseID, Cwd: c.Cwd,
		Tool: c.ToolName, PermissionMode: c.PermissionMode, Version: version.Version, Rules: []string{}, Harness: c.Harness}
	d.mu.Lock()
	if d.pending == nil {
		d.pending, d.call = &e, &c
		// a decoded payload names its harness ("" is Claude Code)
		d.dialect = DialectClaudeCode
		if c.Harness == judge.HarnessCodex {
			d.dialect = DialectCodex
		}
	}
	d.mu.Unlock()
}

// Known records the call's judgement so far: its attendance, its entry,
// and its verdict, which the deadline's answer never goes below (a deny
// the judge made stays a deny when the register is what is late).
func (d *Deadline) Known(r *Result) {
	e := r.Entry
	d.mu.Lock()
	d.known, d.unatt = true, d.unatt || r.Unattended
	d.pending, d.call, d.verdict, d.hit, d.dialect = &e, nil, r.Verdict, r.Hit, r.Dialect
	d.mu.Unlock()
}

// fire is the timer: the fail-closed answer, then a bounded record, then exit.
func (d *Deadline) fire() {
	if !d.claimed.CompareAndSwap(false, true) {
		return
	}
	defer close(d.done)
	d.mu.Lock()
	phase, known, unatt, silent, knownV, hit, dl := d.phase, d.known, d.unatt || !d.known, d.silent, d.verdict, d.hit, d.dialect
	e := register.Entry{Kind: register.KindError, Version: version.Version, Rules: []string{}}
	if d.pending != nil {
		e = *d.pending
	}
	call := d.call
	d.mu.Unlock()
	v := max(ErrorVerdict(unatt), knownV)
	why := fmt.Sprintf("the guard did not finish within its %s budget (it was %s)", d.budget, phase)
	if !known {
		why += "; who is watching was not known yet, so it is a deny"
	}
	fmt.Fprintln(d.stderr, "sentinel-hook:", why)
	if silent {
		// An outcome (post): nothing to answer, and its own record is
		// what was late.
		d.exitNow()
		return
	}
	h := judge.Hit{RuleID: judge.RuleSentinelUnjudged, Reason: why,
		Alternative: "run `sentinel doctor` to find what the hook waits on, then try again"}
	var more []string
	if hit.RuleID != "" && knownV == v {
		// The judge's own reason speaks; the deadline is a note.
		h, more = hit, []string{judge.RuleSentinelUnjudged}
		why = hit.Reason + "; also: " + why
	}
	writeAnswer(d.stdout, dl, v, judge.ReasonBody(h, more, ""),
		" A record goes to the fallback journal if it can be written at once.")

	e.Kind, e.Decision, e.Attended = register.KindError, v.String(), !unatt
	e.Rules = append(append([]string{}, e.Rules...), judge.RuleSentinelUnjudged)
	e.Reason = "deadline: " + why
	e.Seq, e.Hash, e.PrevHash = 0, "", ""
	journaled := make(chan error, 1)
	go func() {
		if call != nil && e.Input == nil {
			// Judging never finished: the input as the entry would have
			// held it, computed here (bounded by ExtraMoment with the rest).
			if in, err := judge.Canonical(call.ToolName, call.ToolInput); err == nil {
				e.Input = in
			}
		}
		journaled <- d.journal(&e)
	}()
	select {
	case err := <-journaled:
		if err != nil {
			fmt.Fprintln(d.stderr, "sentinel-hook: the deadline's record could not be journaled:", err)
		}
	case <-time.After(ExtraMoment):
		fmt.Fprintf(d.stderr, "sentinel-hook: the deadline's record did not reach the journal within %s\n", ExtraMoment)
	}
	d.exitNow()
}

func (d *Deadline) exitNow() {
	if d.exit != nil {
		d.exit(0)
	}
}

// Silent makes the deadline answer nothing (the post mode): it only ends
// the process in time.
func (d *Deadline) Silent() {
	d.mu.Lock()
	d.silent = true
	d.mu.Unlock()
}

func (d *Deadline) journal(e *register.Entry) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("internal error: %v", v)
		}
	}()
	if d.stateDir == "" {
		return fmt.Errorf("no state directory")
	}
	return register.JournalWhy(d.stateDir, e, fmt.Errorf("the hook's deadline passed"))
}
