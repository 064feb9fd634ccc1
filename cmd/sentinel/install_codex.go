package main

// install --codex / uninstall --codex: sentinel-hook in $CODEX_HOME/hooks.json
// (PreToolUse and PostToolUse, matcher "*", an explicit timeout) and, in
// $CODEX_HOME/config.toml, the [hooks.state] trust entry of each: without
// it Codex skips the hook without a word. Trust keys hold each handler's
// group and handler index, so adding or removing a handler renames the
// trust entries of the handlers that move, and theirs stay trusted.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/internal/outfile"
)

// codexPlan is what install or uninstall --codex would change.
type codexPlan struct {
	Home        codexHome
	hooks       *jobject
	hooksExists bool
	hooksDirty  bool
	oldConfig   string
	newConfig   string
	configFound bool
	Changes     []string
	Notes       []string
	// Keys are the trust keys of sentinel's handlers after the change.
	Keys map[string]string // event -> key
}

// loadCodexFiles reads hooks.json and config.toml, refusing what does not
// parse (Codex would ignore the hooks of a hooks.json it cannot parse).
func loadCodexFiles(home codexHome) (*codexPlan, *tomlDoc, error) {
	p := &codexPlan{Home: home, Keys: map[string]string{}}
	o, exists, err := readSettings(home.Hooks)
	if err != nil {
		return nil, nil, fail(exitError, "%v", err)
	}
	p.hooks, p.hooksExists = o, exists
	if err := checkCodexHooksShape(home.Hooks, o); err != nil {
		return nil, nil, err
	}
	data, err := readSettingsFile(home.Config)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, nil, fail(exitError, "%v", err)
	default:
		p.configFound = true
	}
	p.oldConfig = string(data)
	doc, err := parseCodexTOML(p.oldConfig)
	if err != nil {
		return nil, nil, fail(exitError, "%s does not parse (%s); not touching it", home.Config, tomlErrText(err))
	}
	return p, doc, nil
}

// checkCodexHooksShape refuses a hooks.json whose shape is not Codex's:
// checkHooksShape's checks, and each group of our events an object whose
// "hooks" is an array (their handlers are indexed in trust keys).
func checkCodexHooksShape(path string, o *jobject) error {
	if err := checkHooksShape(path, o); err != nil {
		return err
	}
	hv, ok := o.get("hooks")
	if !ok {
		return nil
	}
	hooks := hv.(*jobject)
	for _, h := range codexOurHooks {
		ev, ok := hooks.get(h.Event)
		if !ok {
			continue
		}
		groups, _ := ev.([]any)
		for i, g := range groups {
			gobj, ok := g.(*jobject)
			if !ok {
				return fail(exitError, "%s: \"hooks.%s[%d]\" is not a JSON object; not touching it", path, h.Event, i)
			}
			if l, ok := gobj.get("hooks"); ok {
				if _, ok := l.([]any); !ok {
					return fail(exitError, "%s: \"hooks.%s[%d].hooks\" is not a JSON array; not touching it", path, h.Event, i)
				}
			}
		}
	}
	return nil
}

// tomlHookCommands lists the command strings of hooks declared under
// [hooks] in a decoded config.toml, by event.
func tomlHookCommands(data map[string]any) map[string][]string {
	out := map[string][]string{}
	hooks, _ := data["hooks"].(map[string]any)
	for event, v := range hooks {
		if _, ok := codexEventLabels[event]; !ok {
			continue
		}
		for _, g := range tomlTables(v) {
			for _, h := range tomlTables(g["hooks"]) {
				c, _ := h["command"].(string)
				out[event] = append(out[event], c)
			}
		}
	}
	return out
}

