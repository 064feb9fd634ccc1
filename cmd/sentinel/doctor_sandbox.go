package main

// doctor's report of the hardening (install --harden / --managed): which
// protections against switching the guard off from inside the session are
// in force, which are not, and why.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinel-guard/sentinel/internal/paths"
)

// scopeRank orders settings by Claude Code's precedence (higher wins):
// managed > local > project > user.
func scopeRank(scope string) int {
	return map[string]int{"user": 1, "project": 2, "local": 3, "managed": 4}[scope]
}

// effectiveSetting is a dotted key's value as Claude Code resolves it
// (the highest scope that sets it; among managed files the later one),
// with the file it came from; ok is false when no file sets it.
func effectiveSetting(files []loadedSettings, key string) (v any, from loadedSettings, ok bool) {
	best := -1
	none := &[]string{}
	for _, f := range files {
		parent, k, found := objectAt(f.obj, key, false, none)
		if !found {
			continue
		}
		val, has := parent.get(k)
		if !has {
			continue
		}
		if r := scopeRank(f.Scope); r >= best {
			best, v, from, ok = r, val, f, true
		}
	}
	return v, from, ok
}

// settingList gathers a list setting's strings from every file (Claude
// Code merges permission rules and sandbox paths across scopes).
func settingList(files []loadedSettings, key string) []string {
	var out []string
	none := &[]string{}
	for _, f := range files {
		parent, k, found := objectAt(f.obj, key, false, none)
		if !found {
			continue
		}
		v, _ := parent.get(k)
		list, _ := v.([]any)
		for _, it := range list {
			if s, ok := it.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// managedHooked reports whether a managed file holds sentinel's PreToolUse
// hook: then no user or project disableAllHooks stops it (observed with
// Claude Code 2.1.328, docs/hook.md).
func managedHooked(files []loadedSettings) bool {
	for _, f := range files {
		if f.Scope == "managed" && ownedBySentinel(f.obj) {
			return true
		}
	}
	return false
}

func where(f loadedSettings) string { return fmt.Sprintf("%s settings %s", f.Scope, f.Path) }

// checkSandbox reports the sandbox, its helpers, the managed settings and
// whether each of the guard's paths is out of reach of Bash and of
// Write/Edit.
func checkSandbox(rep *doctorReport, files []loadedSettings, project string) {
	const harden = "sentinel install --harden (needs bubblewrap and socat), or as root: sentinel install --managed"
	checkManaged(rep, files)
	checkSettingsEnv(rep, files)
	v, from, set := effectiveSetting(files, "sandbox.enabled")
	enabled := v == true
	switch {
	case !enabled && set && lowerSetsTrue(files, from):
		rep.add("sandbox", doctorFail,
			fmt.Sprintf("%s sets sandbox.enabled false, over the sandbox lower settings turn on: every Bash call runs unconfined, and one allowed command can switch the guard off", where(from)),
			"remove \"sandbox\" from that file, and make the sandbox managed: sentinel install --managed")
	case !enabled:
		why := "no settings file turns it on"
		if set {
			why = where(from) + " sets sandbox.enabled " + fmt.Sprint(v)
		}
		rep.add("sandbox", doctorWarn,
			"Claude Code's Bash sandbox is off ("+why+"): not hardened. An allowed command can switch the guard off from inside the session: "+
				"a settings file written by tar or cp, the hook binary replaced by cc -o, the hook stopped by pkill -STOP, the gate cache or register edited by python (docs/threat-model.md)",
			harden)
	default:
		rep.add("sandbox", doctorOK, fmt.Sprintf("Claude Code's Bash sandbox is on (%s): Bash writes only in the project and $TMPDIR, and reaches no process outside its own", where(from)), "")
	}
	helpers := checkSandboxHelpers()
	switch {
	case helpers == "":
		rep.add("sandbox helpers", doctorOK, "bwrap and socat are on PATH"+map[bool]string{true: " (bwrap not tried: doctor runs as root)", false: " and bwrap makes its namespaces as this user"}[os.Geteuid() == 0], "")
	case enabled:
		rep.add("sandbox helpers", doctorFail, helpers+": with failIfUnavailable Claude Code refuses to start; without it, every Bash call runs unconfined with only a warning on stderr", sandboxHelpersFix)
	default:
		rep.add("sandbox helpers", doctorWarn, helpers+": install --harden needs them", sandboxHelpersFix)
	}
	if !enabled {
		return
	}
	if v, from, _ := effectiveSetting(files, "sandbox.failIfUnavailable"); v != true {
		rep.add("failIfUnavailable", doctorFail,
			"sandbox.failIfUnavailable is not true"+fromText(from)+": where bwrap or socat is missing, Claude Code switches the sandbox off with only a line on stderr",
			harden)
	} else {
		rep.add("failIfUnavailable", doctorOK, "sandbox.failIfUnavailable is true ("+where(from)+"): Claude Code will not start without a working sandbox", "")
	}
	if v, from, _ := effectiveSetting(files, "sandbox.allowUnsandboxedCommands"); v != false {
		rep.add("unsandboxed calls", doctorWarn,
			"sandbox.allowUnsandboxedCommands is not false"+fromText(from)+": a Bash call with dangerouslyDisableSandbox runs on the host if the hook does not answer (it denies it: SANDBOX-ESCAPE)",
			harden)
	} else {
		rep.add("unsandboxed calls", doctorOK, "sandbox.allowUnsandboxedCommands is false ("+where(from)+"): dangerouslyDisableSandbox is ignored", "")
	}
	for _, f := range files {
		if f.Scope == "managed" {
			continue
		}
		if ex := settingList([]loadedSettings{f}, "sandbox.excludedCommands"); len(ex) > 0 {
			rep.add("unsandboxed calls", doctorWarn, fmt.Sprintf("%s runs %s outside the sandbox (sandbox.excludedCommands)", where(f), strings.Join(ex, ", ")),
				"remove the entry unless the command cannot run sandboxed")
		}
	}
	checkGuardPaths(rep, files, project)
}

func fromText(f loadedSettings) string {
	if f.Path == "" {
		return " (no settings file sets it)"
	}
	return " (" + where(f) + ")"
}

// lowerSetsTrue reports whether a file of lower precedence than from
// turns the sandbox on: then from switched it off.
func lowerSetsTrue(files []loadedSettings, from loadedSettings) bool {
	none := &[]string{}
	for _, f := range files {
		if scopeRank(f.Scope) >= scopeRank(from.Scope) {
			continue
		}
		if parent, k, ok := objectAt(f.obj, "sandbox.enabled", false, none); ok {
			if v, _ := parent.get(k); v == true {
				return true
			}
		}
	}
	return false
}

// checkManaged says whether the guard is held by managed settings.
func checkManaged(rep *doctorReport, files []loadedSettings) {
	var managed []loadedSettings
	for _, f := range files {
		if f.Scope == "managed" {
			managed = append(managed, f)
		}
	}
	only, _, _ := effectiveSetting(managed, "allowManagedHooksOnly")
	switch {
	case managedHooked(files) && only == true:
		rep.add("managed", doctorOK, "managed settings hold sentinel's hooks with allowManagedHooksOnly: no user or project file can add a hook or switch sentinel's off", "")
	case managedHooked(files):
		rep.add("managed", doctorWarn, "managed settings hold sentinel's hooks, without allowManagedHooksOnly: user and project hooks run too (a disableAllHooks there still cannot stop sentinel's)",
			"sentinel install --managed (sets allowManagedHooksOnly)")
	default:
		rep.add("managed", doctorWarn, "no managed settings hold sentinel's hooks: the hooks and the hardening are in files the user owns, held only by the deny rules while a session runs",
			"as root: sentinel install --managed --hook-path /usr/local/bin/sentinel-hook")
	}
}

// checkGuardPaths reports, for each of the guard's paths, whether Bash
// (sandbox denyWrite, or an Edit rule, which Claude Code merges into the
// sandbox) and Write/Edit (an Edit deny rule) are kept off it.
func checkGuardPaths(rep *doctorReport, files []loadedSettings, project string) {
	hookExe := ""
	for _, f := range files {
		for _, c := range commandHooks(f.obj, preHook.Event) {
			if preHook.recognises(c.Command, "") && hookExe == "" {
				hookExe = hookExecutable(c.Command)
			}
		}
	}
	self, _ := os.Executable()
	gps, err := guardPaths(hookExe, self, project)
	if err != nil {
		rep.add("protected paths", doctorFail, err.Error(), "set HOME")
		return
	}
	deny := settingList(files, "permissions.deny")
	denyWrite := settingList(files, "sandbox.filesystem.denyWrite")
	home := paths.Home()
	var open []string
	for _, g := range gps {
		if g.Rel != "" {
			if !slices.Contains(deny, g.editRule()) {
				open = append(open, fmt.Sprintf("%s (no %s rule: Write and Edit can change it)", g.What, g.editRule()))
			}
			continue
		}
		edit := editCovered(deny, g.Path, home)
		bash := edit || pathCovered(denyWrite, g.Path)
		if g.Project {
			// Claude Code binds the project's settings read-only itself;
			// the relative rules cover every project's.
			bash = true
			edit = edit || slices.Contains(deny, "Edit(**/.claude/"+filepath.Base(g.Path)+")")
		}
		switch {
		case edit && bash:
			rep.add("protected paths", doctorOK, fmt.Sprintf("%s %s: read-only for Bash and denied to Write/Edit", g.What, g.Path), "")
		case bash:
			open = append(open, fmt.Sprintf("%s %s (denyWrite holds Bash only: Write and Edit can change it)", g.What, g.Path))
		default:
			open = append(open, fmt.Sprintf("%s %s (neither denyWrite nor an Edit rule)", g.What, g.Path))
		}
	}
	for _, o := range open {
		rep.add("protected paths", doctorFail, "not protected: "+o, "sentinel install --harden (it adds the rules for every path)")
	}
}

// editCovered: an Edit deny rule names p or a directory above it, in the
// //abs or ~/home forms.
func editCovered(rules []string, p, home string) bool {
	for _, r := range rules {
		in, ok := strings.CutPrefix(r, "Edit(")
		if !ok || !strings.HasSuffix(in, ")") {
			continue
		}
		in = strings.TrimSuffix(in, ")")
		switch {
		case strings.HasPrefix(in, "//"):
			in = in[1:]
		case strings.HasPrefix(in, "~/") && home != "":
			in = filepath.Join(home, in[2:])
		default:
			continue
		}
		if dir, ok := strings.CutSuffix(in, "/**"); ok {
			if p == dir || strings.HasPrefix(p, dir+"/") {
				return true
			}
		} else if in == p {
			return true
		}
	}
	return false
}

// pathCovered: a denyWrite path is p or a directory above it.
func pathCovered(list []string, p string) bool {
	for _, d := range list {
		d = filepath.Clean(d)
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// hookEnv are variables that, set by a settings file's "env" block, reach
// the hooks of the sessions that load it (observed with 2.1.328) and move
// what sentinel-hook reads or writes.
var hookEnv = []string{"SENTINEL_", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME", "PATH", "CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR"}

// checkSettingsEnv warns of such a variable in a settings file other than
// the managed ones: the agent need not touch the hook to redirect it.
func checkSettingsEnv(rep *doctorReport, files []loadedSettings) {
	for _, f := range files {
		if f.Scope == "managed" {
			continue
		}
		ev, _ := f.obj.get("env")
		env, ok := ev.(*jobject)
		if !ok {
			continue
		}
		for _, k := range env.keys {
			for _, p := range hookEnv {
				if k == p || strings.HasSuffix(p, "_") && strings.HasPrefix(k, p) {
					rep.add("settings env", doctorWarn,
						fmt.Sprintf("%s sets %s in its env block: it reaches sentinel-hook in every session that loads the file, and can move its register, configuration or binary", where(f), k),
						"remove it from that file; set it in the environment Claude Code is started from")
					break
				}
			}
		}
	}
}
