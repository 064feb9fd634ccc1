package main

// Codex runs a user hook only when config.toml trusts it:
// [hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash =
// "sha256:<hex>", the hash of the handler's canonical JSON. Both halves are
// computed here exactly as Codex 0.169.0 does (checked against the
// currentHash and key its app-server reports, codex_appserver_test.go).

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// codexEventLabels are Codex's names for the events in its trust keys.
var codexEventLabels = map[string]string{
	"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request",
	"PostToolUse": "post_tool_use", "PreCompact": "pre_compact", "PostCompact": "post_compact",
	"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit", "Stop": "stop",
}

// codexNoMatcher: events whose matcher Codex leaves out of the hash.
var codexNoMatcher = map[string]bool{"UserPromptSubmit": true, "Stop": true, "PreCompact": true, "PostCompact": true}

// codexOurHooks are the hooks install --codex writes. Codex has no
// PostToolUseFailure: its PostToolUse fires for every call that ran.
var codexOurHooks = []ourHook{preHook, postHook}

// codexHome is where Codex keeps its configuration, resolved as Codex
// resolves it: $CODEX_HOME made absolute with its symlinks resolved (Codex
// refuses one that does not exist), else ~/.codex as is.
type codexHome struct {
	Dir     string `json:"codex_home"`
	Hooks   string `json:"hooks_json"`
	Config  string `json:"config_toml"`
	FromEnv bool   `json:"from_env"`
}

func findCodexHome() (codexHome, error) {
	var h codexHome
	if d := os.Getenv("CODEX_HOME"); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			return h, err
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return h, fmt.Errorf("CODEX_HOME=%s: %v (Codex does not start with a CODEX_HOME that does not exist)", d, err)
		}
		h.Dir, h.FromEnv = real, true
	} else {
		home := os.Getenv("HOME")
		if home == "" {
			var err error
			if home, err = os.UserHomeDir(); err != nil {
				return h, errors.New("cannot find the home directory: set HOME or CODEX_HOME")
			}
		}
		h.Dir = filepath.Join(home, ".codex")
	}
	h.Hooks = filepath.Join(h.Dir, "hooks.json")
	h.Config = filepath.Join(h.Dir, "config.toml")
	return h, nil
}

// codexHandlerHash is the trusted_hash Codex expects for one handler of a
// group: sha256 over the compact, key-sorted JSON of the handler alone in
// its group, with Codex's defaults filled in (timeout 600, async false).
func codexHandlerHash(event string, group, handler *jobject) (string, error) {
	label, ok := codexEventLabels[event]
	if !ok {
		return "", fmt.Errorf("event %q is not one Codex trusts by hash", event)
	}
	norm := map[string]any{"type": "command", "async": false, "timeout": 600}
	for _, k := range handler.keys {
		v := handler.vals[k]
		switch k {
		case "type":
			if v != "command" {
				return "", fmt.Errorf("handler type %v is not a command", v)
			}
		case "command":
			s, ok := v.(string)
			if !ok {
				return "", errors.New("handler command is not a string")
			}
			norm["command"] = s
		case "timeout":
			n, ok := v.(json.Number)
			f, err := n.Float64()
			if !ok || err != nil {
				return "", errors.New("handler timeout is not a number")
			}
			norm["timeout"] = max(1, int64(math.Trunc(f)))
		case "async":
			b, ok := v.(bool)
			if !ok {
				return "", errors.New("handler async is not a boolean")
			}
			norm["async"] = b
		case "statusMessage":
			if v != nil {
				norm["statusMessage"] = v
			}
		default:
			// A field whose place in the hash is not known: refuse, never guess.
			return "", fmt.Errorf("handler field %q is not modelled", k)
		}
	}
	if _, ok := norm["command"]; !ok {
		return "", errors.New("handler has no command")
	}
	ident := map[string]any{"event_name": label, "hooks": []any{norm}}
	if m, ok := group.get("matcher"); ok && m != nil && !codexNoMatcher[event] {
		ident["matcher"] = m
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // serde_json escapes neither <>& nor U+2028/9
	if err := enc.Encode(ident); err != nil {
		return "", err
	}
	s := strings.TrimSuffix(b.String(), "\n")
	s = strings.NewReplacer(`\u2028`, "\u2028", `\u2029`, "\u2029").Replace(s)
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// codexHandler is one handler of hooks.json with its trust key.
type codexHandler struct {
	Event   string
	Key     string
	Group   *jobject
	Handler *jobject
	GroupN  int // handlers in its group
}

func (c codexHandler) command() string {
	s, _ := c.Handler.vals["command"].(string)
	return s
}

// codexHandlers lists every handler of a hooks.json object with the key
// Codex gives it: <path>:<event>:<group index>:<handler index>.
func codexHandlers(o *jobject, path string) []codexHandler {
	var out []codexHandler
	hv, _ := o.get("hooks")
	hooks, ok := hv.(*jobject)
	if !ok {
		return nil
	}
	for _, event := range hooks.keys {
		label, ok := codexEventLabels[event]
		if !ok {
			continue
		}
		groups, _ := hooks.vals[event].([]any)
		for gi, g := range groups {
			gobj, ok := g.(*jobject)
			if !ok {
				continue
			}
			list, _ := gobj.vals["hooks"].([]any)
			for hi, h := range list {
				hobj, ok := h.(*jobject)
				if !ok {
					continue
				}
				out = append(out, codexHandler{Event: event, Key: path + ":" + label + ":" + strconv.Itoa(gi) + ":" + strconv.Itoa(hi),
					Group: gobj, Handler: hobj, GroupN: len(list)})
			}
		}
	}
	return out
}

// ours reports whether a handler is one of sentinel's Codex hooks (exe:
// the hook binary being installed, which --hook-path may name otherwise).
func (c codexHandler) ours(exe string) (ourHook, bool) {
	if c.Handler.vals["type"] != "command" {
		return ourHook{}, false
	}
	for _, h := range codexOurHooks {
		if h.Event == c.Event && h.recognises(c.command(), exe) {
			return h, true
		}
	}
	return ourHook{}, false
}
