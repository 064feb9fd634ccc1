package main

// install --managed: the hooks and the hardening as Claude Code managed
// settings, a drop-in file of sentinel's own under /etc/claude-code, owned
// by root. User and project settings cannot override managed ones, nor
// switch a managed hook off (docs/hook.md, "Hardening").

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/sentinel-guard/sentinel/internal/paths"
)

// managedDirEnv moves the managed settings directory, for tests only:
// Claude Code 2.1.328 reads /etc/claude-code and no variable moves that.
const managedDirEnv = "SENTINEL_TEST_MANAGED_DIR"

// managedDir is where Claude Code reads managed settings on Linux.
func managedDir() string {
	if d := os.Getenv(managedDirEnv); d != "" {
		return d
	}
	return "/etc/claude-code"
}

// managedDropIn is sentinel's own managed settings file.
func managedDropIn() string {
	return filepath.Join(managedDir(), "managed-settings.d", "50-sentinel.json")
}

// managedGuardPaths are the per-user paths of guardPaths as home-relative
// rules (one managed file serves every user), plus the binaries.
func managedGuardPaths(hookExe, self string) []guardPath {
	gps := []guardPath{
		{Path: canonical(hookExe), What: "the hook binary"},
		{Path: canonical(self), What: "the sentinel binary"},
		{Rel: "~/.local/state/sentinel/**", What: "each user's state directory"},
		{Rel: "~/.config/sentinel/**", What: "each user's configuration"},
		{Rel: "~/.claude/settings.json", What: "each user's settings"},
	}
	if gps[0].Path == gps[1].Path {
		gps = gps[1:]
	}
	// A state or configuration directory moved by the environment
	// (SENTINEL_HOME, XDG_*: sudo -E keeps them) is added as it is.
	for _, moved := range []struct{ env, what string }{{"SENTINEL_HOME", "the state directory"}, {"XDG_STATE_HOME", "the state directory"}, {"XDG_CONFIG_HOME", "the configuration"}} {
		if os.Getenv(moved.env) == "" {
			continue
		}
		dir, err := paths.StateDir()
		if moved.env == "XDG_CONFIG_HOME" {
			dir, err = paths.ConfigDir()
		}
		if err == nil && filepath.IsAbs(dir) && !slices.ContainsFunc(gps, func(g guardPath) bool { return g.Path == canonical(dir) }) {
			gps = append(gps, guardPath{Path: canonical(dir), Dir: true, What: moved.what + " (moved by $" + moved.env + ")"})
		}
	}
	for _, f := range []string{"settings.json", "settings.local.json"} {
		gps = append(gps, guardPath{Rel: "**/.claude/" + f, What: "the project and local settings of any project"})
	}
	return gps
}

// rootOnly reports why p could be replaced by a user that is not root: p
// or a directory above it owned by another user, or writable by group or
// others (a sticky directory is fine for an entry root owns).
func rootOnly(p string) error {
	cur := p
	for {
		st, err := os.Lstat(cur)
		if err != nil {
			return err
		}
		sys, ok := st.Sys().(*syscall.Stat_t)
		if !ok {
			return errors.New("cannot read the owner")
		}
		if sys.Uid != 0 {
			return fmt.Errorf("%s is owned by uid %d, not root", cur, sys.Uid)
		}
		if st.Mode()&0o022 != 0 && !(st.IsDir() && st.Mode()&os.ModeSticky != 0 && cur != p) {
			return fmt.Errorf("%s is writable by group or others (mode %v)", cur, st.Mode().Perm())
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return nil
		}
		cur = parent
	}
}

// ownedBySentinel reports whether a managed file is one install --managed
// wrote: it holds sentinel's PreToolUse hook.
func ownedBySentinel(o *jobject) bool {
	for _, c := range commandHooks(o, preHook.Event) {
		if preHook.recognises(c.Command, "") {
			return true
		}
	}
	return false
}

