package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sentinel-guard/sentinel/e2e/fakeapi"
)

// pending names assertions that wait on a fix in another area. While a key
// is here, a failing check of that kind is logged as PENDING instead of
// failing; SENTINEL_E2E_STRICT=1 makes them fail too. Remove a key when its
// fix lands: the check then holds or fails like any other.
var pending = map[string]string{}

// call is one tool call as the suite saw it, against its truth.
type call struct {
	Step      string `json:"step"`
	Tool      string `json:"tool"`
	ToolUseID string `json:"tool_use_id"`
	Input     string `json:"input"`
	Expect    expect `json:"-"`

	// From the register.
	Decision string `json:"sentinel_decision"`
	Attended *bool  `json:"attended,omitempty"`
	Rules    []string
	// What the model was told (the tool_result the fake API received).
	GotResult bool   `json:"-"`
	Told      string `json:"-"`
	ToldError bool   `json:"-"`
	// At the terminal.
	Prompted bool   `json:"-"`
	Answer   string `json:"-"`
	// The transcript's record of the result: toolDenialKind and
	// permissionDecision as Claude Code wrote them ("" absent).
	DenialKind string `json:"-"`
	Decided    string `json:"-"`
	Recorded   bool   `json:"-"`
	// Effect on disk.
	Ran    bool   `json:"-"`
	Effect string `json:"-"`
}

// row is one line of the report table.
type row struct {
	Step, Mode, Hook, Did, Effect, Stopper string
	DenialKind, Decided                    string
}

var (
	reportMu sync.Mutex
	report   []row
	signals  = map[string][]string{} // per mode: what the hooks were told
)

func countTool(calls []*call, tool string) int {
	n := 0
	for _, c := range calls {
		if c.Tool == tool {
			n++
		}
	}
	return n
}

// TestClaudeCode runs every mode of the suite against the real Claude Code.
func TestClaudeCode(t *testing.T) {
	e := need(t)
	t.Logf("Claude Code %s at %s", e.version, e.claude)
	t.Run("modes", func(t *testing.T) {
		for _, m := range modes {
			t.Run(m.Name, func(t *testing.T) {
				t.Parallel()
				runMode(t, e, m)
			})
		}
	})
	printReport(t, e)
}

func runMode(t *testing.T, e *env, m mode) {
	w := newWorkspace(t, e, m.Name)
	sc := script(w, strings.NewReplacer("-", "", "_", "").Replace(m.Name))
	sp := Spec{Script: sc, TimeoutSec: 150}
	const prompt = "Do the scripted task."
	if m.Headless {
		sp.Args = append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose",
			"--include-hook-events", "--debug-file", filepath.Join(w.home, "claude-debug.txt")}, m.Args...)
	} else {
		sp.Interactive = true
		sp.Args = append(append([]string{}, m.Args...), prompt)
		sp.Answers = map[string]string{}
		for i, s := range steps {
			if a, ok := m.Answers[s.Name]; ok {
				sp.Answers[strconv.Itoa(i)] = a
			}
		}
	}
	oc := w.launch(t, sp)
	if len(oc.Unexpected) > 0 {
		t.Errorf("a permission prompt appeared for steps %v, which the scenario does not expect to prompt", oc.Unexpected)
	}
	calls := w.observe(t, m, oc)
	checkCalls(t, w, m, calls)
	checkCensus(t, w, m, calls)
	checkOutcomes(t, w, m, calls)
	w.save(t, m, calls)

	reportMu.Lock()
	defer reportMu.Unlock()
	for _, c := range calls {
		report = append(report, row{Step: c.Step, Mode: m.Name, Hook: c.Decision, Did: did(c), Effect: c.Effect, Stopper: stopperCell(c.Expect),
			DenialKind: c.DenialKind, Decided: c.Decided})
	}
}

// observe gathers, per call, the register's decision, what the model was
// told, the prompt and the effect on disk.
func (w *workspace) observe(t *testing.T, m mode, oc *Outcome) []*call {
	t.Helper()
	var entries []regEntry
	w.sentinelJSON(t, &entries, "log", "--json", "-n", "0")
	results := map[string]fakeapi.Result{}
	for _, r := range oc.Results {
		results[r.ToolUseID] = r
	}
	prompted := map[int]Prompt{}
	for _, p := range oc.Prompts {
		prompted[p.Step] = p
	}
	records := w.resultRecords(t)
	var calls []*call
	for i, s := range steps {
		c := &call{Step: s.Name, Tool: s.Tool, ToolUseID: oc.IDs[i], Expect: truthOf(s, m), Input: w.short(inputText(s.input(w)))}
		for _, en := range entries {
			if en.ToolUseID == c.ToolUseID && en.Kind == "decision" {
				c.Decision, c.Attended, c.Rules = en.Decision, en.Attended, en.Rules
			}
		}
		if r, ok := results[c.ToolUseID]; ok {
			c.GotResult, c.Told, c.ToldError = true, w.short(r.Content), r.IsError
		}
		if p, ok := prompted[i]; ok {
			c.Prompted, c.Answer = true, p.Answer
		}
		if r, ok := records[c.ToolUseID]; ok {
			c.Recorded, c.DenialKind, c.Decided = true, r.DenialKind, r.Decided
		}
		c.Ran, c.Effect = w.effect(s, c)
		calls = append(calls, c)
	}
	return calls
}

