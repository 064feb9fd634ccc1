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
	"github.com/sentinel-guard/sentinel/register"
)

// MaxPayload bounds what is read from stdin. A larger payload is not
// judged (an error decision): reading without a bound would let a hostile
// input exhaust memory before any rule runs.
const MaxPayload = 8 << 20

// Payload is one hook payload as Claude Code or Codex sends it: a
// PreToolUse call, or a PostToolUse / PostToolUseFailure outcome.
type Payload struct {
	judge.Call
	// PostToolUseFailure only. The error text is not decoded: it may hold
	// the command's output, never stored.
	IsInterrupt bool
	// ToolResponse is PostToolUse's tool_response: what the call returned
	// to the model. Never stored: the post hook keeps only the prints of a
	// secret read's (judge.SecretPrintsOf).
	ToolResponse json.RawMessage
	// input are tool_input's members as ParsePayload split them, kept for
	// the faithful-input check (one decode of tool_input, not two).
	input map[string]json.RawMessage
	// dialect is the harness the payload's keys name (Dialect).
	dialect Dialect
}

// codexKeys are the payload keys Codex sends and Claude Code never does
// (docs/codex.md): Codex's payload is Claude Code's shape plus these. Either
// one is enough: answering a Claude Code call in Codex's form is stricter
// (an ask becomes a deny that says it is an ask), answering a Codex call
// in Claude Code's form lets its asks run.
var codexKeys = []string{"turn_id", "model"}

// Dialect is the harness that sent the payload, as its keys say:
// DialectCodex when it holds a key of codexKeys, DialectClaudeCode when it
// is a JSON object without one, DialectUnknown when it could not be read
// as an object at all.
func (p *Payload) Dialect() Dialect { return p.dialect }

// Harness is the register's name for the harness (register.Entry.Harness).
func (dl Dialect) Harness() string {
	if dl == DialectClaudeCode {
		return register.HarnessClaudeCode
	}
	if dl == DialectCodex {
		return register.HarnessCodex
	}
	return "" // unknown: nothing says it was Codex
}

// field is where the value of a payload key is decoded (nil: ignored).
// Keys are matched exactly (encoding/json alone matches them
// case-insensitively, so a "TOOL_INPUT" later in the object would replace
// "tool_input").
func (p *Payload) field(key string) any {
	switch key {
	case "session_id":
		return &p.SessionID
	case "transcript_path":
		return &p.TranscriptPath
	case "cwd":
		return &p.Cwd
	case "permission_mode":
		return &p.PermissionMode
	case "hook_event_name":
		return &p.HookEventName
	case "tool_name":
		return &p.ToolName
	case "tool_input":
		return &p.ToolInput
	case "tool_use_id":
		return &p.ToolUseID
	case "agent_id":
		return &p.AgentID
	case "is_interrupt":
		return &p.IsInterrupt
	case "tool_response":
		return &p.ToolResponse
	}
	return nil
}

// unfaithful is Unfaithful over the members ParsePayload kept.
func (p *Payload) unfaithful() string {
	if p.input == nil {
		return Unfaithful(p.ToolName, p.ToolInput)
	}
	return unfaithful(p.ToolName, p.input)
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
	p.dialect = DialectClaudeCode
	for _, k := range codexKeys {
		if _, ok := obj[k]; ok {
			p.dialect = DialectCodex
		}
	}
	p.Harness = p.dialect.Harness()
	for key, raw := range obj {
		dst := p.field(key)
		if dst == nil || bytes.Equal(raw, []byte("null")) {
			continue
		}
		if err := decodeValue(raw, dst); err != nil {
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
	if p.input, err = objectKeys(in, "tool_input"); err != nil {
		return p, err
	}
	return p, nil
}

// decodeValue decodes one member's value into dst. A string without
// escapes (and in UTF-8: the decoder would replace a bad byte) into a string and any value into a RawMessage are taken as they
// stand (the payload passed json.Valid); the rest goes through
// encoding/json.
func decodeValue(raw []byte, dst any) error {
	switch d := dst.(type) {
	case *string:
		if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
			*d = string(raw[1 : len(raw)-1])
			return nil
		}
	case *json.RawMessage:
		*d = raw
		return nil
	}
	return json.Unmarshal(raw, dst)
}

// objectKeys decodes one JSON object's members without merging keys:
// a repeated key or two keys equal but for case are an error, and so is
// anything after the object. Valid JSON (json.Valid: one pass, no
// allocation) is split by scanMembers; invalid JSON goes through the
// decoder, which says where it breaks.
func objectKeys(data []byte, what string) (map[string]json.RawMessage, error) {
	if json.Valid(data) {
		return scanMembers(data, what)
	}
	return decodeMembers(data, what)
}

// scanMembers splits an object that json.Valid accepted: it only has to
// find where each key and value ends (strings with their escapes, nested
// brackets, literals), not check them again.
func scanMembers(data []byte, what string) (map[string]json.RawMessage, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, fmt.Errorf("%s is not a JSON object", what)
	}
	obj := map[string]json.RawMessage{}
	var folded map[string]string
	for i = skipSpace(data, i+1); data[i] != '}'; i = skipSpace(data, i) {
		if data[i] == ',' {
			i = skipSpace(data, i+1)
		}
		end := stringEnd(data, i)
		key, err := memberKey(data[i:end])
		if err != nil {
			return nil, syntaxError(what, err)
		}
		i = skipSpace(data, skipSpace(data, end)+1) // past the colon
		vend := valueEnd(data, i)
		if _, dup := obj[key]; dup {
			return nil, fmt.Errorf("%s has the key %q twice; not judged", what, key)
		}
		if len(obj) > 0 {
			// only a second key can fold onto a first: fold lazily
			if folded == nil {
				folded = make(map[string]string, 8)
				for k := range obj {
					folded[strings.ToLower(k)] = k
				}
			}
			if other, ok := folded[strings.ToLower(key)]; ok {
				return nil, fmt.Errorf("%s has the keys %q and %q, which differ only in case; not judged", what, other, key)
			}
			folded[strings.ToLower(key)] = key
		}
		obj[key] = data[i:vend:vend]
		i = vend
	}
	return obj, nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index just past the string starting at data[i].
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// valueEnd is the index just past the value starting at data[i].
func valueEnd(data []byte, i int) int {
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = stringEnd(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) && !strings.ContainsRune(",}] \t\n\r", rune(data[j])) {
		j++
	}
	return j
}

// memberKey decodes a key (a string literal, escapes only when present).
func memberKey(lit []byte) (string, error) {
	if bytes.IndexByte(lit, '\\') < 0 && utf8.Valid(lit) {
		return string(lit[1 : len(lit)-1]), nil
	}
	var k string
	err := json.Unmarshal(lit, &k)
	return k, err
}

// decodeMembers is objectKeys with encoding/json's decoder: the error
// messages of invalid JSON come from here.
func decodeMembers(data []byte, what string) (map[string]json.RawMessage, error) {
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
