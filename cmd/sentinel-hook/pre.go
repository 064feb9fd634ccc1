package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/internal/version"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

// maxPayload bounds what is read from stdin. A larger payload is not judged
// (it is an error decision): reading without a bound would let a hostile
// input exhaust memory before any rule runs.
const maxPayload = 8 << 20

// errorRule is the rule id of a call that could not be judged or whose
// decision could not be registered.
const errorRule = judge.RuleSentinelUnjudged

// busyTimeout is how long an append waits for another writer before the
// decision goes to the journal: well under the hook's timeout in Claude
// Code (10 s by default), after which the call would proceed unjudged.
const busyTimeout = 4 * time.Second

// maxReason keeps the reason under Claude Code's 10,000-character cap.
const maxReason = 9000

// output is the one JSON object written for ask and deny.
type output struct {
	HookSpecificOutput hookOutput `json:"hookSpecificOutput"`
}

type hookOutput struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// result is one call's outcome as it moves from judging to recording to
// answering.
type result struct {
	verdict    judge.Verdict
	hit        judge.Hit // explains the verdict; zero for a plain allow
	unattended bool
	failures   []string // what went wrong; non-empty makes it an error entry
	entry      register.Entry
	seq        int64 // the register entry, 0 when not in the register
	journaled  bool  // in the fallback journal instead
	// postPayload is set when the payload is a PostToolUse one (the hook
	// was installed without "post"): it is recorded as an outcome, not
	// judged a second time.
	postPayload []byte
}

func (r *result) fail(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

// errorVerdict is the verdict of a call that cannot be judged or
// registered: a human must look when one is there, else it is blocked.
func errorVerdict(unattended bool) judge.Verdict {
	if unattended {
		return judge.Deny
	}
	return judge.Ask
}

// runPre handles one PreToolUse call. It never panics out and always
// writes a decision unless the verdict is a plain allow.
func runPre(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) {
	r := &result{unattended: getenv("SENTINEL_UNATTENDED") == "1"}
	answered := false
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "sentinel-hook: internal error: %v\n", v)
			if answered {
				return
			}
			r.fail("internal error: %v", v)
			r.verdict = max(r.verdict, errorVerdict(r.unattended))
			r.hit = errorHit(r.failures)
			r.seq = 0
			journalAfterPanic(r, stderr)
			respond(stdout, r)
		}
	}()
	judgeCall(r, stdin, getenv)
	if r.postPayload != nil {
		fmt.Fprintln(stderr, "sentinel-hook: a PostToolUse payload without the \"post\" argument; recorded as an outcome (run: sentinel install)")
		answered = true
		runPost(bytes.NewReader(r.postPayload), stderr)
		return
	}
	record(r, stderr)
	for _, f := range r.failures {
		fmt.Fprintln(stderr, "sentinel-hook:", f)
	}
	answered = true
	respond(stdout, r)
}

// judgeCall reads the payload and decides; every problem is noted in
// r.failures and makes the verdict at least the error verdict.
func judgeCall(r *result, stdin io.Reader, getenv func(string) string) {
	var call judge.Call
	data, err := readPayload(stdin)
	if err == nil {
		err = decodeCall(data, &call)
	}
	if err != nil {
		r.fail("%v", err)
	} else if call.HookEventName == "PostToolUse" {
		r.postPayload = data
		return
	}
	r.entry = register.Entry{
		Kind:           register.KindDecision,
		SessionID:      call.SessionID,
		ToolUseID:      call.ToolUseID,
		Cwd:            call.Cwd,
		Tool:           call.ToolName,
		PermissionMode: call.PermissionMode,
		Version:        version.Version,
		Rules:          []string{},
	}
	if call.PermissionMode == "bypassPermissions" || call.PermissionMode == "dontAsk" {
		r.unattended = true
	}
	if err == nil {
		decideCall(r, &call, getenv)
	}
	if len(r.failures) > 0 {
		// A catalog verdict at least as strict as the error verdict keeps
		// its own explanation; otherwise the error explains the verdict.
		if r.hit.RuleID == "" || r.verdict < errorVerdict(r.unattended) {
			r.hit = errorHit(r.failures)
		}
		r.verdict = max(r.verdict, errorVerdict(r.unattended))
		r.entry.Kind = register.KindError
		if !slices.Contains(r.entry.Rules, errorRule) {
			r.entry.Rules = append(r.entry.Rules, errorRule)
		}
	}
	r.entry.Decision = r.verdict.String()
	r.entry.Attended = !r.unattended
	if r.entry.Reason == "" || len(r.failures) > 0 {
		r.entry.Reason = entryReason(r)
	}
}

