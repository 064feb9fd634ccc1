package fakeresponses

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// post sends a Responses request with the given input items and returns
// the output item of the answer.
func post(t *testing.T, url string, source string, input ...map[string]any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"model": "gpt-5.5", "input": input, "tools": []any{map[string]any{"name": "exec_command"}}})
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/responses", bytes.NewReader(b))
	if source != "" {
		req.Header.Set("x-codex-turn-metadata", `{"thread_source":"`+source+`"}`)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var item map[string]any
	var types []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatal(err)
		}
		types = append(types, ev["type"].(string))
		if ev["type"] == "response.output_item.done" {
			item = ev["item"].(map[string]any)
		}
	}
	if strings.Join(types, " ") != "response.created response.output_item.done response.completed" {
		t.Fatalf("events %v", types)
	}
	return item
}

// TestScript plays a script: each step once its predecessors' outputs came
// back, the outputs recorded once, side requests never advancing it.
func TestScript(t *testing.T) {
	srv := New(Script{IDPrefix: "t-1", FinalText: "Finished.", Steps: []Step{
		{Function: "exec_command", Arguments: json.RawMessage(`{"cmd":"bash","tty":true}`)},
		{Function: "write_stdin", Arguments: json.RawMessage(`{"session_id":"$SESSION_ID","chars":"ls\n"}`)},
		{Custom: "apply_patch", Input: "*** Begin Patch\n*** End Patch\n"},
	}})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ids := srv.IDs()
	if len(ids) != 3 || !strings.HasPrefix(ids[0], "call_t1") {
		t.Fatalf("ids %v", ids)
	}
	it := post(t, hs.URL, "user")
	if it["type"] != "function_call" || it["call_id"] != ids[0] || it["name"] != "exec_command" || it["arguments"] != `{"cmd":"bash","tty":true}` {
		t.Fatalf("step 0: %v", it)
	}
	if it := post(t, hs.URL, "subagent"); it["type"] != "message" {
		t.Fatalf("side request: %v", it)
	}
	out0 := map[string]any{"type": "function_call_output", "call_id": ids[0], "output": "Process running with session ID 4711\n"}
	it = post(t, hs.URL, "", out0)
	if it["name"] != "write_stdin" || it["arguments"] != `{"session_id":4711,"chars":"ls\n"}` {
		t.Fatalf("step 1: %v", it)
	}
	out1 := map[string]any{"type": "function_call_output", "call_id": ids[1], "output": "ok"}
	it = post(t, hs.URL, "user", out0, out1)
	if it["type"] != "custom_tool_call" || it["input"] != "*** Begin Patch\n*** End Patch\n" {
		t.Fatalf("step 2: %v", it)
	}
	out2 := map[string]any{"type": "custom_tool_call_output", "call_id": ids[2], "output": "Command blocked by PreToolUse hook: no"}
	// An output for a call of another script does not count.
	other := map[string]any{"type": "function_call_output", "call_id": "call_other", "output": "x"}
	it = post(t, hs.URL, "user", out0, out1, out2, other)
	if it["type"] != "message" {
		t.Fatalf("final: %v", it)
	}
	res := srv.Results()
	if len(res) != 3 || res[2].Type != "custom_tool_call_output" || res[2].Output != "Command blocked by PreToolUse hook: no" || res[0].Step != 0 {
		t.Fatalf("results %+v", res)
	}
	var main, side int
	for _, r := range srv.Requests() {
		switch r.Kind {
		case "main":
			main++
		case "side":
			side++
		}
	}
	if main != 4 || side != 1 {
		t.Fatalf("requests: %d main, %d side", main, side)
	}
}
