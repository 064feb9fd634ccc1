package census

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/internal/safefile"
)

// MaxWitnessLine bounds one line of a witness file; a longer line is
// counted unreadable and skipped without being buffered.
const MaxWitnessLine = 1 << 20

// ReadWitness reads the witness files: each path is a file or a directory
// (its regular files, recursively; links and special files are passed
// over). Each file's form is told from its content: systemd's journal
// (journalctl -o json), syslog text with cron's lines, GitHub's gh run
// list/view --json record, or JSON Lines {"start", "end", "session_id"}.
// A file of none of these forms is an error naming it.
func ReadWitness(paths []string) (*Witness, error) {
	w := &Witness{kinds: map[string]bool{}}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("reading the witness: %w", err)
		}
		if !fi.IsDir() {
			if err := w.readFile(p); err != nil {
				return nil, err
			}
			continue
		}
		var files []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading the witness: %w", err)
		}
		sort.Strings(files)
		for _, f := range files {
			if err := w.readFile(f); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range w.files {
		f.index()
	}
	return w, nil
}

func (w *Witness) readFile(path string) error {
	f, err := safefile.Open(path)
	if err != nil {
		return fmt.Errorf("reading the witness: %w", err)
	}
	defer f.Close()
	var mtime time.Time
	if fi, err := f.Stat(); err == nil {
		mtime = fi.ModTime()
	}
	br := bufio.NewReaderSize(f, 64<<10)
	first := firstByte(br)
	fr := &fileRead{w: w, f: &witnessFile{}, path: path, mtime: mtime, kinds: map[string]bool{}, units: map[string]*unitState{}, cron: map[string]int{}}
	switch first {
	case 0:
		return nil // empty: nothing recorded
	case '[':
		err = fr.wholeJSON(br)
	case '{':
		err = fr.lines(br, true)
	default:
		err = fr.lines(br, false)
	}
	if err != nil {
		return err
	}
	fr.finish()
	if len(fr.kinds) == 0 {
		return fmt.Errorf("%s: not a witness this census reads (systemd journal JSON, syslog with cron lines, gh run list/view --json, or JSON Lines {\"start\",\"end\"})", path)
	}
	for k := range fr.kinds {
		w.kinds[k] = true
	}
	w.files = append(w.files, fr.f)
	return nil
}

func firstByte(br *bufio.Reader) byte {
	for i := 1; ; i++ {
		b, err := br.Peek(i)
		if len(b) < i || err != nil {
			return 0
		}
		switch c := b[i-1]; c {
		case ' ', '\t', '\r', '\n':
			if i == 4096 {
				return 0
			}
		default:
			return c
		}
	}
}

// fileRead is the state of one file's reading.
type fileRead struct {
	w        *Witness
	f        *witnessFile
	path     string
	mtime    time.Time
	kinds    map[string]bool
	units    map[string]*unitState // systemd service runs by manager and unit
	cron     map[string]int        // open cron runs: index in cronRuns by pid
	cronRuns []witnessRun
}

func (fr *fileRead) setKind(k string) { fr.kinds[k] = true }

func (fr *fileRead) seen(t time.Time) {
	if t.IsZero() {
		return
	}
	fr.w.records++
	fr.f.seen(t)
}

// lines reads the file line by line: JSON objects (journal, JSON Lines,
// compact gh objects) when asJSON, else syslog text. A JSON file whose
// first line is a lone "{" is pretty-printed (gh run view): read whole.
func (fr *fileRead) lines(br *bufio.Reader, asJSON bool) error {
	began := false
	for n := 1; ; n++ {
		line, long, err := readLine(br)
		if long {
			fr.w.unreadable++
		} else if len(bytes.TrimSpace(line)) > 0 {
			if asJSON && !began && string(bytes.TrimSpace(line)) == "{" {
				return fr.wholeJSON(io.MultiReader(bytes.NewReader(append(line, '\n')), br))
			}
			if asJSON {
				if err := fr.jsonLine(line, n); err != nil {
					return err
				}
			} else {
				fr.syslogLine(string(line))
			}
			began = true
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the witness %s: %w", fr.path, err)
		}
	}
}

// readLine returns one line without its newline; a line over
// MaxWitnessLine is read to its end, not kept, and reported long.
func readLine(br *bufio.Reader) (line []byte, long bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			if len(buf)+len(chunk) > MaxWitnessLine {
				long, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), long, err
	}
}

