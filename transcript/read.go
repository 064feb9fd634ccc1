package transcript

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
)

// MaxLine is the longest transcript line read. A longer line is counted
// (oversized and unreadable) and skipped without being buffered.
const MaxLine = 16 << 20

// Key is a tool_use id reduced to 16 bytes of its SHA-256: sets of ids stay
// small and hold no text from the transcript.
type Key [16]byte

// KeyOf reduces a tool_use id to its Key.
func KeyOf(id string) Key {
	sum := sha256.Sum256([]byte(id))
	var k Key
	copy(k[:], sum[:16])
	return k
}

// Sources says what was read.
type Sources struct {
	Dirs               int
	Files              int   // transcript files read (fully or in part)
	SubagentFiles      int   // of which subagents'
	Records            int64 // JSON object lines
	UnreadableFiles    int64 // files or subdirectories that could not be opened or read to the end
	UnreadableLines    int64 // lines that are not JSON objects, or oversized
	OversizedLines     int64 // lines longer than MaxLine
	OutsideWindow      int64
	UndatedRecords     int64 // with a window: records without a readable timestamp
	DuplicateToolCalls int64 // tool_use ids already seen (forked, resumed sessions)
	OrphanResults      int64 // results whose call was never seen
	Aborts             int64 // toolDenialKind interrupted, cancelled
	UnknownDenialKinds int64
	SkippedLinks       int64 // symlinks below a root, not followed
	SkippedSpecial     int64 // *.jsonl that are FIFOs, devices, sockets
	StructuredResults  int64 // results with a permissionDecision record
	OlderFiles         int64 // with ModifiedSince: files not read, last modified before it
	CodexFiles         int   // of Files, Codex rollouts (codex.go)
}

// Options bound what is read.
type Options struct {
	// Since (inclusive) and Until (exclusive) bound the window on each
	// record's own timestamp; zero is open. Calls and results outside it are
	// still de-duplicated, and marked InWindow false.
	Since, Until time.Time
	// ModifiedSince, when set, skips files last modified before it (a file
	// written before a time holds no record after it): doctor's bounded
	// look at recent sessions. Skipped files are counted in OlderFiles.
	ModifiedSince time.Time
}

// Call is a tool_use seen in a file (every sighting, duplicates included:
// Off and Size are where it is in this file, for Reread).
type Call struct {
	Key      Key
	ID       string // the tool_use id (it carries no text of the call)
	Session  string // the record's sessionId
	Name     string // the tool's name, e.g. Bash, mcp__x__y
	Dup      bool   // the id was seen before (a forked or resumed copy)
	InWindow bool
	Time     time.Time // zero when the record has no readable timestamp
	Off      int64
	Size     int
}

// Result is a judged tool result, once per tool_use id.
type Result struct {
	Key      Key
	ID       string // the tool_use id, for the outcome join (it carries no text of the call)
	Session  string // the record's sessionId
	InWindow bool
	Time     time.Time
	Verdict
}

// Handler receives what Read finds, file by file in path order, on one
// goroutine. Any field may be nil.
type Handler struct {
	Call     func(path string, c *Call)
	Result   func(path string, r *Result)
	FileDone func(path string) error // after a file's calls and results
}

// Read walks each dir (see the package doc for symlinks, special files,
// unreadable files and long lines), decodes the files on a few workers and
// hands calls and results to h in file order, so that the counts do not
// depend on scheduling. A missing or unreadable dir is an error.
func Read(dirs []string, o Options, h Handler) (*Sources, error) {
	r := &reader{o: o, h: h, calls: NewSeen()}
	defer r.calls.Close()
	for _, dir := range dirs {
		files, wc, err := listFiles(dir)
		if err != nil {
			return &r.src, fmt.Errorf("reading transcripts: %w", err)
		}
		r.src.Dirs++
		r.src.SkippedLinks += wc.links
		r.src.SkippedSpecial += wc.special
		r.src.UnreadableFiles += wc.unreadableDirs
		if !o.ModifiedSince.IsZero() {
			kept := files[:0]
			for _, f := range files {
				if st, err := os.Lstat(f); err == nil && st.ModTime().Before(o.ModifiedSince) {
					r.src.OlderFiles++
					continue
				}
				kept = append(kept, f)
			}
			files = kept
		}
		if err := r.scanFiles(files); err != nil {
			return &r.src, err
		}
	}
	return &r.src, r.calls.Err()
}

