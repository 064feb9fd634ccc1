package main

// install --harden: Claude Code's own Bash sandbox and permission rules over
// the guard's files, so that no allowed call can switch the guard off from
// inside the session (issue 21; what was observed with the real binary is
// in docs/hook.md, "Hardening"). Nothing here is judged per call: the
// sandbox is Claude Code's, the hook only denies dangerouslyDisableSandbox.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/internal/outfile"
	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/internal/safefile"
)

// guardPath is one file or directory whose change could switch the guard
// off: its binaries, state, configuration and the settings that load it.
type guardPath struct {
	Path string `json:"path"`
	Dir  bool   `json:"dir"`
	What string `json:"what"`
	// Rel is a rule relative to the session's directory (project settings:
	// each project is another directory), "" for an absolute path.
	Rel string `json:"rel,omitempty"`
	// Project: a settings file of the project, which Claude Code's sandbox
	// keeps read-only for Bash of itself, and the Rel rules cover too.
	Project bool `json:"-"`
}

// editRule is the permissions.deny rule that keeps Write and Edit (and,
// merged into the sandbox by Claude Code, Bash) off p.
func (p guardPath) editRule() string {
	if p.Rel != "" {
		return "Edit(" + p.Rel + ")"
	}
	r := "Edit(/" + p.Path
	if p.Dir {
		r += "/**"
	}
	return r + ")"
}

// guardPaths lists what install --harden protects. hookExe and self are
// the binaries the hooks run; project is the project directory ("" none).
func guardPaths(hookExe, self, project string) ([]guardPath, error) {
	var out []guardPath
	seen := map[string]bool{}
	add := func(p string, dir bool, what string) {
		if p == "" || !filepath.IsAbs(p) {
			return
		}
		p = canonical(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, guardPath{Path: p, Dir: dir, What: what, Project: strings.HasPrefix(what, "this project")})
		}
	}
	add(hookExe, false, "the hook binary")
	add(self, false, "the sentinel binary (SessionEnd seal)")
	st, err := paths.StateDir()
	if err != nil {
		return nil, err
	}
	add(st, true, "the state directory (register, journal, anchor, gate cache)")
	cf, err := paths.ConfigDir()
	if err != nil {
		return nil, err
	}
	add(cf, true, "the configuration (rules, must-keep list, signing key, hardening record)")
	us, err := userSettingsPath()
	if err != nil {
		return nil, err
	}
	add(us, false, "the user settings (hooks, sandbox)")
	if project != "" && project != paths.Home() {
		add(filepath.Join(project, ".claude", "settings.json"), false, "this project's settings")
		add(filepath.Join(project, ".claude", "settings.local.json"), false, "this project's local settings")
	}
	// Every project: a rule relative to the session's directory.
	for _, f := range []string{"settings.json", "settings.local.json"} {
		out = append(out, guardPath{Rel: "**/.claude/" + f, What: "the project and local settings of any project"})
	}
	return out, nil
}

// mkGuardDirs makes the state and configuration directories (mode 700)
// before they are protected, so the sandbox binds the real directory
// rather than a path that does not exist yet.
func mkGuardDirs() {
	if d, err := paths.StateDir(); err == nil {
		os.MkdirAll(d, 0o700)
	}
	if d, err := paths.ConfigDir(); err == nil {
		os.MkdirAll(d, 0o700)
	}
}

// canonical resolves symbolic links in p's longest existing prefix (the
// sandbox binds real paths).
func canonical(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// hardenValues are the scalar settings --harden sets.
var hardenValues = []struct {
	Key   string
	Value bool
	Why   string
}{
	{"sandbox.enabled", true, "every Bash call runs in bubblewrap: outside the project and $TMPDIR it writes nothing, and it cannot signal the hooks"},
	{"sandbox.failIfUnavailable", true, "without bwrap or socat Claude Code refuses to start instead of running every command unconfined"},
	{"sandbox.allowUnsandboxedCommands", false, "a call's dangerouslyDisableSandbox is ignored (the hook denies it too)"},
}

// hardenChange is one thing install --harden added to a settings file, as
// recorded for uninstall: a scalar (Key, Value, and Had: what was there
// before, absent when nothing) or an item appended to a list (Key, Item).
type hardenChange struct {
	Key   string          `json:"key"`
	Value *bool           `json:"value,omitempty"`
	Had   json.RawMessage `json:"had,omitempty"`
	Item  string          `json:"item,omitempty"`
}

// hardenRecord is what every --harden wrote, per settings file: uninstall
// removes exactly that. It lives in the configuration directory, which the
// hardening itself protects from the agent.
type hardenRecord struct {
	Files map[string][]hardenChange `json:"files"`
	// Created are the objects and lists --harden created (dotted keys), per
	// file; uninstall removes them when they are left empty.
	Created map[string][]string `json:"created"`
}

const hardenRecordFile = "harden.json"

func hardenRecordPath() (string, error) {
	d, err := paths.ConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, hardenRecordFile), nil
}

