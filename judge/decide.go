package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleSentinelUnjudged = "SENTINEL-UNJUDGED"
)

var _ = rules(
	Rule{ID: RuleSentinelUnjudged, Class: ClassError, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "the call could not be judged",
		Alternative: "simplify the command, or split it",
		Matches:     "the call could not be judged (see above)",
		Fire:        []string{"ls )", "echo 'unterminated"},
		Pass:        []string{"ls '(x)'"}},
)

// Unattended permission modes: no human can answer a prompt.
func unattendedMode(mode string) bool {
	return mode == "bypassPermissions" || mode == "dontAsk"
}

// Decide judges one tool call. It never panics and never allows a call it
// could not judge: errors become Ask (attended) or Deny (unattended) with
// the SENTINEL-UNJUDGED hit.
func Decide(c Call, env Env) (d Decision) {
	unatt := env.Unattended || unattendedMode(c.PermissionMode)
	defer func() {
		if r := recover(); r != nil {
			d = errorDecision(fmt.Sprintf("internal error: %v", r), unatt)
		}
	}()
	j := newJudge(c, env)
	if err := j.dispatch(c.ToolName, c.ToolInput); err != nil {
		return errorDecision(err.Error(), unatt)
	}
	d = finish(j.keptHits(), unatt)
	d.Facts = j.facts()
	if j.parsed != nil || (j.sess != nil && len(j.sess.used) > 0) {
		d.Used = &Used{Parse: j.parsed}
		if j.sess != nil {
			d.Used.Memory = j.sess.used
		}
	}
	if j.unjudged != "" {
		d.Error = j.unjudged // an error decision: the register says so
	}
	return d
}

// finish applies "strictest wins" and the unattended conversion.
func finish(hits []Hit, unatt bool) Decision {
	d := Decision{Unattended: unatt}
	converted := map[string]bool{}
	for i := range hits {
		if unatt && hits[i].Verdict == Ask {
			hits[i].Verdict = Deny
			hits[i].Decision = Deny.String()
			converted[hits[i].RuleID] = true
		}
	}
	d.Hits = sortHits(hits)
	for _, h := range d.Hits {
		if h.Verdict > d.Verdict {
			d.Verdict = h.Verdict
		}
	}
	d.Decision = d.Verdict.String()
	// The note is about the rule that speaks: a deny rule's deny did not
	// become anything, even when a lesser ask beside it was converted.
	if len(d.Hits) > 0 && converted[d.Hits[0].RuleID] {
		d.Note = "unattended: ask became deny"
	}
	return d
}

const maxErrorText = 300

func errorDecision(msg string, unatt bool) Decision {
	if len(msg) > maxErrorText {
		msg = msg[:maxErrorText] + "..."
	}
	r, _ := ruleByID(RuleSentinelUnjudged)
	h := hitFor(r, msg)
	h.Reason = r.Reason + ": " + msg
	d := finish([]Hit{h}, unatt)
	d.Error = msg
	return d
}

// judge holds what one decision needs.
type judge struct {
	env     Env
	cfg     *Config
	tool    string
	harness string // Call.Harness: "" Claude Code, HarnessCodex
	home    string
	project string // absolute, cleaned; "" when unknown
	cwd     string
	// sentinel's own paths (register, config, binaries)
	sentinel []string
	keyDirs  []string // directories whose *.key files may not be read
	// agentDirs: Env.AgentDirs, cleaned (protected.go)
	agentDirs []string
	hits      []Hit

	// combination state for exfiltration
	secretRead  string // detail of the first secret read, "" if none
	networkSend string // detail of the first network send to a non-allowed host
	secretVar   string // first secret-named variable expanded in an argument
	// namesOnly: the execution being judged prints, or feeds a stage that
	// prints, only names or counts (programs.NamesOnly): no secret is shown
	namesOnly   bool
	globDirs    int  // directories listed to match globs (resolve.go)
	envFiltered bool // the environment reaches the output only through a filter (reads.go)
	// credHandedOn: this execution's output goes only to a login that
	// reads it on stdin for the credential's own service (secretprint.go)
	credHandedOn bool
	// credUses are credential printers inside $(...), settled once the
	// command's network hosts are known (secretprint.go); sendHosts the
	// hosts of its network sends, sendUnknown a send to hosts not known
	credUses    []credUse
	sendHosts   []string
	sendUnknown bool

	data   []parse.Data // data spans of the command (heredoc text fed to a program)
	source string       // the whole command, for code fed on stdin (selfreach.go)
	reach  string       // first execution reaching the sentinel's files (selfreach.go)

	// git aliases defined earlier in the same command (git config
	// alias.NAME VALUE), and how deep alias expansion has gone.
	gitAliases map[string]string
	aliasDepth int
	// gitRecalled: git state the memory was asked about (gitstate.go)
	gitRecalled map[string]bool

	sess     *sessionState // files read and facts left (scriptfile.go, session.go)
	unjudged string        // code the call runs that could not be judged (scriptfile.go)
	// writtenNow are the files the command leaves written with known text
	// (makefile.go reads a Makefile written earlier in the same command)
	writtenNow map[string]string
	// contentAsks are the PERSISTENCE-INSTALL hits (indexes in hits) of
	// writes whose content decides, by path; withdrawn those hits are
	// (persistrun.go)
	contentAsks map[string][]int
	withdrawn   map[int]bool
	linkSt      *linkState    // links followed and made (links.go)
	parsed      *parse.Result // the call's command as judged (Decision.Used)
}