// tomlTables reads an array of tables however the decoder returned it.
func tomlTables(v any) []map[string]any {
	switch x := v.(type) {
	case []map[string]any:
		return x
	case []any:
		var out []map[string]any
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}

// codexInstalledExactly: one handler h recognises, alone in a group with
// matcher "*", with this command and timeout.
func codexInstalledExactly(hs []codexHandler, h ourHook, exe string, timeout int) bool {
	n, exact := 0, false
	for _, c := range hs {
		if oh, ok := c.ours(exe); !ok || oh.Event != h.Event || !reflect.DeepEqual(oh.Args, h.Args) {
			continue
		}
		n++
		m, _ := c.Group.get("matcher")
		to, _ := c.Handler.get("timeout")
		if c.GroupN == 1 && m == "*" && c.command() == h.command(exe) && fmt.Sprint(to) == strconv.Itoa(timeout) &&
			len(c.Handler.keys) == 3 && len(c.Group.keys) == 2 {
			exact = true
		}
	}
	return n == 1 && exact
}

// planCodex computes the change. install: exe and timeout name the hook;
// uninstall: exe is "" and every sentinel hook goes.
func planCodex(p *codexPlan, doc *tomlDoc, install bool, exe string, timeout int) error {
	path := p.Home.Hooks
	if install {
		for event, cmds := range tomlHookCommands(doc.data) {
			for _, c := range cmds {
				for _, h := range codexOurHooks {
					if h.Event == event && h.recognises(c, exe) {
						return fail(exitError, "%s declares sentinel-hook under [hooks.%s] (%s); install --codex writes hooks.json, and Codex would run both: remove it from config.toml first, or keep that one and trust it yourself", p.Home.Config, event, c)
					}
				}
			}
			if len(cmds) > 0 {
				p.Notes = append(p.Notes, fmt.Sprintf("%s also declares hooks under [hooks.%s]: Codex runs those and hooks.json's, and warns that both are used (\"prefer a single representation\")", p.Home.Config, event))
			}
		}
	}
	before := codexHandlers(p.hooks, path)
	oldKey := map[*jobject]string{}
	for _, c := range before {
		oldKey[c.Handler] = c.Key
	}
	for _, h := range codexOurHooks {
		if install && codexInstalledExactly(before, h, exe, timeout) {
			continue
		}
		rm := removeHook(p.hooks, h, exe)
		p.Changes = append(p.Changes, prefixAll(rm, "hooks.json ")...)
		if install {
			hv, _ := p.hooks.get("hooks")
			hooks, ok := hv.(*jobject)
			if !ok {
				hooks = newObject()
				p.hooks.set("hooks", hooks)
			}
			groups, _ := hooks.vals[h.Event].([]any)
			g := h.group(exe, timeout)
			hooks.set(h.Event, append(groups, g))
			p.Changes = append(p.Changes, fmt.Sprintf("+ hooks.json hooks.%s: %s", h.Event, settingsCompact(g)))
		}
		p.hooksDirty = true
	}
	after := codexHandlers(p.hooks, path)
	newKey := map[*jobject]string{}
	for _, c := range after {
		newKey[c.Handler] = c.Key
	}
	state := hooksState(doc.data)
	var edits []stateEdit
	vacated := map[string]bool{}
	// Handlers that moved keep their trust under the new key; sentinel's
	// removed handlers lose theirs.
	for _, c := range before {
		nk, kept := newKey[c.Handler]
		if _, ok := state[c.Key]; !ok || kept && nk == c.Key {
			continue
		}
		vacated[c.Key] = true
		if kept {
			edits = append(edits, stateEdit{Op: "rename", From: c.Key, To: nk})
			p.Changes = append(p.Changes, fmt.Sprintf("~ config.toml [hooks.state.%s] -> [hooks.state.%s] (the handler moved)", tomlQuote(c.Key), tomlQuote(nk)))
		} else {
			edits = append(edits, stateEdit{Op: "remove", From: c.Key})
			p.Changes = append(p.Changes, fmt.Sprintf("- config.toml [hooks.state.%s]", tomlQuote(c.Key)))
		}
	}
	renamedTo := map[string]bool{}
	for _, e := range edits {
		if e.Op == "rename" {
			renamedTo[e.To] = true
		}
	}
	if install {
		for _, c := range after {
			h, ok := c.ours(exe)
			if !ok {
				continue
			}
			p.Keys[h.Event] = c.Key
			hash, err := codexHandlerHash(c.Event, c.Group, c.Handler)
			if err != nil {
				return fail(exitError, "cannot compute the trust hash of %s: %v", c.Key, err)
			}
			cur, has := state[c.Key]
			if has && !vacated[c.Key] && reflect.DeepEqual(cur, map[string]any{"trusted_hash": hash}) {
				continue
			}
			if renamedTo[c.Key] {
				return fail(exitError, "%s: the trust entry of another hook would move to %s; edit the hooks by hand", p.Home.Config, c.Key)
			}
			if has && !vacated[c.Key] {
				// Stale (another hash, enabled = false, a left-over entry): replaced.
				edits = append(edits, stateEdit{Op: "remove", From: c.Key})
				p.Changes = append(p.Changes, fmt.Sprintf("- config.toml [hooks.state.%s] %s", tomlQuote(c.Key), tomlInline(cur)))
			}
			edits = append(edits, stateEdit{Op: "set", To: c.Key, Hash: hash})
			p.Changes = append(p.Changes, fmt.Sprintf("+ config.toml [hooks.state.%s] trusted_hash = %s", tomlQuote(c.Key), tomlQuote(hash)))
		}
	} else {
		// Trust entries install wrote for keys no handler holds any more
		// (CODEX_HOME moved, hooks.json edited by hand) go too.
		held := map[string]bool{}
		for _, c := range after {
			held[c.Key] = true
		}
		for i, h := range doc.headers {
			if k := doc.stateKeyOf(i); k != "" && !held[k] && !vacated[k] && h.Line > 0 &&
				strings.TrimSpace(doc.lines[h.Line-1]) == codexTrustComment {
				edits = append(edits, stateEdit{Op: "remove", From: k})
				p.Changes = append(p.Changes, fmt.Sprintf("- config.toml [hooks.state.%s] (written by install --codex; no hook holds that key)", tomlQuote(k)))
			}
		}
	}
	text, err := applyStateEdits(p.oldConfig, edits)
	if err != nil {
		return fail(exitError, "%s: %v", p.Home.Config, err)
	}
	p.newConfig = text
	return nil
}

// stateKeyOf is the key of header i if it is [hooks.state."<key>"].
func (d *tomlDoc) stateKeyOf(i int) string {
	h := d.headers[i]
	if !h.Array && len(h.Key) == 3 && h.Key[0] == "hooks" && h.Key[1] == "state" {
		return h.Key[2]
	}
	return ""
}

// tomlInline renders a decoded table on one line for the change list.
func tomlInline(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Sprint(v)
	}
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	parts := make([]string, len(ks))
	for i, k := range ks {
		val := fmt.Sprint(m[k])
		if s, ok := m[k].(string); ok {
			val = tomlQuote(s)
		}
		parts[i] = k + " = " + val
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func prefixAll(lines []string, p string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l[:2] + p + l[2:]
	}
	return out
}

// codexChange is what install and uninstall --codex print with --json.
type codexChange struct {
	codexHome
	Changes []string `json:"changes"`
	Notes   []string `json:"notes,omitempty"`
	DryRun  bool     `json:"dry_run"`
	Written bool     `json:"written"`
	Backups []string `json:"backups,omitempty"`
	// Keys: the trust key of each sentinel hook after install.
	Keys map[string]string `json:"keys,omitempty"`
	// Codex is what the Codex binary itself reported (install only).
	Codex *codexVerdict `json:"codex,omitempty"`
}

// writeCodexPlan writes hooks.json then config.toml, each after a backup.
func writeCodexPlan(p *codexPlan) ([]string, error) {
	var backups []string
	if p.hooksDirty {
		b, err := writeSettings(p.Home.Hooks, p.hooks, p.hooksExists)
		if err != nil {
			return backups, fail(exitError, "writing %s: %v", p.Home.Hooks, err)
		}
		if b != "" {
			backups = append(backups, b)
		}
	}
	if p.newConfig != p.oldConfig {
		mode := os.FileMode(0o600)
		if p.configFound {
			st, err := os.Stat(p.Home.Config)
			if err != nil {
				return backups, fail(exitError, "%v", err)
			}
			mode = st.Mode().Perm()
			b := p.Home.Config + ".bak." + time.Now().UTC().Format("20060102T150405.000000000Z")
			if err := os.WriteFile(b, []byte(p.oldConfig), mode); err != nil {
				return backups, fail(exitError, "writing the backup of %s: %v", p.Home.Config, err)
			}
			backups = append(backups, b)
		}
		if err := outfile.WriteFile(p.Home.Config, nil, []byte(p.newConfig), mode); err != nil {
			return backups, fail(exitError, "writing %s: %v (hooks.json is written: until its trust entry is, Codex skips the hook)", p.Home.Config, err)
		}
	}
	return backups, nil
}

// runCodexInstall is install --codex (install true) or uninstall --codex.
func runCodexInstall(w, errw io.Writer, install bool, hookExe string, timeout int, dryRun, asJSON bool, codexBin string) error {
	home, err := findCodexHome()
	if err != nil {
		return fail(exitError, "%v", err)
	}
	p, doc, err := loadCodexFiles(home)
	if err != nil {
		return err
	}
	if err := planCodex(p, doc, install, hookExe, timeout); err != nil {
		return err
	}
	res := codexChange{codexHome: home, Changes: append([]string{}, p.Changes...), Notes: p.Notes, DryRun: dryRun}
	if install {
		res.Keys = p.Keys
	}
	if len(p.Changes) > 0 && !dryRun {
		if install {
			if err := os.MkdirAll(home.Dir, 0o700); err != nil {
				return fail(exitError, "%v", err)
			}
		}
		res.Backups, err = writeCodexPlan(p)
		if err != nil {
			return err
		}
		res.Written = true
	}
	var verifyErr error
	unverified := "no Codex binary found (PATH, --codex-bin, $SENTINEL_CODEX_BIN): not confirmed by Codex itself; sentinel doctor checks it later"
	if install && !dryRun {
		bin, explicit := codexBinary(codexBin)
		if bin != "" {
			res.Codex, verifyErr = verifyCodexTrust(bin, home, p.Keys)
			if verifyErr != nil && !explicit && res.Codex == nil {
				// A codex on PATH that would not answer: said, not fatal.
				unverified = "not confirmed by Codex itself: " + verifyErr.Error()
				verifyErr = nil
			}
		}
	}
	if asJSON {
		if err := protoJSON(w, res); err != nil {
			return err
		}
		return verifyErr
	}
	fmt.Fprintf(w, "%s (Codex hooks), %s (Codex config)\n", home.Hooks, home.Config)
	for _, n := range p.Notes {
		fmt.Fprintf(errw, "sentinel: note: %s\n", n)
	}
	if len(p.Changes) == 0 {
		if install {
			fmt.Fprintln(w, "nothing to change: sentinel is already installed for Codex, trusted")
		} else {
			fmt.Fprintln(w, "nothing to change: no sentinel hooks for Codex")
		}
	}
	for _, c := range p.Changes {
		fmt.Fprintln(w, c)
	}
	switch {
	case len(p.Changes) == 0:
	case dryRun:
		fmt.Fprintln(w, "dry run: nothing written")
	case len(res.Backups) > 0:
		fmt.Fprintf(w, "backup: %s\n", strings.Join(res.Backups, ", "))
	default:
		fmt.Fprintln(w, "created the files")
	}
	if install && !dryRun {
		printCodexVerdict(w, res.Codex, unverified)
	}
	return verifyErr
}
