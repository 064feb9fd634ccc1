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
	"runtime"
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

// event is a tool call, or a result that may be a stop, that a worker
// found in one file; the scanner applies each file's events in file order,
// so the counts do not depend on which worker ran first.
type event struct {
	result     bool
	key        idKey
	mcp        bool // a call of an mcp__* tool
	inWindow   bool
	off        int64 // a call: where its line starts in the file
	size       int
	isError    bool   // a result: is_error
	denialKind string // a result: toolDenialKind
	id         string // a result: the tool_use id, for the outcome join
	esc        bool   // a result: toolUseResult is "User rejected tool use"
	snip       snippet
}

// fileScan is what a worker read from one file.
type fileScan struct {
	path   string
	opts   *Options
	src    Sources // the line counters of this file
	events []event
	line   []byte // reused line buffer
	err    error
}

// scanFiles decodes files on up to GOMAXPROCS workers (JSON decoding is
// the cost) and applies them in order. At most 2 files per worker are
// decoded ahead of the one being applied, so memory stays bounded.
func (s *scanner) scanFiles(files []string) error {
	workers := min(runtime.GOMAXPROCS(0), 4)
	results := make([]chan *fileScan, len(files))
	for i := range results {
		results[i] = make(chan *fileScan, 1)
	}
	ahead := make(chan struct{}, 2*workers)
	next := make(chan int)
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(next)
		for i := range files {
			select {
			case ahead <- struct{}{}:
			case <-done:
				return
			}
			select {
			case next <- i:
			case <-done:
				return
			}
		}
	}()
	for range workers {
		go func() {
			for i := range next {
				results[i] <- decodeFile(files[i], s.opts)
			}
		}()
	}
	for i := range files {
		fs := <-results[i]
		<-ahead
		if fs.err != nil {
			// A file that cannot be opened or read to the end is counted
			// and skipped (what was read before a read error still counts):
			// one bad file must not hide every other session.
			s.r.Sources.UnreadableFiles++
			if fs.events == nil {
				continue
			}
		}
		if err := s.apply(fs); err != nil {
			return err
		}
	}
	return nil
}

// decodeFile streams one transcript file into its events and counters.
// It touches no shared state.
func decodeFile(path string, o *Options) *fileScan {
	fs := &fileScan{path: path, opts: o}
	f, err := os.Open(path)
	if err != nil {
		fs.err = err
		return fs
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 256<<10)
	var off int64
	for {
		line, n, over, err := fs.readLine(br)
		if n > 0 {
			if over {
				fs.src.UnreadableLines++
				fs.src.OversizedLines++
			} else {
				fs.handleLine(line, off, n)
			}
		}
		off += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			fs.err = err
			break
		}
	}
	return fs
}