// decideCall runs the catalog over a well-formed call.
func decideCall(r *result, call *judge.Call, getenv func(string) string) {
	projectDir := getenv("CLAUDE_PROJECT_DIR")
	if projectDir == "" {
		projectDir = call.Cwd
	}
	env := judge.Env{
		Home:       paths.Home(),
		ProjectDir: projectDir,
		Unattended: r.unattended,
		Protected:  protectedPaths(),
	}
	configDir, err := paths.ConfigDir()
	if err != nil {
		r.fail("configuration: %v", err)
	} else if cfg, err := judge.LoadConfig(configDir, projectDir); err != nil {
		// Judge with the shipped defaults, but the broken configuration
		// makes the call an error decision: a human should know.
		r.fail("configuration: %v", err)
	} else {
		env.Config = cfg
	}
	r.entry.CatalogVersion = judge.CatalogVersion
	r.entry.CatalogHash = judge.CatalogHashFor(env.Config)

	d := judge.Decide(*call, env)
	r.verdict = d.Verdict
	r.unattended = r.unattended || d.Unattended
	r.entry.Rules = d.RuleIDs()
	if r.entry.Rules == nil {
		r.entry.Rules = []string{}
	}
	// The hit that explains the verdict: the first with that verdict, else
	// the first (an ask made deny by unattended mode keeps its hit's text).
	for _, h := range d.Hits {
		if h.Verdict == d.Verdict {
			r.hit = h
			break
		}
	}
	if r.hit.RuleID == "" && len(d.Hits) > 0 {
		r.hit = d.Hits[0]
	}
	r.entry.Reason = r.hit.Reason
	if d.Error != "" {
		r.fail("could not judge the call: %s", d.Error)
	}
	canon, err := judge.Canonical(call.ToolName, call.ToolInput)
	if err != nil {
		r.fail("canonical input: %v", err)
		return
	}
	r.entry.Input = canon
}

// readPayload reads stdin up to maxPayload bytes.
func readPayload(stdin io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(stdin, maxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("reading the payload from stdin: %v", err)
	}
	if len(data) > maxPayload {
		return nil, fmt.Errorf("payload on stdin is over the %d MiB limit; not judged", maxPayload>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty payload on stdin: want one JSON object from Claude Code")
	}
	return data, nil
}

// decodeCall decodes the payload; unknown fields are ignored, the fields the
// decision needs must be there with the right types.
func decodeCall(data []byte, call *judge.Call) error {
	if err := json.Unmarshal(data, call); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("payload is not valid JSON: %v (at byte %d)", err, se.Offset)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("payload field %q is a JSON %s, want %s", te.Field, te.Value, te.Type)
		}
		return fmt.Errorf("payload is not a Claude Code hook payload: %v", err)
	}
	if call.ToolName == "" {
		return errors.New("payload has no tool_name")
	}
	in := bytes.TrimSpace(call.ToolInput)
	if len(in) == 0 || bytes.Equal(in, []byte("null")) {
		return fmt.Errorf("payload has no tool_input for tool %s", call.ToolName)
	}
	if in[0] != '{' {
		return fmt.Errorf("payload tool_input for tool %s is %s, want a JSON object", call.ToolName, jsonKind(in[0]))
	}
	return nil
}

func jsonKind(c byte) string {
	switch {
	case c == '"':
		return "a string"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	default:
		return "a number"
	}
}

// protectedPaths are sentinel's own files the agent must not touch: the
// register, the configuration and keys, and the binaries.
func protectedPaths() []string {
	var ps []string
	if d, err := paths.StateDir(); err == nil {
		ps = append(ps, d)
	}
	if d, err := paths.ConfigDir(); err == nil {
		ps = append(ps, d)
	}
	if exe, err := os.Executable(); err == nil {
		ps = append(ps, exe, filepath.Join(filepath.Dir(exe), "sentinel"))
	}
	return ps
}

// errorHit explains an error decision.
func errorHit(failures []string) judge.Hit {
	return judge.Hit{
		RuleID:      errorRule,
		Class:       "error",
		Severity:    "high",
		Reason:      "the guard could not judge or register this call (" + strings.Join(failures, "; ") + ").",
		Alternative: "check the call by hand; run `sentinel doctor` to find the cause.",
	}
}

// entryReason is the reason kept in the register: one line, no entry number.
func entryReason(r *result) string {
	if len(r.failures) == 0 {
		return r.hit.Reason
	}
	s := strings.Join(r.failures, "; ")
	if r.hit.RuleID != "" && r.hit.RuleID != errorRule {
		s = r.hit.Reason + "; also: " + s
	}
	return s
}

