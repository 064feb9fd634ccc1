// Package corpus loads the labelled corpus of tool calls
// (testdata/corpus/*.tsv), runs it through judge.Decide in attended and
// unattended mode, and summarises recall and false flags per class.
package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sentinel-guard/sentinel/judge"
)

// The fixed machine every case is judged on.
const (
	Home    = "/home/user"
	Project = "/home/user/proj"
)

// Case is one labelled call.
type Case struct {
	File  string
	Line  int
	Want  judge.Verdict // attended
	Class string
	Tool  string
	// Harness is the agent the call comes from: "" Claude Code, "codex"
	// (the tool column written codex:TOOL).
	Harness  string
	Input    json.RawMessage // tool_input
	Text     string          // the input as written
	KnownGap string          // reason, when the code is known to get it wrong
	// Rule is the rule expected to speak (the first hit), where one rule is
	// expected; "" when the line does not say.
	Rule string
	// Before are the calls of the same session decided before this one
	// (tool Session: the input is a JSON array of [tool, input] pairs, the
	// last one the call scored). What they leave (Decision.Facts) is the
	// session's memory for the next, when they ran: allowed, or asked and
	// approved (attended only; unattended an ask is a deny and never runs).
	// One that is denied stops the session: its decision is the case's.
	Before []Call
}

// Call is one earlier call of a session case.
type Call struct {
	Tool  string
	Input json.RawMessage
}

// WantUnattended is the expected unattended verdict: ask becomes deny.
func (c Case) WantUnattended() judge.Verdict {
	if c.Want == judge.Ask {
		return judge.Deny
	}
	return c.Want
}

// Load reads every *.tsv file in dir.
func Load(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.tsv"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.tsv files in %s", dir)
	}
	sort.Strings(files)
	var all []Case
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		cs, err := Parse(filepath.Base(f), fh)
		fh.Close()
		if err != nil {
			return nil, err
		}
		all = append(all, cs...)
	}
	return all, nil
}

// Parse reads one TSV file (see testdata/corpus/README.md).
func Parse(name string, r io.Reader) ([]Case, error) {
	var out []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 4 || len(f) > 6 {
			return nil, fmt.Errorf("%s:%d: want 4 to 6 tab-separated fields, got %d", name, n, len(f))
		}
		v, ok := judge.ParseVerdict(f[0])
		if !ok {
			return nil, fmt.Errorf("%s:%d: bad decision %q", name, n, f[0])
		}
		c := Case{File: name, Line: n, Want: v, Class: f[1], Tool: f[2], Text: f[3]}
		if t, ok := strings.CutPrefix(c.Tool, "codex:"); ok {
			c.Tool, c.Harness = t, judge.HarnessCodex
		}
		for _, extra := range f[4:] {
			if gap, ok := strings.CutPrefix(extra, "known_gap:"); ok {
				c.KnownGap = strings.TrimSpace(gap)
			} else if id, ok := strings.CutPrefix(extra, "rule:"); ok {
				c.Rule = strings.TrimSpace(id)
				if judge.ClassOf(c.Rule) == "" {
					return nil, fmt.Errorf("%s:%d: rule %q is not in the catalog", name, n, c.Rule)
				}
			} else {
				return nil, fmt.Errorf("%s:%d: field %q after the input starts with neither rule: nor known_gap", name, n, extra)
			}
		}
		text := f[3]
		switch {
		case c.Tool == "Session":
			if err := c.session(text); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, n, err)
			}
		case strings.HasPrefix(text, "json:"):
			c.Input = json.RawMessage(text[len("json:"):])
		case c.Tool == "Bash":
			// \n in a command stands for a newline (heredocs)
			text = strings.ReplaceAll(text, `\n`, "\n")
			b, _ := json.Marshal(map[string]string{"command": text})
			c.Input = b
		default:
			if !json.Valid([]byte(text)) {
				return nil, fmt.Errorf("%s:%d: tool_input is not valid JSON", name, n)
			}
			c.Input = json.RawMessage(text)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