// readLine returns the next line without its newline, the bytes consumed,
// and whether it was longer than MaxLine (then line is nil).
func (fs *fileScan) readLine(br *bufio.Reader) (line []byte, n int, over bool, err error) {
	fs.line = fs.line[:0]
	for {
		chunk, e := br.ReadSlice('\n')
		n += len(chunk)
		if !over {
			if len(fs.line)+len(chunk) > MaxLine+1 {
				over = true
				fs.line = fs.line[:0]
			} else {
				fs.line = append(fs.line, chunk...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if over {
			return nil, n, true, e
		}
		return bytes.TrimRight(fs.line, "\r\n"), n, false, e
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

// handleLine counts one record and keeps its calls and possible stops.
func (fs *fileScan) handleLine(line []byte, off int64, size int) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	// Most records hold no tool call or result: validate them only.
	if !needsDecode(line) {
		if json.Valid(line) && line[0] == '{' {
			fs.src.Records++
		} else {
			fs.src.UnreadableLines++
		}
		return
	}
	var rec record
	if err := json.Unmarshal(line, &rec); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || line[0] != '{' {
			fs.src.UnreadableLines++
			return
		}
	}
	fs.src.Records++
	if rec.Type != "assistant" && rec.Type != "user" {
		return // unknown and bookkeeping types are skipped
	}
	blocks := rec.Message.Content
	if len(blocks) == 0 {
		return
	}
	inWindow := fs.inWindow(rec.Timestamp)
	for i := range blocks {
		b := &blocks[i]
		switch {
		case rec.Type == "assistant" && b.Type == "tool_use" && b.ID != "":
			fs.events = append(fs.events, event{key: keyOf(b.ID), mcp: strings.HasPrefix(b.Name, "mcp__"),
				inWindow: inWindow, off: off, size: size})
		case rec.Type == "user" && b.Type == "tool_result" && b.ToolUseID != "":
			ev := event{result: true, key: keyOf(b.ToolUseID), id: b.ToolUseID, inWindow: inWindow,
				isError: b.IsError, denialKind: rec.ToolDenialKind,
				esc: rec.ToolUseResult.ok && rec.ToolUseResult.s == txtUserEsc}
			// Only a result that can be a stop is decoded: an error, a
			// denial kind, or the Esc rejection's toolUseResult string.
			if b.IsError || rec.ToolDenialKind != "" || rec.ToolUseResult.ok {
				ev.snip = resultSnippet(&rec, b)
			}
			fs.events = append(fs.events, ev)
		}
	}
}

// inWindow reports whether a record's timestamp is in the window; records
// without a readable timestamp are counted only when no window is set.
func (fs *fileScan) inWindow(ts string) bool {
	o := fs.opts
	if o.Since.IsZero() && o.Until.IsZero() {
		return true
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		fs.src.UndatedRecords++
		return false
	}
	if (!o.Since.IsZero() && t.Before(o.Since)) || (!o.Until.IsZero() && !t.Before(o.Until)) {
		fs.src.OutsideWindow++
		return false
	}
	return true
}

// apply adds one file's counters and events, then classifies the calls in
// it that a permission rule stopped.
func (s *scanner) apply(fs *fileScan) error {
	src := &s.r.Sources
	src.TranscriptFiles++
	if isSubagent(fs.path) {
		src.SubagentFiles++
	}
	src.Records += fs.src.Records
	src.UnreadableLines += fs.src.UnreadableLines
	src.OversizedLines += fs.src.OversizedLines
	src.OutsideWindow += fs.src.OutsideWindow
	src.UndatedRecords += fs.src.UndatedRecords
	clear(s.uses)
	s.ruleIDs = s.ruleIDs[:0]
	for i := range fs.events {
		if ev := &fs.events[i]; ev.result {
			s.toolResult(ev)
		} else {
			s.toolUse(ev)
		}
	}
	if len(s.ruleIDs) == 0 {
		return nil
	}
	f, err := os.Open(fs.path)
	if err != nil {
		return err
	}
	defer f.Close()
	return s.classifyRuleStops(f)
}

func (s *scanner) toolUse(ev *event) {
	k := ev.key
	f := s.calls[k]
	if f&flagCall != 0 {
		s.r.Sources.DuplicateToolCalls++
	} else {
		f |= flagCall
		if ev.mcp {
			f |= flagMCP
		}
		if ev.inWindow {
			f |= flagCounted
			s.r.ToolCalls.Count++
		}
	}
	s.calls[k] = f
	// The offset is per file: a forked copy has its own.
	s.uses[k] = useAt{off: ev.off, size: ev.size}
}

func (s *scanner) toolResult(ev *event) {
	k := ev.key
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
	textOK := seen && f&flagCall != 0 && (f&flagMCP == 0 || ev.denialKind != "")
	snip := ev.snip
	if !textOK {
		snip = snippet{}
	}
	if _, known := denialKinds[ev.denialKind]; ev.denialKind != "" && !known {
		s.r.Sources.UnknownDenialKinds++
	}
	if (ev.denialKind == "interrupted" || ev.denialKind == "cancelled") && ev.inWindow {
		s.r.Sources.Aborts++
	}
	v := attribute(ev.denialKind, snip, ev.isError, textOK)
	if v.stopper == "" && ev.esc && textOK && ev.denialKind == "" {
		// An Esc rejection: the harness's toolUseResult says so, whatever
		// the content and is_error hold.
		v = verdict{stopper: StopUser}
	}
	s.calls[k] = f | flagResult
	if v.stopper == StopUser {
		s.rejected[ev.id] = true
	}
	if v.stopper == "" || !ev.inWindow {
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