// record appends the entry, falling back to the journal. A decision that
// can be neither appended nor journaled is never allowed silently: an
// allow becomes the error verdict.
func record(r *result, stderr io.Writer) {
	err := appendEntry(&r.entry)
	if err == nil {
		r.seq = r.entry.Seq
		return
	}
	fmt.Fprintf(stderr, "sentinel-hook: register: %v\n", err)
	if errors.Is(err, register.ErrVanished) {
		// The register this machine had is gone or rolled back: no call is
		// allowed until the operator resets it (the decision is still
		// journaled below, and merged into the new register).
		r.fail("%v", err)
		if r.verdict < errorVerdict(r.unattended) {
			r.verdict = errorVerdict(r.unattended)
		}
		r.hit = errorHit(r.failures)
		r.entry.Kind, r.entry.Decision, r.entry.Reason = register.KindError, r.verdict.String(), entryReason(r)
		if !slices.Contains(r.entry.Rules, errorRule) {
			r.entry.Rules = append(r.entry.Rules, errorRule)
		}
	}
	dir, derr := paths.StateDir()
	if derr == nil {
		derr = register.JournalWhy(dir, &r.entry, err)
	}
	if derr == nil {
		r.journaled = true
		fmt.Fprintf(stderr, "sentinel-hook: the decision is in the fallback journal in %s; it is merged into the register on the next append\n", dir)
		return
	}
	fmt.Fprintf(stderr, "sentinel-hook: journal: %v\n", derr)
	fmt.Fprintln(stderr, "sentinel-hook: this decision could not be registered")
	r.fail("not registered: %v", err)
	if r.verdict < errorVerdict(r.unattended) {
		r.verdict = errorVerdict(r.unattended)
		r.hit = errorHit(r.failures)
	}
}

// appendEntry opens the register and appends. It deliberately does not
// close it: the process exits right after, and closing the last connection
// makes SQLite checkpoint the WAL into the database and delete it, two more
// fsyncs on every call (about half the hook's time, bench/hook/phases). The
// append itself is durable when Append returns (synchronous=FULL); the WAL
// left behind is what any crash leaves, and SQLite's automatic checkpoints
// keep it bounded.
func appendEntry(e *register.Entry) error {
	path, err := paths.RegisterPath()
	if err != nil {
		return err
	}
	reg, err := register.OpenWith(path, register.Options{BusyTimeout: busyTimeout})
	if err != nil {
		return err
	}
	defer queue(filepath.Dir(path))()
	return reg.Append(e)
}

// queueWait bounds how long a hook waits in the queue before going to
// SQLite's own lock anyway (whose busy timeout then still applies).
const queueWait = 2 * time.Second

// queue makes hook processes take turns at the register with an advisory
// flock on hook.lock beside it. SQLite's busy handler polls, with sleeps up
// to 100 ms, so with many parallel subagents a waiting writer can lose the
// race again and again past its timeout; a blocked flock is woken by the
// kernel as soon as the holder is done. It is only an optimisation: the
// transaction's own lock is what keeps the chain linear, and any failure
// here (read-only directory, timeout) just skips the queue. The returned
// func leaves it (so does the process's exit).
func queue(dir string) func() {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return func() {}
	}
	f, err := os.OpenFile(filepath.Join(dir, "hook.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return func() {}
	}
	// The usual case, nobody queued: take it without a goroutine and timer.
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		return func() { f.Close() }
	}
	got := make(chan error, 1)
	go func() { got <- syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return func() {}
		}
		return func() { f.Close() }
	case <-time.After(queueWait):
		// Leave the queue as soon as the turn comes, should it come.
		go func() { <-got; f.Close() }()
		return func() {}
	}
}

// journalAfterPanic keeps a record of a call whose handling panicked; it
// must not panic itself.
func journalAfterPanic(r *result, stderr io.Writer) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "sentinel-hook: this decision could not be registered: %v\n", v)
		}
	}()
	e := r.entry
	e.Kind = register.KindError
	e.Decision = r.verdict.String()
	e.Attended = !r.unattended
	e.Reason = strings.Join(r.failures, "; ")
	e.Rules = append(append([]string{}, e.Rules...), errorRule)
	e.Seq, e.Hash, e.PrevHash = 0, "", ""
	if dir, err := paths.StateDir(); err == nil && register.Journal(dir, &e) == nil {
		r.journaled = true
		return
	}
	fmt.Fprintln(stderr, "sentinel-hook: this decision could not be registered")
}

// respond writes the decision: nothing for allow, one JSON object otherwise.
func respond(stdout io.Writer, r *result) {
	if r.verdict == judge.Allow {
		return
	}
	out := output{hookOutput{
		HookEventName:            "PreToolUse",
		PermissionDecision:       r.verdict.String(),
		PermissionDecisionReason: claudeReason(r),
	}}
	b, err := json.Marshal(out)
	if err != nil {
		// Cannot happen for these types; stay safe anyway.
		b = []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"sentinel[SENTINEL-UNJUDGED]: could not encode the decision."}}`)
	}
	stdout.Write(append(b, '\n'))
}

// claudeReason is the reason shown to the model or the user: the marker,
// rule id, why, the safer alternative and the register entry.
func claudeReason(r *result) string {
	h := r.hit
	if h.RuleID == "" {
		h = errorHit(r.failures)
	}
	var s string
	if r.seq > 0 {
		s = judge.Reason(h, r.seq)
	} else {
		s = judge.Reason(h, 0)
		tail := "Not in the register: it could not be written."
		if r.journaled {
			tail = "Register entry pending (kept in the fallback journal)."
		}
		if i := strings.LastIndex(s, "Register entry #0."); i >= 0 {
			s = s[:i] + tail + s[i+len("Register entry #0."):]
		} else {
			s += " " + tail
		}
	}
	if len(s) > maxReason {
		cut := maxReason
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
