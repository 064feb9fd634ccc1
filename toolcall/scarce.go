package toolcall

import (
	"os"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/sentinel-guard/sentinel/judge"
)

// PollerFDs is how many free descriptors the Go runtime needs for its
// poller (an epoll instance and an eventfd), which it creates on the first
// timer or pollable file. Without them it dies with "netpollinit failed"
// and exit 2, which Claude Code reads as no objection: at a descriptor
// limit of 4 to 6 that is how the hook let every call through.
const PollerFDs = 2

// FreeFDs counts free descriptors, up to limit, by duplicating one and
// closing the copies (each dup takes the lowest free number; nothing else
// changes).
func FreeFDs(limit int) int {
	var got []int
	for len(got) < limit {
		fd, _, errno := syscall.RawSyscall(syscall.SYS_FCNTL, 2, syscall.F_DUPFD_CLOEXEC, 0)
		if errno != 0 {
			// fd 2 may be closed: any open descriptor will do.
			fd, _, errno = syscall.RawSyscall(syscall.SYS_FCNTL, 0, syscall.F_DUPFD_CLOEXEC, 0)
			if errno != 0 {
				break
			}
		}
		got = append(got, int(fd))
	}
	for _, fd := range got {
		syscall.Close(fd)
	}
	return len(got)
}

// Scarce handles a call in a process with fewer than PollerFDs free
// descriptors, for the hook's main to call instead of Pre or Post. Nothing
// here opens a file or starts a Go timer: stdin is read and the answer
// written with raw system calls, and the deadline is SIGALRM from
// setitimer. The call cannot be recorded (no descriptor is left for the
// register or the journal), so it is never an allow: ask when a human is
// known to be there, deny otherwise; stderr says why. A post payload is
// read and dropped (nothing to answer).
func Scarce(free int, post bool, getenv func(string) string, exit func(int)) {
	env := NewEnviron(getenv)
	why := "only " + strconv.Itoa(free) + " file descriptor(s) free (ulimit -n " + limitNOFILE() +
		"): the hook cannot open its register or journal, so this call is not recorded; raise the limit (ulimit -n 1024)"
	stderr := func(s string) { rawWrite(2, []byte("sentinel-hook: "+s+"\n")) }
	answered := make(chan struct{}, 1) // the one right to answer
	answered <- struct{}{}
	var dl atomic.Int32 // DialectUnknown until the payload is read: the form that blocks in both harnesses
	answer := func(v judge.Verdict, reason string) {
		select {
		case <-answered:
		default:
			return
		}
		if !post {
			var b rawBuf
			writeAnswer(&b, Dialect(dl.Load()), v, judge.ReasonBody(judge.Hit{RuleID: judge.RuleSentinelUnjudged, Reason: reason,
				Alternative: "raise the open-files limit of the process that runs the agent, then try again"}, nil, ""), "")
			rawWrite(1, b)
		}
		exit(0)
	}
	notify := make(chan os.Signal, 1)
	signal.Notify(notify, syscall.SIGALRM)
	go func() {
		<-notify
		stderr("the guard did not finish within its " + env.Budget.String() + " budget (reading the payload); " + why)
		answer(ErrorVerdict(true), "the guard did not finish within its budget while reading the payload; "+why)
	}()
	setAlarm(env.Budget)
	data, ok := rawReadAll(0, MaxPayload)
	unattended := true // not known: deny
	if ok {
		if p, err := ParsePayload(data); err == nil {
			unattended = env.Attendance.Unattended || unattendedMode(p.PermissionMode)
			post = post || p.IsPost()
			dl.Store(int32(p.Dialect()))
		}
	}
	stderr(why)
	answer(ErrorVerdict(unattended), why)
}

// rawBuf collects the answer for one raw write.
type rawBuf []byte

func (b *rawBuf) Write(p []byte) (int, error) { *b = append(*b, p...); return len(p), nil }

func rawWrite(fd int, b []byte) {
	for len(b) > 0 {
		n, err := syscall.Write(fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		b = b[n:]
	}
}

// rawReadAll reads fd to its end, at most limit bytes; false when it could
// not (an error, or over the limit). A non-blocking descriptor is polled
// with nanosleep (a Go timer would need the poller).
func rawReadAll(fd, limit int) ([]byte, bool) {
	var out []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(fd, buf)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			ts := syscall.Timespec{Nsec: int64(time.Millisecond)}
			syscall.Nanosleep(&ts, nil)
			continue
		case err != nil:
			return out, false
		case n == 0:
			return out, true
		}
		out = append(out, buf[:n]...)
		if len(out) > limit {
			return out, false
		}
	}
}

// setAlarm arms ITIMER_REAL once: SIGALRM after d.
func setAlarm(d time.Duration) {
	type itimerval struct{ interval, value syscall.Timeval }
	v := itimerval{value: syscall.NsecToTimeval(d.Nanoseconds())}
	syscall.RawSyscall(syscall.SYS_SETITIMER, 0 /* ITIMER_REAL */, uintptr(unsafe.Pointer(&v)), 0)
}

func limitNOFILE() string {
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) != nil {
		return "unknown"
	}
	return strconv.FormatUint(rl.Cur, 10)
}