// wholeJSON reads a gh array or pretty-printed objects.
func (fr *fileRead) wholeJSON(r io.Reader) error {
	data, err := io.ReadAll(io.LimitReader(r, MaxCIFile+1))
	if err != nil {
		return fmt.Errorf("reading the witness %s: %w", fr.path, err)
	}
	if len(data) > MaxCIFile {
		return fmt.Errorf("%s: over the %d MiB limit for a JSON document", fr.path, MaxCIFile>>20)
	}
	return eachJSONValue(fr.path, data, func(raw json.RawMessage, line int) error {
		return fr.jsonLine(raw, line)
	})
}

// journalRecord holds the journal fields the join needs; the rest of the
// record (host names, messages of other programs) is not kept.
type journalRecord struct {
	Realtime   jstr `json:"__REALTIME_TIMESTAMP"`
	Unit       jstr `json:"UNIT"`
	UserUnit   jstr `json:"USER_UNIT"`
	SysUnit    jstr `json:"_SYSTEMD_UNIT"`
	SysUser    jstr `json:"_SYSTEMD_USER_UNIT"`
	Message    jstr `json:"MESSAGE"`
	MessageID  jstr `json:"MESSAGE_ID"`
	JobType    jstr `json:"JOB_TYPE"`
	JobResult  jstr `json:"JOB_RESULT"`
	PID        jstr `json:"_PID"`
	UID        jstr `json:"_UID"`
	Identifier jstr `json:"SYSLOG_IDENTIFIER"`
	Cmdline    jstr `json:"_CMDLINE"`

	// The other forms.
	Start      *string `json:"start"`
	End        *string `json:"end"`
	Session    *string `json:"session_id"`
	CreatedAt  *string `json:"createdAt"`
	StartedAt  *string `json:"startedAt"`
	UpdatedAt  *string `json:"updatedAt"`
	Status     *string `json:"status"`
	Conclusion *string `json:"conclusion"`
}

// jstr is a journal field: a string, an array of bytes (a field that is
// not valid UTF-8), an array of strings (a repeated field: the first is
// kept) or null.
type jstr string

func (j *jstr) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*j = jstr(s)
		return nil
	}
	var bs []byte
	var nums []uint8
	if json.Unmarshal(b, &nums) == nil {
		bs = nums
		*j = jstr(bs)
		return nil
	}
	var ss []string
	if json.Unmarshal(b, &ss) == nil && len(ss) > 0 {
		*j = jstr(ss[0])
	}
	return nil
}

func (fr *fileRead) jsonLine(line []byte, n int) error {
	var rec journalRecord
	if err := json.Unmarshal(line, &rec); err != nil {
		fr.w.unreadable++
		return nil
	}
	switch {
	case rec.Realtime != "":
		fr.setKind(WitnessSystemd)
		us, err := strconv.ParseInt(string(rec.Realtime), 10, 64)
		if err != nil {
			fr.w.unreadable++
			return nil
		}
		fr.journal(&rec, time.UnixMicro(us).UTC())
	case rec.Start != nil:
		fr.setKind(WitnessJSONL)
		return fr.plain(&rec, n)
	case rec.CreatedAt != nil || rec.StartedAt != nil:
		fr.setKind(WitnessGitHub)
		return fr.github(&rec, n)
	default:
		return fmt.Errorf("%s line %d: not a witness record (want a journal record with __REALTIME_TIMESTAMP, {\"start\": RFC3339, \"end\": RFC3339}, or a gh run with createdAt)", fr.path, n)
	}
	return nil
}

func (fr *fileRead) plain(rec *journalRecord, n int) error {
	start, err := time.Parse(time.RFC3339Nano, *rec.Start)
	if err != nil {
		return fmt.Errorf("%s line %d: start %q is not an RFC 3339 time", fr.path, n, *rec.Start)
	}
	r := witnessRun{start: start, end: start, openEnd: true}
	fr.seen(start)
	if rec.End != nil && *rec.End != "" {
		end, err := time.Parse(time.RFC3339Nano, *rec.End)
		if err != nil || end.Before(start) {
			return fmt.Errorf("%s line %d: end must be an RFC 3339 time not before start", fr.path, n)
		}
		r.end, r.openEnd = end, false
		fr.seen(end)
	}
	if rec.Session != nil && *rec.Session != "" {
		r.sessions = []string{*rec.Session}
	}
	fr.f.add(r)
	return nil
}