func loadHardenRecord() (*hardenRecord, string, error) {
	p, err := hardenRecordPath()
	if err != nil {
		return nil, "", err
	}
	r := &hardenRecord{Files: map[string][]hardenChange{}, Created: map[string][]string{}}
	// The agent could leave a FIFO or a device here: read it the hook's way.
	data, err := safefile.ReadFile(p, 1<<20)
	if errors.Is(err, os.ErrNotExist) {
		return r, p, nil
	}
	if err != nil {
		return nil, p, err
	}
	if err := json.Unmarshal(data, r); err != nil {
		return nil, p, fmt.Errorf("%s is not valid JSON (%v); not touching the hardening", p, err)
	}
	if r.Files == nil {
		r.Files = map[string][]hardenChange{}
	}
	if r.Created == nil {
		r.Created = map[string][]string{}
	}
	return r, p, nil
}

func (r *hardenRecord) save(p string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	data, _ := json.MarshalIndent(r, "", "  ")
	return outfile.WriteFile(p, nil, append(data, '\n'), 0o600)
}

// objectAt walks a dotted key to its parent object, creating objects when
// create is set (noting each in created). ok is false when something other
// than an object is in the way.
func objectAt(o *jobject, key string, create bool, created *[]string) (*jobject, string, bool) {
	parts := strings.Split(key, ".")
	cur := o
	for i, k := range parts[:len(parts)-1] {
		v, has := cur.get(k)
		if !has {
			if !create {
				return nil, "", false
			}
			n := newObject()
			cur.set(k, n)
			*created = append(*created, strings.Join(parts[:i+1], "."))
			cur = n
			continue
		}
		n, isObj := v.(*jobject)
		if !isObj {
			return nil, "", false
		}
		cur = n
	}
	return cur, parts[len(parts)-1], true
}

// applyHarden adds the hardening to o; rec's entry for the file is
// extended with what was added. It returns the summary lines.
func applyHarden(o *jobject, file string, gps []guardPath, rec *hardenRecord) ([]string, error) {
	var changes []string
	recorded := func(key string) bool {
		return slices.ContainsFunc(rec.Files[file], func(c hardenChange) bool { return c.Key == key && c.Item == "" })
	}
	created := &[]string{}
	for _, hv := range hardenValues {
		parent, k, ok := objectAt(o, hv.Key, true, created)
		if !ok {
			return nil, fail(exitError, "%s: a parent of %q is not a JSON object; not touching it", file, hv.Key)
		}
		old, has := parent.get(k)
		if has && old == hv.Value {
			continue // already so: the operator's, or ours from an earlier run
		}
		c := hardenChange{Key: hv.Key, Value: &hv.Value}
		if has {
			c.Had = json.RawMessage(encodeSettings(old))
		}
		if !recorded(hv.Key) {
			rec.Files[file] = append(rec.Files[file], c)
		}
		parent.set(k, hv.Value)
		if has {
			changes = append(changes, fmt.Sprintf("~ %s: %s -> %v (%s)", hv.Key, strings.TrimSpace(string(encodeSettings(old))), hv.Value, hv.Why))
		} else {
			changes = append(changes, fmt.Sprintf("+ %s: %v (%s)", hv.Key, hv.Value, hv.Why))
		}
	}
	addItems := func(key string, items []string) error {
		parent, k, ok := objectAt(o, key, true, created)
		if !ok {
			return fail(exitError, "%s: a parent of %q is not a JSON object; not touching it", file, key)
		}
		v, has := parent.get(k)
		list, isList := v.([]any)
		if has && !isList {
			return fail(exitError, "%s: %q is not a JSON array; not touching it", file, key)
		}
		if !has {
			*created = append(*created, key)
			list = []any{}
		}
		for _, it := range items {
			if slices.Contains(list, any(it)) {
				continue
			}
			list = append(list, it)
			rec.Files[file] = append(rec.Files[file], hardenChange{Key: key, Item: it})
			changes = append(changes, fmt.Sprintf("+ %s: %q", key, it))
		}
		parent.set(k, list)
		return nil
	}
	var deny, denyWrite []string
	for _, g := range gps {
		deny = append(deny, g.editRule())
		if g.Rel == "" {
			denyWrite = append(denyWrite, g.Path)
		}
	}
	if err := addItems("sandbox.filesystem.denyWrite", denyWrite); err != nil {
		return nil, err
	}
	if err := addItems("permissions.deny", deny); err != nil {
		return nil, err
	}
	for _, c := range *created {
		if !slices.Contains(rec.Created[file], c) {
			rec.Created[file] = append(rec.Created[file], c)
		}
	}
	if len(changes) == 0 {
		// Nothing added now: objects made on the way hold something already.
		return nil, nil
	}
	return changes, nil
}