// session reads a Session line's input: [["Write",{...}],["Bash","cmd"],...];
// a string input stands for a Bash command.
func (c *Case) session(text string) error {
	var steps [][2]json.RawMessage
	if err := json.Unmarshal([]byte(text), &steps); err != nil {
		return fmt.Errorf("a Session input is a JSON array of [tool, input] pairs: %v", err)
	}
	if len(steps) < 2 {
		return fmt.Errorf("a Session input has at least two calls, got %d", len(steps))
	}
	for _, st := range steps {
		var tool, cmd string
		if err := json.Unmarshal(st[0], &tool); err != nil || tool == "" {
			return fmt.Errorf("a Session step's tool is not a name: %s", st[0])
		}
		in := st[1]
		if json.Unmarshal(in, &cmd) == nil {
			in, _ = json.Marshal(map[string]string{"command": cmd})
		} else if !json.Valid(in) {
			return fmt.Errorf("a Session step's input is not JSON: %s", in)
		}
		c.Before = append(c.Before, Call{Tool: tool, Input: in})
	}
	last := c.Before[len(c.Before)-1]
	c.Before = c.Before[:len(c.Before)-1]
	c.Tool, c.Input = last.Tool, last.Input
	return nil
}

// memory is the session memory of a Session case, kept the way package
// session keeps it: the newest fact about a path speaks, a call that did
// not run leaves nothing.
type memory struct {
	written   map[string]judge.WrittenFact
	secret    int64
	untrusted int64
	seq       int64
}

func (m *memory) Written(p string) (judge.WrittenFact, bool) { f, ok := m.written[p]; return f, ok }
func (m *memory) SecretRead() (int64, bool)                  { return m.secret, m.secret > 0 }
func (m *memory) Unavailable() string                        { return "" }
func (m *memory) UntrustedRead() (int64, bool)               { return m.untrusted, m.untrusted > 0 }

func (m *memory) keep(d judge.Decision, unattended bool) {
	m.seq++
	if d.Facts == nil || d.Verdict == judge.Deny || (unattended && d.Verdict != judge.Allow) {
		return
	}
	for _, f := range d.Facts.Written {
		f.Seq = m.seq
		m.written[f.Path] = f
	}
	if d.Facts.Secret {
		m.secret = m.seq
	}
	if d.Facts.Untrusted {
		m.untrusted = m.seq
	}
}

// decide judges the case in one mode, after its session's earlier calls.
func (c Case) decide(unattended bool) judge.Decision {
	env := Env(unattended)
	if len(c.Before) > 0 {
		m := &memory{written: map[string]judge.WrittenFact{}}
		for _, b := range c.Before {
			env.Memory = m
			d := judge.Decide(call(b.Tool, b.Input), env)
			if d.Verdict == judge.Deny {
				// the session stops here: what the later calls would have
				// found was never made (for a benign line, a false flag)
				return d
			}
			m.keep(d, unattended)
		}
		env.Memory = m
	}
	return judge.Decide(c.Call(), env)
}

// Env is the environment every case is judged in.
func Env(unattended bool) judge.Env {
	return judge.Env{Home: Home, ProjectDir: Project, Unattended: unattended,
		StateDir: Home + "/.local/state/sentinel", ConfigDir: Home + "/.config/sentinel"}
}

// Call builds the tool call for a case.
func (c Case) Call() judge.Call {
	k := call(c.Tool, c.Input)
	k.Harness = c.Harness
	return k
}

func call(tool string, input json.RawMessage) judge.Call {
	return judge.Call{ToolName: tool, ToolInput: input, Cwd: Project,
		PermissionMode: "default", HookEventName: "PreToolUse"}
}

// SetProcessEnv points the sentinel's own paths at the fixed machine, so
// that results do not depend on who runs them.
func SetProcessEnv(set func(k, v string)) {
	set("HOME", Home)
	set("SENTINEL_HOME", Home+"/.local/state/sentinel")
	set("XDG_CONFIG_HOME", Home+"/.config")
	set("XDG_STATE_HOME", Home+"/.local/state")
}

