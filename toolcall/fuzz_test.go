package toolcall

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// FuzzPre feeds arbitrary payloads to the whole PreToolUse path in process
// (judge, register, answer). It must never panic out, must print nothing or
// exactly one well-formed ask or deny, and must never allow what is not a
// payload ParsePayload accepts. It closes the register after every call
// (the hook's exit does that otherwise), and fails if it ran no input.
//
//	go test ./toolcall/ -run '^$' -fuzz FuzzPre -fuzztime 60s -parallel 1
func FuzzPre(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", "*.json"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}`))
	f.Add([]byte(`{"tool_name":"Bash","tool_input":"x"}`))
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"ls"},"TOOL_INPUT":{"command":"rm -rf ~"}}`))
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"git reset --hard\u0000origin/main"}}`))
	f.Add([]byte(``))
	state := f.TempDir()
	// The register on tmpfs when there is one: the same code paths without
	// a disk's fsync per input, so the fuzzer spends its time on inputs.
	if shm, err := os.MkdirTemp("/dev/shm", "fuzzpre"); err == nil {
		state = shm
		f.Cleanup(func() { os.RemoveAll(shm) })
	}
	env := map[string]string{"SENTINEL_HOME": state, "XDG_CONFIG_HOME": filepath.Join(state, "config"),
		"HOME": filepath.Join(state, "home")}
	closeRegister = true
	var ran atomic.Int64
	f.Cleanup(func() {
		closeRegister = false
		// The fuzzing coordinator runs no input itself; its workers and a
		// plain `go test` (the seeds) must have run every one.
		if w := flag.Lookup("test.fuzzworker"); w == nil || w.Value.String() != "true" {
			if !fuzzing() && ran.Load() < int64(len(seeds)) {
				f.Errorf("FuzzPre ran %d inputs, want at least the %d seeds", ran.Load(), len(seeds))
			}
		}
	})
	f.Fuzz(func(t *testing.T, payload []byte) {
		// A hung input would stop the fuzzing (0 execs/sec) while the run
		// still ends in PASS: make it a failure with its stacks instead.
		watchdog := time.AfterFunc(3*MaxBudget, func() {
			buf := make([]byte, 1<<20)
			panic(fmt.Sprintf("FuzzPre: one input ran for %s (the hook's deadline is %s): %q\n%s",
				3*MaxBudget, MaxBudget, payload, buf[:runtime.Stack(buf, true)]))
		})
		defer watchdog.Stop()
		var out, errb bytes.Buffer
		Pre(time.Now(), bytes.NewReader(payload), &out, &errb, func(k string) string { return env[k] }, func(int) {})
		ran.Add(1)
		if strings.Contains(errb.String(), "too many open files") {
			t.Fatalf("descriptors leak: %s", errb.String())
		}
		if out.Len() == 0 {
			if !validPayload(payload) {
				t.Fatalf("allowed a payload that is not a valid payload: %q", payload)
			}
			return
		}
		checkAnswer(t, out.Bytes()) // the deadline's answer to a slow input is one too
	})
}

// validPayload is the independent half of the check: the payload is one
// JSON object with tool_name, tool_input an object.
func validPayload(b []byte) bool {
	if !json.Valid(b) {
		return false
	}
	_, err := ParsePayload(b)
	return err == nil
}

// checkAnswer asserts one well-formed ask or deny with the marker.
func checkAnswer(t *testing.T, b []byte) {
	t.Helper()
	var o output
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("stdout is not the decision JSON: %v: %q", err, b)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value on stdout: %q", b)
	}
	h := o.HookSpecificOutput
	if h.HookEventName != "PreToolUse" || (h.PermissionDecision != "ask" && h.PermissionDecision != "deny") {
		t.Fatalf("bad decision: %+v", h)
	}
	if !strings.HasPrefix(h.PermissionDecisionReason, "sentinel[") || units(h.PermissionDecisionReason) > MaxReason {
		t.Fatalf("bad reason: %q", h.PermissionDecisionReason)
	}
}

// fuzzing reports a -test.fuzz run (the coordinator's view).
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}
