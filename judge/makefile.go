package judge

import (
	"path"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
)

// make runs the recipes of its makefile (issue 12, class 4): `make` after
// a Makefile was written (earlier in the command, or by an earlier call of
// the session), or with one on disk, is judged by the recipes of the goals
// it builds (the named targets, else the first one) and their
// prerequisites, plus every pattern rule's. A recipe is a shell line:
// `@`/`-`/`+` prefixes dropped, `$$` is `$`, the makefile's own variables
// are expanded (`X = ~` then `rm -rf $(X)`), `$(HOME)`-style variables of
// the environment become shell variables, `$(shell CMD)` is `$(CMD)` (it
// runs), `$(RM)` is `rm -f`, and other variables, automatic variables and
// functions are neutral words. The makefile is read like a script
// (scriptfile.go: bounded, regular files only); one that is there but
// cannot be read is SCRIPT-UNREADABLE. Findings that only say "dynamic"
// are not raised for a makefile on disk, as for scripts.

var _ = onExec(func(j *judge, x execution) {
	if x.e.Name != "make" && x.e.Name != "gmake" {
		return
	}
	o := parseOpts(x.args, "fCIjlWo", "file", "makefile", "directory")
	dir := x.e.Dir
	if d := firstNonEmpty(o.Values["C"], o.Long["directory"]); d != "" {
		dir = path.Join(dir, d)
		if path.IsAbs(d) {
			dir = d
		}
	}
	var cands []string
	if f := firstNonEmpty(o.Values["f"], o.Long["file"], o.Long["makefile"]); f != "" {
		cands = []string{f}
	} else {
		cands = []string{"GNUmakefile", "makefile", "Makefile"}
	}
	var goals []string
	for _, a := range o.Pos {
		if !strings.Contains(a, "=") {
			goals = append(goals, a)
		}
	}
	for _, c := range cands {
		if in := x.e.StdinText; (c == "-" || c == "/dev/stdin" || c == "/proc/self/fd/0") && in != nil && in.Static {
			// make -f - <<'EOF': the makefile is the text it reads
			j.makeRecipes(path.Join(dir, "-"), makeShell(in.Value, goals), x.detail, false)
			return
		}
		p, ok := j.resolve(c, dir)
		if !ok {
			continue
		}
		text, known := j.writtenNow[p]
		if !known {
			f := j.scriptFile(p, langMake)
			switch f.State {
			case parse.FileUnreadable:
				j.add(RuleScriptUnreadable, x.detail+": "+p+": "+f.Why)
				return
			case parse.FileAbsent:
				continue
			}
			text = f.Text
		}
		j.makeRecipes(p, makeShell(text, goals), x.detail, !known)
		return // make reads the first makefile it finds
	}
})

// langMake is the language scriptFile and runnable name makefiles with.
const langMake = "make"

// makeAllGoals as the one goal of makeShell means every target (what a
// makefile written this session is judged by: any target may be asked).
const makeAllGoals = "\x00all"

// makeRecipes judges a makefile's recipes (as shell text) with a judge of
// their own; disk says the makefile is on disk and not written this session.
func (j *judge) makeRecipes(p, sh, detail string, disk bool) {
	if sh == "" {
		return
	}
	sub := newJudge(Call{ToolName: "Bash", Cwd: path.Dir(p)}, j.env)
	sub.sess = j.sessionState()
	res, err := parse.Script(sh, "", p, sub.parseOptions())
	if err != nil {
		j.add(RuleSentinelUnjudged, detail+": the recipes of "+p+": "+err.Error())
		return
	}
	sub.judgeResult(res, sh)
	for _, h := range sub.hits {
		if disk && (h.RuleID == RuleEvalDynamic || h.RuleID == RuleDynamicCommand) {
			continue
		}
		h.Detail = "make: " + path.Base(p) + ": " + h.Detail
		j.hits = append(j.hits, h)
	}
}

const (
	maxMakeTargets = 256     // targets walked from the goals
	maxMakeExpand  = 8       // nesting of variable expansion
	maxMakeWork    = 20000   // references expanded in one makefile
	maxMakeText    = 1 << 20 // the recipes' shell text: over it, the parse's limit answers
)

var (
	makeVarRe  = lazyRegexp(`^(?:export\s+|override\s+)*([A-Za-z_][A-Za-z0-9_.-]*)\s*(\+=|:=|::=|\?=|=|!=)\s*(.*)$`)
	makeRuleRe = lazyRegexp(`^([^:=#\t][^:=#]*?)\s*::?\s*([^=]*)$`)
	makeRefRe  = lazyRegexp(`\$(?:\(([^()]*(?:\([^()]*\))?[^()]*)\)|\{([^{}]*)\}|([^({$]))`)
)

