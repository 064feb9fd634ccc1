package census

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// MaxLine is the longest transcript line read. A longer line is counted
// unreadable and skipped without being buffered.
const MaxLine = 16 << 20

// idKey is a tool_use id reduced to 16 bytes of its SHA-256: the set of
// ids seen stays small and holds no text from the transcript.
type idKey [16]byte

func keyOf(id string) idKey {
	sum := sha256.Sum256([]byte(id))
	var k idKey
	copy(k[:], sum[:16])
	return k
}

// call flags, per distinct tool_use id.
const (
	flagCall    uint8 = 1 << iota // the tool_use was seen
	flagMCP                       // an mcp__* tool: its result text is never matched
	flagCounted                   // counted as a tool call (in the window)
	flagResult                    // a result was judged (de-dup of forked copies)
)

// record reads only the fields the census needs from one transcript line.
// message.content is a string (a prompt) or an array of blocks; a string
// leaves Content empty with a *json.UnmarshalTypeError, which is fine: the
// decoder skips the value and goes on (one pass instead of decoding a raw
// copy again).
type record struct {
	Type           string    `json:"type"`
	Timestamp      string    `json:"timestamp"`
	ToolDenialKind string    `json:"toolDenialKind"`
	ToolUseResult  turString `json:"toolUseResult"`
	Message        struct {
		Content []block `json:"content"`
	} `json:"message"`
}

// turString keeps toolUseResult only when it is a string (a denial's
// "Error: ..." or "User rejected tool use"); the object of a successful
// call, often large, is skipped.
type turString struct {
	s  string
	ok bool
}

func (t *turString) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		t.ok = json.Unmarshal(data, &t.s) == nil
	}
	return nil
}

// block is one element of message.content; Content (a tool result's) is
// kept raw and decoded only when the result may be a stop.
type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// scanner holds the counts and the id set across all files.
type scanner struct {
	opts    *Options
	calls   map[idKey]uint8
	r       *Report
	ruleIDs []pendingRule // permission-rule stops of the current file
	uses    map[idKey]useAt
	line    []byte // reused line buffer
	// sentinelIDs are the tool_use ids of the sentinel's stops seen in
	// transcripts, for the register cross-check.
	sentinelIDs map[idKey]struct{}
	// rejected are the tool_use ids the user rejected at the prompt, for
	// the outcome join (ids only; they carry no text of the call).
	rejected map[string]bool
}

// useAt is where in the current file a tool_use was written, so that a
// call stopped by a permission rule can be re-read and classified.
type useAt struct {
	off  int64
	size int
}

type pendingRule struct{ key idKey }

func newScanner(o *Options, r *Report) *scanner {
	return &scanner{
		opts:        o,
		calls:       make(map[idKey]uint8, 1<<14),
		r:           r,
		uses:        make(map[idKey]useAt),
		sentinelIDs: make(map[idKey]struct{}),
		rejected:    make(map[string]bool),
	}
}

// transcriptFiles lists the *.jsonl files under dir, sorted, main sessions
// and subagents alike. A missing directory is an error.
func transcriptFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // an unreadable subdirectory is skipped
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

func isSubagent(p string) bool {
	return filepath.Base(filepath.Dir(p)) == "subagents"
}

// scanFile streams one transcript file.
func (s *scanner) scanFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	s.r.Sources.TranscriptFiles++
	if isSubagent(path) {
		s.r.Sources.SubagentFiles++
	}
	clear(s.uses)
	s.ruleIDs = s.ruleIDs[:0]

	br := bufio.NewReaderSize(f, 256<<10)
	var off int64
	for {
		line, n, over, err := s.readLine(br)
		if n > 0 {
			if over {
				s.r.Sources.UnreadableLines++
				s.r.Sources.OversizedLines++
			} else {
				s.handleLine(line, off, n)
			}
		}
		off += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	return s.classifyRuleStops(f)
}