// github reads one run of gh run list/view --json: live from startedAt
// (else createdAt) to updatedAt; without updatedAt, or still in progress,
// its end is open.
func (fr *fileRead) github(rec *journalRecord, n int) error {
	at := rec.StartedAt
	if at == nil || *at == "" {
		at = rec.CreatedAt
	}
	start, err := time.Parse(time.RFC3339Nano, deref(at))
	if err != nil {
		return fmt.Errorf("%s line %d: a GitHub run needs startedAt or createdAt as an RFC 3339 time", fr.path, n)
	}
	fr.seen(start)
	r := witnessRun{start: start, end: start, openEnd: true}
	if u, err := time.Parse(time.RFC3339Nano, deref(rec.UpdatedAt)); err == nil && !u.Before(start) {
		r.end = u
		fr.seen(u)
		done := deref(rec.Status) == "completed" || (rec.Status == nil && deref(rec.Conclusion) != "")
		r.openEnd = !done
	}
	fr.f.add(r)
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// unitState is one systemd service's runs in a journal.
type unitState struct {
	open    int // index in runs of the open run, -1 when none
	last    int // index of the last closed run, -1 when none
	runs    []witnessRun
	started bool // a start was seen
}

// Fixed message ids of systemd's catalog (sd-messages.h).
const (
	msgUnitStarting = "7d4958e842da4a758f6c1cdc7b36dcc5"
	msgUnitStarted  = "39f53479d3a045ac8e11786248231fbf"
	msgUnitStopped  = "9d1aaa27d60140bd96365438aad20286"
	msgUnitFailed   = "be02cf6855d2428ba40df7e9d022f03d"
	msgUnitSuccess  = "7ad2d189f7e94e70a38c781354912448"
	msgUnitResult   = "d9b373ed55a64feb8242e02dbe79a49c"
	msgProcessExit  = "98e322203f7a4ed290d09fe03c09fe15"
)

// journal reads one journal record: a manager's message about a service
// (UNIT for the system manager, USER_UNIT for a user's) starts or ends a
// run; a unit's own process line names its session where its command
// line does; cron's lines in the journal are read as in syslog. Timers,
// scopes, slices and targets are not runs (a timer stays active for
// days; what it triggers is a service).
func (fr *fileRead) journal(rec *journalRecord, t time.Time) {
	fr.seen(t)
	if isCron(string(rec.Identifier)) {
		fr.cronMessage(string(rec.Message), string(rec.PID), t)
		return
	}
	unit, key := string(rec.Unit), "system/"+string(rec.Unit)
	if rec.UserUnit != "" {
		unit, key = string(rec.UserUnit), "user/"+string(rec.UID)+"/"+string(rec.UserUnit)
	}
	if unit == "" {
		// A process of a unit: its command line may name the session.
		k := "system/" + string(rec.SysUnit)
		if rec.SysUser != "" {
			k = "user/" + string(rec.UID) + "/" + string(rec.SysUser)
		}
		if s := fr.units[k]; s != nil && s.open >= 0 {
			if sess := sessionInCmdline(string(rec.Cmdline)); sess != "" {
				addSession(&s.runs[s.open], sess)
			}
		}
		return
	}
	if !strings.HasSuffix(unit, ".service") {
		return
	}
	s := fr.units[key]
	if s == nil {
		s = &unitState{open: -1, last: -1}
		fr.units[key] = s
	}
	switch journalEvent(rec, unit) {
	case "start":
		if s.open < 0 {
			s.runs = append(s.runs, witnessRun{start: t, end: t})
			s.open, s.started = len(s.runs)-1, true
		}
	case "end":
		switch {
		case s.open >= 0:
			s.runs[s.open].end = t
			s.last, s.open = s.open, -1
		case s.last >= 0:
			// A later message of the same stop (Deactivated, then Finished).
			if t.After(s.runs[s.last].end) {
				s.runs[s.last].end = t
			}
		case !s.started:
			// The journal begins inside this run: live from before the
			// file's first record.
			s.runs = append(s.runs, witnessRun{start: fr.f.first, end: t, openStart: true})
			s.last = len(s.runs) - 1
			s.started = true
		}
	}
}

// journalEvent says whether a manager's message starts or ends a run of
// unit: by message id where the record has one, else by systemd's fixed
// texts.
func journalEvent(rec *journalRecord, unit string) string {
	msg := string(rec.Message)
	switch string(rec.MessageID) {
	case msgUnitStarting:
		return "start"
	case msgUnitStarted:
		// "Finished X" (a oneshot service: its job ends when the process
		// does) is the end; "Started X" the start of a long-running one.
		if strings.HasPrefix(msg, "Finished ") {
			return "end"
		}
		if string(rec.JobResult) != "" && string(rec.JobResult) != "done" {
			return "end"
		}
		return "start"
	case msgUnitStopped, msgUnitFailed, msgUnitSuccess, msgUnitResult, msgProcessExit:
		return "end"
	}
	switch {
	case strings.HasPrefix(msg, "Starting "), strings.HasPrefix(msg, "Started "):
		return "start"
	case strings.HasPrefix(msg, "Finished "), strings.HasPrefix(msg, "Stopped "),
		strings.HasPrefix(msg, "Failed to start "),
		strings.HasPrefix(msg, unit+": Deactivated successfully"),
		strings.HasPrefix(msg, unit+": Failed with result"),
		strings.HasPrefix(msg, unit+": Main process exited"):
		return "end"
	}
	return ""
}

func isCron(ident string) bool {
	switch ident {
	case "CRON", "cron", "crond", "CROND":
		return true
	}
	return false
}

// cron's lines: "(user) CMD (command)" when a job starts; "(user) END
// (command)" (Debian's cron -L 2) or "(user) CMDEND (command)" (cronie)
// when it ends, from the same pid.
var cronLine = regexp.MustCompile(`^\(([^)]*)\) (CMD|END|CMDEND) \((.*)\)\s*$`)

func (fr *fileRead) cronMessage(msg, pid string, t time.Time) {
	m := cronLine.FindStringSubmatch(msg)
	if m == nil {
		return
	}
	fr.setKind(WitnessCron)
	key := pid + "\x00" + m[1] + "\x00" + m[3]
	switch m[2] {
	case "CMD":
		r := witnessRun{start: t, end: t, openEnd: true}
		if sess := sessionInCmdline(m[3]); sess != "" {
			r.sessions = []string{sess}
		}
		fr.cronRuns = append(fr.cronRuns, r)
		fr.cron[key] = len(fr.cronRuns) - 1
	default:
		if i, ok := fr.cron[key]; ok {
			fr.cronRuns[i].end, fr.cronRuns[i].openEnd = t, false
			delete(fr.cron, key)
		}
	}
}

// syslog text: "Dec  1 03:00:01 host CRON[1234]: (user) CMD (cmd)" or
// the same with an RFC 3339 time first (rsyslog's high-precision form).
// Every dated line widens the stretch the file covers; only cron's lines
// make runs.
var syslogCron = regexp.MustCompile(`\s(CRON|cron|crond|CROND)\[(\d+)\]: (.*)$`)

func (fr *fileRead) syslogLine(line string) {
	t, ok := fr.syslogTime(line)
	if !ok {
		fr.w.unreadable++
		return
	}
	fr.seen(t)
	fr.setKind(WitnessCron) // a dated syslog: it covers its stretch, cron lines or none
	if m := syslogCron.FindStringSubmatch(line); m != nil {
		fr.cronMessage(m[3], m[2], t)
	}
}

// syslogTime reads the line's time. The traditional form has no year and
// no zone: it is local time, in the year of the file's modification that
// does not put it after the modification.
func (fr *fileRead) syslogTime(line string) (time.Time, bool) {
	if sp := strings.IndexByte(line, ' '); sp > 0 {
		if t, err := time.Parse(time.RFC3339Nano, line[:sp]); err == nil {
			return t.UTC(), true
		}
	}
	if len(line) < len(time.Stamp) {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation(time.Stamp, line[:len(time.Stamp)], time.Local)
	if err != nil {
		return time.Time{}, false
	}
	ref := fr.mtime
	if ref.IsZero() {
		ref = time.Now()
	}
	y := t.AddDate(ref.Year(), 0, 0)
	if y.After(ref.Add(24 * time.Hour)) {
		y = y.AddDate(-1, 0, 0)
	}
	return y.UTC(), true
}

// sessionInCmdline finds the session a claude command line names
// (--session-id ID, --resume ID, -r ID): the join then holds an entry to
// the run of its own session.
var sessionArg = regexp.MustCompile(`(?:^|\s)(?:--session-id|--resume|-r)(?:=|\s+)['"]?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})`)

func sessionInCmdline(cmd string) string {
	if m := sessionArg.FindStringSubmatch(cmd); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

func addSession(r *witnessRun, s string) {
	for _, x := range r.sessions {
		if x == s {
			return
		}
	}
	r.sessions = append(r.sessions, s)
}

// finish closes the file: a service still running at the journal's end
// was live until its last record (its end open beyond); cron jobs
// without an END keep an open end.
func (fr *fileRead) finish() {
	keys := make([]string, 0, len(fr.units))
	for k := range fr.units {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := fr.units[k]
		if s.open >= 0 {
			r := &s.runs[s.open]
			r.end, r.openEnd = fr.f.last, true
		}
		for _, r := range s.runs {
			fr.f.add(r)
		}
	}
	for _, r := range fr.cronRuns {
		fr.f.add(r)
	}
}
