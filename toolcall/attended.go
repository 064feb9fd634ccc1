package toolcall

import (
	"fmt"
	"strings"
)

// Attendance is whether a human can answer a prompt for this call, and
// which signal said so.
type Attendance struct {
	Unattended bool
	// Why names the signal that made it unattended ("" when attended).
	Why string
	// Problems are signals that could not be read (an unknown
	// SENTINEL_UNATTENDED value); each also made the call unattended.
	Problems []string
}

// attendance reads the environment's signals. Any one signal of nobody
// being there wins over the others (an ask with nobody to answer is a stop
// nobody sees, and Claude Code may even let it through, claude-code.md
// section 4, #79449):
//   - SENTINEL_UNATTENDED, the operator's switch, 1/true/yes/on or
//     0/false/no/off in any case; 0 does not override Claude Code's own
//     signals (it cannot make a headless run attended);
//   - CLAUDE_CODE_SESSION_ATTENDED=0 (Claude Code sets 0 in -p runs, 1
//     interactively);
//   - CLAUDE_CODE_ENTRYPOINT=sdk-cli (-p) or any other sdk-* entry point
//     (a program drives the session; interactive is "cli").
//
// A value that cannot be read is a problem and counts as unattended: an
// unknown value may mean "nobody is there", and deny is the answer that
// cannot let a call through unseen.
func attendance(getenv func(string) string) Attendance {
	var a Attendance
	set := func(why string) {
		if !a.Unattended {
			a.Unattended, a.Why = true, why
		}
	}
	// A switch: unattended when its value is want; an unknown value is a
	// problem, and unattended.
	flag := func(name string, want bool, note string) {
		v := getenv(name)
		if v == "" {
			return
		}
		on, ok := truthy(v)
		if !ok {
			a.Problems = append(a.Problems, fmt.Sprintf("%s=%q is not one of 1/true/yes/on or 0/false/no/off; judging as unattended", name, v))
			set(name + "=" + v + " (unknown value)")
		} else if on == want {
			set(name + "=" + v + note)
		}
	}
	flag("SENTINEL_UNATTENDED", true, "")
	flag("CLAUDE_CODE_SESSION_ATTENDED", false, " (headless run)")
	if v := getenv("CLAUDE_CODE_ENTRYPOINT"); strings.HasPrefix(v, "sdk-") {
		set("CLAUDE_CODE_ENTRYPOINT=" + v + " (headless run)")
	}
	return a
}

// truthy reads a switch: 1/true/yes/on and 0/false/no/off, in any case,
// surrounding blanks ignored. ok is false for anything else.
func truthy(v string) (on, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true, true
	case "0", "false", "no", "off":
		return false, true
	}
	return false, false
}

// unattendedMode reports permission modes in which no human is asked:
// bypassPermissions and dontAsk.
func unattendedMode(mode string) bool {
	return mode == "bypassPermissions" || mode == "dontAsk"
}
