package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

// Check statuses.
const (
	doctorOK   = "ok"
	doctorWarn = "warn"
	doctorFail = "fail"
)

// doctorCheck is one finding of doctor.
type doctorCheck struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

type doctorReport struct {
	OK     bool          `json:"ok"` // no check failed (warnings allowed)
	Checks []doctorCheck `json:"checks"`
}

func (r *doctorReport) add(name, status, msg, fix string) {
	r.Checks = append(r.Checks, doctorCheck{Name: name, Status: status, Message: msg, Fix: fix})
}

// applicableSettings lists the settings files that apply to a session in
// projectDir, most general first, without duplicates.
func applicableSettings(project string) []settingsFile {
	var fs []settingsFile
	seen := map[string]bool{}
	addf := func(scope, p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			fs = append(fs, settingsFile{Scope: scope, Path: p})
		}
	}
	addf("managed", filepath.Join(managedDir(), "managed-settings.json"))
	// Drop-ins, merged after the file in name order (install_managed.go).
	dropins, _ := filepath.Glob(filepath.Join(managedDir(), "managed-settings.d", "*.json"))
	for _, d := range dropins {
		addf("managed", d)
	}
	if p, err := userSettingsPath(); err == nil {
		addf("user", p)
	}
	if project != "" {
		addf("project", filepath.Join(project, ".claude", "settings.json"))
		addf("local", filepath.Join(project, ".claude", "settings.local.json"))
	}
	return fs
}

// loadedSettings is a settings file that exists and parses.
type loadedSettings struct {
	settingsFile
	obj *jobject
}

// runDoctor runs the checks. codexOnly (--codex) leaves Claude Code's
// settings out and requires Codex; otherwise Codex is checked when its home
// exists.
func runDoctor(project string, codexOnly bool, codexBin string) *doctorReport {
	rep := &doctorReport{}
	if !codexOnly {
		runDoctorClaude(rep, project)
	}
	checkCodex(rep, codexOnly, codexBin) // doctor_codex.go
	checkConfig(rep, project)
	checkHookFiles(rep, project) // doctor_files.go
	checkRegister(rep)
	checkRegisterIntegrity(rep) // doctor_register.go
	checkGate(rep)              // doctor_gate.go
	checkUnguarded(rep)         // doctor_register_unguarded.go
	rep.OK = true
	for _, c := range rep.Checks {
		if c.Status == doctorFail {
			rep.OK = false
		}
	}
	return rep
}

// runDoctorClaude checks Claude Code's settings and hooks.
func runDoctorClaude(rep *doctorReport, project string) {
	var files []loadedSettings
	for _, f := range applicableSettings(project) {
		o, exists, err := readSettings(f.Path)
		switch {
		case err != nil:
			rep.add("settings", doctorFail, fmt.Sprintf("%s settings: %v", f.Scope, err),
				"fix the JSON by hand; Claude Code ignores a file it cannot parse, hooks included")
		case exists:
			files = append(files, loadedSettings{f, o})
			rep.add("settings", doctorOK, fmt.Sprintf("%s settings %s parses", f.Scope, f.Path), "")
		}
	}
	checkHook(rep, files, preHook, doctorFail)
	checkHook(rep, files, postHook, doctorWarn)
	checkPostFailure(rep, files)
	checkHookRuns(rep, files)
	checkWeakening(rep, files)
	checkSandbox(rep, files, project) // doctor_sandbox.go
}

// checkHook looks for h, registered for every tool, in any applicable file,
// and for its binary. missing is the status when it is not registered.
func checkHook(rep *doctorReport, files []loadedSettings, h ourHook, missing string) {
	name := "hook " + h.Event
	found := false
	for _, f := range files {
		for _, c := range commandHooks(f.obj, h.Event) {
			if !h.recognises(c.Command, "") {
				continue
			}
			where := fmt.Sprintf("%s settings %s", f.Scope, f.Path)
			if !matchesEveryTool(c.Group.Matcher) {
				rep.add(name, doctorFail, fmt.Sprintf("%s: sentinel-hook runs only for tools matching %q", where, c.Group.Matcher),
					fmt.Sprintf("set \"matcher\": \"*\" there, or run: sentinel install --%s", installScope(f.Scope)))
				continue
			}
			exe := hookExecutable(c.Command)
			if exe == "" {
				exe = commandWords(splitGuard(c.Command))[0] + " (not on PATH)"
			}
			if !isExecutable(exe) {
				rep.add(name, doctorFail, fmt.Sprintf("%s: %s is not an executable file: every call runs unguarded", where, exe),
					fmt.Sprintf("build it (make build) and run: sentinel install --%s", installScope(f.Scope)))
				continue
			}
			found = true
			rep.add(name, doctorOK, fmt.Sprintf("%s: %s for every tool (timeout %s)", where, c.Command, timeoutText(c.Timeout, "default 600")), "")
		}
	}
	if !found {
		what := map[string]string{
			"PostToolUse":        "the register will not record which allowed calls ran",
			"PostToolUseFailure": "a call that ran and failed is recorded as not run (and a denied call that ran anyway and failed as held)",
		}[h.Event]
		if what == "" {
			what = "no tool call is judged"
		}
		rep.add(name, missing, fmt.Sprintf("sentinel-hook is not registered as a %s hook for every tool: %s", h.Event, what),
			"sentinel install --user")
	}
}

