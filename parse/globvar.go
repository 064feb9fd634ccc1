package parse

import (
	"slices"
	"strconv"
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
	"mvdan.cc/sh/v3/syntax"
)

// Values a loop or a fan-out hands to its body (issue 19, blind class 4):
// `for f in ~/Documents/*; do : > "$f"; done` and `find ~/Documents
// -exec sh -c ': > "$1"' _ {} \;` truncate every file the glob or find
// names. The variable ($f, $1) holds one match at a time, which is not
// static; but what it ranges over is known, so "$f" is written as the
// pattern itself (not static), the form rules already read for rm
// ~/Documents/* or a fan-out's Feed.

// isPattern reports a word that is a glob and nothing else unknown: no
// substitution, no variable left in it.
func isPattern(a arg) bool {
	if a.pattern {
		return true
	}
	return !a.Static && !a.subst && strings.ContainsAny(a.Value, "*?[") && !strings.ContainsAny(a.Value, "$`")
}

// patternParam is the pattern a plain $name or $N (no modifiers) holds
// when it was bound to one (a for loop over a glob, a fan-out's name).
func (s *scope) patternParam(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Exp != nil || p.Names != 0 || p.NestedParam != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	if n, err := strconv.Atoi(p.Param.Value); err == nil {
		if s.params != nil && n < len(*s.params) && (*s.params)[n].pattern {
			return (*s.params)[n].Value, true
		}
		return "", false
	}
	if volatile[p.Param.Value] {
		return "", false
	}
	for i := len(s.assigns) - 1; i >= 0; i-- {
		if a := s.assigns[i]; a.Name == p.Param.Value {
			return a.Value.Value, a.pattern && !a.Value.Static
		}
	}
	return "", false
}

// feedParams are the positional parameters of sh -c CODE $0 ARGS... run
// by find -exec ... \; or fd -x, once per name found: the arguments as
// written, {} the name (a pattern of what the fan-out lists, when it
// lists one path). ok false when that is not known.
func feedParams(c *cmd, operands []arg) ([]arg, bool) {
	if !c.feedOne || c.feed == nil || len(c.feed.Paths) != 1 || len(operands) == 0 {
		return nil, false
	}
	params := slices.Clone(operands)
	for i, a := range params {
		switch {
		case a.Static:
		case a.Value == "{}":
			params[i] = arg{Word: Word{Value: c.feed.Paths[0]}, pattern: true}
		default:
			return nil, false // x{}y, $X: not known
		}
	}
	return params, true
}

// bindReadLoop binds the variable of `LISTER | while read [-r] NAME; do
// BODY; done` in the body to the pattern of what the lister prints (one
// name a line: find DIR, ls DIR, git ls-files), when it lists one path.
// ls prints names without DIR: the pattern stays below DIR either way.
func (w *walker) bindReadLoop(body *scope, s *syntax.Stmt, c *syntax.WhileClause, pp pipePos) {
	var list *programs.Listed
	if pp.stdin != nil {
		list = pp.stdin.list
	} else {
		list = procSubstListing(s.Redirs) // done < <(find DIR)
	}
	if c.Until || list == nil || len(list.Paths) != 1 || len(c.Cond) != 1 {
		return
	}
	call, ok := c.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) < 2 || call.Args[0].Lit() != "read" {
		return
	}
	name := ""
	for k := 1; k < len(call.Args); k++ {
		a := call.Args[k].Lit()
		switch {
		case a == "-r" || a == "-s":
		case a == "-d" || a == "-p" || a == "-t" || a == "-u":
			k++ // takes a value
		case a == "" || strings.HasPrefix(a, "-") || name != "":
			return // -a, -n, a second name, a word that is not a literal
		default:
			name = a
		}
	}
	if name != "" && isName(name) {
		body.setAssign(Assign{Name: name, Value: Word{Value: list.Paths[0]}, pattern: true})
	}
}

// procSubstListing is what `< <(LISTER ARGS)` lists, when the process
// substitution is one lister with literal arguments (its executions are
// walked with the loop's other redirects).
func procSubstListing(redirs []*syntax.Redirect) *programs.Listed {
	for _, r := range redirs {
		if r.Op != syntax.RdrIn || r.Word == nil || len(r.Word.Parts) != 1 {
			continue
		}
		ps, ok := r.Word.Parts[0].(*syntax.ProcSubst)
		if !ok || len(ps.Stmts) != 1 {
			return nil
		}
		call, ok := ps.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 || len(call.Assigns) > 0 {
			return nil
		}
		var words []string
		for _, a := range call.Args {
			v, ok := staticLit(a)
			if !ok {
				return nil // computed: not read here
			}
			words = append(words, v)
		}
		if l, ok := programs.Listing(words[0], words[1:]); ok {
			return &l
		}
	}
	return nil
}
