package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzPre feeds arbitrary payloads to the PreToolUse path in process. It
// must never panic out, must print nothing or exactly one well-formed ask
// or deny, and must never allow what is not a JSON payload.
//
//	go test ./cmd/sentinel-hook/ -run '^$' -fuzz FuzzPre -fuzztime 2m -parallel 1
func FuzzPre(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "payloads", "*.json"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}`))
	f.Add([]byte(`{"tool_name":"Bash","tool_input":"x"}`))
	f.Add([]byte(``))
	state := f.TempDir()
	os.Setenv("SENTINEL_HOME", state)
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(state, "config"))
	os.Setenv("HOME", filepath.Join(state, "home"))
	f.Fuzz(func(t *testing.T, payload []byte) {
		var out, errb bytes.Buffer
		runPre(bytes.NewReader(payload), &out, &errb, func(string) string { return "" })
		if out.Len() == 0 {
			if !json.Valid(payload) {
				t.Fatalf("allowed a payload that is not JSON: %q", payload)
			}
			return
		}
		var o output
		dec := json.NewDecoder(&out)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			t.Fatalf("stdout is not the decision JSON: %v: %q", err, out.String())
		}
		if dec.More() {
			t.Fatalf("more than one JSON value on stdout: %q", out.String())
		}
		h := o.HookSpecificOutput
		if h.HookEventName != "PreToolUse" || (h.PermissionDecision != "ask" && h.PermissionDecision != "deny") {
			t.Fatalf("bad decision: %+v", h)
		}
		if !strings.HasPrefix(h.PermissionDecisionReason, "sentinel[") || len(h.PermissionDecisionReason) > 10000 {
			t.Fatalf("bad reason: %q", h.PermissionDecisionReason)
		}
	})
}
