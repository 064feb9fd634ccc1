package parse

import (
	"path"
	"slices"
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// Fan-out (issue 12, class 10): a command run once per name another
// program supplies. Where the names are known, the command is judged with
// them: parallel's ::: values are substituted and the lines read as the
// shell code parallel runs; find's and fd's starting points and a listing
// piped into xargs become the execution's Feed (programs/fanout.go says
// what a lister lists), which the judge puts where the names go.

// maxParallelJobs bounds the command lines parallel's ::: values expand to.
const maxParallelJobs = 64

// listingOf is what c, a lister (or echo/printf of a glob), prints as
// paths, or nil when that is not known.
func listingOf(c *cmd, name string) *programs.Listed {
	args := c.argv[1:]
	vals := make([]string, 0, len(args))
	for _, a := range args {
		if !a.Static && (a.subst || strings.ContainsAny(a.Value, "$`")) {
			return nil // a run-time word: the listing is not known
		}
		vals = append(vals, a.Value)
	}
	if name == "echo" || name == "printf" {
		if name == "printf" && len(vals) > 0 {
			vals = vals[1:] // the format
		}
		glob := false
		for _, a := range args {
			if !a.Static {
				glob = true // printf '%s\n' ~/*: the names the glob matches
			}
		}
		if !glob || len(vals) == 0 {
			return nil // static text: xargs reads its words (xargsInput)
		}
		return &programs.Listed{Paths: vals}
	}
	if l, ok := programs.Listing(name, vals); ok {
		return &l
	}
	return nil
}

// fd judges fd [options] [pattern] [path...] [-x|-X command ...]: fd
// itself, and the command with the found paths as its Feed.
func (w *walker) fd(sc *scope, c *cmd, name string) output {
	w.emit(c)
	out := output{srcs: []string{name}, data: -1}
	k := slices.IndexFunc(c.argv, func(a arg) bool {
		return a.Static && (a.Value == "-x" || a.Value == "--exec" || a.Value == "-X" || a.Value == "--exec-batch")
	})
	if k < 0 {
		out.list = listingOf(c, name)
		return out
	}
	end := k + 1
	for end < len(c.argv) && !(c.argv[end].Static && (c.argv[end].Value == ";" || c.argv[end].Value == `\;`)) {
		end++
	}
	if end == k+1 {
		return out
	}
	vals := make([]string, 0, len(c.argv)-1)
	for _, a := range c.argv[1:] {
		vals = append(vals, a.Value)
	}
	roots, _, filtered := programs.FdSearch(vals)
	feed := &programs.Listed{Deep: true}
	for _, r := range roots {
		feed.Paths = append(feed.Paths, programs.FindListed([]string{r}).Paths[0])
		if filtered {
			feed.Paths[len(feed.Paths)-1] = strings.TrimSuffix(feed.Paths[len(feed.Paths)-1], "*") + "*_"
		}
	}
	inner := *c
	inner.argv = replaceArgs(c.argv[k+1:end], "{")
	inner.wrappers = append(slices.Clip(c.wrappers), name+" "+c.argv[k].Value)
	inner.extra, inner.extraSrcs, inner.feed = true, []string{name}, feed
	inner.feedOne = c.argv[k].Value == "-x" || c.argv[k].Value == "--exec"
	inner.stdin, inner.redirs = nil, nil
	inner.origin = Origin{Kind: OriginWrapper, Depth: c.origin.Depth, Via: name + " " + c.argv[k].Value}
	w.run(sc, &inner)
	return out
}

// parallelLines expands parallel's template over its ::: values into the
// command lines it runs, or ok false when the values are not all known
// (:::: files, run-time words, more than maxParallelJobs lines).
func parallelLines(template, sources []arg) ([]string, bool) {
	var groups [][]arg
	for _, a := range sources {
		switch {
		case a.Static && (a.Value == ":::" || a.Value == ":::+"):
			groups = append(groups, nil)
		case a.Static && strings.HasPrefix(a.Value, "::::"):
			return nil, false // values read from a file
		case len(groups) == 0 || !a.Static && (a.subst || strings.ContainsAny(a.Value, "$`")):
			return nil, false
		default:
			groups[len(groups)-1] = append(groups[len(groups)-1], a)
		}
	}
	if len(groups) == 0 {
		return nil, false // the values come from stdin
	}
	jobs := [][]arg{nil}
	for _, g := range groups {
		if len(g) == 0 {
			return nil, false
		}
		var next [][]arg
		for _, j := range jobs {
			for _, v := range g {
				next = append(next, append(slices.Clip(j), v))
			}
		}
		if len(next) > maxParallelJobs {
			return nil, false
		}
		jobs = next
	}
	tmpl := joinArgs(template)
	var lines []string
	for _, job := range jobs {
		quoted := make([]string, len(job))
		for i, v := range job {
			quoted[i] = quoteArg(v) // a glob stays a glob
		}
		line, used := tmpl, false
		for i, v := range job {
			n := string(rune('1' + i))
			for _, r := range []struct{ k, v string }{
				{"{" + n + "}", quoted[i]}, {"{" + n + ".}", trimExt(quoted[i])}, {"{" + n + "/}", path.Base(v.Value)},
			} {
				if strings.Contains(line, r.k) {
					line, used = strings.ReplaceAll(line, r.k, r.v), true
				}
			}
		}
		all := strings.Join(quoted, " ")
		first := job[0].Value
		for _, r := range []struct{ k, v string }{
			{"{}", all}, {"{.}", trimExt(all)}, {"{/}", path.Base(first)}, {"{//}", path.Dir(first)}, {"{/.}", trimExt(path.Base(first))},
		} {
			if strings.Contains(line, r.k) {
				line, used = strings.ReplaceAll(line, r.k, r.v), true
			}
		}
		if !used {
			line += " " + all
		}
		lines = append(lines, line)
	}
	return lines, true
}

func trimExt(s string) string {
	if e := path.Ext(s); e != "" && !strings.Contains(e, "/") {
		return strings.TrimSuffix(s, e)
	}
	return s
}