// call flags, per distinct tool_use id (kept in a Seen).
const (
	flagCall   uint8 = 1 << iota // the tool_use was seen
	flagMCP                      // an mcp__* tool: its result text is never matched
	flagResult                   // a result was judged (de-dup of forked copies)
)

type reader struct {
	o     Options
	h     Handler
	src   Sources
	calls *Seen
}

// event is a tool call or a result that a worker found in one file.
type event struct {
	result   bool
	key      Key
	name     string
	inWindow bool
	t        time.Time
	off      int64
	size     int
	id       string
	session  string
	in       resultIn
}

// fileScan is what a worker read from one file.
type fileScan struct {
	path   string
	o      *Options
	src    Sources // the line counters of this file
	events []event
	line   []byte
	err    error
	cx     codexScan
}

func (r *reader) scanFiles(files []string) error {
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
				results[i] <- decodeFile(files[i], &r.o)
			}
		}()
	}
	for i := range files {
		fs := <-results[i]
		<-ahead
		if fs.err != nil {
			// Counted and skipped; what was read before a read error counts:
			// one bad file must not hide every other session.
			r.src.UnreadableFiles++
			if fs.events == nil && fs.src.Records == 0 && fs.src.UnreadableLines == 0 {
				continue
			}
		}
		if err := r.apply(fs); err != nil {
			return err
		}
	}
	return nil
}