// installManaged writes the drop-in. It refuses without root (unless the
// directory is moved for a test), a hook or sentinel binary a user could
// replace, and a drop-in it did not write.
func installManaged(w io.Writer, hookExe, self string, timeout int, sealOnEnd, dryRun, asJSON bool) error {
	if os.Getenv(managedDirEnv) == "" && os.Geteuid() != 0 {
		return fail(exitError, "--managed writes %s, owned by root: run it as root (sudo sentinel install --managed --hook-path /usr/local/bin/sentinel-hook)", managedDropIn())
	}
	for _, p := range []string{hookExe, self} {
		if err := rootOnly(p); err != nil {
			return fail(exitError, "%s: %v: a managed hook the user can replace guards nothing; install it root-owned (install -o root -m 755 %s /usr/local/bin/) and pass --hook-path", p, err, filepath.Base(p))
		}
	}
	f := settingsFile{Scope: "managed", Path: managedDropIn()}
	o, exists, err := readSettings(f.Path)
	if err != nil {
		return fail(exitError, "%v", err)
	}
	if exists && !ownedBySentinel(o) {
		return fail(exitError, "%s exists and was not written by sentinel install --managed; not replacing it", f.Path)
	}
	if err := checkHooksShape(f.Path, o); err != nil {
		return err
	}
	var changes []string
	for _, h := range []ourHook{preHook, postHook, postFailureHook} {
		changes = append(changes, addHook(o, h, hookExe, timeout)...)
	}
	if sealOnEnd {
		changes = append(changes, addHook(o, sessionEndHook, self, 60)...)
	}
	if v, _ := o.get("allowManagedHooksOnly"); v != true {
		o.set("allowManagedHooksOnly", true)
		changes = append(changes, "+ allowManagedHooksOnly: true (only managed hooks run: no user or project file can add one, and disableAllHooks there cannot stop sentinel's)")
	}
	// The record of a drop-in is the drop-in: uninstall --managed removes it.
	rec := &hardenRecord{Files: map[string][]hardenChange{}, Created: map[string][]string{}}
	hc, err := applyHarden(o, f.Path, managedGuardPaths(hookExe, self), rec)
	if err != nil {
		return err
	}
	changes = append(changes, hc...)
	if err := applySettings(w, "sentinel's managed settings are in place", f, o, exists, changes, dryRun, asJSON); err != nil {
		return err
	}
	if !dryRun && len(changes) > 0 {
		// Root-owned, readable by the users whose sessions it governs.
		os.Chmod(filepath.Dir(f.Path), 0o755)
		if err := os.Chmod(f.Path, 0o644); err != nil {
			return fail(exitError, "%v", err)
		}
	}
	return nil
}

// uninstallManaged removes the drop-in install --managed wrote, and only it.
func uninstallManaged(w io.Writer, dryRun, asJSON bool) error {
	f := settingsFile{Scope: "managed", Path: managedDropIn()}
	o, exists, err := readSettings(f.Path)
	if err != nil {
		return fail(exitError, "%v", err)
	}
	res := settingsChange{Path: f.Path, Scope: f.Scope, DryRun: dryRun, Changes: []string{}, Settings: []byte("null")}
	switch {
	case !exists:
		if asJSON {
			return protoJSON(w, res)
		}
		fmt.Fprintf(w, "%s (managed settings)\nnothing to change: no managed settings of sentinel's\n", f.Path)
		return nil
	case !ownedBySentinel(o):
		return fail(exitError, "%s was not written by sentinel install --managed; not removing it", f.Path)
	}
	res.Changes = []string{"- " + f.Path + " (the whole file: sentinel's managed hooks and hardening)"}
	if !dryRun {
		if os.Getenv(managedDirEnv) == "" && os.Geteuid() != 0 {
			return fail(exitError, "removing %s needs root: sudo sentinel uninstall --managed", f.Path)
		}
		if err := os.Remove(f.Path); err != nil {
			return fail(exitError, "%v", err)
		}
		res.Written = true
	}
	if asJSON {
		return protoJSON(w, res)
	}
	fmt.Fprintf(w, "%s (managed settings)\n%s\n", f.Path, res.Changes[0])
	if dryRun {
		fmt.Fprintln(w, "dry run: nothing written")
	}
	return nil
}