// readLine returns the next line without its newline, the bytes consumed,
// and whether it was longer than MaxLine (then line is nil).
func (s *scanner) readLine(br *bufio.Reader) (line []byte, n int, over bool, err error) {
	s.line = s.line[:0]
	for {
		chunk, e := br.ReadSlice('\n')
		n += len(chunk)
		if !over {
			if len(s.line)+len(chunk) > MaxLine+1 {
				over = true
				s.line = s.line[:0]
			} else {
				s.line = append(s.line, chunk...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if over {
			return nil, n, true, e
		}
		return bytes.TrimRight(s.line, "\r\n"), n, false, e
	}
}

var (
	patToolUse    = []byte(`"tool_use"`)
	patToolResult = []byte(`"tool_result"`)
	patDenialKind = []byte(`"toolDenialKind"`)
	patIsError    = []byte(`"is_error"`)
	patTURString  = []byte(`"toolUseResult":"`)
	patTURString2 = []byte(`"toolUseResult": "`)
)

// needsDecode says whether a line can hold a tool call or a result that may
// be a stop. Quotes inside JSON strings are escaped, so these patterns only
// match keys and values of the record itself. A result with no is_error, no
// toolDenialKind and no toolUseResult string (every successful call) cannot
// be a stop and is only validated.
func needsDecode(line []byte) bool {
	if bytes.Contains(line, patToolUse) || bytes.Contains(line, patDenialKind) {
		return true
	}
	return bytes.Contains(line, patToolResult) &&
		(bytes.Contains(line, patIsError) || bytes.Contains(line, patTURString) || bytes.Contains(line, patTURString2))
}

// handleLine counts one record.
func (s *scanner) handleLine(line []byte, off int64, size int) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	// Most records hold no tool call or result: validate them only.
	if !needsDecode(line) {
		if json.Valid(line) && line[0] == '{' {
			s.r.Sources.Records++
		} else {
			s.r.Sources.UnreadableLines++
		}
		return
	}
	var rec record
	if err := json.Unmarshal(line, &rec); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || line[0] != '{' {
			s.r.Sources.UnreadableLines++
			return
		}
	}
	s.r.Sources.Records++
	if rec.Type != "assistant" && rec.Type != "user" {
		return // unknown and bookkeeping types are skipped
	}
	blocks := rec.Message.Content
	if len(blocks) == 0 {
		return
	}
	inWindow := s.inWindow(rec.Timestamp)
	for i := range blocks {
		b := &blocks[i]
		switch {
		case rec.Type == "assistant" && b.Type == "tool_use" && b.ID != "":
			s.toolUse(b, inWindow, off, size)
		case rec.Type == "user" && b.Type == "tool_result" && b.ToolUseID != "":
			s.toolResult(&rec, b, inWindow)
		}
	}
}

// inWindow reports whether a record's timestamp is in the window; records
// without a readable timestamp are counted only when no window is set.
func (s *scanner) inWindow(ts string) bool {
	o := s.opts
	if o.Since.IsZero() && o.Until.IsZero() {
		return true
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		s.r.Sources.UndatedRecords++
		return false
	}
	if (!o.Since.IsZero() && t.Before(o.Since)) || (!o.Until.IsZero() && !t.Before(o.Until)) {
		s.r.Sources.OutsideWindow++
		return false
	}
	return true
}

func (s *scanner) toolUse(b *block, inWindow bool, off int64, size int) {
	k := keyOf(b.ID)
	f := s.calls[k]
	if f&flagCall != 0 {
		s.r.Sources.DuplicateToolCalls++
	} else {
		f |= flagCall
		if strings.HasPrefix(b.Name, "mcp__") {
			f |= flagMCP
		}
		if inWindow {
			f |= flagCounted
			s.r.ToolCalls.Count++
		}
	}
	s.calls[k] = f
	// The offset is per file: a forked copy has its own.
	s.uses[k] = useAt{off: off, size: size}
}

func (s *scanner) toolResult(rec *record, b *block, inWindow bool) {
	k := keyOf(b.ToolUseID)
	f, seen := s.calls[k]
	if f&flagResult != 0 {
		return // the same result copied into a forked or resumed session
	}
	if !seen || f&flagCall == 0 {
		s.r.Sources.OrphanResults++
	}
	// An MCP tool writes its own result text, so it is never matched; but
	// with toolDenialKind the harness denied the call before the tool ran
	// and wrote the text itself.
	textOK := seen && f&flagCall != 0 && (f&flagMCP == 0 || rec.ToolDenialKind != "")
	// Only a result that can be a stop is decoded: an error, a denial
	// kind, or the Esc rejection's toolUseResult string.
	var snip snippet
	if textOK && (b.IsError || rec.ToolDenialKind != "" || rec.ToolUseResult.ok) {
		snip = resultSnippet(rec, b)
	}
	if _, known := denialKinds[rec.ToolDenialKind]; rec.ToolDenialKind != "" && !known {
		s.r.Sources.UnknownDenialKinds++
	}
	if rec.ToolDenialKind == "interrupted" || rec.ToolDenialKind == "cancelled" {
		if inWindow {
			s.r.Sources.Aborts++
		}
	}
	v := judge(rec.ToolDenialKind, snip, b.IsError, textOK)
	s.calls[k] = f | flagResult
	if v.stopper == StopUser {
		s.rejected[b.ToolUseID] = true
	}
	if v.stopper == "" || !inWindow {
		return
	}
	st := &s.r.Stops
	st.Total++
	switch v.stopper {
	case StopClassifier:
		st.Classifier.Total++
		st.Classifier.ByKind[v.kind]++
		if v.kind == kindBlocked {
			st.Classifier.ByCategory[v.category]++
		}
	case StopRules:
		st.PermissionRules.Total++
		s.ruleIDs = append(s.ruleIDs, pendingRule{key: k})
	case StopNoHuman:
		st.NoHumanMode.Total++
	case StopSentinel:
		st.Sentinel.Total++
		s.sentinelIDs[k] = struct{}{}
	case StopOtherHooks:
		st.OtherHooks.Total++
	case StopUser:
		st.User.Total++
	}
}

// resultSnippet takes the head and tail of a result's text: the
// tool_result content (a string, or its first text block), else the
// toolUseResult string without "Error: ".
func resultSnippet(rec *record, b *block) snippet {
	if t, ok := contentText(b.Content); ok {
		return newSnippet(t)
	}
	if rec.ToolUseResult.ok {
		return newSnippet(strings.TrimPrefix(rec.ToolUseResult.s, "Error: "))
	}
	return snippet{}
}

func contentText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '"':
		var t string
		if json.Unmarshal(raw, &t) == nil {
			return t, true
		}
	case '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(raw, &parts) == nil {
			for _, p := range parts {
				if p.Type == "text" {
					return p.Text, true
				}
			}
		}
	}
	return "", false
}

// classifyRuleStops re-reads, from this file, the calls stopped by a
// permission rule and maps each to its class. Only the class is kept.
func (s *scanner) classifyRuleStops(f *os.File) error {
	for _, p := range s.ruleIDs {
		class := classOther
		if at, ok := s.uses[p.key]; ok && at.size <= MaxLine {
			buf := make([]byte, at.size)
			if _, err := f.ReadAt(buf, at.off); err != nil && !errors.Is(err, io.EOF) {
				return err
			}
			class = s.classOfLine(buf, p.key)
		}
		s.r.Stops.PermissionRules.ByClass[class]++
	}
	return nil
}

// classOfLine finds the tool_use with the given id in a line and classifies it.
func (s *scanner) classOfLine(line []byte, k idKey) string {
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
	if json.Unmarshal(bytes.TrimSpace(line), &rec) != nil {
		return classOther
	}
	for _, b := range rec.Message.Content {
		if b.Type == "tool_use" && keyOf(b.ID) == k {
			return classOfCall(b.Name, b.Input, s.opts.Analyse)
		}
	}
	return classOther
}
