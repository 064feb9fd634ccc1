// Package fakeresponses is a scripted fake of the OpenAI Responses API, for
// driving the real Codex CLI (codex exec) against the real hooks, offline.
// It is the Go form of ../shared/tools/codex/fakeresponses.py, whose shapes
// were checked against codex-cli 0.169.0 (docs: ../shared/docs/codex.md).
//
// A POST to .../responses in the main conversation is answered with script
// step k, where k is how many of the script's call ids already have a tool
// output (function_call_output or custom_tool_call_output) in the request's
// input. Past the end, or on a text step, it answers with an assistant
// message and the turn ends. Every tool output that comes back is recorded
// once: it is what the model was told. A request whose
// x-codex-turn-metadata names a thread_source other than "user" (the TUI's
// thread title, ...) is a side request, answered with text.
//
// Streaming is server-sent events: response.created, one
// response.output_item.done whose item is a function_call ({call_id, name,
// arguments: JSON text}), a custom_tool_call ({call_id, name, input}) or an
// assistant message, then response.completed with usage.
package fakeresponses

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/sentinel-guard/sentinel/e2e/fakeapi"
)

// Step is one turn of the scripted model: a function call (Function with
// Arguments, e.g. exec_command {"cmd": ...}), a freeform custom tool call
// (Custom with Input, e.g. apply_patch and its patch text), or a final Text.
// The string "$SESSION_ID" anywhere in Arguments becomes the unified-exec
// session id the previous output announced ("... session ID N ..."), for
// write_stdin.
type Step struct {
	Function  string          `json:"function,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Custom    string          `json:"custom,omitempty"`
	Input     string          `json:"input,omitempty"`
	Text      string          `json:"text,omitempty"`
}

// Script is what the model does in the main conversation.
type Script struct {
	Steps     []Step `json:"steps"`
	FinalText string `json:"final_text,omitempty"`
	// IDPrefix is put in every call id (alphanumerics only) so the ids of
	// different runs differ and say which run they belong to.
	IDPrefix string `json:"id_prefix,omitempty"`
}

// Result is a tool output the fake received: what the model was told.
type Result struct {
	CallID string `json:"call_id"`
	Step   int    `json:"step"`
	Type   string `json:"type"` // function_call_output, custom_tool_call_output
	Output string `json:"output"`
}

// Request is one logged request (bodies are not kept: they carry the whole
// conversation and the tool list).
type Request struct {
	Time   time.Time `json:"t"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Kind   string    `json:"kind"` // main, side, other
	Step   int       `json:"step"` // the step answered (main only), -1 otherwise
	Tools  []string  `json:"tools,omitempty"`
}

// Server is the fake API; it is an http.Handler.
type Server struct {
	script Script
	ids    []string

	mu       sync.Mutex
	results  []Result
	seen     map[string]bool
	requests []Request
	n        int
}

// New makes a server for a script. Call ids are random per server.
func New(s Script) *Server {
	prefix := fakeapi.IDPrefix(s.IDPrefix)
	srv := &Server{script: s, seen: map[string]bool{}}
	tag := fakeapi.RandHex(4)
	for i := range s.Steps {
		srv.ids = append(srv.ids, fmt.Sprintf("call_%s%s_%02d", prefix, tag, i))
	}
	if srv.script.FinalText == "" {
		srv.script.FinalText = "All done."
	}
	return srv
}

// IDs are the call ids of the script's steps (one per step, text steps
// included, so step i has IDs()[i]).
func (s *Server) IDs() []string { return append([]string(nil), s.ids...) }

// Results are the tool outputs received so far, in arrival order.
func (s *Server) Results() []Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Result(nil), s.results...)
}

