// Command sentinel-hook is the PreToolUse (and PostToolUse) command hook
// Claude Code runs on every tool call.
//
//	sentinel-hook         PreToolUse: payload on stdin -> decision on stdout
//	sentinel-hook post    PostToolUse: records that the call ran; never blocks
//
// It never fails open: whatever goes wrong (bad payload, config error, a
// register that cannot be written, a panic) it still answers, with ask when
// a human is there and deny when nobody is, exits 0 and says why on stderr.
// It exits 0 in every case because any other code (1, a crash) lets the call
// proceed in Claude Code.
//
// It links only parse, hook and register: no network, no exec, no sigstore.
package main

import (
	"os"

	_ "github.com/sentinel-guard/sentinel/cmd/sentinel-hook/internal/oneproc" // GOMAXPROCS(1) before the other initialisers
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "post" {
		runPost(os.Stdin, os.Stderr)
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
	runPre(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	os.Exit(0)
}

const usage = `sentinel-hook: the PreToolUse (and PostToolUse) hook Claude Code runs on every tool call.

  sentinel-hook         read one PreToolUse payload on stdin; print nothing (no objection)
                        or one ask/deny JSON object; always exit 0
  sentinel-hook post    read one PostToolUse payload; record that the call ran

It is not meant to be run by hand: install it with 'sentinel install', check it
with 'sentinel doctor', try commands with 'sentinel check -- CMD'.
`

// stdinIsTerminal reports whether stdin is a character device (a person
// typing), never the case for a hook run by Claude Code.
func stdinIsTerminal() bool {
	fi, err := os.Stdin.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
