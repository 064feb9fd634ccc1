// Package census counts who stopped an AI coding agent: it reads Claude
// Code transcripts through the shared reader (package transcript) and the
// sentinel's register, streaming both, and writes stops.json, a count-only
// file, and its HTML page.
//
// Privacy by construction: the transcript reader keeps only record types,
// ids, tool names, flags, timestamps, the harness's structured permission
// record and the fixed start and end of result texts; a call stopped by a
// permission rule is re-read only to be mapped to a class from a fixed list.
// No command, path or message text reaches the output.
package census

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/transcript"
)

// Stoppers: who stopped a tool call. These are the keys of stops.json.
const (
	StopClassifier        = transcript.StopClassifier
	StopRules             = transcript.StopRules
	StopNoHuman           = transcript.StopNoHuman
	StopSentinel          = "sentinel"           // a hook stop the sentinel's register confirms
	StopUnconfirmedMarker = "unconfirmed_marker" // the sentinel's marker, but no register entry: someone else printed it
	StopOtherHooks        = "other_hooks"        // any other PreToolUse hook
	StopUser              = transcript.StopUser
)

// Marker is the fixed start of the sentinel hook's reasons (judge.Marker).
const Marker = transcript.Marker

// ClassifierCategories is the allow-list of the classifier's categories.
var ClassifierCategories = transcript.ClassifierCategories

// ErrNothingRead says neither a transcript nor a register was read, so there
// is nothing to count (the census does not print a page of nulls).
var ErrNothingRead = errors.New("nothing to count: no transcript was read and no register was given")

// RegisterSource calls fn for every register entry in order; nil means no
// register is available.
type RegisterSource func(fn func(register.Entry) error) error

// Options say what to count.
type Options struct {
	// TranscriptDirs are searched recursively for *.jsonl files.
	TranscriptDirs []string
	// NoTranscripts says why none are given (e.g. the default directory
	// does not exist); it becomes the reason of every null transcript
	// cell. It must hold no path.
	NoTranscripts string
	// Since (inclusive) and Until (exclusive) bound the window; zero is open.
	Since, Until time.Time
	// Analyse maps a Bash command to its executions; nil is ParseAnalyser.
	Analyse BashAnalyser
	// Register is the operator's register; nil when there is none.
	Register RegisterSource
	// Open is the same register opened, when it is a file: the join of
	// flags to outcomes then runs in SQLite (outcome.SummarizeRegister),
	// in memory that does not grow with the register.
	Open *register.Register
	// RuleClass maps a sentinel rule id to its class (judge.ClassOf).
	RuleClass func(ruleID string) string
	// CI is a file of CI gate runs (see ReadCI); "" when none.
	CI string
	// Witness are files or directories of the schedulers' run records
	// (see ReadWitness); nil when none.
	Witness []string
	// Now stamps generated_at; nil is time.Now.
	Now func() time.Time
	// Generator names the program, e.g. "sentinel 0.1.0".
	Generator string
	// Title is the page's and stops.json's title; "" is DefaultTitle.
	Title string
	// Verify is how a reader checks the file (key, register seal).
	Verify Verify
}

// DefaultTitle is the title when none is given.
const DefaultTitle = "Who stopped the agent"

// Run counts and returns the report.
func Run(o Options) (*Report, error) {
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	r := newReport(now().UTC(), &o)
	t := newTally(&o)
	defer t.close()
	if len(o.Witness) > 0 {
		w, err := ReadWitness(o.Witness)
		if err != nil {
			return nil, err
		}
		t.wit = w
		if o.Register != nil {
			t.witJoin = newWitnessJoined()
		}
	}
	if len(o.TranscriptDirs) > 0 {
		src, err := transcript.Read(o.TranscriptDirs, transcript.Options{Since: o.Since, Until: o.Until}, t.handler())
		if err != nil {
			return nil, err
		}
		r.Sources.fromTranscripts(src)
		t.files = src.Files
	}
	if t.files > 0 {
		r.Sources.Transcripts = "read"
	} else if o.Register == nil {
		return nil, ErrNothingRead
	}
	if o.Register != nil {
		rc, err := t.countRegister()
		if err != nil {
			return nil, fmt.Errorf("reading the register: %w", err)
		}
		r.Register = rc
		r.Sources.Register = "present"
		if err := t.countOutcomes(r); err != nil {
			return nil, fmt.Errorf("joining outcomes: %w", err)
		}
	}
	if o.CI != "" {
		ci, err := ReadCI(o.CI, o.Since, o.Until)
		if err != nil {
			return nil, err
		}
		r.Stops.CI = ci
		r.Sources.CI = "present"
	}
	t.fill(r)
	if err := t.err(); err != nil {
		return nil, err
	}
	t.pair.fill(r, v0(r.Stops.UnconfirmedMarker.Total))
	if t.wit != nil {
		r.Witness = t.wit.Counts(t.witJoin)
	}
	finish(r, &o)
	r.NotMeasured = append(r.NotMeasured, t.outcomeNM...)
	r.NotMeasured = append(r.NotMeasured, witnessNotMeasured(r)...)
	return r, nil
}