// decodeFile streams one file into its events and counters.
func decodeFile(path string, o *Options) *fileScan {
	fs := &fileScan{path: path, o: o, cx: codexScan{on: IsCodexRollout(path)}}
	f, err := openFile(path)
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

// record reads only the fields needed from one transcript line.
// message.content is a string (a prompt) or an array of blocks; a string
// leaves Content empty with a *json.UnmarshalTypeError, which is fine.
type record struct {
	Type               string              `json:"type"`
	Timestamp          string              `json:"timestamp"`
	SessionID          string              `json:"sessionId"`
	Entrypoint         string              `json:"entrypoint"`
	ToolDenialKind     string              `json:"toolDenialKind"`
	PermissionDecision *PermissionDecision `json:"permissionDecision"`
	ToolUseResult      turString           `json:"toolUseResult"`
	Message            struct {
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

var (
	patToolUse    = []byte(`"tool_use"`)
	patToolResult = []byte(`"tool_result"`)
	patDenialKind = []byte(`"toolDenialKind"`)
	patDecision   = []byte(`"permissionDecision"`)
	patIsError    = []byte(`"is_error"`)
	patTURString  = []byte(`"toolUseResult":"`)
	patTURString2 = []byte(`"toolUseResult": "`)
)

// needsDecode says whether a line can hold a tool call, a result that may be
// a stop, or the harness's record of a decision. Quotes inside JSON strings
// are escaped, so these patterns only match keys and values of the record
// itself. Other lines are only validated.
func needsDecode(line []byte) bool {
	if bytes.Contains(line, patToolUse) || bytes.Contains(line, patDenialKind) {
		return true
	}
	return bytes.Contains(line, patToolResult) &&
		(bytes.Contains(line, patIsError) || bytes.Contains(line, patDecision) ||
			bytes.Contains(line, patTURString) || bytes.Contains(line, patTURString2))
}

// handleLine counts one record and keeps its calls and possible stops.
func (fs *fileScan) handleLine(line []byte, off int64, size int) {
	if fs.cx.on {
		fs.handleCodexLine(line, off, size)
		return
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if !needsDecode(line) {
		if line[0] == '{' && json.Valid(line) {
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
	t, inWindow := fs.when(rec.Timestamp)
	for i := range blocks {
		b := &blocks[i]
		switch {
		case rec.Type == "assistant" && b.Type == "tool_use" && b.ID != "":
			fs.events = append(fs.events, event{key: KeyOf(b.ID), id: b.ID, session: rec.SessionID, name: b.Name, inWindow: inWindow, t: t, off: off, size: size})
		case rec.Type == "user" && b.Type == "tool_result" && b.ToolUseID != "":
			ev := event{result: true, key: KeyOf(b.ToolUseID), id: b.ToolUseID, session: rec.SessionID,
				inWindow: inWindow, t: t}
			ev.in = resultIn{denialKind: rec.ToolDenialKind, pd: rec.PermissionDecision, isError: b.IsError,
				esc:      rec.ToolUseResult.ok && rec.ToolUseResult.s == TxtUserEsc,
				headless: rec.Entrypoint == "sdk-cli"}
			if b.IsError || rec.ToolDenialKind != "" || rec.ToolUseResult.ok || rec.PermissionDecision != nil {
				ev.in.snip = resultSnippet(&rec, b)
			}
			fs.events = append(fs.events, ev)
		}
	}
}

// when parses a record's timestamp and says whether it is in the window;
// records without a readable timestamp are in it only when none is set.
func (fs *fileScan) when(ts string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		t = time.Time{}
	}
	o := fs.o
	if o.Since.IsZero() && o.Until.IsZero() {
		return t, true
	}
	if t.IsZero() {
		fs.src.UndatedRecords++
		return t, false
	}
	if (!o.Since.IsZero() && t.Before(o.Since)) || (!o.Until.IsZero() && !t.Before(o.Until)) {
		fs.src.OutsideWindow++
		return t, false
	}
	return t, true
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

// apply adds one file's counters and hands its events on.
func (r *reader) apply(fs *fileScan) error {
	src := &r.src
	src.Files++
	if IsSubagent(fs.path) {
		src.SubagentFiles++
	}
	if fs.cx.on {
		src.CodexFiles++
	}
	src.Records += fs.src.Records
	src.UnreadableLines += fs.src.UnreadableLines
	src.OversizedLines += fs.src.OversizedLines
	src.OutsideWindow += fs.src.OutsideWindow
	src.UndatedRecords += fs.src.UndatedRecords
	r.calls.BeginFile()
	for i := range fs.events {
		if ev := &fs.events[i]; ev.result {
			r.result(fs.path, ev)
		} else {
			r.call(fs.path, ev)
		}
	}
	r.calls.EndFile()
	if r.h.FileDone != nil {
		return r.h.FileDone(fs.path)
	}
	return nil
}

func (r *reader) call(path string, ev *event) {
	f := r.calls.Flags(ev.key)
	c := Call{Key: ev.key, ID: ev.id, Session: ev.session, Name: ev.name, InWindow: ev.inWindow, Time: ev.t, Off: ev.off, Size: ev.size}
	if f&flagCall != 0 {
		r.src.DuplicateToolCalls++
		c.Dup = true
	} else {
		f |= flagCall
		if strings.HasPrefix(ev.name, "mcp__") {
			f |= flagMCP
		}
		r.calls.Set(ev.key, f)
	}
	if r.h.Call != nil {
		r.h.Call(path, &c)
	}
}

func (r *reader) result(path string, ev *event) {
	f := r.calls.Flags(ev.key)
	if f&flagResult != 0 {
		return // the same result copied into a forked or resumed session
	}
	seen := f&flagCall != 0
	if !seen {
		r.src.OrphanResults++
	}
	in := &ev.in
	// An MCP tool writes its own result text, so it is never matched; but
	// with toolDenialKind or permissionDecision the harness decided before
	// the tool ran and wrote the text itself.
	in.textOK = seen && (f&flagMCP == 0 || in.denialKind != "" || in.pd != nil)
	if !in.textOK {
		in.snip = snippet{}
	}
	if in.denialKind != "" && !KnownDenialKind(in.denialKind) {
		r.src.UnknownDenialKinds++
	}
	if IsAbort(in.denialKind) && ev.inWindow {
		r.src.Aborts++
	}
	if in.pd != nil {
		r.src.StructuredResults++
	}
	r.calls.Set(ev.key, f|flagResult)
	if r.h.Result != nil {
		res := Result{Key: ev.key, ID: ev.id, Session: ev.session, InWindow: ev.inWindow, Time: ev.t, Verdict: attribute(in)}
		r.h.Result(path, &res)
	}
}
