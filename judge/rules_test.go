package judge

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the generated rule table in docs/rules.md")

// exampleConfig is the operator configuration the examples run under, so
// that the rules that need one (protected paths, allowed hosts) have it.
func exampleConfig(t *testing.T) *Config {
	t.Helper()
	cfg, err := ParseConfig("examples", "protected_paths = [\"/srv/data\"]\nallowed_hosts = [\"*.allowed.example\"]\nrestrict_webfetch = true\n", true)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// exampleCall reads an example: a Bash command as it is, another tool as
// "Tool {json}"; "codex: " before either makes it a call from Codex.
func exampleCall(ex string) Call {
	if rest, ok := strings.CutPrefix(ex, "codex: "); ok {
		c := exampleCall(rest)
		c.Harness = HarnessCodex
		return c
	}
	if tool, in, ok := strings.Cut(ex, " {"); ok && !strings.ContainsAny(tool, " '\"$") && tool != "" && (tool[0] >= 'A' && tool[0] <= 'Z' || strings.HasPrefix(tool, "mcp__")) {
		return Call{ToolName: tool, ToolInput: json.RawMessage("{" + in), Cwd: "/home/user/proj", PermissionMode: "default"}
	}
	return bash(ex)
}

// TestRuleExamples runs every rule's examples: it fires on each Fire
// example (attended and unattended) and not on any Pass example.
func TestRuleExamples(t *testing.T) {
	env := testEnv(t)
	env.Config = exampleConfig(t)
	env.Memory = exampleMemory{}
	for _, r := range Rules() {
		if len(r.Fire) == 0 || len(r.Pass) == 0 {
			t.Errorf("%s: every rule needs examples that fire and look-alikes that pass", r.ID)
		}
		for _, unatt := range []bool{false, true} {
			env.Unattended = unatt
			for _, ex := range r.Fire {
				d := Decide(exampleCall(ex), env)
				if !contains(d.RuleIDs(), r.ID) {
					t.Errorf("%s does not fire on its example %q (unattended %v): %v", r.ID, ex, unatt, d.RuleIDs())
				} else if d.Verdict < r.Decision {
					t.Errorf("%s example %q: decision %s, weaker than the rule's %s", r.ID, ex, d.Decision, r.Decision)
				}
			}
			for _, ex := range r.Pass {
				if d := Decide(exampleCall(ex), env); contains(d.RuleIDs(), r.ID) {
					t.Errorf("%s fires on its look-alike %q: %v", r.ID, ex, d.RuleIDs())
				}
			}
		}
	}
}

// TestRuleText: every rule has its whole text.
func TestRuleText(t *testing.T) {
	for _, r := range Rules() {
		if r.Reason == "" || r.Alternative == "" || r.Matches == "" || r.Severity == "" {
			t.Errorf("%s lacks reason, alternative, matches or severity", r.ID)
		}
		if r.Catastrophic && r.Decision != Deny && r.ID != RuleSentinelUnjudged {
			t.Errorf("%s is catastrophic but only %s", r.ID, r.Decision)
		}
	}
}

// ruleTable is the catalog as the Markdown table of docs/rules.md.
func ruleTable() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## The catalog (%s)\n\n", CatalogVersion)
	b.WriteString("Generated from the catalog by `go test ./judge -run TestRulesDoc -update-docs`; a test checks it\n")
	b.WriteString("is current. Run `sentinel rules` for the full text (reason and safer alternative of each).\n")
	b.WriteString("Decision is attended; unattended every ask is deny. Catastrophic rules cannot be switched off.\n")
	b.WriteString("Each rule is declared next to its matching code (`judge/<family>.go`) with examples that must\n")
	b.WriteString("fire and look-alikes that must not; `TestRuleExamples` runs them all.\n\n")
	b.WriteString("| class | rule | decision | severity | fires on | example |\n|---|---|---|---|---|---|\n")
	last := ""
	for _, r := range Rules() {
		class := r.Class
		if class == last {
			class = ""
		}
		last = r.Class
		id := r.ID
		if r.Catastrophic {
			id += " (catastrophic)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", class, id, r.Decision, r.Severity,
			mdCell(r.Matches), mdCell("`"+strings.ReplaceAll(r.Fire[0], "`", "'")+"`"))
	}
	return b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

const (
	docBegin = "<!-- catalog:begin -->\n"
	docEnd   = "<!-- catalog:end -->\n"
)

// TestRulesDoc: the rule table in docs/rules.md is the catalog's.
func TestRulesDoc(t *testing.T) {
	const path = "../docs/rules.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, k := strings.Index(doc, docBegin), strings.Index(doc, docEnd)
	if i < 0 || k < i {
		t.Fatalf("%s lacks the %q ... %q markers", path, docBegin, docEnd)
	}
	want := doc[:i+len(docBegin)] + ruleTable() + doc[k:]
	if want == doc {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the rule table is not the catalog's; run go test ./judge -run TestRulesDoc -update-docs", path)
}

// TestRuleConstantNames: every rule constant is spelled as its id
// (GIT-RESET-HARD is RuleGitResetHard), and every catalog rule has one.
func TestRuleConstantNames(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Rule") || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					id, _ := strconv.Unquote(lit.Value)
					want := "Rule"
					for _, p := range strings.Split(id, "-") {
						want += p[:1] + strings.ToLower(p[1:])
					}
					if n.Name != want {
						t.Errorf("%s = %q: spell it %s", n.Name, id, want)
					}
					seen[id] = true
				}
			}
		}
	}
	for _, r := range Rules() {
		if !seen[r.ID] {
			t.Errorf("rule %s has no constant", r.ID)
		}
	}
}
