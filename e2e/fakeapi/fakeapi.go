// Package fakeapi is a scripted fake of the Anthropic Messages API, for
// driving the real Claude Code CLI against the real hooks, offline.
//
// It plays a script of tool calls as the "model": a request that offers the
// agent's built-in tools (Bash, Read, Write, Edit) is the main conversation
// and is answered with script step k, where k is how many of the script's
// tool_use ids already have a tool_result in the request. Past the end, or on
// a text step, it answers with text and stop_reason end_turn. Every
// tool_result that comes back is recorded once: it is what the model was
// told. Requests without those tools (titles, topic detection, quota
// probes, the auto-mode classifier, ...) are side requests, answered with a
// short text.
//
// Streaming follows the real API's server-sent events: message_start, ping,
// content_block_start / content_block_delta (text_delta, or input_json_delta
// with the tool input split in parts) / content_block_stop per block,
// message_delta with the stop reason, message_stop. The shape was observed
// with Claude Code 2.1.328 (see docs/claude-code.md).
package fakeapi

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Step is one turn of the scripted model: a tool call (Tool and Input, with
// an optional Say text before it) or a final Text.
type Step struct {
	Tool  string          `json:"tool,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	Say   string          `json:"say,omitempty"`
	Text  string          `json:"text,omitempty"`
}

// Script is what the model does in the main conversation.
type Script struct {
	Steps     []Step `json:"steps"`
	FinalText string `json:"final_text,omitempty"`
	// IDPrefix is put in every tool_use id (alphanumerics only) so the ids
	// of different runs differ and say which run they belong to.
	IDPrefix string `json:"id_prefix,omitempty"`
}

// Result is a tool_result the fake received: what the model was told.
type Result struct {
	ToolUseID string `json:"tool_use_id"`
	Step      int    `json:"step"`
	IsError   bool   `json:"is_error"`
	Content   string `json:"content"`
}

// Request is one logged request (bodies of main requests are not kept: they
// carry the whole conversation and the tool list).
type Request struct {
	Time   time.Time `json:"t"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Kind   string    `json:"kind"` // main, side, other
	Tools  int       `json:"n_tools,omitempty"`
	Step   int       `json:"step"` // the step answered (main only), -1 otherwise
	Stream bool      `json:"stream,omitempty"`
}

// Server is the fake API; it is an http.Handler.
type Server struct {
	script Script
	ids    []string

	mu       sync.Mutex
	results  []Result
	seen     map[string]bool
	requests []Request
	notify   chan struct{}
}

// New makes a server for a script. Tool-use ids are random per server.
func New(s Script) *Server {
	prefix := IDPrefix(s.IDPrefix)
	srv := &Server{script: s, seen: map[string]bool{}, notify: make(chan struct{}, 1)}
	for i := range s.Steps {
		srv.ids = append(srv.ids, fmt.Sprintf("toolu_01%s%02d%s", prefix, i, randHex(6)))
	}
	if srv.script.FinalText == "" {
		srv.script.FinalText = "All done."
	}
	return srv
}

// IDs are the tool_use ids of the script's steps (one per step, text steps
// included, so step i has IDs()[i]).
func (s *Server) IDs() []string { return append([]string(nil), s.ids...) }

// Results are the tool_results received so far, in arrival order.
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

// Finished reports whether the final answer (end_turn in the main
// conversation) has been served.
func (s *Server) Finished() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.finishedLocked()
}

func (s *Server) finishedLocked() bool {
	for _, r := range s.requests {
		if r.Kind == "main" && (r.Step >= len(s.script.Steps) || s.script.Steps[r.Step].Tool == "") {
			return true
		}
	}
	return false
}

// Changed is signalled (without blocking, coalesced) after every request.
func (s *Server) Changed() <-chan struct{} { return s.notify }

// IDPrefix is a script's id prefix as it may appear in an id: its
// alphanumerics, at most 12 (e2e/fakeresponses uses it too).
func IDPrefix(s string) string {
	prefix := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
	if len(prefix) > 12 {
		prefix = prefix[:12]
	}
	return prefix
}

// RandHex is n random bytes in hex.
func RandHex(n int) string { return randHex(n) }

func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// ServeHTTP answers the Messages API endpoints Claude Code calls.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		select {
		case s.notify <- struct{}{}:
		default:
		}
	}()
	raw, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	req := Request{Time: time.Now().UTC(), Method: r.Method, Path: r.URL.Path, Kind: "other", Step: -1}
	switch {
	case r.Method == http.MethodHead:
		s.log(req)
		w.WriteHeader(http.StatusOK)
		return
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/models"):
		s.log(req)
		writeJSON(w, map[string]any{"data": []any{}, "has_more": false, "first_id": nil, "last_id": nil})
		return
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/messages/count_tokens"):
		s.log(req)
		writeJSON(w, map[string]any{"input_tokens": 100})
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages"):
		s.log(req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(apiError("not_found_error", "fakeapi: no such endpoint"))
		return
	}
	var body request
	if err := json.Unmarshal(raw, &body); err != nil {
		s.log(req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(apiError("invalid_request_error", "fakeapi: body is not JSON: "+err.Error()))
		return
	}
	req.Stream, req.Tools = body.Stream, len(body.Tools)
	model := body.Model
	if model == "" {
		model = "claude-fake"
	}
	var m *message
	if body.isMain() {
		req.Kind = "main"
		m, req.Step = s.mainAnswer(body, model)
	} else {
		req.Kind = "side"
		m = newMessage(model, []block{{Type: "text", Text: sideAnswer(body)}}, "end_turn", 5)
	}
	s.log(req)
	if body.Stream {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("request-id", "req_fake"+randHex(6))
		w.WriteHeader(http.StatusOK)
		w.Write(SSE(m))
		return
	}
	writeJSON(w, m)
}

func (s *Server) log(r Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r)
	s.mu.Unlock()
}

