package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/toolcall"
)

// ourHook describes one hook sentinel installs and how to recognise it
// again (by the program's base name and arguments, whatever its directory).
type ourHook struct {
	Event   string
	Matcher string // "" = no matcher key (SessionEnd)
	Program string // base name of the executable
	Args    []string
}

var (
	preHook  = ourHook{Event: "PreToolUse", Matcher: "*", Program: "sentinel-hook"}
	postHook = ourHook{Event: "PostToolUse", Matcher: "*", Program: "sentinel-hook", Args: []string{"post"}}
	// Claude Code fires PostToolUseFailure instead of PostToolUse when a
	// call ran and failed: without it "ran and failed" looks like "not run",
	// and a denied call that ran anyway and failed looks held.
	postFailureHook = ourHook{Event: "PostToolUseFailure", Matcher: "*", Program: "sentinel-hook", Args: []string{"post"}}
	sessionEndHook  = ourHook{Event: "SessionEnd", Program: "sentinel", Args: []string{"seal", "--if-due"}}
	allOurHooks     = []ourHook{preHook, postHook, postFailureHook, sessionEndHook}
)

// portableGuard is put before a hook program named without a directory
// (install --project: the file is committed, so it must not name this
// machine's path). Claude Code runs hooks through /bin/sh -c, so the name is
// looked up on each machine's PATH; where it is missing, the guard blocks
// the call (exit 2, the reason on stderr) instead of letting a session run
// unguarded because sh exited 127.
const portableGuard = `command -v %[1]s >/dev/null 2>&1 || { echo "%[1]s is not on PATH: install it (go install github.com/sentinel-guard/sentinel/cmd/...@latest) or remove it from .claude/settings.json" >&2; exit 2; }; exec `

// splitGuard returns a hook command without the portable guard.
func splitGuard(command string) string {
	if i := strings.Index(command, "; exec "); i >= 0 && strings.HasPrefix(command, "command -v ") {
		return command[i+len("; exec "):]
	}
	return command
}

// hookExecutable is the file a hook command runs: its first word, looked up
// on PATH when it has no directory (portable installs). "" if not found.
func hookExecutable(command string) string {
	w := commandWords(splitGuard(command))
	if len(w) == 0 {
		return ""
	}
	if !strings.Contains(w[0], "/") {
		p, err := exec.LookPath(w[0])
		if err != nil {
			return ""
		}
		return p
	}
	return w[0]
}

// recognises reports whether a hook command is this hook: its program is
// named like ours or is exe (an install with --hook-path may name it
// otherwise), with our arguments.
func (h ourHook) recognises(command, exe string) bool {
	w := commandWords(splitGuard(command))
	return len(w) > 0 && (filepath.Base(w[0]) == h.Program || exe != "" && w[0] == exe) && slices.Equal(w[1:], h.Args)
}

// command is the hook command for exe: an absolute path as is, a bare
// program name (install --project) behind the portable guard if it judges
// calls (a missing seal on SessionEnd blocks nothing).
func (h ourHook) command(exe string) string {
	c := shellQuote(exe)
	for _, a := range h.Args {
		c += " " + a
	}
	if !strings.Contains(exe, "/") && h.Program == "sentinel-hook" {
		c = fmt.Sprintf(portableGuard, exe) + c
	}
	return c
}

// group is the matcher group to add for this hook.
func (h ourHook) group(exe string, timeout int) *jobject {
	hk := newObject()
	hk.set("type", "command")
	hk.set("command", h.command(exe))
	hk.set("timeout", json.Number(strconv.Itoa(timeout)))
	g := newObject()
	if h.Matcher != "" {
		g.set("matcher", h.Matcher)
	}
	g.set("hooks", []any{hk})
	return g
}

// settingsCompact renders a value on one line for the change summary.
func settingsCompact(v any) string {
	var b bytes.Buffer
	json.Compact(&b, encodeSettings(v))
	return b.String()
}

// eventGroups returns the hooks object and an event's group list, creating
// neither.
func eventGroups(o *jobject, event string) (*jobject, []any) {
	hv, _ := o.get("hooks")
	hooks, _ := hv.(*jobject)
	if hooks == nil {
		return nil, nil
	}
	ev, _ := hooks.get(event)
	groups, _ := ev.([]any)
	return hooks, groups
}