func installScope(scope string) string {
	if scope == "project" || scope == "local" {
		return "project"
	}
	return "user"
}

func timeoutText(s, d string) string {
	if s == "" {
		return d
	}
	return s + " s"
}

// checkWeakening reports settings that switch oversight off or make every
// call unattended.
func checkWeakening(rep *doctorReport, files []loadedSettings) {
	for _, f := range files {
		if v, _ := f.obj.get("disableAllHooks"); v == true && f.Scope != "managed" && managedHooked(files) {
			rep.add("disableAllHooks", doctorWarn,
				fmt.Sprintf("%s settings %s sets disableAllHooks: true; sentinel's managed hooks run regardless, every other hook is off", f.Scope, f.Path),
				"remove \"disableAllHooks\" from that file")
		} else if v == true {
			rep.add("disableAllHooks", doctorFail,
				fmt.Sprintf("%s settings %s sets disableAllHooks: true; no hook runs, sentinel included", f.Scope, f.Path),
				"remove \"disableAllHooks\" from that file")
		}
		pv, _ := f.obj.get("permissions")
		if p, ok := pv.(*jobject); ok {
			if m, _ := p.get("defaultMode"); m == "bypassPermissions" {
				rep.add("defaultMode", doctorWarn,
					fmt.Sprintf("%s settings %s sets permissions.defaultMode bypassPermissions: every session is unattended, so sentinel's asks become denies", f.Scope, f.Path),
					"use \"default\" or \"acceptEdits\" where a human is at the keyboard")
			}
		}
	}
}

// checkConfig loads the operator and project configuration.
func checkConfig(rep *doctorReport, project string) {
	dir, err := paths.ConfigDir()
	if err != nil {
		rep.add("config", doctorFail, err.Error(), "set HOME or XDG_CONFIG_HOME")
		return
	}
	cfg, err := judge.LoadConfig(dir, project)
	if err != nil {
		rep.add("config", doctorFail, err.Error()+": every call becomes an error decision (ask, or deny unattended)",
			"fix the file named in the message")
		return
	}
	ws := cfg.Warnings()
	for _, w := range ws {
		rep.add("config", doctorWarn, w, "remove the entry from the project's "+judge.ProjectConfigFile+" (only the operator's own config may loosen rules)")
	}
	if len(ws) == 0 {
		rep.add("config", doctorOK, fmt.Sprintf("configuration loads (catalog %s, hash %.12s)", judge.CatalogVersion, judge.CatalogHashFor(cfg)), "")
	}
}

// checkRegister opens, test-locks and verifies the register without
// writing an entry: the append check takes the write lock (BEGIN
// IMMEDIATE) and rolls back, which proves the file is writable and not
// held by another process.
func checkRegister(rep *doctorReport) {
	path, err := paths.RegisterPath()
	if err != nil {
		rep.add("register", doctorFail, err.Error(), "set SENTINEL_HOME or HOME")
		return
	}
	dir := filepath.Dir(path)
	if n, err := register.PendingJournal(dir); err != nil {
		rep.add("journal", doctorFail, fmt.Sprintf("cannot read the fallback journal in %s: %v", dir, err), "check the directory's permissions")
	} else if n > 0 {
		rep.add("journal", doctorWarn, fmt.Sprintf("%d decisions wait in the fallback journal %s", n, filepath.Join(dir, register.JournalFile)),
			"they are merged into the register on the next hook call; if they stay, see the register check")
	}
	if _, err := os.Stat(path); err != nil {
		// No register yet: "the first call creates it" only if it can
		// (doctor_register_dir.go); an existing one gets a real write probe.
		if err := registerDirWritable(path); err != nil {
			rep.add("register dir", doctorFail, fmt.Sprintf("the hook cannot create the register: %v; no decision can be recorded (each goes to the journal, if it can, or becomes ask/deny)", err),
				"make the directory writable by the user Claude Code runs as, or set SENTINEL_HOME to a writable directory")
			return
		}
		if errors.Is(err, os.ErrNotExist) {
			rep.add("register", doctorWarn, fmt.Sprintf("no register yet at %s: no tool call has reached the hook (its directory is writable, so the first one creates it)", path), "make one tool call in Claude Code; sentinel demo does not create it (it uses a temporary register of its own)")
			return
		}
	}
	reg, err := register.Open(path)
	if err != nil {
		rep.add("register", doctorFail, fmt.Sprintf("cannot open the register for appending: %v; decisions go to the fallback journal or become ask/deny", err),
			registerFix(err))
		return
	}
	defer reg.Close()
	for _, w := range reg.Warnings() {
		rep.add("register", doctorWarn, w, fmt.Sprintf("chmod 700 %s && chmod 600 %s", dir, path))
	}
	if tx, err := reg.DB().Begin(); err != nil {
		rep.add("register append", doctorFail, fmt.Sprintf("cannot take the register's write lock: %v", err),
			"find the process holding it (fuser "+path+") or check permissions")
	} else {
		tx.Rollback()
		rep.add("register append", doctorOK, "the register takes the write lock (test rolled back, nothing written)", "")
	}
	checkChain(rep, reg, path) // doctor_chain.go
}