// resultRecord is what a transcript's tool_result record says about who
// decided.
type resultRecord struct{ DenialKind, Decided string }

// resultRecords reads the transcripts for each tool_result's toolDenialKind
// and permissionDecision.
func (w *workspace) resultRecords(t *testing.T) map[string]resultRecord {
	t.Helper()
	out := map[string]resultRecord{}
	for _, f := range w.transcripts(t) {
		raw, err := os.ReadFile(f)
		must(t, err)
		for _, line := range bytes.Split(raw, []byte("\n")) {
			var rec struct {
				Type               string          `json:"type"`
				ToolDenialKind     string          `json:"toolDenialKind"`
				PermissionDecision json.RawMessage `json:"permissionDecision"`
				Message            struct {
					Content json.RawMessage `json:"content"`
				} `json:"message"`
			}
			if json.Unmarshal(line, &rec) != nil || rec.Type != "user" {
				continue
			}
			var blocks []struct {
				Type      string `json:"type"`
				ToolUseID string `json:"tool_use_id"`
			}
			if json.Unmarshal(rec.Message.Content, &blocks) != nil {
				continue
			}
			for _, b := range blocks {
				if b.Type == "tool_result" {
					out[b.ToolUseID] = resultRecord{DenialKind: rec.ToolDenialKind, Decided: compactJSON(rec.PermissionDecision)}
				}
			}
		}
	}
	return out
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if len(raw) == 0 || json.Compact(&b, raw) != nil {
		return ""
	}
	return b.String()
}

// effect reads the disk: did the call run, and what did it leave.
func (w *workspace) effect(s step, c *call) (bool, string) {
	switch s.Name {
	case "rm-home", "run-script":
		if w.exists(keepFile) {
			return false, "~/" + keepDir + " kept"
		}
		return true, "~/" + keepDir + " deleted"
	case "git-reset":
		if w.read("proj/"+trackedFile) == changedText {
			return false, "uncommitted change kept"
		}
		return true, "uncommitted change lost"
	}
	if s.Disk != "" {
		name := filepath.Base(s.Disk)
		if w.exists(s.Disk) {
			return true, name + " created"
		}
		return false, name + " not created"
	}
	// No mark on disk: the tool's own output says it ran.
	switch {
	case !c.GotResult:
		return false, "-"
	case s.Expect(mode{}).Failed:
		return strings.Contains(c.Told, "Exit code"), "-"
	}
	return !c.ToldError, "-"
}

// regEntry is the part of a `sentinel log --json` entry the suite reads.
type regEntry struct {
	Seq       int64    `json:"seq"`
	Kind      string   `json:"kind"`
	ToolUseID string   `json:"tool_use_id"`
	Decision  string   `json:"decision"`
	Attended  *bool    `json:"attended"`
	Rules     []string `json:"rules"`
	Outcome   string   `json:"outcome"`
}

func inputText(raw json.RawMessage) string {
	var m map[string]string
	json.Unmarshal(raw, &m)
	if c, ok := m["command"]; ok {
		return c
	}
	return m["file_path"]
}

// short replaces the workspace's HOME by ~ so texts read the same in every run.
func (w *workspace) short(s string) string {
	return strings.ReplaceAll(s, w.home, "~")
}