// removeHook deletes every hook h recognises from o and returns one summary
// line per removal. Groups left empty, and events and "hooks" left empty,
// are removed too.
func removeHook(o *jobject, h ourHook, exe string) []string {
	hooks, groups := eventGroups(o, h.Event)
	if groups == nil {
		return nil
	}
	var changes []string
	kept := []any{}
	for _, g := range groups {
		gobj, ok := g.(*jobject)
		if !ok {
			kept = append(kept, g)
			continue
		}
		hl, _ := gobj.get("hooks")
		list, ok := hl.([]any)
		if !ok {
			kept = append(kept, g)
			continue
		}
		left := []any{}
		for _, e := range list {
			if eobj, ok := e.(*jobject); ok {
				c, _ := eobj.get("command")
				if cs, _ := c.(string); eobj.vals["type"] == "command" && h.recognises(cs, exe) {
					changes = append(changes, fmt.Sprintf("- hooks.%s: %s", h.Event, settingsCompact(eobj)))
					continue
				}
			}
			left = append(left, e)
		}
		if len(left) == 0 && len(list) > 0 {
			continue // the group held only sentinel's hook
		}
		gobj.set("hooks", left)
		kept = append(kept, gobj)
	}
	if len(changes) == 0 {
		return nil
	}
	if len(kept) == 0 {
		hooks.del(h.Event)
		if len(hooks.keys) == 0 {
			o.del("hooks")
		}
	} else {
		hooks.set(h.Event, kept)
	}
	return changes
}

// installed reports whether o holds exactly one hook h recognises, with
// this command and timeout, in a group covering every tool.
func installed(o *jobject, h ourHook, exe string, timeout int) bool {
	n, exact := 0, false
	for _, c := range commandHooks(o, h.Event) {
		if !h.recognises(c.Command, exe) {
			continue
		}
		n++
		if c.Command == h.command(exe) && c.Timeout == strconv.Itoa(timeout) &&
			(h.Matcher == "" || matchesEveryTool(c.Group.Matcher)) {
			exact = true
		}
	}
	return n == 1 && exact
}

// addHook installs h (replacing any older form of it) unless it is already
// there exactly; it returns the summary lines.
func addHook(o *jobject, h ourHook, exe string, timeout int) []string {
	if installed(o, h, exe, timeout) {
		return nil
	}
	changes := removeHook(o, h, exe)
	hv, _ := o.get("hooks")
	hooks, ok := hv.(*jobject)
	if !ok {
		hooks = newObject()
		o.set("hooks", hooks)
	}
	ev, _ := hooks.get(h.Event)
	groups, _ := ev.([]any)
	g := h.group(exe, timeout)
	hooks.set(h.Event, append(groups, g))
	return append(changes, fmt.Sprintf("+ hooks.%s: %s", h.Event, settingsCompact(g)))
}

// checkHooksShape refuses a settings file whose "hooks" is not what Claude
// Code expects, rather than overwrite what the operator wrote there.
func checkHooksShape(path string, o *jobject) error {
	hv, ok := o.get("hooks")
	if !ok {
		return nil
	}
	hooks, ok := hv.(*jobject)
	if !ok {
		return fail(exitError, "%s: \"hooks\" is not a JSON object; not touching it", path)
	}
	for _, h := range allOurHooks {
		if ev, ok := hooks.get(h.Event); ok {
			if _, ok := ev.([]any); !ok {
				return fail(exitError, "%s: \"hooks.%s\" is not a JSON array; not touching it", path, h.Event)
			}
		}
	}
	return nil
}

// settingsTarget resolves --user / --project to a file.
func settingsTarget(user, project bool) (settingsFile, error) {
	if user && project {
		return settingsFile{}, fail(exitUsage, "--user and --project exclude each other")
	}
	if project {
		d, err := claudeProjectDir()
		if err != nil {
			return settingsFile{}, fail(exitError, "cannot find the project directory: %v", err)
		}
		return settingsFile{Scope: "project", Path: filepath.Join(d, ".claude", "settings.json")}, nil
	}
	p, err := userSettingsPath()
	if err != nil {
		return settingsFile{}, fail(exitError, "%v", err)
	}
	return settingsFile{Scope: "user", Path: p}, nil
}