func printDoctor(w io.Writer, rep *doctorReport) {
	for _, c := range rep.Checks {
		fmt.Fprintf(w, "%-4s  %-16s %s\n", strings.ToUpper(c.Status), c.Name, c.Message)
		if c.Fix != "" && c.Status != doctorOK {
			fmt.Fprintf(w, "      %-16s fix: %s\n", "", c.Fix)
		}
	}
	warns := 0
	for _, c := range rep.Checks {
		if c.Status == doctorWarn {
			warns++
		}
	}
	switch {
	case rep.OK && warns == 0:
		fmt.Fprintln(w, "doctor: all checks hold")
	case rep.OK:
		// A WARN is not a hold: the last line must not say every check held.
		fmt.Fprintf(w, "doctor: no check fails; %d warning(s) above (WARN, see fix:)\n", warns)
	default:
		fmt.Fprintln(w, "doctor: some checks FAIL (see fix:)")
	}
}

func newDoctorCmd() *cobra.Command {
	var asJSON, codexOnly bool
	var codexBin string
	cmd := &cobra.Command{
		Use:   "doctor [--json] [--codex]",
		Short: "Check that sentinel guards every tool call and its register holds",
		Long: `doctor checks the installation as Claude Code will see it:

  - the settings files that apply (managed, user, project, local) parse;
  - sentinel-hook is registered as a PreToolUse hook for every tool (fail if
    not), and as a PostToolUse and a PostToolUseFailure hook (warn if
    neither; fail if PostToolUse is there without PostToolUseFailure: a call
    that ran and failed would look not run, a breach that failed would look
    held), and the binary is there and executable;
  - the installed PreToolUse command, run the way Claude Code runs it
    (/bin/sh -c COMMAND, a known dangerous call on stdin, at most its
    timeout or 10 s, with a throwaway state directory), answers a JSON deny
    with the sentinel's marker and registers it: a look-alike script named
    sentinel-hook fails;
  - nothing weakens oversight: disableAllHooks (fail), a bypassPermissions
    default mode (warn: every session unattended, asks become denies), a
    project .sentinel.toml trying to loosen the rules (warn: ignored);
  - before the first call, the register's directory can be written by this
    user (tried: a file created and removed; a directory it cannot write is
    a failure, not "the first call creates it"); the register opens, takes its write lock (rolled back: doctor
    never writes an entry) and its chain verifies; the fallback journal is
    empty;
  - every tool call in the Claude Code transcripts since the register began
    has a decision in the register or the journal (fail otherwise, naming
    each session and when: it ran without the hook).

When Codex's home exists ($CODEX_HOME, else ~/.codex), or with --codex
(which leaves Claude Code's settings out), it checks Codex too: hooks.json
and config.toml parse; sentinel-hook is a PreToolUse (fail) and PostToolUse
(warn) hook with matcher "*", an executable binary and a timeout; its
[hooks.state] trusted_hash equals the hash of the handler as it is now
(missing or stale: Codex skips it silently; a trust entry with the same
hash under another path: CODEX_HOME moved); no enabled = false there; no
[features] hooks = false in config.toml or in a trusted project's
.codex/config.toml; the installed command, run through /bin/sh -c on a
Codex-shaped payload, blocks the way Codex needs (exit 0 with a deny and
a reason, or exit 2 with stderr; ask, allow, a bare deny or silence fail)
and registers it; and, with a Codex binary (--codex-bin,
$SENTINEL_CODEX_BIN, codex on PATH), Codex's own hooks/list says trusted
and enabled. Flags given to one Codex run (--disable hooks,
--ignore-user-config, --dangerously-bypass-hook-trust) are in no file:
doctor says it cannot see them.

Each finding has a status (ok, warn, fail) and, unless ok, a fix. The
project is $CLAUDE_PROJECT_DIR, else the current directory.

Exit codes: 0 no check failed (warnings allowed), 1 a check failed.`,
		Example: `  sentinel doctor
  sentinel doctor --json | jq '.checks[] | select(.status != "ok")'
  sentinel doctor --codex`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			project, err := claudeProjectDir()
			if err != nil {
				project = ""
			}
			chainProgress = func(r *register.Register) func() {
				return registerProgress(cmd, r, "verifying the chain", asJSON, false)
			}
			rep := runDoctor(project, codexOnly, codexBin)
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				enc.Encode(rep)
			} else {
				printDoctor(cmd.OutOrStdout(), rep)
			}
			if !rep.OK {
				return exitCode(exitFailure)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the checks as JSON")
	cmd.Flags().BoolVar(&codexOnly, "codex", false, "check Codex only (required there), not Claude Code's settings")
	cmd.Flags().StringVar(&codexBin, "codex-bin", "", "the Codex binary asked to confirm the hook is trusted (default $SENTINEL_CODEX_BIN, else codex on PATH)")
	return cmd
}
