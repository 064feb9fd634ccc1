// Command sentinel-hook is the PreToolUse (and PostToolUse) command hook
// Claude Code runs on every tool call.
//
//	sentinel-hook         PreToolUse: payload on stdin -> decision on stdout
//	sentinel-hook post    PostToolUse / PostToolUseFailure: records that the call ran
//
// It never fails open: whatever goes wrong (bad payload, config error, a
// register that cannot be written, a panic, anything that hangs) it still
// answers within its budget, with ask when a human is there and deny when
// nobody is (or that is not yet known), exits 0 and says why on stderr. Any
// other exit code, a crash or a timeout lets the call proceed in Claude Code.
//
// The work is package toolcall's; this is its main. What it may link (no
// network, no exec, no sigstore) is checked by its import-graph test and
// listed in docs/architecture.md, not here.
package main

import (
	"os"

	_ "github.com/sentinel-guard/sentinel/cmd/sentinel-hook/internal/oneproc" // GOMAXPROCS(1) before the other initialisers
	"github.com/sentinel-guard/sentinel/cmd/sentinel-hook/internal/started"
	"github.com/sentinel-guard/sentinel/toolcall"
)

func main() {
	if free := toolcall.FreeFDs(toolcall.PollerFDs); free < toolcall.PollerFDs {
		// Too few descriptors for the Go runtime's poller: answered without
		// opening anything (never exit 2, which would allow the call).
		toolcall.Scarce(free, len(os.Args) > 1 && os.Args[1] == "post", os.Getenv, os.Exit)
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == "post" {
		toolcall.Post(started.At, os.Stdin, os.Stderr, os.Getenv, os.Exit)
		os.Exit(0)
	}
	if len(os.Args) > 1 && (os.Args[1] == "-h" || os.Args[1] == "--help") && stdinIsTerminal() {
		// A person at a terminal asking for help. Claude Code never gives a
		// hook a terminal, so this cannot turn a tool call into an allow.
		os.Stdout.WriteString(usage)
		os.Exit(0)
	}
	if len(os.Args) > 1 {
		// An unknown argument is an installation mistake; judging the call
		// anyway is safer than exiting with a usage error (which would allow).
		os.Stderr.WriteString("sentinel-hook: unknown argument " + os.Args[1] + " (want none, or \"post\"); judging the call as PreToolUse\n")
	}
	toolcall.Pre(started.At, os.Stdin, os.Stdout, os.Stderr, os.Getenv, os.Exit)
	os.Exit(0)
}

const usage = `sentinel-hook: the PreToolUse (and PostToolUse) hook Claude Code runs on every tool call.

  sentinel-hook         read one PreToolUse payload on stdin; print nothing (no objection)
                        or one ask/deny JSON object; always exit 0
  sentinel-hook post    read one PostToolUse or PostToolUseFailure payload; record that
                        the call ran (and whether it failed)

Environment: SENTINEL_UNATTENDED=1|true|yes|on forces unattended (ask becomes deny);
SENTINEL_HOOK_BUDGET (default 2s, at most 3s) is the deadline after which the hook
answers fail-closed whatever it still waits on.

It is not meant to be run by hand: install it with 'sentinel install', check it
with 'sentinel doctor', try commands with 'sentinel check -- CMD'.
`

// stdinIsTerminal reports whether stdin is a character device (a person
// typing), never the case for a hook run by Claude Code.
func stdinIsTerminal() bool {
	fi, err := os.Stdin.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