// removeHarden takes out of o what rec says --harden added to file, and
// only that: a scalar the operator changed since is left (and said so).
func removeHarden(o *jobject, file string, rec *hardenRecord) []string {
	var changes []string
	none := &[]string{}
	for _, c := range rec.Files[file] {
		parent, k, ok := objectAt(o, c.Key, false, none)
		if !ok {
			continue
		}
		v, has := parent.get(k)
		if !has {
			continue
		}
		if c.Item != "" {
			list, isList := v.([]any)
			if !isList {
				continue
			}
			i := slices.Index(list, any(c.Item))
			if i < 0 {
				continue
			}
			parent.set(k, slices.Delete(list, i, i+1))
			changes = append(changes, fmt.Sprintf("- %s: %q", c.Key, c.Item))
			continue
		}
		if c.Value == nil || v != *c.Value {
			changes = append(changes, fmt.Sprintf("  %s: left as it is (changed since install --harden set it to %v)", c.Key, c.Value != nil && *c.Value))
			continue
		}
		if len(c.Had) == 0 {
			parent.del(k)
			changes = append(changes, fmt.Sprintf("- %s: %v", c.Key, *c.Value))
			continue
		}
		old, err := parseSettingsValue(c.Had)
		if err != nil {
			continue
		}
		parent.set(k, old)
		changes = append(changes, fmt.Sprintf("~ %s: %v -> %s (as it was before install --harden)", c.Key, *c.Value, strings.TrimSpace(string(c.Had))))
	}
	// Objects and lists --harden created, deepest first, when left empty.
	cr := slices.Clone(rec.Created[file])
	slices.SortFunc(cr, func(a, b string) int { return strings.Count(b, ".") - strings.Count(a, ".") })
	for _, key := range cr {
		parent, k, ok := objectAt(o, key, false, none)
		if !ok {
			continue
		}
		switch v, _ := parent.get(k); x := v.(type) {
		case *jobject:
			if len(x.keys) == 0 {
				parent.del(k)
			}
		case []any:
			if len(x) == 0 {
				parent.del(k)
			}
		}
	}
	return changes
}

// parseSettingsValue decodes one recorded JSON value the settings way.
func parseSettingsValue(raw json.RawMessage) (any, error) {
	o, err := parseSettings([]byte(`{"v":` + string(raw) + `}`))
	if err != nil {
		return nil, err
	}
	v, _ := o.get("v")
	return v, nil
}

// sandboxHelpers is what Claude Code's Linux sandbox needs on PATH.
var sandboxHelpers = []struct{ Bin, Package string }{{"bwrap", "bubblewrap"}, {"socat", "socat"}}

// sandboxHelpersFix says how to get them.
const sandboxHelpersFix = "apt-get install bubblewrap socat (Debian, Ubuntu; dnf install bubblewrap socat on Fedora)"

// checkSandboxHelpers finds bwrap and socat and, as a user that is not
// root, tries bwrap the way Claude Code uses it (user and pid namespaces):
// where it cannot run, a sandbox with failIfUnavailable stops Claude Code
// from starting. "" when all is well, else why not.
func checkSandboxHelpers() string {
	var missing []string
	for _, h := range sandboxHelpers {
		if _, err := exec.LookPath(h.Bin); err != nil {
			missing = append(missing, h.Bin+" (package "+h.Package+")")
		}
	}
	if len(missing) > 0 {
		return strings.Join(missing, " and ") + " not on PATH"
	}
	if os.Geteuid() == 0 {
		return "" // root runs bwrap whatever the user namespace policy; the user's sessions are not proven
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-user", "--unshare-pid",
		"--unshare-net", "--proc", "/proc", "--die-with-parent", "true").CombinedOutput()
	if err != nil {
		return fmt.Sprintf("bwrap cannot make its namespaces here (%v: %s): user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or a container without them)", err, firstLine(string(out)))
	}
	return ""
}
