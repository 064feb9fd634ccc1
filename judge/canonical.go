package judge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// Canonical returns the canonical tool input that the register stores and
// commits to: compact JSON, keys sorted, no HTML escaping.
//
//   - Bash: {"command": ...} plus "run_in_background": true when set;
//     description and timeout are dropped (they do not change what runs).
//   - Write: {"content_sha256": hex sha256 of the content's UTF-8 bytes,
//     "file_path": ...}: the digest equals `sha256sum` of the written file.
//   - Edit, MultiEdit, NotebookEdit: {"content_sha256": hex sha256 of the
//     canonical JSON of tool_input without its path key, "file_path" (or
//     "notebook_path"): ...}.
//   - every other tool: tool_input with sorted keys.
//
// The content itself is never kept: the guard does not judge it and it may
// hold secrets. Decide gives the same decision on the canonical input as on
// the original (tested), which is what replay relies on.
func Canonical(tool string, input json.RawMessage) ([]byte, error) {
	obj, err := decodeObject(input)
	if err != nil {
		return nil, err
	}
	switch tool {
	case "Bash":
		cmd, ok := obj["command"].(string)
		if !ok {
			break // judged as an error either way: keep it all
		}
		out := map[string]any{"command": cmd}
		if bg, _ := obj["run_in_background"].(bool); bg {
			out["run_in_background"] = true
		}
		return encodeCanonical(out)
	case "Write":
		p, ok := obj["file_path"].(string)
		if !ok {
			break
		}
		out := map[string]any{"file_path": p}
		if c, ok := obj["content"].(string); ok {
			sum := sha256.Sum256([]byte(c))
			out["content_sha256"] = hex.EncodeToString(sum[:])
		}
		return encodeCanonical(out)
	case "Edit", "MultiEdit", "NotebookEdit":
		key := "file_path"
		if tool == "NotebookEdit" {
			key = "notebook_path"
		}
		p, ok := obj[key].(string)
		if !ok {
			break
		}
		rest := make(map[string]any, len(obj))
		for k, v := range obj {
			if k != key {
				rest[k] = v
			}
		}
		b, err := encodeCanonical(rest)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		return encodeCanonical(map[string]any{key: p, "content_sha256": hex.EncodeToString(sum[:])})
	}
	return encodeCanonical(obj)
}

func decodeObject(input json.RawMessage) (map[string]any, error) {
	if len(bytes.TrimSpace(input)) == 0 {
		return nil, errors.New("tool_input is missing")
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber() // keep numbers exactly as sent
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("tool_input is not a JSON object: %v", err)
	}
	if obj == nil {
		return nil, errors.New("tool_input is null")
	}
	if dec.More() {
		return nil, errors.New("tool_input has trailing data")
	}
	return obj, nil
}

// encodeCanonical writes compact JSON with sorted keys (encoding/json sorts
// map keys) and without HTML escaping.
func encodeCanonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}
