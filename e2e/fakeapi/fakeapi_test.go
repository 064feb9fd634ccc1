package fakeapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// event is one server-sent event.
type event struct {
	name string
	data map[string]any
}

func readSSE(t *testing.T, r io.Reader) []event {
	t.Helper()
	var evs []event
	sc := bufio.NewScanner(r)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("data is not JSON: %v: %s", err, line)
			}
			if d["type"] != name {
				t.Fatalf("event %q carries data of type %v", name, d["type"])
			}
			evs = append(evs, event{name, d})
		}
	}
	return evs
}

func post(t *testing.T, url string, body any) *http.Response {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url+"/v1/messages", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

var tools = []map[string]any{{"name": "Bash"}, {"name": "Read"}}

func TestScriptPlaysOverSSE(t *testing.T) {
	srv := New(Script{IDPrefix: "t-1", Steps: []Step{
		{Tool: "Bash", Input: json.RawMessage(`{"command":"echo hi","description":"say hi"}`), Say: "Running."},
		{Text: "Finished."},
	}})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	ids := srv.IDs()
	if len(ids) != 2 || !strings.HasPrefix(ids[0], "toolu_01t100") || ids[0] == ids[1] {
		t.Fatalf("ids %v", ids)
	}

	// First turn: the tool call, streamed block by block.
	resp := post(t, ts.URL, map[string]any{"model": "m", "stream": true, "tools": tools,
		"messages": []any{map[string]any{"role": "user", "content": "go"}}})
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	evs := readSSE(t, resp.Body)
	var names []string
	var partial strings.Builder
	for _, e := range evs {
		names = append(names, e.name)
		if d, ok := e.data["delta"].(map[string]any); ok && d["type"] == "input_json_delta" {
			partial.WriteString(d["partial_json"].(string))
		}
	}
	want := "message_start ping content_block_start content_block_delta content_block_stop " +
		"content_block_start content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}
	if partial.String() != `{"command":"echo hi","description":"say hi"}` {
		t.Fatalf("tool input reassembled %q", partial.String())
	}
	start := evs[5].data["content_block"].(map[string]any)
	if start["id"] != ids[0] || start["name"] != "Bash" {
		t.Fatalf("tool_use block %v", start)
	}
	if d := evs[9].data["delta"].(map[string]any); d["stop_reason"] != "tool_use" {
		t.Fatalf("stop reason %v", d["stop_reason"])
	}
	if srv.Finished() {
		t.Fatal("finished before the final answer")
	}

	// A side request (no agent tools) gets text and does not advance the script.
	side := post(t, ts.URL, map[string]any{"model": "m", "system": "Write a JSON title for this chat",
		"messages": []any{map[string]any{"role": "user", "content": "hi"}}})
	var sm message
	json.NewDecoder(side.Body).Decode(&sm)
	if len(sm.Content) != 1 || !strings.Contains(sm.Content[0].Text, `"title"`) {
		t.Fatalf("side answer %+v", sm)
	}

	// Second turn carries the result, twice (Claude Code resends history):
	// recorded once, answered with the final text.
	result := map[string]any{"role": "user", "content": []any{map[string]any{
		"type": "tool_result", "tool_use_id": ids[0], "is_error": true,
		"content": []any{map[string]any{"type": "text", "text": "denied: no"}}}}}
	for range 2 {
		r := post(t, ts.URL, map[string]any{"model": "m", "tools": tools, "messages": []any{result}})
		var m message
		json.NewDecoder(r.Body).Decode(&m)
		if m.StopReason == nil || *m.StopReason != "end_turn" || m.Content[0].Text != "Finished." {
			t.Fatalf("final answer %+v", m)
		}
	}
	res := srv.Results()
	if len(res) != 1 || res[0].ToolUseID != ids[0] || !res[0].IsError || res[0].Content != "denied: no" || res[0].Step != 0 {
		t.Fatalf("results %+v", res)
	}
	if !srv.Finished() {
		t.Fatal("not finished after the final answer")
	}
}

func TestOtherEndpoints(t *testing.T) {
	ts := httptest.NewServer(New(Script{}))
	defer ts.Close()
	r, err := http.Post(ts.URL+"/v1/messages/count_tokens", "application/json", strings.NewReader(`{}`))
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("count_tokens: %v %v", err, r)
	}
	r, _ = http.Post(ts.URL+"/v1/messages", "application/json", strings.NewReader(`{not json`))
	if r.StatusCode != http.StatusBadRequest {
		t.Fatalf("bad JSON: status %d", r.StatusCode)
	}
	r, _ = http.Get(ts.URL + "/v1/nothing")
	if r.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown path: status %d", r.StatusCode)
	}
	// An empty script answers the main conversation with the final text.
	resp := post(t, ts.URL, map[string]any{"tools": tools, "messages": []any{}})
	var m message
	json.NewDecoder(resp.Body).Decode(&m)
	if m.Content[0].Text != "All done." {
		t.Fatalf("empty script answer %+v", m)
	}
}
