package main

// doctor for OpenAI's Codex CLI: every way Codex would skip sentinel-hook
// without a word, found before it matters. Codex runs a user hook only
// when it is trusted by a hash of its exact handler, enabled, the hooks
// feature is on in the user config and in every trusted project's
// .codex/config.toml, and hooks.json parses; and it lets the call run on
// any answer but a deny with a reason or exit 2 with stderr.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// codexProbePayload is a call every sentinel denies, in Codex's shape
// (Claude Code's plus turn_id and model; codex exec always sends
// bypassPermissions).
func codexProbePayload(cwd, id string) []byte {
	b, _ := json.Marshal(map[string]any{
		"session_id": "sentinel-doctor-" + id, "turn_id": "sentinel-doctor-turn-" + id, "transcript_path": nil,
		"cwd": cwd, "hook_event_name": "PreToolUse", "model": "gpt-5.5", "permission_mode": "bypassPermissions",
		"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf ~/"},
		"tool_use_id": probeToolUseID("Codex", id),
	})
	return b
}

// codexBlocks judges a hook's answer by what Codex 0.169.0 does with it:
// exit 0 with a deny and a non-empty reason (or decision block with a
// reason), or exit 2 with text on stderr. Everything else runs the call.
func codexBlocks(r hookProbeRun) error {
	switch r.exit {
	case 2:
		if strings.TrimSpace(r.stderr) == "" {
			return errors.New("exited 2 with nothing on stderr: Codex runs the call")
		}
		return nil
	case 0:
	default:
		return fmt.Errorf("exited %d (stderr %q): Codex runs the call", r.exit, firstLine(r.stderr))
	}
	var out struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
		HSO      struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(bytes.TrimSpace([]byte(r.stdout)), &out); err != nil {
		return fmt.Errorf("answered %q, not one JSON object: Codex runs the call", firstLine(r.stdout))
	}
	switch {
	case out.HSO.Decision == "deny" && strings.TrimSpace(out.HSO.Reason) != "":
	case out.Decision == "block" && strings.TrimSpace(out.Reason) != "":
	case out.HSO.Decision == "deny":
		return errors.New("denied without a reason: Codex runs the call")
	case out.HSO.Decision != "":
		return fmt.Errorf("answered %q: Codex runs the call (it rejects ask, and allow does not block)", out.HSO.Decision)
	default:
		return fmt.Errorf("answered %q, no deny: Codex runs the call", firstLine(r.stdout))
	}
	return nil
}

// tomlFeatureHooksOff reports whether a decoded config sets [features] hooks = false.
func tomlFeatureHooksOff(data map[string]any) bool {
	f, _ := data["features"].(map[string]any)
	v, ok := f["hooks"].(bool)
	return ok && !v
}

