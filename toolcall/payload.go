package toolcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/sentinel-guard/sentinel/judge"
)

// MaxPayload bounds what is read from stdin. A larger payload is not
// judged (an error decision): reading without a bound would let a hostile
// input exhaust memory before any rule runs.
const MaxPayload = 8 << 20

// Payload is one hook payload as Claude Code sends it: a PreToolUse call,
// or a PostToolUse / PostToolUseFailure outcome.
type Payload struct {
	judge.Call
	// PostToolUseFailure only. The error text is not decoded: like
	// tool_response it may hold the command's output, never stored.
	IsInterrupt bool
}

// payloadFields are the keys decoded, each into its own field. Keys are
// matched exactly (encoding/json alone matches them case-insensitively, so
// a "TOOL_INPUT" later in the object would replace "tool_input").
func (p *Payload) fields() map[string]any {
	return map[string]any{
		"session_id": &p.SessionID, "transcript_path": &p.TranscriptPath, "cwd": &p.Cwd,
		"permission_mode": &p.PermissionMode, "hook_event_name": &p.HookEventName,
		"tool_name": &p.ToolName, "tool_input": &p.ToolInput, "tool_use_id": &p.ToolUseID,
		"agent_id": &p.AgentID, "is_interrupt": &p.IsInterrupt,
	}
}

// IsPost reports an outcome payload (the call already ran).
func (p *Payload) IsPost() bool {
	return p.HookEventName == "PostToolUse" || p.HookEventName == "PostToolUseFailure"
}

// ReadPayload reads stdin up to MaxPayload bytes.
func ReadPayload(stdin io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(stdin, MaxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("reading the payload from stdin: %v", err)
	}
	if len(data) > MaxPayload {
		return nil, fmt.Errorf("payload on stdin is over the %d MiB limit; not judged", MaxPayload>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty payload on stdin: want one JSON object from Claude Code")
	}
	return data, nil
}

// ParsePayload decodes one payload. Unknown keys are ignored; a key given
// twice, or two keys that differ only in case, make it bad input (Claude
// Code never writes either, and which one wins differs between decoders);
// so do bytes that are not UTF-8 (Go would replace them, the shell would
// not). For a PreToolUse payload the fields the decision needs must be
// there with the right types.
func ParsePayload(data []byte) (Payload, error) {
	var p Payload
	if !utf8.Valid(data) {
		return p, errors.New("payload is not valid UTF-8 text; not judged")
	}
	obj, err := objectKeys(data, "payload")
	if err != nil {
		return p, err
	}
	for key, dst := range p.fields() {
		raw, ok := obj[key]
		if !ok || bytes.Equal(raw, []byte("null")) {
			continue
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return p, fmt.Errorf("payload field %q is a JSON %s, want %s", key, te.Value, te.Type)
			}
			return p, fmt.Errorf("payload field %q: %v", key, err)
		}
	}
	if p.IsPost() {
		if p.ToolUseID == "" {
			return p, fmt.Errorf("%s payload has no tool_use_id", p.HookEventName)
		}
		return p, nil
	}
	if p.ToolName == "" {
		return p, errors.New("payload has no tool_name")
	}
	in := bytes.TrimSpace(p.ToolInput)
	if len(in) == 0 || bytes.Equal(in, []byte("null")) {
		return p, fmt.Errorf("payload has no tool_input for tool %s", p.ToolName)
	}
	if in[0] != '{' {
		return p, fmt.Errorf("payload tool_input for tool %s is %s, want a JSON object", p.ToolName, jsonKind(in[0]))
	}
	if _, err := objectKeys(in, "tool_input"); err != nil {
		return p, err
	}
	return p, nil
}

// objectKeys decodes one JSON object's members without merging keys:
// a repeated key or two keys equal but for case are an error, and so is
// anything after the object.
func objectKeys(data []byte, what string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(what, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%s is not a JSON object", what)
	}
	obj := map[string]json.RawMessage{}
	folded := map[string]string{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntaxError(what, err)
		}
		key := tok.(string) // an object's member starts with its key
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntaxError(what, err)
		}
		if _, dup := obj[key]; dup {
			return nil, fmt.Errorf("%s has the key %q twice; not judged", what, key)
		}
		low := strings.ToLower(key)
		if other, ok := folded[low]; ok {
			return nil, fmt.Errorf("%s has the keys %q and %q, which differ only in case; not judged", what, other, key)
		}
		obj[key], folded[low] = raw, key
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, syntaxError(what, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: more than one JSON value", what)
	}
	return obj, nil
}

func syntaxError(what string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s is not valid JSON: unexpected end of JSON input", what)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s is not valid JSON: %v (at byte %d)", what, err, se.Offset)
	}
	return fmt.Errorf("%s is not valid JSON: %v", what, err)
}

func jsonKind(c byte) string {
	switch {
	case c == '"':
		return "a string"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	default:
		return "a number"
	}
}