// findHookBinary locates sentinel-hook: the flag, else beside this
// executable, else on PATH. The result is absolute and executable.
func findHookBinary(flag string) (string, error) {
	p := flag
	if p == "" {
		if exe, err := os.Executable(); err == nil {
			cand := filepath.Join(filepath.Dir(exe), "sentinel-hook")
			if isExecutable(cand) {
				p = cand
			}
		}
	}
	if p == "" {
		if lp, err := exec.LookPath("sentinel-hook"); err == nil {
			p = lp
		}
	}
	if p == "" {
		return "", fail(exitError, "cannot find sentinel-hook beside sentinel or on PATH; build it (make build) or pass --hook-path")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fail(exitError, "%v", err)
	}
	if !isExecutable(abs) {
		return "", fail(exitError, "%s is not an executable file", abs)
	}
	return abs, nil
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}

// settingsChange is what install and uninstall print with --json.
type settingsChange struct {
	Path    string   `json:"path"`
	Scope   string   `json:"scope"`
	Changes []string `json:"changes"` // "+ hooks.EVENT: {...}" or "- ...", as in the text form
	DryRun  bool     `json:"dry_run"`
	Written bool     `json:"written"`
	Backup  string   `json:"backup,omitempty"`
	Created bool     `json:"created,omitempty"`
	// Settings is the whole file as it is (or, with --dry-run, would be) after the change.
	Settings json.RawMessage `json:"settings"`
}

// applySettings writes (unless dryRun) and prints the summary.
func applySettings(w io.Writer, verb string, f settingsFile, o *jobject, exists bool, changes []string, dryRun, asJSON bool) error {
	res := settingsChange{Path: f.Path, Scope: f.Scope, Changes: append([]string{}, changes...), DryRun: dryRun,
		Settings: encodeSettings(o)}
	if len(changes) > 0 && !dryRun {
		backup, err := writeSettings(f.Path, o, exists)
		if err != nil {
			return fail(exitError, "writing %s: %v", f.Path, err)
		}
		res.Written, res.Backup, res.Created = true, backup, backup == ""
	}
	if asJSON {
		return protoJSON(w, res)
	}
	fmt.Fprintf(w, "%s (%s settings)\n", f.Path, f.Scope)
	if len(changes) == 0 {
		fmt.Fprintf(w, "nothing to change: %s\n", verb)
		return nil
	}
	for _, c := range changes {
		fmt.Fprintln(w, c)
	}
	switch {
	case dryRun:
		fmt.Fprintln(w, "dry run: nothing written")
	case res.Backup != "":
		fmt.Fprintf(w, "backup: %s\n", res.Backup)
	default:
		fmt.Fprintln(w, "created the file")
	}
	return nil
}