func newReport(now time.Time, o *Options) *Report {
	title := o.Title
	if title == "" {
		title = DefaultTitle
	}
	r := &Report{
		Schema:        SchemaURL,
		SchemaVersion: SchemaVersion,
		Title:         title,
		GeneratedAt:   now.Format(time.RFC3339),
		Generator:     o.Generator,
		Verify:        o.Verify,
		ToolCalls:     ToolCalls{Bound: "upper"},
		Unguarded:     UnguardedCalls{Bound: "upper"},
		Sources:       Sources{Transcripts: "none", Register: "absent", CI: "absent"},
	}
	if !o.Since.IsZero() {
		t := o.Since.UTC().Format(time.RFC3339)
		r.Window.Since = &t
	}
	if !o.Until.IsZero() {
		t := o.Until.UTC().Format(time.RFC3339)
		r.Window.Until = &t
	}
	r.Stops.Human = NullCell{Reason: reasonHuman}
	r.Outcomes = Outcomes{Note: noteOutcomes}
	return r
}

func (s *Sources) fromTranscripts(src *transcript.Sources) {
	s.TranscriptDirs = src.Dirs
	s.TranscriptFiles = src.Files
	s.SubagentFiles = src.SubagentFiles
	s.Records = src.Records
	s.UnreadableFiles = src.UnreadableFiles
	s.UnreadableLines = src.UnreadableLines
	s.OversizedLines = src.OversizedLines
	s.OutsideWindow = src.OutsideWindow
	s.UndatedRecords = src.UndatedRecords
	s.DuplicateToolCalls = src.DuplicateToolCalls
	s.OrphanResults = src.OrphanResults
	s.Aborts = src.Aborts
	s.UnknownDenialKinds = src.UnknownDenialKinds
	s.SkippedLinks = src.SkippedLinks
	s.SkippedSpecial = src.SkippedSpecial
	s.StructuredResults = src.StructuredResults
	s.CodexFiles = src.CodexFiles
}

func i64(v int64) *int64 { return &v }

func timeIn(t, since, until time.Time) bool {
	return (since.IsZero() || !t.Before(since)) && (until.IsZero() || t.Before(until))
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// countOutcomes joins the sentinel's asks and denies in the window to what
// happened (package outcome), with the answers this census read from the
// transcripts; the cells are outcome.Cells, the same `sentinel outcomes`
// prints.
func (t *tally) countOutcomes(r *Report) error {
	ans := t.answers
	ans.Files = t.files
	ans.Structured = r.Sources.StructuredResults
	var sum *outcome.Summary
	var err error
	if t.o.Open != nil {
		sum, err = outcome.SummarizeRegister(t.o.Open, ans, t.o.Since, t.o.Until)
	} else {
		sum, err = outcome.Summarize(t.o.Register, ans, t.o.Since, t.o.Until)
	}
	if err != nil {
		return err
	}
	if t.files > 0 {
		// The transcripts' calls the hook never judged.
		var n int
		var sessions []outcome.UnguardedSession
		if t.o.Open != nil {
			n, sessions, err = outcome.UnguardedSessionsIn(t.o.Open, ans.Calls)
		} else {
			n, sessions, err = outcome.UnguardedSessionsFrom(t.o.Register, ans.Calls)
		}
		if err != nil {
			return err
		}
		sum.Unguarded = n
		r.Unguarded.Sessions = i64(int64(len(sessions)))
	}
	c := sum.Cells()
	r.Unguarded.Count = c.Unguarded
	r.Outcomes.Asks, r.Outcomes.Denies = outcomesFrom(c)
	src := "register"
	if t.files > 0 {
		src += "+transcripts"
	}
	r.Outcomes.Source = &src
	for _, n := range c.NotMeasured {
		if strings.HasPrefix(n.Key, "allows") || n.Key == "unguarded" {
			continue // the census does not publish allows; unguarded is its own key
		}
		t.outcomeNM = append(t.outcomeNM, NotMeasured{"outcomes." + n.Key, n.Reason})
	}
	return nil
}