// checkCodex adds the Codex checks. force: --codex (a missing CODEX_HOME
// fails); otherwise they run only when Codex's home exists.
func checkCodex(rep *doctorReport, force bool, codexBin string) {
	const name = "codex"
	home, err := findCodexHome()
	if err != nil {
		if force || os.Getenv("CODEX_HOME") != "" {
			rep.add(name, doctorFail, err.Error(), "set CODEX_HOME to Codex's directory, or unset it for ~/.codex")
		}
		return
	}
	if st, err := os.Stat(home.Dir); err != nil || !st.IsDir() {
		if force {
			rep.add(name, doctorFail, fmt.Sprintf("no Codex home at %s: sentinel is not installed for Codex", home.Dir), "sentinel install --codex")
		}
		return
	}
	o, _, err := readSettings(home.Hooks)
	if err != nil {
		rep.add("codex hooks.json", doctorFail, fmt.Sprintf("%v: Codex skips every hook of a hooks.json it cannot parse, sentinel's included", err),
			"fix the JSON by hand, then sentinel install --codex")
		return
	}
	cfgText, err := readSettingsFile(home.Config)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		rep.add("codex config", doctorFail, err.Error(), "")
		return
	}
	doc, err := parseCodexTOML(string(cfgText))
	if err != nil {
		rep.add("codex config", doctorFail, fmt.Sprintf("%s does not parse (%s): Codex does not start", home.Config, tomlErrText(err)), "fix it by hand")
		return
	}
	if tomlFeatureHooksOff(doc.data) {
		rep.add("codex feature", doctorFail, fmt.Sprintf("%s sets [features] hooks = false: Codex runs no hook, sentinel's included", home.Config),
			"remove \"hooks = false\" from [features] there")
	}
	checkCodexProjects(rep, doc.data)
	state := hooksState(doc.data)
	keys := map[string]string{}
	for _, h := range codexOurHooks {
		missing := doctorFail
		what := "no tool call Codex makes is judged"
		if h.Event == postHook.Event {
			missing, what = doctorWarn, "the register will not record which allowed calls ran"
		}
		var found []codexHandler
		for _, c := range codexHandlers(o, home.Hooks) {
			if oh, ok := c.ours(""); ok && oh.Event == h.Event && len(oh.Args) == len(h.Args) {
				found = append(found, c)
			}
		}
		hname := "codex " + h.Event
		if len(found) == 0 {
			rep.add(hname, missing, fmt.Sprintf("sentinel-hook is not a Codex %s hook in %s: %s", h.Event, home.Hooks, what), "sentinel install --codex")
			continue
		}
		for _, c := range found {
			checkCodexHandler(rep, hname, home, c, state, missing)
			keys[h.Event] = c.Key
		}
	}
	if bin, _ := codexBinary(codexBin); bin == "" {
		rep.add("codex confirms", doctorOK, "no Codex binary (--codex-bin, $SENTINEL_CODEX_BIN, codex on PATH): the trust hashes were computed here, not confirmed by Codex", "")
	} else if len(keys) > 0 {
		v, err := verifyCodexTrust(bin, home, keys)
		switch {
		case v == nil:
			rep.add("codex confirms", doctorWarn, err.Error(), "check that "+bin+" runs")
		case !v.OK:
			rep.add("codex confirms", doctorFail, fmt.Sprintf("%s app-server hooks/list: %s", bin, strings.Join(v.Problems, "; ")), "sentinel install --codex")
		default:
			rep.add("codex confirms", doctorOK, fmt.Sprintf("%s app-server hooks/list: sentinel's hooks trusted and enabled", bin), "")
		}
	}
	rep.add("codex flags", doctorOK, "not visible in any file, so not checked: a Codex started with --disable hooks or --ignore-user-config runs no sentinel hook (with --dangerously-bypass-hook-trust it runs them untrusted); wrappers and aliases that add them switch the guard off", "")
}