func newInstallCmd() *cobra.Command {
	var user, project, dryRun, sealOnEnd, asJSON, harden, managed, codex bool
	var hookPath, codexBin string
	var timeout int
	install := &cobra.Command{
		Use:   "install [--user|--project|--managed|--codex] [--harden] [--dry-run]",
		Short: "Register sentinel-hook in Claude Code's settings",
		Long: `install adds sentinel-hook to a Claude Code settings file, for every tool
("matcher": "*"), as a PreToolUse hook (the decision), and as a PostToolUse
and a PostToolUseFailure hook ("sentinel-hook post": records that a call
ran; Claude Code fires the second instead of the first when the call ran and
failed, so both are needed to see every call that ran).

--user (the default) writes ~/.claude/settings.json ($CLAUDE_CONFIG_DIR when
set); --project writes .claude/settings.json in $CLAUDE_PROJECT_DIR or the
current directory. Every other key of the file is kept, in order.

It is idempotent: a second run changes nothing and says so. An older
sentinel hook (another path or timeout) is replaced, never duplicated.
Before writing it copies the file to settings.json.bak.<time>. It refuses
a file that is not valid JSON and says where it breaks. It prints exactly
what it adds (+) and removes (-); --dry-run prints the same and writes nothing.

The hook path is sentinel-hook beside this sentinel, else on PATH, else
--hook-path, written as an absolute path into the user settings. The project
settings are committed and read on colleagues' machines, so --project writes
the bare name sentinel-hook, looked up on each machine's PATH when Claude
Code runs it, behind a guard that blocks the call (exit 2, with how to
install it) where sentinel-hook is missing: a colleague without sentinel is
stopped and told, never silently unguarded. --hook-path overrides this.
Keep --timeout well under a minute: a hook that times out lets the call
through.

--harden also turns on Claude Code's Bash sandbox (bubblewrap) so that no
allowed call can switch the guard off from inside the session: sandbox
enabled, failIfUnavailable (Claude Code refuses to start rather than run
commands unconfined), allowUnsandboxedCommands false; sandbox
filesystem.denyWrite (for Bash) and permissions.deny Edit(...) rules (for
Write and Edit, which the sandbox does not confine) over the hook and
sentinel binaries, the state directory (register, journal, anchor, gate
cache), the configuration, the user settings and every project's
.claude/settings.json and settings.local.json. It needs bwrap and socat
(apt-get install bubblewrap socat) and checks that bwrap can make its
namespaces here. What it added is recorded in the configuration directory
(harden.json), so uninstall removes exactly that. It is not the default:
see docs/hook.md, "Hardening".

--managed (as root) writes the hooks and the hardening as Claude Code
managed settings, /etc/claude-code/managed-settings.d/50-sentinel.json,
owned by root, with allowManagedHooksOnly: no user or project file can
switch them off. The hook binary must be root-owned (--hook-path
/usr/local/bin/sentinel-hook).

--codex installs the hook in OpenAI's Codex CLI instead: PreToolUse and
PostToolUse handlers (matcher "*", the absolute path of sentinel-hook, an
explicit timeout) in $CODEX_HOME/hooks.json (default ~/.codex), and their
[hooks.state."<key>"] trusted_hash entries in $CODEX_HOME/config.toml:
without them Codex skips the hook without a word. config.toml is edited
minimally (tables added, removed or renamed, every other byte kept) and
refused if it does not parse; the trust entries of other hooks that move
are renamed with them. Then, when a Codex binary is found (--codex-bin,
$SENTINEL_CODEX_BIN, else codex on PATH), Codex itself is asked (codex
app-server, hooks/list) whether the hook is trusted and enabled; if it is
not, install exits 1.

Exit codes: 0 done (or nothing to do), 1 Codex reports the hook would not
run (--codex), 3 usage, 4 could not read or write (or bubblewrap/socat
missing for --harden; or the named Codex binary would not answer).`,
		Example: `  sentinel install --dry-run
  sentinel install --user
  sentinel install --project --timeout 5
  sentinel install --seal-on-session-end
  sentinel install --harden
  sudo sentinel install --managed --hook-path /usr/local/bin/sentinel-hook
  sentinel install --codex`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// The hook answers fail-closed by its own deadline (at most
			// toolcall.MaxBudget, plus a moment to record): the timeout
			// Claude Code applies must leave it that time.
			if timeout < toolcall.MinInstallTimeout || timeout > 600 {
				return fail(exitUsage, "--timeout must be between %d and 600 seconds (the hook's own deadline is at most %s), got %d",
					toolcall.MinInstallTimeout, toolcall.MaxBudget, timeout)
			}
			if managed && (user || project) {
				return fail(exitUsage, "--managed writes the managed settings; it excludes --user and --project")
			}
			if codex {
				if user || project || managed || harden || sealOnEnd {
					return fail(exitUsage, "--codex writes Codex's hooks.json and config.toml; it excludes --user, --project, --managed, --harden and --seal-on-session-end")
				}
				hookExe, err := findHookBinary(hookPath)
				if err != nil {
					return err
				}
				return runCodexInstall(cmd.OutOrStdout(), cmd.ErrOrStderr(), true, hookExe, timeout, dryRun, asJSON, codexBin)
			}
			if codexBin != "" {
				return fail(exitUsage, "--codex-bin goes with --codex")
			}
			if harden && project {
				return fail(exitUsage, "--harden writes this machine's paths, which do not belong in committed project settings: use it with --user (or --managed)")
			}
			if harden || managed {
				if why := checkSandboxHelpers(); why != "" {
					return fail(exitError, "Claude Code's sandbox cannot run here: %s; with failIfUnavailable Claude Code would refuse to start. Install them: %s", why, sandboxHelpersFix)
				}
			}
			f, err := settingsTarget(user, project)
			if err != nil {
				return err
			}
			hookExe, err := findHookBinary(hookPath)
			if err != nil {
				return err
			}
			self, err := os.Executable()
			if err != nil {
				return fail(exitError, "cannot find the sentinel executable: %v", err)
			}
			if managed {
				return installManaged(cmd.OutOrStdout(), hookExe, self, timeout, sealOnEnd, dryRun, asJSON)
			}
			if project && hookPath == "" {
				// Portable: each machine resolves the names on its PATH.
				if lp, err := exec.LookPath("sentinel-hook"); err != nil || lp != hookExe {
					fmt.Fprintf(cmd.ErrOrStderr(), "sentinel: note: the project settings name sentinel-hook by PATH; here PATH finds %s, not %s\n", dashIfEmpty(lp), hookExe)
				}
				hookExe, self = "sentinel-hook", "sentinel"
			}
			o, exists, err := readSettings(f.Path)
			if err != nil {
				return fail(exitError, "%v", err)
			}
			if err := checkHooksShape(f.Path, o); err != nil {
				return err
			}
			changes := addHook(o, preHook, hookExe, timeout)
			changes = append(changes, addHook(o, postHook, hookExe, timeout)...)
			changes = append(changes, addHook(o, postFailureHook, hookExe, timeout)...)
			if sealOnEnd {
				changes = append(changes, addHook(o, sessionEndHook, self, 60)...)
			}
			var rec *hardenRecord
			var recPath string
			if harden {
				if !dryRun {
					mkGuardDirs()
				}
				if rec, recPath, err = loadHardenRecord(); err != nil {
					return fail(exitError, "%v", err)
				}
				proj, _ := claudeProjectDir()
				gps, err := guardPaths(hookExe, self, proj)
				if err != nil {
					return fail(exitError, "%v", err)
				}
				hc, err := applyHarden(o, f.Path, gps, rec)
				if err != nil {
					return err
				}
				changes = append(changes, hc...)
			} else if !asJSON {
				fmt.Fprintln(cmd.ErrOrStderr(), "sentinel: note: not hardened: an allowed command can still switch the guard off from inside the session (docs/threat-model.md); sentinel install --harden turns on Claude Code's sandbox over sentinel's files")
			}
			if err := applySettings(cmd.OutOrStdout(), "sentinel is already installed", f, o, exists, changes, dryRun, asJSON); err != nil {
				return err
			}
			if rec != nil && !dryRun && len(changes) > 0 {
				if err := rec.save(recPath); err != nil {
					return fail(exitError, "the settings are hardened, but the record for uninstall could not be written (%s: %v)", recPath, err)
				}
			}
			return nil
		},
	}
	install.Flags().BoolVar(&user, "user", false, "write the user settings, ~/.claude/settings.json (default)")
	install.Flags().BoolVar(&project, "project", false, "write the project settings, .claude/settings.json")
	install.Flags().BoolVar(&dryRun, "dry-run", false, "print the changes, write nothing")
	install.Flags().StringVar(&hookPath, "hook-path", "", "path of sentinel-hook (default: beside sentinel, else PATH)")
	install.Flags().IntVar(&timeout, "timeout", 10, "hook timeout in seconds")
	install.Flags().BoolVar(&asJSON, "json", false, "print the file, the changes and the backup as JSON")
	install.Flags().BoolVar(&sealOnEnd, "seal-on-session-end", false, "also add a SessionEnd hook running 'sentinel seal --if-due'")
	install.Flags().BoolVar(&harden, "harden", false, "also turn on Claude Code's Bash sandbox and deny rules over sentinel's files (needs bubblewrap, socat)")
	install.Flags().BoolVar(&managed, "managed", false, "as root: write the hooks and the hardening as managed settings (/etc/claude-code/managed-settings.d/50-sentinel.json)")
	install.Flags().BoolVar(&codex, "codex", false, "install in OpenAI's Codex CLI: $CODEX_HOME/hooks.json and its trust entries in config.toml")
	install.Flags().StringVar(&codexBin, "codex-bin", "", "with --codex: the Codex binary that confirms the hook is trusted (default $SENTINEL_CODEX_BIN, else codex on PATH)")
	return install
}

