package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/sentinel-guard/sentinel/register"
)

// The exit codes, one table for every command (docs/cli.md prints it; a
// test keeps the two equal). check alone gives 1 and 2 their own meaning
// (ask, deny) because a script branches on its verdict.
const (
	exitOK      = 0
	exitFailure = 1 // the thing checked does not hold (verification failed, a breach, a lost must-keep)
	exitUsage   = 3 // bad flags or arguments, unknown subcommand
	exitError   = 4 // could not do the work (I/O, unreachable service, bad key, ...)
	exitMissing = 5 // what the command needs is not there yet (no register, no signing key, no such entry)
	// exitNotPinned: what was checked holds, but only against the operator
	// key the bundle carries; the reader pinned none, so it proves only that
	// someone sealed it.
	exitNotPinned = 6
)

// errorCode is one stable error code: scripts read `.code` under --json,
// or the exit status.
type errorCode struct {
	Code    string
	Exit    int
	Meaning string
}

// errorCodes is the whole table; every error sentinel reports has one of
// these codes. The generic code of an exit status comes first.
var errorCodes = []errorCode{
	{"failed", exitFailure, "the thing checked does not hold: verification failed, a doctor check failed, a prediction missed"},
	{"breach", exitFailure, "a denied call ran anyway (outcomes)"},
	{"gate_failed", exitFailure, "a must-keep entry is no longer denied (replay)"},
	{"usage", exitUsage, "bad flags or arguments"},
	{"unknown_command", exitUsage, "no such command or subcommand"},
	{"not_a_flag", exitUsage, "the entry named is not a deny or ask (grade, protocol keep)"},
	{"register_refused", exitFailure, "a register file (register.db, -wal, -shm) is a FIFO, device, directory or symlink: the record does not hold"},
	{"error", exitError, "could not do the work: I/O, a bad file, an unreachable service"},
	{"descriptors", exitError, "the process ran out of file descriptors (ulimit -n): the register is not known to be damaged, do not reset it"},
	{"no_register", exitMissing, "there is no register yet (no tool call recorded): every command that reads it"},
	{"no_key", exitMissing, "there is no signing key or operator public key (run sentinel keygen, or pass the key)"},
	{"no_entry", exitMissing, "the register has no entry with that sequence number"},
	{"not_pinned", exitNotPinned, "a bundle held only against its own operator key: pass --operator-fingerprint or --operator-key (verify, protocol check, census over a fleet)"},
}

// genericCode is the code of an error that names only its exit status.
func genericCode(exit int) string {
	for _, c := range errorCodes {
		if c.Exit == exit {
			return c.Code
		}
	}
	return "error"
}

func codeExit(code string) int {
	for _, c := range errorCodes {
		if c.Code == code {
			return c.Exit
		}
	}
	panic("sentinel: unknown error code " + code)
}

// exitErr carries an exit code and a stable error code out of a command.
// Its message, if any, is printed as "sentinel: MSG" on stderr, and under
// --json as one JSON object on stdout (unless the command already wrote
// its report there).
type exitErr struct {
	exit int
	code string
	msg  string
}

func (e *exitErr) Error() string { return e.msg }

// fail returns an error that makes sentinel exit with exit, printing msg;
// its code is the exit status's generic one.
func fail(exit int, format string, args ...any) error {
	return &exitErr{exit: exit, code: genericCode(exit), msg: fmt.Sprintf(format, args...)}
}

// failCode is fail with a specific code from errorCodes.
func failCode(code string, format string, args ...any) error {
	return &exitErr{exit: codeExit(code), code: code, msg: fmt.Sprintf(format, args...)}
}

// exitCode returns an error that only sets the exit status (the command
// has already printed what it had to say).
func exitCode(exit int) error { return &exitErr{exit: exit, code: genericCode(exit)} }

// registerError turns a failure to open the register into the command's
// error: a missing register is no_register for every command.
func registerError(path string, err error) error {
	if errors.Is(err, register.ErrNotExist) {
		return failCode("no_register", "no register at %s yet: no tool call has reached the hook (the first one creates it; sentinel doctor says whether the hook is installed)", path)
	}
	if errors.Is(err, register.ErrVanished) {
		// The register this machine had is gone or empty: that is a finding
		// (the register does not hold), not an I/O failure.
		return fail(exitFailure, "%v", err)
	}
	if errors.Is(err, register.ErrRefused) {
		return failCode("register_refused", "%v", err)
	}
	if errors.Is(err, register.ErrDescriptors) {
		return failCode("descriptors", "%v", err)
	}
	return fail(exitError, "%v", err)
}

// badFlagValue is pflag's message for a value its type cannot parse:
// `invalid argument "abc" for "-n, --n" flag: strconv.ParseInt: parsing "abc": invalid syntax`.
var badFlagValue = regexp.MustCompile(`^invalid argument (".*") for "(?:-\w, )?(--?[\w-]+)" flag: strconv\.Parse(Int|Uint|Float|Bool)\b.*$`)

// plainFlagError says what a flag wants instead of Go's parse error.
func plainFlagError(msg string) string {
	m := badFlagValue.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	want := map[string]string{"Int": "a whole number", "Uint": "a whole number, 0 or more", "Float": "a number", "Bool": "true or false"}[m[3]]
	name := m[2]
	if strings.HasPrefix(name, "--") && len(name) == 3 {
		name = name[1:] // -n, not --n
	}
	return fmt.Sprintf("%s %s: want %s", name, m[1], want)
}

// jsonError is what an error looks like under --json.
type jsonError struct {
	Error string `json:"error"`
	Code  string `json:"code"`
	Exit  int    `json:"exit"`
}

// report prints err the one shared way and returns the exit status.
// wroteOut says whether the command already wrote to stdout: then under
// --json the document there is the command's report and the error goes to
// stderr only, so that stdout stays one JSON value.
func report(err error, asJSON, wroteOut bool, stdout, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ee *exitErr
	if !errors.As(err, &ee) {
		// cobra's own errors: unknown flag or command, wrong arguments.
		ee = &exitErr{exit: exitUsage, code: "usage", msg: plainFlagError(err.Error()) + "\nRun 'sentinel --help' for usage."}
	}
	if ee.msg == "" {
		return ee.exit
	}
	fmt.Fprintln(stderr, "sentinel:", ee.msg)
	if asJSON && !wroteOut {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.Encode(jsonError{Error: strings.SplitN(ee.msg, "\nRun 'sentinel", 2)[0], Code: ee.code, Exit: ee.exit})
	}
	return ee.exit
}

// countingWriter tells report whether a command wrote to stdout.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