func newJudge(c Call, env Env) *judge {
	j := &judge{env: env, cfg: env.Config, tool: c.ToolName, harness: c.Harness}
	j.home = cleanAbs(env.Home)
	j.cwd = cleanAbs(c.Cwd)
	j.project = cleanAbs(env.ProjectDir)
	if j.project == "" {
		j.project = j.cwd
	}
	if j.cwd == "" {
		j.cwd = j.project
	}
	if j.project != "" && j.home != "" && under(j.home, j.project) {
		// a session started in ~ (or above it) has no project: home is
		// never "the project", so rm -rf ~/Documents stays outside it
		j.project = ""
	}
	j.sentinel = make([]string, 0, len(env.Protected)+4+4*len(programs.GuardNames)) // all that follows
	for _, p := range env.Protected {
		if p = cleanAbs(j.expandHome(p)); p != "" {
			j.sentinel = append(j.sentinel, p)
		}
	}
	for _, d := range env.AgentDirs {
		if d = cleanAbs(j.expandHome(d)); d != "" && d != j.home && d != "/" {
			j.agentDirs = append(j.agentDirs, d)
		}
	}
	if d := cleanAbs(env.StateDir); d != "" {
		j.sentinel = append(j.sentinel, d)
	}
	if d := cleanAbs(env.ConfigDir); d != "" {
		j.sentinel = append(j.sentinel, d)
		j.keyDirs = append(j.keyDirs, d)
	}
	if j.home != "" {
		// the defaults, in case the environment points elsewhere
		st := filepath.Join(j.home, ".local", "state", "sentinel")
		cf := filepath.Join(j.home, ".config", "sentinel")
		j.sentinel = append(j.sentinel, st, cf)
		j.keyDirs = append(j.keyDirs, cf)
		j.sentinel = appendInstalled(j.sentinel, j.home)
	}
	return j
}

// appendInstalled appends where install puts the binaries when the caller
// does not say (~/.local/bin, ~/go/bin, ~/bin, /usr/local/bin), each guard
// name in each, as slices of one string: every decision builds them.
func appendInstalled(out []string, home string) []string {
	dirs := [...]string{home + "/.local/bin/", home + "/go/bin/", home + "/bin/", "/usr/local/bin/"}
	var b strings.Builder
	b.Grow(len(dirs) * (len(home) + 32) * len(programs.GuardNames))
	for _, d := range dirs {
		for _, n := range programs.GuardNames {
			b.WriteString(d)
			b.WriteString(n)
		}
	}
	all, at := b.String(), 0
	for _, d := range dirs {
		for _, n := range programs.GuardNames {
			out = append(out, all[at:at+len(d)+len(n)])
			at += len(d) + len(n)
		}
	}
	return out
}

func cleanAbs(p string) string {
	if p == "" || !strings.HasPrefix(p, "/") {
		return ""
	}
	return filepath.Clean(p)
}

// add records a hit for a shipped rule unless the operator disabled it.
func (j *judge) add(id, detail string) {
	if j.cfg.disabled(id) {
		return
	}
	r, ok := ruleByID(id)
	if !ok {
		panic("hook: unknown rule " + id)
	}
	j.hits = append(j.hits, hitFor(r, detail))
}

