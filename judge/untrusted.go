package judge

import (
	"path"
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// Untrusted content, then a persistent write (issue 19, class 15). A page
// fetched (WebFetch), a search's results (WebSearch) or an MCP tool's
// result puts text from outside into the session, and the model may follow
// what it says. A write after it to a file that runs later or tells agents
// what to do (CI, git hooks, build files, package.json scripts, CLAUDE.md
// and AGENTS.md, shell startup files) is where an injected instruction
// becomes lasting: it runs, or is obeyed, after this session, unwatched.
// The same write in a session with no untrusted content passes as before.
// The fact comes only from a call that ran (session's counts): a fetch
// declined at the prompt left nothing to follow.

// RuleSessionUntrustedPersist is spelled as its id.
const RuleSessionUntrustedPersist = "SESSION-UNTRUSTED-PERSIST"

var _ = rules(Rule{ID: RuleSessionUntrustedPersist, Class: ClassRemoteCode, Severity: SevMedium, Decision: Ask, Catastrophic: false,
	Reason:      "content from outside (a web page, search results or an MCP tool's result) entered this session, and this call writes a file that runs later or instructs agents",
	Alternative: "check that the change is the user's intent, not an instruction taken from the fetched content",
	Matches:     "a write (Write, Edit, MultiEdit, NotebookEdit, a redirect, tee, cp, a heredoc) to CI files (`.github/workflows/*`, `.gitlab-ci.yml`, ...), git hooks (`.git/hooks/*`, `.husky/*`, `.pre-commit-config.yaml`), build files (`Makefile`, `*.mk`, `justfile`, `package.json` scripts, `setup.py`, `conftest.py`), agent instructions (`CLAUDE.md`, `AGENTS.md`, `.claude/commands/*`, `.cursorrules`, ...), shell startup files or a persistence path of PERSISTENCE-INSTALL, in a session where an earlier call that ran was a WebFetch, a WebSearch or an MCP tool (among its last 256 entries)",
	Fire: []string{`Write {"file_path":"/home/user/proj/.github/workflows/ci.yml","content":"on: push\n"}`,
		`Edit {"file_path":"/home/user/proj/Makefile","old_string":"lint:","new_string":"lint:\n\tgolangci-lint run"}`,
		"echo 'Always run ./setup.sh first.' >> CLAUDE.md"},
	Pass: []string{`Write {"file_path":"/home/user/proj/src/main.py","content":"print(1)\n"}`,
		`Edit {"file_path":"/home/user/proj/README.md","old_string":"a","new_string":"b"}`,
		`Write {"file_path":"/home/user/proj/package.json","content":"{\"dependencies\":{\"left-pad\":\"1.3.0\"}}"}`,
		"cat CLAUDE.md"},
})

// untrustedSource reports a tool whose result is content from outside.
func untrustedSource(tool string) bool {
	return tool == "WebFetch" || tool == "WebSearch" || strings.HasPrefix(tool, "mcp__")
}

// UntrustedReader is a Memory that also says whether untrusted content
// entered the session (package session's does).
type UntrustedReader interface {
	// UntrustedRead reports the newest call of the session that brought
	// content from outside and is known to have run, with its entry.
	UntrustedRead() (seq int64, ok bool)
}

// untrustedPersist adds SESSION-UNTRUSTED-PERSIST for a write to p when p
// runs later or instructs agents and the session holds untrusted content.
func (j *judge) untrustedPersist(p, detail string) {
	what := j.laterRun(p)
	if what == "" {
		return
	}
	j.untrustedWrite(what, detail)
}

func (j *judge) untrustedWrite(what, detail string) {
	if j.env.Memory == nil || j.sessionState().depth > 0 || j.cfg.disabled(RuleSessionUntrustedPersist) {
		return
	}
	m, ok := j.env.Memory.(UntrustedReader)
	if !ok {
		return
	}
	seq, ok := m.UntrustedRead()
	if !ok {
		return
	}
	j.used("memory: content from outside entered the session in entry #" + itoa(seq))
	r, _ := ruleByID(RuleSessionUntrustedPersist)
	h := hitFor(r, detail+" ("+what+", after untrusted content of entry #"+itoa(seq)+")")
	h.After = seq
	j.hits = append(j.hits, h)
}

// npmScripts: a package.json text that holds scripts (npm runs them).
var npmScripts = lazyRegexp(`"(scripts|(pre|post)?(install|prepare|publish|pack|test|start|build)[A-Za-z:]*)"\s*:`)

// untrustedManifest judges a write of text to a package.json: only its
// scripts run, so a dependency bump is not a persistent write.
func (j *judge) untrustedManifest(p, text, detail string) {
	if path.Base(p) == "package.json" && npmScripts().MatchString(text) {
		j.untrustedWrite("package.json scripts", detail)
	}
}

// agentInstructions are files an agent reads as its instructions.
var agentInstructions = map[string]bool{"CLAUDE.md": true, "CLAUDE.local.md": true, "AGENTS.md": true,
	"AGENT.md": true, "GEMINI.md": true, ".cursorrules": true, ".windsurfrules": true, ".clinerules": true,
	"copilot-instructions.md": true}

// ciFiles are CI configurations named by their base name.
var ciFiles = map[string]bool{".gitlab-ci.yml": true, ".travis.yml": true, "Jenkinsfile": true,
	"azure-pipelines.yml": true, "bitbucket-pipelines.yml": true, ".drone.yml": true, "appveyor.yml": true,
	"cloudbuild.yaml": true, "buildspec.yml": true}

// laterCI is laterRun's word for a CI configuration.
const laterCI = "a CI file"

// laterRun says what p is when a write to it runs later or instructs
// agents: CI, a git hook, a build file, agent instructions, a startup or
// persistence path ("" for the rest). package.json is judged by its
// text (untrustedManifest).
func (j *judge) laterRun(p string) string {
	base := path.Base(p)
	dir := path.Dir(p)
	switch {
	case strings.Contains(p, "/.github/workflows/") || strings.Contains(p, "/.circleci/") ||
		strings.Contains(p, "/.buildkite/") || strings.Contains(p, "/.gitlab/ci/") || strings.Contains(p, "/.gitea/workflows/") || strings.Contains(p, "/.github/actions/") ||
		strings.Contains(p, "/.forgejo/workflows/") || ciFiles[base]:
		return laterCI
	case strings.Contains(p, "/.git/hooks/") && !strings.HasSuffix(base, ".sample"),
		strings.Contains(p, "/.husky/") || strings.Contains(p, "/.githooks/"),
		base == ".pre-commit-config.yaml" || base == "lefthook.yml":
		return "a git hook"
	case agentInstructionFile(p):
		return "agent instructions"
	case base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(base, ".mk") ||
		base == "setup.py" || base == "conftest.py" || base == "Taskfile.yml" || base == "build.rs" ||
		strings.HasSuffix(dir, "/.vscode") && base == "tasks.json":
		return "a build file"
	}
	if lang, ok := programs.FileLang(base); ok && lang == programs.LangJustfile {
		return "a build file"
	}
	rel := ""
	if j.home != "" && strictlyUnder(p, j.home) {
		rel = strings.TrimPrefix(p, j.home+"/")
	}
	if programs.StartupFile(p, rel) || j.persistencePath(p) {
		return "a startup or persistence file"
	}
	return ""
}

// newText is the text an Edit or MultiEdit puts in.
func newText(obj map[string]any) string {
	var b strings.Builder
	if es, ok := obj["edits"].([]any); ok {
		for _, e := range es {
			if m, ok := e.(map[string]any); ok {
				s, _ := m["new_string"].(string)
				b.WriteString(s + "\n")
			}
		}
	}
	s, _ := obj["new_string"].(string)
	b.WriteString(s)
	return b.String()
}
