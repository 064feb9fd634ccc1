package outcome

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Fixed texts of the user's rejection at the permission prompt
// (docs: claude-code.md §2). Only prefixes are compared; the rest of a
// result, which may hold commands and paths, is never kept.
const (
	rejectPrompt   = "The user doesn't want to proceed with this tool use. The tool use was rejected"
	rejectSubagent = "Permission for this tool use was denied. The tool use was rejected"
	rejectEsc      = "User rejected tool use"
	kindRejected   = "user-rejected"
)

// maxLine bounds one transcript line; longer lines are skipped whole (a
// rejection record is short).
const maxLine = 8 << 20

// Rejections holds the tool_use ids the user rejected at the prompt.
type Rejections struct {
	IDs   map[string]bool
	Files int // transcript files read
	// Skipped counts lines that were too long or not JSON.
	Skipped int
}

// DefaultTranscriptDir is $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects.
func DefaultTranscriptDir(home string) string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "projects")
	}
	return filepath.Join(home, ".claude", "projects")
}

// ReadRejections walks dir for *.jsonl transcripts (subagents included) and
// collects the user's rejections. A missing dir yields no rejections and
// no error: asks then stay unknown, which is the honest answer.
func ReadRejections(dir string) (*Rejections, error) {
	rj := &Rejections{IDs: map[string]bool{}}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == dir {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		rj.Files++
		return rj.scan(f)
	})
	return rj, err
}

// record holds only the fields a rejection is recognised by.
type record struct {
	Type           string          `json:"type"`
	ToolDenialKind string          `json:"toolDenialKind"`
	ToolUseResult  json.RawMessage `json:"toolUseResult"`
	Message        struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

// scan reads one transcript. mcp__* tool results write their own text, so
// text is never matched for them (only toolDenialKind counts).
func (rj *Rejections) scan(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	mcp := map[string]bool{}
	for {
		line, err := readLine(br)
		if line == nil && err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if len(line) > maxLine {
			rj.Skipped++
			continue
		}
		// Cheap filters before decoding: most lines are neither.
		isUse := bytes.Contains(line, []byte(`"mcp__`))
		isResult := bytes.Contains(line, []byte(`"tool_result"`)) && bytes.Contains(line, []byte("reject"))
		if !isUse && !isResult {
			continue
		}
		var rec record
		if json.Unmarshal(line, &rec) != nil {
			rj.Skipped++
			continue
		}
		var blocks []block
		if json.Unmarshal(rec.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			switch {
			case b.Type == "tool_use" && strings.HasPrefix(b.Name, "mcp__"):
				mcp[b.ID] = true
			case b.Type == "tool_result" && rec.Type == "user" && b.ToolUseID != "":
				if rec.rejected(b, !mcp[b.ToolUseID]) {
					rj.IDs[b.ToolUseID] = true
				}
			}
		}
	}
}

func (rec *record) rejected(b block, textOK bool) bool {
	if rec.ToolDenialKind != "" {
		return rec.ToolDenialKind == kindRejected
	}
	if !textOK {
		return false
	}
	var tur string
	if json.Unmarshal(rec.ToolUseResult, &tur) == nil && tur == rejectEsc {
		return true
	}
	t := firstText(b.Content)
	return strings.HasPrefix(t, rejectPrompt) || strings.HasPrefix(t, rejectSubagent)
}

// firstText is a tool_result's content as a string, or its first text block.
func firstText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		for _, p := range parts {
			if p.Type == "text" {
				return strings.TrimSpace(p.Text)
			}
		}
	}
	return ""
}

// readLine returns one line without its newline; lines over maxLine are
// returned truncated to maxLine+1 bytes so the caller can skip them.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if room := maxLine + 1 - len(buf); room > 0 {
			buf = append(buf, chunk[:min(room, len(chunk))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && len(buf) == 0 {
			return nil, err
		}
		return bytes.TrimRight(buf, "\r\n"), nil
	}
}