// dispatch judges by tool.
func (j *judge) dispatch(tool string, input json.RawMessage) error {
	obj, err := inputObject(input)
	if err != nil {
		return err
	}
	switch tool {
	case "Bash":
		cmd, err := stringField(obj, "command", true)
		if err != nil {
			return err
		}
		j.sandboxEscape(obj) // sandbox.go
		if err := j.bash(cmd); err != nil {
			return err
		}
	case "Write", "Edit", "MultiEdit":
		p, err := stringField(obj, "file_path", true)
		if err != nil {
			return err
		}
		k := kindEdit
		if tool == "Write" {
			k = kindRewrite // the file's whole content replaced
		}
		if c, ok := obj["content"].(string); ok && tool == "Write" && strings.TrimSpace(c) == "" {
			k = kindEmpty // a Write of nothing empties the file
		}
		if c, ok := obj["content"].(string); ok && tool == "Write" {
			if rp, ok := j.resolve(p, j.cwd); ok {
				j.writtenNow = map[string]string{rp: c} // the whole content, known
			}
		}
		j.writePath(p, k, tool+" "+p)
		if c, ok := obj["content"].(string); ok && tool == "Write" {
			j.noteWritten(p, c)
			j.untrustedManifest(p, c, tool+" "+p)
		} else if tool != "Write" {
			j.noteEdit(p, obj)
			j.untrustedManifest(p, newText(obj), tool+" "+p)
		}
	case "apply_patch":
		// Codex's file edits (patch.go); its shell tool arrives as Bash
		text, err := stringField(obj, "command", true)
		if err != nil {
			return err
		}
		if err := j.applyPatch(text); err != nil {
			return err
		}
	case "NotebookEdit":
		p, err := stringField(obj, "notebook_path", true)
		if err != nil {
			return err
		}
		j.writePath(p, kindEdit, tool+" "+p)
		j.noteNotebook(p, obj) // session.go
	case "Read":
		p, err := stringField(obj, "file_path", true)
		if err != nil {
			return err
		}
		j.readPath(p, tool+" "+p)
	case "Grep", "Glob":
		p, err := stringField(obj, "path", false)
		if err != nil {
			return err
		}
		pat, err := stringField(obj, "pattern", tool == "Glob")
		if err != nil {
			return err
		}
		if p != "" {
			j.readPath(p, tool+" "+p)
			if mode, _ := obj["output_mode"].(string); tool == "Grep" && mode == "content" {
				// matching lines of every file below: the stores among them
				if r, ok := j.resolve(p, j.cwd); ok {
					j.treeSecret(r, false, tool+" "+p)
				}
			}
		}
		if tool == "Glob" && pat != "" {
			// the pattern is a path pattern: judge its fixed part, relative
			// to path (or the cwd).
			base := p
			if base == "" {
				base = j.cwd
			}
			if !strings.HasPrefix(pat, "/") && !strings.HasPrefix(pat, "~") && base != "" {
				pat = base + "/" + pat
			}
			j.readPath(pat, tool+" "+pat)
		}
	case "WebFetch":
		u, err := stringField(obj, "url", true)
		if err != nil {
			return err
		}
		if metadataHost(programs.HostOf(u)) {
			j.secretReadHit("WebFetch " + u) // the instance's cloud credentials, fetched from this machine (protected.go)
		}
		if j.cfg != nil && j.cfg.RestrictWebFetch {
			if h := programs.HostOf(u); !j.cfg.hostAllowed(h) {
				j.add(RuleNetworkHostNotAllowed, "WebFetch "+h)
			}
		}
	}
	if untrustedSource(tool) {
		j.sessionState().facts.Untrusted = true // untrusted.go
	}
	if strings.HasPrefix(tool, "mcp__") {
		if err := j.mcpTool(tool, obj); err != nil { // mcp.go
			return err
		}
	}
	j.customTool(tool)
	return nil
}

// maxInputBytes refuses tool inputs too large to hold a command within the
// parser's limit even fully escaped, before spending time decoding them.
const maxInputBytes = 8 * parse.DefaultMaxBytes

// inputObject decodes tool_input as a JSON object, in one pass.
func inputObject(input json.RawMessage) (map[string]any, error) {
	if len(bytes.TrimSpace(input)) == 0 {
		return nil, errors.New("tool_input is missing")
	}
	if len(input) > maxInputBytes {
		return nil, fmt.Errorf("tool_input over the %d byte limit: not judged", maxInputBytes)
	}
	var obj map[string]any
	if err := json.Unmarshal(input, &obj); err != nil {
		return nil, fmt.Errorf("tool_input is not a JSON object: %v", err)
	}
	if obj == nil {
		return nil, errors.New("tool_input is null")
	}
	return obj, nil
}

