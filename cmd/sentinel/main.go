// Command sentinel is the operator's CLI: check and explain commands, install
// the hook, read and verify the register, seal it in Rekor, export bundles,
// replay rule changes, grade flags, publish the census.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/version"
)

// Exit codes shared by the commands. A command may document its own codes
// (check: 0 allow, 1 ask, 2 deny); these are the defaults.
const (
	exitOK      = 0
	exitFailure = 1 // the thing checked does not hold (verification failed, ...)
	exitUsage   = 3 // bad flags or arguments
	exitError   = 4 // could not do the work (I/O, unreachable service, ...)
)

// exitError carries an exit code out of a command. Its message, if any, is
// printed to stderr as "sentinel: MSG".
type exitErr struct {
	code int
	msg  string
}

func (e *exitErr) Error() string { return e.msg }

// fail returns an error that makes sentinel exit with code, printing msg.
func fail(code int, format string, args ...any) error {
	return &exitErr{code: code, msg: fmt.Sprintf(format, args...)}
}

// exitCode returns an error that only sets the exit code (the command has
// already printed what it had to say).
func exitCode(code int) error { return &exitErr{code: code} }

var root = &cobra.Command{
	Use:   "sentinel",
	Short: "A PreToolUse guard for AI coding agents, with a sealed register",
	Long: `sentinel judges every tool call an AI coding agent makes (Claude Code first),
answers allow, ask or deny, and appends each decision to a hash-chained
register that can be sealed in Sigstore Rekor and verified by anyone.

Start with:  sentinel demo
Then:        sentinel install --user`,
	Version:       version.Version,
	SilenceUsage:  true,
	SilenceErrors: true,
}

func main() {
	os.Exit(run(os.Args[1:]))
}

// run executes the CLI and returns the exit code; tests call it through
// testscript.
func run(args []string) int {
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitErr
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(os.Stderr, "sentinel:", ee.msg)
		}
		return ee.code
	}
	// cobra's own errors are usage errors (unknown flag, wrong arguments).
	fmt.Fprintln(os.Stderr, "sentinel:", err)
	fmt.Fprintln(os.Stderr, "Run 'sentinel --help' for usage.")
	return exitUsage
}
