package judge

import (
	"path"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Provenance through copies (issue 21). A file written in this session
// keeps what its content would get when it is copied or moved (cp, mv,
// install, cat SRC > DEST): the call that copies leaves the same fact for
// the destination, so running the copy gets the verdict of the content,
// not only what the disk shows then (where findings that only say
// "dynamic" are not raised for a project's own files). The destination is
// kept both as written and as DEST/base(SRC), as a copy into a directory
// lands there: a fact for a path that is never run costs nothing.

// One matcher, in this order: the shims a copy of this call puts first on
// PATH (pathShims) read the facts carryFacts leaves (package initialization
// would order two matchers by what their code refers to, not by position).
var _ = onCommand(func(j *judge, res *parse.Result) {
	j.carryFacts(res)
	j.pathShims(res)
})

// carryFacts adds a written fact for each destination of a copy whose
// source the session remembers.
func (j *judge) carryFacts(res *parse.Result) {
	if j.env.Memory == nil || j.sessionState().depth > 0 {
		return
	}
	for i := range res.Execs {
		e := &res.Execs[i]
		srcs, dests := copied(e)
		for _, dest := range dests {
			j.carryTo(e, srcs, dest)
		}
	}
}

// carryTo leaves the facts of the sources the session remembers for dest.
func (j *judge) carryTo(e *parse.Exec, srcs []string, dest string) {
	d, ok := j.resolve(dest, e.Dir)
	if !ok {
		return
	}
	for _, s := range srcs {
		sp, ok := j.resolve(s, e.Dir)
		if !ok {
			continue
		}
		f, ok := j.env.Memory.Written(path.Clean(sp))
		if !ok {
			continue
		}
		j.used("memory: " + sp + " written in entry #" + itoa(f.Seq) + ": " + f.Verdict.String() + ", copied to " + d)
		st := j.sessionState()
		for _, to := range []string{d, path.Join(d, path.Base(sp))} {
			j.keepWritten(WrittenFact{Path: to, Verdict: f.Verdict, Input: f.Input, Rules: f.Rules})
			if contains(st.ran, path.Clean(to)) {
				// copied and run in the same call (cp x.sh y.sh && ./y.sh):
				// the parse asked for y.sh before this copy was seen
				j.writtenRun(to, f)
			}
		}
		if f.Verdict > Allow {
			// copied into a place that runs on its own (.husky/pre-push,
			// ~/.config/autostart/, a user bin directory): as if written there
			j.persistedContent(d, "", f)
		}
	}
}

// copied is what an execution copies and where to: a copier's sources and
// destination (programs' CopyDest), a reader's operands sent to a file
// with > (cat x.sh > y.sh), or a compiler's sources and what it makes of
// them (programs.Compiles: cc x.c makes a.out, which runs what x.c spawns).
func copied(e *parse.Exec) ([]string, []string) {
	if e.Dynamic || len(e.Argv) == 0 {
		return nil, nil
	}
	args := wordValues(e.Argv[1:])
	p := programs.Lookup(e.Name)
	if p.Is(programs.Copier) {
		srcs, dest := p.CopyDest(args)
		if dest == "" {
			return nil, nil
		}
		return srcs, []string{dest}
	}
	if srcs, outs := programs.Compiles(e.Name, args); len(srcs) > 0 {
		return srcs, outs
	}
	if p.Is(programs.Reader) && !p.Is(programs.Pattern) {
		for _, r := range e.Redirects {
			if (r.Op == ">" || r.Op == ">|" || r.Op == ">>") && (r.Fd == -1 || r.Fd == 1) && r.Target.Static {
				return p.Parse(args).Pos, []string{r.Target.Value}
			}
		}
	}
	return nil, nil
}

// A PATH shim (issue 19 class 1): a file written this session in a
// directory the command puts before the inherited PATH (PATH=$PWD/bin:$PATH
// git status; export PATH=./bin:$PATH; ls) is what runs under that name.
func (j *judge) pathShims(res *parse.Result) {
	if j.env.Memory == nil || j.sessionState().depth > 0 {
		return
	}
	for i := range res.Execs {
		e := &res.Execs[i]
		if len(e.Argv) == 0 || !e.Argv[0].Static || strings.Contains(e.Argv[0].Value, "/") {
			continue
		}
		for _, d := range shimDirs(e.Assigns) {
			dir, ok := j.resolve(d, e.Dir)
			if !ok {
				continue
			}
			p := path.Join(dir, e.Argv[0].Value)
			if f, ok := j.carriedNow(p); ok {
				j.used("copied in this call to " + p + ": " + f.Verdict.String() + ", first on PATH")
				j.writtenRun(p, f)
			} else if f, ok := j.env.Memory.Written(p); ok {
				j.used("memory: " + p + " written in entry #" + itoa(f.Seq) + ": " + f.Verdict.String() + ", first on PATH")
				j.writtenRun(p, f)
			}
		}
	}
}

// carriedNow is the fact this call's copies left for p (mv x.sh bin/git
// && PATH=$PWD/bin:$PATH git).
func (j *judge) carriedNow(p string) (WrittenFact, bool) {
	ws := j.sessionState().facts.Written
	for i := len(ws) - 1; i >= 0; i-- {
		if ws[i].Path == p {
			return ws[i], true
		}
	}
	return WrittenFact{}, false
}

// shimDirs are the directories a PATH assignment puts before what it
// inherits (the entries before the first one that is not static).
func shimDirs(as []parse.Assign) []string {
	val := ""
	for _, a := range as {
		if a.Name == "PATH" {
			val = a.Value.Value // the last assignment is in effect
		}
	}
	var out []string
	for _, d := range strings.Split(val, ":") {
		if d == "" || strings.Contains(d, "$") {
			break
		}
		out = append(out, d)
	}
	return out
}