func writeJSON(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", "req_fake"+randHex(6))
	w.Write(b)
}

func apiError(typ, msg string) map[string]any {
	return map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
}

// mainAnswer records the tool_results the request carries for this script
// and answers with the next step.
func (s *Server) mainAnswer(body request, model string) (*message, int) {
	ours := map[string]int{}
	for i, id := range s.ids {
		ours[id] = i
	}
	got := map[string]bool{}
	s.mu.Lock()
	for _, msg := range body.Messages {
		if msg.Role != "user" {
			continue
		}
		var blocks []contentBlock
		if json.Unmarshal(msg.Content, &blocks) != nil {
			continue // a plain string: no tool results
		}
		for _, b := range blocks {
			step, ok := ours[b.ToolUseID]
			if b.Type != "tool_result" || !ok {
				continue
			}
			got[b.ToolUseID] = true
			if s.seen[b.ToolUseID] {
				continue
			}
			s.seen[b.ToolUseID] = true
			s.results = append(s.results, Result{ToolUseID: b.ToolUseID, Step: step, IsError: b.IsError, Content: textOf(b.Content)})
		}
	}
	s.mu.Unlock()
	k := len(got)
	if k < len(s.script.Steps) && s.script.Steps[k].Tool != "" {
		st := s.script.Steps[k]
		input := st.Input
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		var content []block
		if st.Say != "" {
			content = append(content, block{Type: "text", Text: st.Say})
		}
		content = append(content, block{Type: "tool_use", ID: s.ids[k], Name: st.Tool, Input: input})
		return newMessage(model, content, "tool_use", 30), k
	}
	text := s.script.FinalText
	if k < len(s.script.Steps) {
		text = s.script.Steps[k].Text
	}
	return newMessage(model, []block{{Type: "text", Text: text}}, "end_turn", 20), k
}

// sideAnswer is a harmless answer to a request that is not the main
// conversation: the JSON a title or topic request asks for, else "ok".
func sideAnswer(body request) string {
	blob := strings.ToLower(textOf(body.System))
	if n := len(body.Messages); n > 0 {
		blob += "\n" + strings.ToLower(textOf(body.Messages[n-1].Content))
	}
	squashed := strings.NewReplacer("_", "", " ", "").Replace(blob)
	switch {
	case strings.Contains(blob, "json") && strings.Contains(blob, "title"):
		return `{"title": "Scripted fake session"}`
	case strings.Contains(squashed, "isnewtopic") || strings.Contains(blob, "new topic"):
		return `{"isNewTopic": false, "title": null}`
	case strings.Contains(blob, "title"):
		return "Scripted fake session"
	}
	return "ok"
}

// request is the part of a Messages API request the fake reads.
type request struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	System   json.RawMessage   `json:"system"`
	Messages []requestMessage  `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
}

// isMain: the agent loop offers its built-in tools; side requests do not.
func (r request) isMain() bool {
	for _, t := range r.Tools {
		var tool struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &tool) == nil {
			switch tool.Name {
			case "Bash", "Read", "Write", "Edit":
				return true
			}
		}
	}
	return false
}

type requestMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type contentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// textOf flattens a content value (a string, or a list of blocks) to text.
func textOf(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []json.RawMessage
	if json.Unmarshal(raw, &blocks) != nil {
		return string(raw)
	}
	var out []string
	for _, b := range blocks {
		var cb contentBlock
		if json.Unmarshal(b, &cb) == nil && cb.Type == "text" {
			out = append(out, cb.Text)
		} else {
			out = append(out, string(b))
		}
	}
	return strings.Join(out, "\n")
}

// message is an assistant message as the API returns it.
type message struct {
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	Role         string  `json:"role"`
	Model        string  `json:"model"`
	Content      []block `json:"content"`
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
	Usage        usage   `json:"usage"`
}

type block struct {
	Type  string          `json:"type"`
	Text  string          `json:"text,omitempty"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

type usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

func newMessage(model string, content []block, stop string, outTokens int) *message {
	return &message{ID: "msg_01" + randHex(10), Type: "message", Role: "assistant", Model: model,
		Content: content, StopReason: &stop, Usage: usage{InputTokens: 50, OutputTokens: outTokens}}
}

// SSE renders a message as the real API streams it.
func SSE(m *message) []byte {
	var buf bytes.Buffer
	ev := func(v map[string]any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(&buf, "event: %s\ndata: %s\n\n", v["type"], b)
	}
	start := *m
	start.Content = []block{}
	start.StopReason = nil
	start.Usage.OutputTokens = 1
	ev(map[string]any{"type": "message_start", "message": start})
	ev(map[string]any{"type": "ping"})
	for i, b := range m.Content {
		switch b.Type {
		case "text":
			ev(map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			ev(map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": b.Text}})
		case "tool_use":
			ev(map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
			// The real API streams the input as partial JSON: two parts.
			js := string(b.Input)
			cut := max(1, len(js)/2)
			for _, part := range []string{js[:cut], js[cut:]} {
				ev(map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		}
		ev(map[string]any{"type": "content_block_stop", "index": i})
	}
	ev(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": m.StopReason, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": m.Usage.OutputTokens}})
	ev(map[string]any{"type": "message_stop"})
	return buf.Bytes()
}
