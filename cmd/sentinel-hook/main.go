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
	if len(os.Args) > 1 {
		// An unknown argument is an installation mistake; judging the call
		// anyway is safer than exiting with a usage error (which would allow).
		os.Stderr.WriteString("sentinel-hook: unknown argument " + os.Args[1] + " (want none, or \"post\"); judging the call as PreToolUse\n")
	}
	runPre(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	os.Exit(0)
}