func stringField(obj map[string]any, key string, required bool) (string, error) {
	raw, ok := obj[key]
	if !ok || raw == nil {
		if required {
			return "", fmt.Errorf("tool_input.%s is missing", key)
		}
		return "", nil
	}
	s, ok := raw.(string)
	if !ok {
		return "", fmt.Errorf("tool_input.%s is not a string", key)
	}
	if required && s == "" {
		return "", fmt.Errorf("tool_input.%s is empty", key)
	}
	return s, nil
}

// commandMatchers are the matchers of rules that judge a whole command (what
// parse found across its executions); a rule file registers one with
// onCommand.
var commandMatchers []func(j *judge, res *parse.Result)

// onCommand registers a matcher; call it from a package-level var.
func onCommand(m func(j *judge, res *parse.Result)) bool {
	commandMatchers = append(commandMatchers, m)
	return true
}

// bash parses and judges a shell command.
func (j *judge) bash(cmd string) error {
	res, err := parse.Parse(cmd, j.parseOptions())
	if err != nil {
		var le *parse.LimitError
		if errors.As(err, &le) {
			return fmt.Errorf("command over the %s limit (%d): not judged", le.Limit, le.Max)
		}
		return err
	}
	if res == nil {
		return errors.New("parser returned no result")
	}
	j.parsed = res
	for _, w := range res.Written {
		if j.writtenNow == nil {
			j.writtenNow = map[string]string{}
		}
		j.writtenNow[w.Path] = w.Text
	}
	j.judgeResult(res, cmd)
	for _, w := range res.Written {
		j.noteWritten(w.Path, w.Text)
		j.untrustedManifest(w.Path, w.Text, "write "+w.Path)
	}
	j.recallSecret()
	return nil
}

// judgeResult judges what parse found in source.
func (j *judge) judgeResult(res *parse.Result, cmd string) {
	j.data, j.source = res.Data, cmd
	for i := range res.Execs {
		j.exec(res.Execs, i)
	}
	j.reachFallback()
	for _, m := range commandMatchers {
		m(j, res)
	}
	j.settleCredUses(res.Execs)
	if j.networkSend != "" {
		if s := firstNonEmpty(j.secretRead, j.secretVar); s != "" {
			j.add(RuleExfilSecretNetwork, s+" + "+j.networkSend)
		}
	}
}

// customTool applies operator rules that match a tool name.
func (j *judge) customTool(tool string) {
	if j.cfg == nil {
		return
	}
	for _, r := range j.cfg.Custom {
		if g, ok := j.cfg.customTools[r.ID]; ok {
			if m, _ := path.Match(g, tool); m {
				j.hits = append(j.hits, hitFor(r, "tool "+tool))
			}
		}
	}
}

// Reason is the text for permissionDecisionReason for one hit:
// "sentinel[RULE-ID]: <reason>. Safer: <alternative>. Register entry #<seq>."
// seq 0 means the decision could not be registered.
func Reason(h Hit, seq int64) string {
	return reasonText(h, nil, seq, "")
}

// DecisionReason is Reason for a whole decision: it names the strictest
// hit and lists the others' ids.
func DecisionReason(d Decision, seq int64) string {
	if len(d.Hits) == 0 {
		return ""
	}
	var more []string
	for _, h := range d.Hits[1:] {
		more = append(more, h.RuleID)
	}
	return reasonText(d.Hits[0], more, seq, d.Note)
}

// ReasonBody is the reason without the register tail: the marker and rule
// id, why, the safer alternative, the other rules' ids and the note. It is
// not capped: the hook's answer is capped once, where it is written
// (package toolcall), at the limit Claude Code imposes.
func ReasonBody(h Hit, more []string, note string) string {
	var b strings.Builder
	b.WriteString(Marker + h.RuleID + "]: ")
	b.WriteString(strings.TrimSuffix(h.Reason, "."))
	b.WriteString(". Safer: ")
	b.WriteString(strings.TrimSuffix(h.Alternative, "."))
	b.WriteString(".")
	if len(more) > 0 {
		b.WriteString(fmt.Sprintf(" (+%d more: %s)", len(more), strings.Join(more, ", ")))
	}
	if note != "" {
		b.WriteString(" (" + note + ")")
	}
	return b.String()
}

func reasonText(h Hit, more []string, seq int64, note string) string {
	tail := " Not registered: see stderr."
	if seq > 0 {
		tail = fmt.Sprintf(" Register entry #%d.", seq)
	}
	return ReasonBody(h, more, note) + tail
}

func truncUTF8(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n]
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