func newUninstallCmd() *cobra.Command {

	var uUser, uProject, uDryRun, uJSON, uManaged, uCodex bool
	uninstall := &cobra.Command{
		Use:   "uninstall [--user|--project|--managed|--codex] [--dry-run]",
		Short: "Remove sentinel's hooks from Claude Code's settings",
		Long: `uninstall removes exactly the hooks install added (sentinel-hook as
PreToolUse, PostToolUse and PostToolUseFailure, sentinel seal --if-due as
SessionEnd) from the
user or project settings file, and nothing else. Groups and events left
empty are removed. It keeps a backup and prints what it removed; --dry-run
writes nothing.

It also removes what install --harden added to that file, as recorded in
the configuration directory (harden.json): a setting the operator changed
since is left as it is, and one that had another value before is set back.
--managed (as root) removes sentinel's managed settings file, and only a
file install --managed wrote.

--codex removes sentinel-hook from $CODEX_HOME/hooks.json and the
[hooks.state] trust entries of the handlers it removed (and those install
--codex wrote for keys no handler holds any more) from config.toml; the
trust entries of other hooks that move up are renamed with them.

The register is not touched.

Exit codes: 0 done (or nothing to do), 3 usage, 4 could not read or write.`,
		Example: `  sentinel uninstall --dry-run
  sentinel uninstall --user
  sentinel uninstall --codex`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if uCodex {
				if uUser || uProject || uManaged {
					return fail(exitUsage, "--codex excludes --user, --project and --managed")
				}
				return runCodexInstall(cmd.OutOrStdout(), cmd.ErrOrStderr(), false, "", 0, uDryRun, uJSON, "")
			}
			if uManaged {
				if uUser || uProject {
					return fail(exitUsage, "--managed excludes --user and --project")
				}
				return uninstallManaged(cmd.OutOrStdout(), uDryRun, uJSON)
			}
			f, err := settingsTarget(uUser, uProject)
			if err != nil {
				return err
			}
			o, exists, err := readSettings(f.Path)
			if err != nil {
				return fail(exitError, "%v", err)
			}
			if err := checkHooksShape(f.Path, o); err != nil {
				return err
			}
			var changes []string
			for _, h := range allOurHooks {
				changes = append(changes, removeHook(o, h, "")...)
			}
			rec, recPath, err := loadHardenRecord()
			if err != nil {
				return fail(exitError, "%v", err)
			}
			hardened := len(rec.Files[f.Path]) > 0
			if hardened {
				changes = append(changes, removeHarden(o, f.Path, rec)...)
			}
			if err := applySettings(cmd.OutOrStdout(), "no sentinel hooks in this file", f, o, exists, changes, uDryRun, uJSON); err != nil {
				return err
			}
			if hardened && !uDryRun {
				delete(rec.Files, f.Path)
				delete(rec.Created, f.Path)
				if err := rec.save(recPath); err != nil {
					return fail(exitError, "the hardening is removed, but its record could not be updated (%s: %v)", recPath, err)
				}
			}
			return nil
		},
	}
	uninstall.Flags().BoolVar(&uUser, "user", false, "edit the user settings (default)")
	uninstall.Flags().BoolVar(&uProject, "project", false, "edit the project settings")
	uninstall.Flags().BoolVar(&uDryRun, "dry-run", false, "print the changes, write nothing")
	uninstall.Flags().BoolVar(&uJSON, "json", false, "print the file, the changes and the backup as JSON")
	uninstall.Flags().BoolVar(&uManaged, "managed", false, "as root: remove sentinel's managed settings file")
	uninstall.Flags().BoolVar(&uCodex, "codex", false, "remove sentinel's hooks and their trust entries from Codex's $CODEX_HOME")
	return uninstall
}