// makeShell is the shell text of the recipes make would run for goals
// ("" : the first target) in the makefile text.
func makeShell(text string, goals []string) string {
	text = strings.ReplaceAll(text, "\\\n", " ")
	vars := map[string]string{}
	type rule struct {
		prereqs []string
		recipe  []string
	}
	rules := map[string]*rule{}
	var order, patterns []string
	var cur []*rule
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "\t") {
			for _, r := range cur {
				r.recipe = append(r.recipe, line[1:])
			}
			continue
		}
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if m := makeVarRe().FindStringSubmatch(line); m != nil {
			switch m[2] {
			case "+=":
				vars[m[1]] = strings.TrimSpace(vars[m[1]] + " " + m[3])
			case "?=":
				if _, ok := vars[m[1]]; !ok {
					vars[m[1]] = m[3]
				}
			case "!=":
				vars[m[1]] = "$(shell " + m[3] + ")"
			default:
				vars[m[1]] = m[3]
			}
			cur = nil
			continue
		}
		m := makeRuleRe().FindStringSubmatch(line)
		if m == nil {
			cur = nil
			continue
		}
		cur = nil
		prereqs, inline, _ := strings.Cut(m[2], ";")
		for _, t := range strings.Fields(m[1]) {
			r := rules[t]
			if r == nil {
				r = &rule{}
				rules[t] = r
				if strings.Contains(t, "%") {
					patterns = append(patterns, t)
				} else if !strings.HasPrefix(t, ".") {
					order = append(order, t)
				}
			}
			r.prereqs = append(r.prereqs, strings.Fields(prereqs)...)
			if strings.TrimSpace(inline) != "" {
				r.recipe = append(r.recipe, inline)
			}
			cur = append(cur, r)
		}
	}
	switch {
	case len(goals) == 1 && goals[0] == makeAllGoals:
		goals = order
	case len(goals) == 0 && len(order) > 0:
		goals = order[:1]
	}
	var lines []string
	seen := map[string]bool{}
	var walk func(t string)
	walk = func(t string) {
		if seen[t] || len(seen) >= maxMakeTargets {
			return
		}
		seen[t] = true
		r := rules[t]
		if r == nil {
			return
		}
		for _, p := range r.prereqs {
			walk(p)
		}
		lines = append(lines, r.recipe...)
	}
	for _, g := range goals {
		walk(g)
	}
	for _, p := range patterns {
		lines = append(lines, rules[p].recipe...)
	}
	var b strings.Builder
	x := &makeExpander{vars: vars}
	for _, l := range lines {
		l = strings.TrimLeft(l, " \t@-+")
		if l == "" {
			continue
		}
		b.WriteString(x.expand(l, 0))
		b.WriteByte('\n')
		if b.Len() > maxMakeText {
			break // parse.Script refuses it: SENTINEL-UNJUDGED
		}
	}
	return b.String()
}

// makeExpander expands make's references with a bounded amount of work:
// `X = $(X)$(X)` must not grow without end.
type makeExpander struct {
	vars map[string]string
	work int
}

// makeEnvVars are variables make takes from the environment that matter
// to where commands act: they stay shell variables.
var makeEnvVars = map[string]bool{"HOME": true, "PWD": true, "CURDIR": true, "USER": true, "TMPDIR": true, "PATH": true}

// expand expands make's references in s (see makeShell).
func (x *makeExpander) expand(s string, depth int) string {
	return makeRefRe().ReplaceAllStringFunc(s, func(ref string) string {
		x.work++
		if x.work > maxMakeWork {
			return "make_var"
		}
		m := makeRefRe().FindStringSubmatch(ref)
		name := firstNonEmpty(m[1], m[2], m[3])
		switch {
		case name == "$":
			return "$"
		case strings.HasPrefix(name, "shell "):
			return "$(" + x.expand(strings.TrimPrefix(name, "shell "), depth+1) + ")"
		case name == "RM":
			return "rm -f"
		case name == "MAKE":
			return "make"
		}
		if v, ok := x.vars[name]; ok && depth < maxMakeExpand {
			if v = x.expand(v, depth+1); len(v) <= maxMakeText {
				return v
			}
		}
		if makeEnvVars[name] {
			if name == "CURDIR" {
				name = "PWD"
			}
			return "${" + name + "}"
		}
		return "make_var" // automatic variables, functions, unknown variables
	})
}