// Requests are the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ServeHTTP answers the endpoints Codex calls.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := Request{Time: time.Now().UTC(), Method: r.Method, Path: r.URL.Path, Kind: "other", Step: -1}
	path := strings.TrimRight(r.URL.Path, "/")
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/models"):
		s.log(req)
		w.Header().Set("etag", "fake")
		writeJSON(w, map[string]any{"models": []any{}})
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(path, "/responses"):
		s.log(req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"not found"}`))
		return
	}
	raw, err := body(r)
	var in request
	if err == nil {
		err = json.Unmarshal(raw, &in)
	}
	if err != nil {
		s.log(req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]any{"error": "fakeresponses: " + err.Error()})
		return
	}
	for _, t := range in.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	var meta struct {
		ThreadSource *string `json:"thread_source"`
	}
	json.Unmarshal([]byte(r.Header.Get("x-codex-turn-metadata")), &meta)
	s.mu.Lock()
	s.n++
	respID := fmt.Sprintf("resp_fake_%03d", s.n)
	s.mu.Unlock()
	var events []map[string]any
	if meta.ThreadSource != nil && *meta.ThreadSource != "user" {
		req.Kind = "side"
		events = messageEvents(respID, "Scripted run")
	} else {
		req.Kind = "main"
		events, req.Step = s.mainAnswer(in, respID)
	}
	s.log(req)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	w.Write(SSE(events))
}

// body reads a request body, decompressed as its content-encoding says.
func body(r *http.Request) ([]byte, error) {
	rd := io.LimitReader(r.Body, 64<<20)
	switch strings.ToLower(r.Header.Get("Content-Encoding")) {
	case "gzip":
		zr, err := gzip.NewReader(rd)
		if err != nil {
			return nil, err
		}
		rd = zr
	case "deflate":
		zr, err := zlib.NewReader(rd)
		if err != nil {
			return nil, err
		}
		rd = zr
	case "", "identity":
	default:
		return nil, fmt.Errorf("content-encoding %q not supported", r.Header.Get("Content-Encoding"))
	}
	return io.ReadAll(io.LimitReader(rd, 256<<20))
}

func (s *Server) log(r Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r)
	s.mu.Unlock()
}

func writeJSON(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// request is the part of a Responses API request the fake reads.
type request struct {
	Input []struct {
		Type   string          `json:"type"`
		CallID string          `json:"call_id"`
		Output json.RawMessage `json:"output"`
	} `json:"input"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// mainAnswer records the tool outputs the request carries for this script
// and answers with the next step.
func (s *Server) mainAnswer(in request, respID string) ([]map[string]any, int) {
	ours := map[string]int{}
	for i, id := range s.ids {
		ours[id] = i
	}
	outputs := map[string]string{}
	s.mu.Lock()
	for _, it := range in.Input {
		step, ok := ours[it.CallID]
		if !ok || it.Type != "function_call_output" && it.Type != "custom_tool_call_output" {
			continue
		}
		text := outputText(it.Output)
		outputs[it.CallID] = text
		if !s.seen[it.CallID] {
			s.seen[it.CallID] = true
			s.results = append(s.results, Result{CallID: it.CallID, Step: step, Type: it.Type, Output: text})
		}
	}
	s.mu.Unlock()
	k := len(outputs)
	if k >= len(s.script.Steps) {
		return messageEvents(respID, s.script.FinalText), k
	}
	st := s.script.Steps[k]
	var item map[string]any
	switch {
	case st.Function != "":
		args := "{}"
		if len(st.Arguments) > 0 {
			prev := ""
			if k > 0 {
				prev = outputs[s.ids[k-1]]
			}
			args = fillSession(string(st.Arguments), prev)
		}
		item = map[string]any{"type": "function_call", "id": "fc_" + respID, "call_id": s.ids[k], "name": st.Function, "arguments": args}
	case st.Custom != "":
		item = map[string]any{"type": "custom_tool_call", "id": "ctc_" + respID, "call_id": s.ids[k], "name": st.Custom, "input": st.Input}
	default:
		return messageEvents(respID, st.Text), k
	}
	return []map[string]any{
		{"type": "response.created", "response": map[string]any{"id": respID}},
		{"type": "response.output_item.done", "item": item},
		completed(respID),
	}, k
}

// outputText is a tool output as text: a string, else its JSON.
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

var sessionRe = regexp.MustCompile(`session ID (\d+)`)

// fillSession puts the session id the previous output announced where the
// arguments say "$SESSION_ID" (a JSON string becomes a number), -1 if none.
func fillSession(args, prev string) string {
	id := "-1"
	if m := sessionRe.FindStringSubmatch(prev); m != nil {
		id = m[1]
	}
	return strings.ReplaceAll(args, `"$SESSION_ID"`, id)
}

func completed(respID string) map[string]any {
	return map[string]any{"type": "response.completed", "response": map[string]any{"id": respID, "usage": map[string]any{
		"input_tokens": 10, "input_tokens_details": nil, "output_tokens": 5, "output_tokens_details": nil, "total_tokens": 15}}}
}

func messageEvents(respID, text string) []map[string]any {
	return []map[string]any{
		{"type": "response.created", "response": map[string]any{"id": respID}},
		{"type": "response.output_item.done", "item": map[string]any{
			"type": "message", "role": "assistant", "id": "msg_" + respID,
			"content": []any{map[string]any{"type": "output_text", "text": text}}}},
		completed(respID),
	}
}

// SSE renders events as server-sent events: "event: <type>\ndata: <json>\n\n".
func SSE(events []map[string]any) []byte {
	var buf bytes.Buffer
	for _, ev := range events {
		b, _ := json.Marshal(ev)
		fmt.Fprintf(&buf, "event: %s\ndata: %s\n\n", ev["type"], b)
	}
	return buf.Bytes()
}
