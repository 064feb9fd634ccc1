// Package census counts who stopped an AI coding agent: it streams Claude
// Code transcripts and the sentinel's register and writes stops.json, a
// count-only file, and its HTML page.
//
// Privacy by construction: transcript lines are decoded into structs that
// hold only record types, ids, tool names, flags, timestamps and the fixed
// start and end of result texts; a call stopped by a permission rule is
// re-read only to be mapped to a class from a fixed list. No command, path
// or message text reaches the output.
package census

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// RegisterSource calls fn for every register entry in order; nil means no
// register is available.
type RegisterSource func(fn func(register.Entry) error) error

// Options say what to count.
type Options struct {
	// TranscriptDirs are searched recursively for *.jsonl files.
	TranscriptDirs []string
	// Since (inclusive) and Until (exclusive) bound the window; zero is open.
	Since, Until time.Time
	// Analyse maps a Bash command to its executions; nil is ParseAnalyser.
	Analyse BashAnalyser
	// Register is the operator's register; nil when there is none.
	Register RegisterSource
	// RuleClass maps a sentinel rule id to its class (hook.ClassOf).
	RuleClass func(ruleID string) string
	// CI is a JSON Lines file of CI gate runs (see ReadCI); "" when none.
	CI string
	// Now stamps generated_at; nil is time.Now.
	Now func() time.Time
	// Generator names the program, e.g. "sentinel 0.1.0".
	Generator string
}

