// Command sentinel is the operator's CLI: check and explain commands, install
// the hook, read and verify the register, seal it in Rekor, export bundles,
// replay rule changes, grade flags, publish the census.
package main

import (
	"errors"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/version"
)

// newRootCmd builds the whole command tree. Every command is made by its
// constructor here, in the order --help lists them; nothing registers
// itself from init, so a test can build a fresh tree per run.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "sentinel",
		Short: "A PreToolUse guard for AI coding agents, with a sealed register",
		Long: `sentinel judges every tool call an AI coding agent makes (Claude Code first),
answers allow, ask or deny, and appends each decision to a hash-chained
register that can be sealed in Sigstore Rekor and verified by anyone.

Start with:  sentinel demo
Then:        sentinel install --user

Exit codes are the same for every command (docs/cli.md): 0 ok, 1 the thing
checked does not hold, 3 usage, 4 could not do the work, 5 what the command
needs is not there yet (no register, no key, no such entry). With --json an
error is one JSON object on stdout: {"error": ..., "code": ..., "exit": ...}.`,
		Version:       version.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(
		newDemoCmd(),
		newCheckCmd(),
		newExplainCmd(),
		newRulesCmd(),
		newInstallCmd(),
		newUninstallCmd(),
		newDoctorCmd(),
		newLogCmd(),
		newGradeCmd(),
		newGradesCmd(),
		newOutcomesCmd(),
		newReplayCmd(),
		newGateCmd(), // cmd_gate.go
		newKeygenCmd(),
		newSealCmd(),
		newVerifyCmd(),
		newRegisterCmd(),
		newExportCmd(),
		newCensusCmd(),
		newProtocolCmd(),
		newVersionCmd(),
	)
	guardGroups(root)
	return root
}

// guardGroups gives every command that only groups subcommands a Run that
// rejects an unknown subcommand as a usage error (cobra would print the
// help and exit 0) and prints the help when none is given.
func guardGroups(c *cobra.Command) {
	for _, sub := range c.Commands() {
		guardGroups(sub)
	}
	if c.HasParent() && c.HasSubCommands() && !c.Runnable() {
		c.Args = cobra.ArbitraryArgs
		// Let `protocol foo --json` reach RunE, to be told foo is unknown.
		c.FParseErrWhitelist.UnknownFlags = true
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return failCode("unknown_command", "unknown command %q for %q\nRun '%s --help' for usage.", args[0], cmd.CommandPath(), cmd.CommandPath())
			}
			return cmd.Help()
		}
	}
}

// memoryLimit is the soft limit of the Go heap (GOMEMLIMIT overrides):
// with it the collector runs before a long read's garbage doubles the
// heap, so that peak memory tracks what is live (docs/cli.md, "Scale").
// It is soft: a command that needs more gets more, at some CPU.
const memoryLimit = 40 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the CLI and returns the exit status; every error of every
// command is reported here, the one way (errors.go).
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd()
	out := &countingWriter{w: stdout}
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	var ee *exitErr
	if err != nil && !errors.As(err, &ee) && cmd == root && strings.HasPrefix(err.Error(), "unknown command") {
		// cobra's words for a stray argument of a leaf command are the
		// same; only the root's is an unknown command.
		err = failCode("unknown_command", "%v\nRun 'sentinel --help' for usage.", err)
	}
	return report(err, wantsJSON(cmd, args), out.n > 0, stdout, stderr)
}

// wantsJSON reports whether the command ran (or failed to parse) with
// --json, so that its error is printed as JSON too.
func wantsJSON(cmd *cobra.Command, args []string) bool {
	if cmd != nil {
		if f := cmd.Flags().Lookup("json"); f != nil && f.Changed {
			return f.Value.String() == "true"
		}
	}
	// A parse error leaves the flag unset: look at the words.
	return slices.Contains(args, "--json") || slices.Contains(args, "--json=true")
}
