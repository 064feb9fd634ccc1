package census

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/internal/safefile"
)

// CIRun is one line of the --ci file in the sentinel's own JSON Lines form:
//
//	{"time":"2026-11-30T10:00:00Z","gate":"lint","result":"fail"}
//
// result is "pass" or "fail". The gate name is read but never written out.
type CIRun struct {
	Time   time.Time `json:"time"`
	Gate   string    `json:"gate"`
	Result string    `json:"result"`
}

// MaxCIFile bounds the --ci file (and each witness file read whole): a
// `gh run list --limit 10000` array of four fields is about 1.2 MB.
const MaxCIFile = 64 << 20

// ciRecord is one run in any of the accepted forms: ours (time, gate,
// result) or GitHub's as `gh run list --json` / `gh run view --json` print
// it (conclusion, createdAt, startedAt, status, workflowName, event). The
// names and the workflow are read only to tell the forms apart.
type ciRecord struct {
	Time   *string `json:"time"`
	Gate   *string `json:"gate"`
	Result *string `json:"result"`

	Conclusion *string `json:"conclusion"`
	CreatedAt  *string `json:"createdAt"`
	StartedAt  *string `json:"startedAt"`
	Status     *string `json:"status"`
}

// ghVerdict maps GitHub's conclusion to a gate verdict: "pass", "fail", ""
// for a run that gave none (cancelled, skipped, neutral, stale, waiting
// for approval, or a value this build does not know: never counted as a
// pass), and "running" for a run still in progress (empty conclusion).
func ghVerdict(conclusion, status string) string {
	switch conclusion {
	case "success":
		return "pass"
	case "failure", "timed_out", "startup_failure":
		return "fail"
	case "":
		if status != "completed" {
			return "running"
		}
	}
	return ""
}

// ReadCI counts the CI gate runs in the window. The file is JSON Lines in
// our form, or GitHub's record exactly as gh prints it: the array of `gh
// run list --json conclusion,createdAt,workflowName,event` (compact or
// indented), or one or more `gh run view --json ...` objects; forms may
// follow one another in one file. Anything else is an error naming the
// line: the operator chose this file and should hear about it.
func ReadCI(path string, since, until time.Time) (*CIStops, error) {
	data, err := safefile.ReadFile(path, MaxCIFile)
	if err != nil {
		return nil, fmt.Errorf("reading the CI file: %w", err)
	}
	ci := &CIStops{}
	forms := map[string]bool{}
	err = eachJSONValue(path, data, func(raw json.RawMessage, line int) error {
		var rec ciRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("%s line %d: %s", path, line, ciWant)
		}
		return ci.add(&rec, forms, since, until, path, line)
	})
	if err != nil {
		return nil, err
	}
	ci.Format = joinForms(forms)
	return ci, nil
}

const ciWant = `want {"time": RFC3339, "gate": NAME, "result": "pass"|"fail"} per line, or gh run list/view --json output with conclusion and createdAt`

func (ci *CIStops) add(rec *ciRecord, forms map[string]bool, since, until time.Time, path string, line int) error {
	switch {
	case rec.Time != nil:
		forms[CIFormJSONL] = true
		t, err := time.Parse(time.RFC3339Nano, *rec.Time)
		if err != nil {
			return fmt.Errorf("%s line %d: %s", path, line, ciWant)
		}
		if rec.Result == nil || (*rec.Result != "pass" && *rec.Result != "fail") {
			return fmt.Errorf("%s line %d: result must be \"pass\" or \"fail\"", path, line)
		}
		if timeIn(t, since, until) {
			ci.Runs++
			if *rec.Result == "fail" {
				ci.Failed++
			}
		}
	case rec.Conclusion != nil || rec.CreatedAt != nil:
		forms[CIFormGitHub] = true
		at := rec.CreatedAt
		if at == nil || *at == "" {
			at = rec.StartedAt
		}
		if at == nil {
			return fmt.Errorf("%s line %d: a GitHub run needs createdAt (gh run list --json conclusion,createdAt,...)", path, line)
		}
		t, err := time.Parse(time.RFC3339Nano, *at)
		if err != nil {
			return fmt.Errorf("%s line %d: createdAt %q is not an RFC 3339 time", path, line, *at)
		}
		if rec.Conclusion == nil {
			return fmt.Errorf("%s line %d: a GitHub run needs conclusion (gh run list --json conclusion,createdAt,...)", path, line)
		}
		if !timeIn(t, since, until) {
			return nil
		}
		status := ""
		if rec.Status != nil {
			status = *rec.Status
		}
		switch ghVerdict(*rec.Conclusion, status) {
		case "pass":
			ci.Runs++
		case "fail":
			ci.Runs++
			ci.Failed++
		case "running":
			ci.InProgress++
		default:
			ci.NoVerdict++
		}
	default:
		return fmt.Errorf("%s line %d: %s", path, line, ciWant)
	}
	return nil
}

// CI file forms, as stops.json's stops.ci.format names them.
const (
	CIFormJSONL  = "jsonl"
	CIFormGitHub = "github"
)

func joinForms(m map[string]bool) string {
	var k []string
	for f := range m {
		k = append(k, f)
	}
	sort.Strings(k)
	return strings.Join(k, "+")
}

// eachJSONValue calls fn for every object in data: top-level objects
// (JSON Lines, or pretty-printed objects one after another) and the
// elements of top-level arrays, with the line each starts on.
func eachJSONValue(path string, data []byte, fn func(json.RawMessage, int) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	// lineAt counts lines forward from the last offset asked (offsets only
	// grow), so a large array is read in linear time.
	var at int64
	line := 1
	lineAt := func(off int64) int {
		if off > at {
			line += bytes.Count(data[at:off], []byte("\n"))
			at = off
		}
		return line
	}
	start := func() int64 {
		off := dec.InputOffset()
		for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
			off++
		}
		return off
	}
	for {
		off := start()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s line %d: not JSON (%v)", path, lineAt(off), shortJSONErr(err))
		}
		switch raw[0] {
		case '{':
			if err := fn(raw, lineAt(off)); err != nil {
				return err
			}
		case '[':
			var elems []json.RawMessage
			if err := json.Unmarshal(raw, &elems); err != nil {
				return fmt.Errorf("%s line %d: not JSON (%v)", path, lineAt(off), shortJSONErr(err))
			}
			// Each element's line: find it in the array's own text.
			pos := off
			for _, e := range elems {
				i := bytes.Index(data[pos:], e)
				if i < 0 {
					i = 0
				}
				if e[0] != '{' {
					return fmt.Errorf("%s line %d: an array element that is not an object", path, lineAt(pos+int64(i)))
				}
				if err := fn(e, lineAt(pos+int64(i))); err != nil {
					return err
				}
				pos += int64(i + len(e))
			}
		default:
			return fmt.Errorf("%s line %d: a value that is neither an object nor an array", path, lineAt(off))
		}
	}
}

// shortJSONErr keeps a decoder error free of the input's text.
func shortJSONErr(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "syntax error"
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "a field of the wrong type"
	}
	return "unexpected end"
}
