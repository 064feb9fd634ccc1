package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
)

// Rereader reads calls back from one file, for in-memory classification of
// a stopped call (the census keeps only the class). Close it when done.
type Rereader struct {
	f *os.File
}

// OpenRereader opens path the same way Read does (no links, no FIFOs).
func OpenRereader(path string) (*Rereader, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	return &Rereader{f: f}, nil
}

// Close closes the file.
func (rr *Rereader) Close() error { return rr.f.Close() }

// ToolUse returns the name and input of the tool_use with key k in the line
// a Call reported (c.Off, c.Size). ok is false when the line no longer
// holds it (the file changed) or is over MaxLine.
func (rr *Rereader) ToolUse(c *Call) (name string, input json.RawMessage, ok bool, err error) {
	if c.Size <= 0 || c.Size > MaxLine+2 {
		return "", nil, false, nil
	}
	buf := make([]byte, c.Size)
	if _, err := rr.f.ReadAt(buf, c.Off); err != nil && !errors.Is(err, io.EOF) {
		return "", nil, false, err
	}
	var rec struct {
		Message struct {
			Content []struct {
				Type  string          `json:"type"`
				ID    string          `json:"id"`
				Name  string          `json:"name"`
				Input json.RawMessage `json:"input"`
			} `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(bytes.TrimSpace(buf), &rec) != nil {
		return "", nil, false, nil
	}
	for _, b := range rec.Message.Content {
		if b.Type == "tool_use" && KeyOf(b.ID) == c.Key {
			return b.Name, b.Input, true, nil
		}
	}
	return "", nil, false, nil
}