// checkCodexHandler checks one of sentinel's handlers: matcher, timeout,
// its trust entry against the hash of the handler as it is now, enabled,
// and that it blocks a dangerous call the way Codex needs.
func checkCodexHandler(rep *doctorReport, name string, home codexHome, c codexHandler, state map[string]any, missing string) {
	where := fmt.Sprintf("%s (%s)", home.Hooks, c.Key)
	m, _ := c.Group.get("matcher")
	if m != "*" {
		rep.add(name, missing, fmt.Sprintf("%s: sentinel-hook runs only for tools matching %v", where, m), "sentinel install --codex")
		return
	}
	exe := hookExecutable(c.command())
	if exe == "" || !isExecutable(exe) {
		rep.add(name, missing, fmt.Sprintf("%s: %s is not an executable file: Codex runs every call unguarded", where, c.command()), "make build; sentinel install --codex")
		return
	}
	to, hasTO := c.Handler.get("timeout")
	if !hasTO {
		rep.add(name, doctorWarn, fmt.Sprintf("%s: no timeout: Codex waits up to 600 s for a hook that hangs, then runs the call", where), "sentinel install --codex")
	}
	hash, err := codexHandlerHash(c.Event, c.Group, c.Handler)
	if err != nil {
		rep.add(name, missing, fmt.Sprintf("%s: %v", where, err), "sentinel install --codex")
		return
	}
	entry, _ := state[c.Key].(map[string]any)
	trusted, _ := entry["trusted_hash"].(string)
	switch {
	case entry == nil:
		msg := fmt.Sprintf("%s: no [hooks.state] trust entry in %s: Codex skips the hook without a word", where, home.Config)
		if old := movedTrust(state, c, hash); old != "" {
			msg += fmt.Sprintf("; the trust entry %s has this hash: CODEX_HOME moved (the key holds the old absolute path)", old)
		}
		rep.add(name, missing, msg, "sentinel install --codex")
		return
	case trusted != hash:
		rep.add(name, missing, fmt.Sprintf("%s: trusted_hash %s is stale (the handler hashes to %s: it changed since it was trusted): Codex skips the hook without a word", where, trusted, hash), "sentinel install --codex")
		return
	}
	if e, ok := entry["enabled"].(bool); ok && !e {
		rep.add(name, missing, fmt.Sprintf("%s: enabled = false in its [hooks.state] table: Codex skips it", where), "remove \"enabled = false\" there, or sentinel install --codex")
		return
	}
	rep.add(name, doctorOK, fmt.Sprintf("%s: %s for every tool (timeout %v), trusted by hash", where, c.command(), timeoutText(fmt.Sprint(to), "default 600")), "")
	if c.Event != preHook.Event {
		return
	}
	timeout := hookProbeTimeout
	if s, err := strconv.ParseFloat(fmt.Sprint(to), 64); err == nil && s > 0 && time.Duration(s*float64(time.Second)) < timeout {
		timeout = time.Duration(s * float64(time.Second))
	}
	// Codex's environment: not Claude Code's.
	env := []string{"CLAUDECODE=", "CLAUDE_PROJECT_DIR="}
	err = runHookProbe(c.command(), timeout, codexProbePayload, env, "Codex", func(r hookProbeRun) error {
		if err := codexBlocks(r); err != nil {
			return err
		}
		return probeRegistered(filepath.Join(r.state, "register.db"), r.toolUseID)
	})
	if err != nil {
		rep.add("codex hook answers", doctorFail, fmt.Sprintf("%s, run as Codex runs it on a Codex payload, %v: a dangerous call would not be stopped", c.command(), err),
			"point the hook at the real sentinel-hook (make build; sentinel install --codex)")
		return
	}
	rep.add("codex hook answers", doctorOK, fmt.Sprintf("%s blocks a known dangerous call (rm -rf ~/) on a Codex payload as Codex needs (deny with a reason, or exit 2 with stderr) and registers it in a throwaway state directory", c.command()), "")
}

// movedTrust finds a trust entry for another hooks.json with this
// handler's event and hash: the sign of a moved CODEX_HOME.
func movedTrust(state map[string]any, c codexHandler, hash string) string {
	label := ":" + codexEventLabels[c.Event] + ":"
	var ks []string
	for k := range state {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		e, _ := state[k].(map[string]any)
		if i := strings.Index(k, label); i > 0 && k != c.Key && e["trusted_hash"] == hash {
			return k
		}
	}
	return ""
}

// checkCodexProjects: a trusted project's .codex/config.toml with
// [features] hooks = false turns every hook off in sessions there (an
// untrusted project's file is ignored, so only trusted ones count).
func checkCodexProjects(rep *doctorReport, data map[string]any) {
	projects, _ := data["projects"].(map[string]any)
	var dirs []string
	for d, v := range projects {
		if p, _ := v.(map[string]any); p["trust_level"] == "trusted" {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		f := filepath.Join(d, ".codex", "config.toml")
		b, err := readSettingsFile(f)
		if err != nil {
			continue
		}
		pd, err := parseCodexTOML(string(b))
		if err != nil {
			rep.add("codex project", doctorWarn, fmt.Sprintf("trusted project %s: %s does not parse (%s)", d, f, tomlErrText(err)), "fix it by hand")
			continue
		}
		if tomlFeatureHooksOff(pd.data) {
			rep.add("codex project", doctorFail, fmt.Sprintf("trusted project %s: %s sets [features] hooks = false: Codex runs no hook in sessions there, sentinel's included", d, f),
				"remove \"hooks = false\" from [features] there, or untrust the project")
		}
	}
}