// Run counts and returns the report.
func Run(o Options) (*Report, error) {
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	r := newReport(now().UTC(), &o)
	s := newScanner(&o, r)
	for _, dir := range o.TranscriptDirs {
		files, err := transcriptFiles(dir)
		if err != nil {
			return nil, fmt.Errorf("reading transcripts: %w", err)
		}
		r.Sources.TranscriptDirs++
		if err := s.scanFiles(files); err != nil {
			return nil, fmt.Errorf("reading a transcript file: %w", err)
		}
	}
	if o.Register != nil {
		rc, matched, err := countRegister(&o, s.sentinelIDs)
		if err != nil {
			return nil, fmt.Errorf("reading the register: %w", err)
		}
		r.Register = rc
		r.Sources.Register = "present"
		unmatched := r.Stops.Sentinel.Total - matched
		r.Stops.Sentinel.RegisterMatched = &matched
		r.Stops.Sentinel.RegisterUnmatched = &unmatched
		if err := countOutcomes(&o, r, s); err != nil {
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
	finish(r)
	return r, nil
}

func newReport(now time.Time, o *Options) *Report {
	r := &Report{
		SchemaVersion: SchemaVersion,
		GeneratedAt:   now.Format(time.RFC3339),
		Generator:     o.Generator,
		ToolCalls:     ToolCalls{Bound: "upper"},
		Sources:       Sources{Register: "absent", CI: "absent"},
	}
	if !o.Since.IsZero() {
		t := o.Since.UTC().Format(time.RFC3339)
		r.Window.Since = &t
	}
	if !o.Until.IsZero() {
		t := o.Until.UTC().Format(time.RFC3339)
		r.Window.Until = &t
	}
	st := &r.Stops
	st.Classifier.ByKind = zeroCounts(kindBlocked, kindUnavailable, kindParsingError)
	cats := []string{catUnspecified, catOther}
	for _, k := range ClassifierCategories {
		cats = append(cats, k)
	}
	st.Classifier.ByCategory = zeroCounts(cats...)
	st.PermissionRules.ByClass = zeroCounts(CallClasses...)
	st.Human = NullCell{Reason: reasonHuman}
	r.Outcomes = Outcomes{Note: noteOutcomes}
	return r
}

func zeroCounts(keys ...string) map[string]int64 {
	m := make(map[string]int64, len(keys))
	for _, k := range keys {
		m[k] = 0
	}
	return m
}

// countRegister reads the register: decisions in the window by verdict,
// attendance and rule class; grades of the flags in the window (latest
// grade wins); and how many of the sentinel stops seen in transcripts have
// a register entry with the same tool_use_id.
func countRegister(o *Options, seen map[idKey]struct{}) (*RegisterCounts, int64, error) {
	rc := &RegisterCounts{ByClass: map[string]*ClassFlags{}}
	flags := map[int64]bool{}    // seq of asks and denies in the window
	grades := map[int64]string{} // latest grade per flag
	stopIDs := map[idKey]bool{}  // tool_use ids the register answered ask or deny
	anyGrade := false
	err := o.Register(func(e register.Entry) error {
		switch e.Kind {
		case register.KindGrade:
			anyGrade = true
			grades[e.Ref] = e.Label
			return nil
		case register.KindDecision, register.KindError:
		default:
			return nil
		}
		stop := e.Decision == "ask" || e.Decision == "deny"
		if stop && e.ToolUseID != "" {
			stopIDs[keyOf(e.ToolUseID)] = true
		}
		if !timeIn(e.Time, o.Since, o.Until) {
			return nil
		}
		rc.Decisions++
		if e.Kind == register.KindError {
			rc.Errors++
		}
		var att *Attendance
		switch e.Decision {
		case "allow":
			rc.Allow++
		case "ask":
			att = &rc.Ask
		case "deny":
			att = &rc.Deny
		}
		if att == nil {
			return nil
		}
		flags[e.Seq] = true
		att.add(e.Attended)
		for _, c := range ruleClasses(e.Rules, o.RuleClass) {
			cf := rc.ByClass[c]
			if cf == nil {
				cf = &ClassFlags{}
				rc.ByClass[c] = cf
			}
			if e.Decision == "ask" {
				cf.Ask.add(e.Attended)
			} else {
				cf.Deny.add(e.Attended)
			}
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	var matched int64
	for k := range seen {
		if stopIDs[k] {
			matched++
		}
	}
	rc.SelfConcordance.Definition = defSelfConcordance
	if anyGrade {
		g := &Grades{}
		for ref, label := range grades {
			if !flags[ref] {
				continue
			}
			switch label {
			case "true":
				g.True++
			case "false":
				g.False++
			case "unclear":
				g.Unclear++
			}
		}
		rc.Grades = g
		if n := g.True + g.False; n > 0 {
			v := float64(g.True) / float64(n)
			rc.SelfConcordance.Value = &v
		}
	}
	return rc, matched, nil
}

// ruleClasses maps the rule ids of one entry to their distinct classes;
// an entry with no rule (a call that could not be judged) is "unjudged".
func ruleClasses(rules []string, classOf func(string) string) []string {
	if len(rules) == 0 {
		return []string{"unjudged"}
	}
	var out []string
	for _, id := range rules {
		c := "unknown"
		if classOf != nil {
			if k := classOf(id); k != "" {
				c = k
			}
		}
		dup := false
		for _, x := range out {
			dup = dup || x == c
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

func timeIn(t, since, until time.Time) bool {
	return (since.IsZero() || !t.Before(since)) && (until.IsZero() || t.Before(until))
}

// CIRun is one line of the --ci file (JSON Lines):
//
//	{"time":"2026-11-30T10:00:00Z","gate":"lint","result":"fail"}
//
// result is "pass" or "fail". The gate name is read but never written out.
type CIRun struct {
	Time   time.Time `json:"time"`
	Gate   string    `json:"gate"`
	Result string    `json:"result"`
}

// ReadCI counts the CI gate runs in the window from a JSON Lines file.
// A line that does not follow the format is an error: the operator wrote
// this file and should hear about it.
func ReadCI(path string, since, until time.Time) (*CIStops, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the CI file: %w", err)
	}
	defer f.Close()
	ci := &CIStops{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var run CIRun
		if err := json.Unmarshal([]byte(line), &run); err != nil || run.Time.IsZero() {
			return nil, fmt.Errorf("%s line %d: want {\"time\": RFC3339, \"gate\": NAME, \"result\": \"pass\"|\"fail\"}", path, n)
		}
		if run.Result != "pass" && run.Result != "fail" {
			return nil, fmt.Errorf("%s line %d: result must be \"pass\" or \"fail\"", path, n)
		}
		if !timeIn(run.Time, since, until) {
			continue
		}
		ci.Runs++
		if run.Result == "fail" {
			ci.Failed++
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the CI file: %w", err)
	}
	return ci, nil
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// countOutcomes joins the sentinel's asks and denies in the window to what
// happened (package outcome): outcome entries from the PostToolUse path
// show a call ran, the user's rejections in the transcripts show an ask was
// declined. Without outcome entries, approved, unknown, held and breached
// cannot be seen and stay null; without transcripts, declined stays null.
func countOutcomes(o *Options, r *Report, s *scanner) error {
	inWindow := func(fn func(register.Entry) error) error {
		return o.Register(func(e register.Entry) error {
			if (e.Kind == register.KindDecision || e.Kind == register.KindError) && !timeIn(e.Time, o.Since, o.Until) {
				return nil
			}
			return fn(e)
		})
	}
	rj := &outcome.Rejections{IDs: s.rejected, Files: r.Sources.TranscriptFiles}
	sum, err := outcome.Summarize(inWindow, rj)
	if err != nil {
		return err
	}
	src := "register"
	a, d := &r.Outcomes.Asks, &r.Outcomes.Denies
	a.Presented = i64(int64(sum.Asks.Presented))
	if sum.TranscriptsRead > 0 {
		a.Declined = i64(int64(sum.Asks.Declined))
		src += "+transcripts"
	}
	if sum.OutcomeEntries > 0 {
		a.Approved = i64(int64(sum.Asks.Approved))
		d.Held = i64(int64(sum.Denies.Held))
		d.Breached = i64(int64(sum.Denies.Breached))
		if a.Declined != nil {
			a.Unknown = i64(int64(sum.Asks.Unknown))
		}
	}
	r.Outcomes.Source = &src
	return nil
}