// check fails the test, or logs it as PENDING while key waits on a fix.
func check(t *testing.T, key string, ok bool, format string, args ...any) {
	t.Helper()
	if ok {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if why, isPending := pending[key]; isPending && os.Getenv("SENTINEL_E2E_STRICT") == "" {
		t.Logf("PENDING (%s): %s", why, msg)
		return
	}
	t.Error(msg)
}

func checkCalls(t *testing.T, w *workspace, m mode, calls []*call) {
	t.Helper()
	for _, c := range calls {
		x := c.Expect
		where := fmt.Sprintf("%s %s (%s)", m.Name, c.Step, c.Input)
		// The register: sentinel saw every call and decided.
		if c.Decision == "" {
			t.Errorf("%s: no register decision for %s", where, c.ToolUseID)
			continue
		}
		key := ""
		if m.Headless && !m.unattendedMode() {
			key = "headless-unattended"
		}
		check(t, key, c.Decision == x.Hook, "%s: register decision %s, want %s", where, c.Decision, x.Hook)
		check(t, key, c.Attended != nil && *c.Attended == m.attended(), "%s: register attended %v, want %v", where, deref(c.Attended), m.attended())
		if !c.Recorded {
			t.Errorf("%s: the transcript has no tool_result record for %s", where, c.ToolUseID)
		}
		// The effect on disk.
		wantRan := x.Stopper == ""
		if c.Ran != wantRan {
			t.Errorf("%s: ran=%v (%s), want ran=%v (stopped by %q)", where, c.Ran, c.Effect, wantRan, x.Stopper)
		}
		// The prompt: only where a human was asked.
		if (x.Human != "") != c.Prompted || c.Prompted && c.Answer != x.Human {
			t.Errorf("%s: prompted=%v answer %q, want answer %q", where, c.Prompted, c.Answer, x.Human)
		}
		// What the model was told.
		switch {
		case x.Stopper == byUser:
			// A No at the terminal ends the turn: the model hears of it
			// only with the next message, if at all.
			if c.GotResult && !c.ToldError {
				t.Errorf("%s: declined at the prompt, but the model was told success: %q", where, c.Told)
			}
		case !c.GotResult:
			t.Errorf("%s: the model was never told the result", where)
		case x.Stopper == "" && x.Failed:
			if !c.ToldError || !strings.Contains(c.Told, "Exit code") {
				t.Errorf("%s: ran and failed, but the model was told %q (error %v)", where, c.Told, c.ToldError)
			}
		case x.Stopper == "":
			if c.ToldError {
				t.Errorf("%s: should have run, but the model was told an error: %q", where, c.Told)
			}
		default:
			if !c.ToldError {
				t.Errorf("%s: stopped by %s, but the result is not an error: %q", where, x.Stopper, c.Told)
			}
		}
		if x.Stopper == bySentinel {
			// The model is told sentinel's own reason, with its rule.
			want := "sentinel[" + first(c.Rules) + "]"
			if !strings.Contains(c.Told, want) {
				t.Errorf("%s: stopped by sentinel, but the model was told %q, without %q", where, c.Told, want)
			}
		}
		if x.Stopper == byOtherHook && !strings.Contains(c.Told, "not sentinel at all") && !strings.Contains(c.Told, "team's policy hook") {
			t.Errorf("%s: stopped by the other hook, but the model was told %q", where, c.Told)
		}
	}
	// What Claude Code told the hooks about who is there, on every Bash call.
	attended, entry := "1", "cli"
	if m.Headless {
		attended, entry = "0", "sdk-cli"
	}
	want := fmt.Sprintf(`"permission_mode":"%s" attended=%s entrypoint=%s`, m.PermissionMode, attended, entry)
	seen := map[string]bool{}
	lines := strings.Split(strings.TrimSpace(w.read(envLog)), "\n")
	for _, l := range lines {
		seen[l] = true
		if l != want {
			t.Errorf("%s: a hook was told %q, want %q", m.Name, l, want)
		}
	}
	if n := countTool(calls, "Bash"); len(lines) != n {
		t.Errorf("%s: the hooks saw %d Bash calls, the script made %d", m.Name, len(lines), n)
	}
	reportMu.Lock()
	for l := range seen {
		signals[m.Name] = append(signals[m.Name], l)
	}
	sort.Strings(signals[m.Name])
	reportMu.Unlock()
	// The other hook's own log: it stopped exactly the calls the truth says.
	log := w.read(imitatorLog)
	for _, c := range calls {
		if got, want := strings.Contains(log, c.ToolUseID), c.Expect.Stopper == byOtherHook; got != want {
			t.Errorf("%s %s: in the other hook's log %v, want %v", m.Name, c.Step, got, want)
		}
	}
	if !w.exists(keepFile) {
		t.Errorf("%s: ~/%s was deleted", m.Name, keepFile)
	}
}

func deref(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// did says in a few words what Claude Code did with the call.
func did(c *call) string {
	switch {
	case c.Prompted && c.Answer == "yes":
		return "prompted; Yes: ran"
	case c.Prompted:
		return "prompted; No: turn ended"
	case !c.GotResult:
		return "no result"
	case !c.ToldError:
		return "ran"
	case c.Ran:
		return "ran, failed: told `" + head(c.Told) + "`"
	}
	return "refused: told `" + head(c.Told) + "`"
}

// head is the start of a text, for the table: up to a colon, the first
// sentence or 48 characters.
func head(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, "]: "); i >= 0 {
		return s[:i+2] + " …"
	}
	for _, cut := range []string{". ", " | "} {
		if i := strings.Index(s, cut); i >= 0 && i < 60 {
			s = s[:i+1]
		}
	}
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func stopperCell(x expect) string {
	switch {
	case x.Stopper == "" && x.Human == "yes":
		return "- (human approved)"
	case x.Stopper == "":
		return "-"
	case x.Stopper == byOtherHook && x.Marker:
		return "other hook (with sentinel's marker)"
	case x.Stopper == byUser:
		return "human (No)"
	}
	return strings.ReplaceAll(x.Stopper, "_", " ")
}

// printReport logs the table (go test -v shows it) and writes it to
// $SENTINEL_E2E_REPORT when set.
func printReport(t *testing.T, e *env) {
	reportMu.Lock()
	defer reportMu.Unlock()
	if len(report) == 0 {
		return
	}
	order := map[string]int{}
	for i, s := range steps {
		order[s.Name] = i
	}
	morder := map[string]int{}
	for i, m := range modes {
		morder[m.Name] = i
	}
	sort.Slice(report, func(i, j int) bool {
		a, b := report[i], report[j]
		if order[a.Step] != order[b.Step] {
			return order[a.Step] < order[b.Step]
		}
		return morder[a.Mode] < morder[b.Mode]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Claude Code %s\n\n", e.version)
	b.WriteString("| scenario | modes | hook answer | what Claude Code did | effect on disk | who stopped it |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	// Modes in which a scenario went the same way share a row.
	type cells struct{ step, hook, did, effect, stopper string }
	var groups []cells
	byCells := map[cells][]string{}
	for _, r := range report {
		k := cells{r.Step, r.Hook, r.Did, r.Effect, r.Stopper}
		if _, ok := byCells[k]; !ok {
			groups = append(groups, k)
		}
		byCells[k] = append(byCells[k], r.Mode)
	}
	for _, k := range groups {
		ms := strings.Join(byCells[k], ", ")
		if len(byCells[k]) == len(modes) {
			ms = "all"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", k.step, ms, k.hook, strings.ReplaceAll(k.did, "|", "\\|"), k.effect, k.stopper)
	}
	b.WriteString("\n`sentinel census` over each run's transcripts (and its register), summed over the runs, against the truth:\n\n")
	b.WriteString("| column | truth | census |\n| --- | --- | --- |\n")
	for _, p := range aggOrder {
		a := aggCells[p]
		got := fmt.Sprint(a.got)
		if a.missing > 0 {
			got = fmt.Sprintf("%s (absent or null in %d runs)", got, a.missing)
		}
		mark := ""
		if a.missing > 0 || a.got != a.truth {
			mark = " **≠**"
		}
		fmt.Fprintf(&b, "| %s | %d | %s%s |\n", p, a.truth, got, mark)
	}
	fmt.Fprintf(&b, "\n`sentinel outcomes`: the outcome of %d of %d decisions equals the truth.\n", outcomeN.equal, outcomeN.calls)
	b.WriteString("\nWhat the transcript records for each kind of stop (the user record carrying the tool_result):\n\n")
	b.WriteString("| who stopped it | hook answer | toolDenialKind | permissionDecision | runs |\n| --- | --- | --- | --- | --- |\n")
	type recKey struct{ stopper, hook, kind, decided string }
	seenRec := map[recKey][]string{}
	var recOrder []recKey
	for _, r := range report {
		k := recKey{r.Stopper, r.Hook, r.DenialKind, r.Decided}
		if _, ok := seenRec[k]; !ok {
			recOrder = append(recOrder, k)
		}
		seenRec[k] = append(seenRec[k], r.Step+"/"+r.Mode)
	}
	for _, k := range recOrder {
		fmt.Fprintf(&b, "| %s | %s | %s | `%s` | %d |\n", k.stopper, k.hook, orDash(k.kind), orDash(k.decided), len(seenRec[k]))
	}
	b.WriteString("\nWhat a PreToolUse hook is told (payload permission_mode; environment CLAUDE_CODE_SESSION_ATTENDED, CLAUDE_CODE_ENTRYPOINT):\n\n")
	b.WriteString("| mode | told |\n| --- | --- |\n")
	for _, m := range modes {
		fmt.Fprintf(&b, "| %s | `%s` |\n", m.Name, strings.Join(signals[m.Name], "`, `"))
	}
	t.Log("\n" + b.String())
	if p := os.Getenv("SENTINEL_E2E_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}