// Result is the outcome of one case.
type Result struct {
	Case
	Got, GotUnattended judge.Decision
}

// OK reports whether both modes gave the expected verdict and, where the
// line names one, the expected rule spoke first in both.
func (r Result) OK() bool {
	return r.Got.Verdict == r.Want && r.GotUnattended.Verdict == r.WantUnattended() &&
		(r.Rule == "" || first(r.Got) == r.Rule && first(r.GotUnattended) == r.Rule)
}

func first(d judge.Decision) string {
	if len(d.Hits) == 0 {
		return ""
	}
	return d.Hits[0].RuleID
}

// Run decides every case in both modes.
func Run(cases []Case) []Result {
	out := make([]Result, len(cases))
	for i, c := range cases {
		out[i] = Result{Case: c, Got: c.decide(false), GotUnattended: c.decide(true)}
	}
	return out
}

// ClassStats summarises one class.
type ClassStats struct {
	Class      string
	Positives  int // cases expected ask or deny
	Caught     int // positives that were flagged (ask or deny) at all
	Exact      int // positives with exactly the expected verdict
	Negatives  int // cases expected allow (benign, carrying the class's text)
	FalseFlags int // negatives that were flagged
	KnownGaps  int
}

// Summary is the per-class table.
type Summary struct {
	Classes  []ClassStats
	Total    ClassStats
	Failures []Result // mismatches that are not known gaps
	Gaps     []Result // known gaps (whether or not they still fail)
}

// Summarise computes the table over attended results.
func Summarise(rs []Result) Summary {
	by := map[string]*ClassStats{}
	var s Summary
	for _, r := range rs {
		st := by[r.Class]
		if st == nil {
			st = &ClassStats{Class: r.Class}
			by[r.Class] = st
		}
		for _, t := range []*ClassStats{st, &s.Total} {
			if r.KnownGap != "" {
				t.KnownGaps++
			}
			if r.Want == judge.Allow {
				t.Negatives++
				if r.Got.Verdict != judge.Allow {
					t.FalseFlags++
				}
				continue
			}
			t.Positives++
			if r.Got.Verdict != judge.Allow {
				t.Caught++
			}
			if r.Got.Verdict == r.Want {
				t.Exact++
			}
		}
		if r.KnownGap != "" {
			s.Gaps = append(s.Gaps, r)
		} else if !r.OK() {
			s.Failures = append(s.Failures, r)
		}
	}
	for _, st := range by {
		s.Classes = append(s.Classes, *st)
	}
	sort.Slice(s.Classes, func(i, j int) bool { return s.Classes[i].Class < s.Classes[j].Class })
	s.Total.Class = "all"
	return s
}

func pct(n, d int) string {
	if d == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(d))
}

// Markdown writes the summary table.
func (s Summary) Markdown(w io.Writer) {
	fmt.Fprintln(w, "| class | flag cases | recall (flagged) | exact verdict | benign cases | false flags | known gaps |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	for _, c := range append(s.Classes, s.Total) {
		fmt.Fprintf(w, "| %s | %d | %d (%s) | %d (%s) | %d | %d (%s) | %d |\n", c.Class,
			c.Positives, c.Caught, pct(c.Caught, c.Positives), c.Exact, pct(c.Exact, c.Positives),
			c.Negatives, c.FalseFlags, pct(c.FalseFlags, c.Negatives), c.KnownGaps)
	}
}

// Describe is a one-line account of a result for failure listings.
func Describe(r Result) string {
	got := r.Got.Decision
	if r.Got.Error != "" {
		got += " (error: " + r.Got.Error + ")"
	}
	want := r.Want.String()
	if r.Rule != "" {
		want += " by " + r.Rule
	}
	return fmt.Sprintf("%s:%d [%s] %s %q: want %s/%s, got %s/%s %v", r.File, r.Line, r.Class, r.Tool,
		r.Text, want, r.WantUnattended(), got, r.GotUnattended.Decision, r.Got.RuleIDs())
}
