package parse

import (
	"errors"
	"strings"

	"github.com/sentinel-guard/sentinel/interp"
)

// treeCode reads interpreter code with its language's grammar (package
// interp) and emits what it does as executions, the same kinds the shell
// side yields, so every rule applies unchanged:
//   - commands: a shell line is re-parsed as shell, an argv is run;
//   - deletions: a synthetic rm (-rf when recursive);
//   - reads and writes: the null command ":" with a "<", ">" or ">>"
//     redirect of the path;
//   - network sends: a synthetic curl of the URL or host;
//   - the whole environment handed on: a synthetic env;
//   - code built at run time: RunsCode with the producers' kinds as the
//     shell programs of the same kind (decode → base64, network → curl,
//     socket → nc).
//
// It reports false when the language has no grammar here or the code was
// not analysed (over the limits, does not parse): the caller then keeps
// its text scan.
func (w *walker) treeCode(c *cmd, code, lang string, o Origin) bool {
	if !interp.Supported(lang) {
		return false
	}
	f, err := interp.Analyze(code, lang, interp.Options{Home: w.opt.Home, Cwd: c.dir, Tainted: w.taint})
	if errors.Is(err, interp.ErrLimit) {
		// Over the size, node or time limit: the code is not judged, and
		// says so (the judge asks, or denies unattended). The text scan
		// still runs: what it finds counts as well.
		u := *c
		u.stdin = nil
		u.runs = &DynamicCode{How: HowUnjudgedCode, Sources: []string{lang + " " + strings.TrimPrefix(err.Error(), "interp: ")}}
		w.emit(&u)
		return false
	}
	if err != nil {
		return false
	}
	for _, x := range f.Commands {
		switch {
		case x.Shell && !x.Line.Static && x.Template == "${_interp}":
			w.codeCall(c, "shell", nil, x.Line.Value, o) // nothing of it is known
		case x.Shell && !x.Line.Static:
			w.codeCall(c, "shell", []codeItem{{val: x.Template}}, "", o)
		case x.Shell:
			w.codeCall(c, "shell", []codeItem{{val: x.Line.Value, static: true}}, "", o)
		default:
			list := make([]codeItem, len(x.Argv))
			for i, a := range x.Argv {
				list[i] = codeItem{val: a.Value, static: a.Static}
			}
			w.codeCall(c, "shell", []codeItem{{isList: true, static: true, list: list}}, "", o)
		}
	}
	for _, d := range f.Deletes {
		kind := "rm"
		switch {
		case d.Recursive:
			kind = "rm -r"
		case d.Dir:
			kind = "rmdir"
		}
		w.codeCall(c, kind, []codeItem{{val: d.Path.Value, static: d.Path.Static}}, "", o)
	}
	for _, r := range f.Reads {
		w.fileEffect(c, "<", r.Path, o)
	}
	for _, wr := range f.Writes {
		op := ">"
		if wr.Append {
			op = ">>"
		}
		w.fileEffect(c, op, wr.Path, o)
	}
	for _, s := range f.Sends {
		w.synthetic(c, o, nil, Word{Value: "curl", Static: true}, Word{Value: s.To.Value, Static: s.To.Static})
	}
	if len(f.EnvDump) > 0 {
		w.synthetic(c, o, nil, Word{Value: "env", Static: true})
	}
	if socketShell(f) {
		w.synthetic(c, o, &DynamicCode{How: "interpreter", Sources: shellSources([]string{"socket"})}, Word{Value: "socket shell", Static: true})
	}
	for _, d := range f.Dynamic {
		if d.Decoded && len(d.Sources) == 0 {
			continue
		}
		srcs := shellSources(d.Sources)
		w.synthetic(c, o, &DynamicCode{How: "interpreter", Sources: srcs}, Word{Value: d.Via, Static: true})
	}
	return true
}

// shellSources names a producer kind by the shell program of that kind,
// which is what rules know: decoded text as base64's, downloaded code as
// curl's, a socket as nc's.
func shellSources(kinds []string) []string {
	var out []string
	for _, k := range kinds {
		var s string
		switch {
		case k == "decode":
			s = "base64"
		case k == "network":
			s = "curl"
		case k == "socket":
			s = "nc"
		default:
			s = k
		}
		if !strings.Contains(strings.Join(out, " "), s) {
			out = append(out, s)
		}
	}
	return out
}

// fileEffect emits ":" with one redirect: the file the code reads or
// writes, resolved like a shell redirect target.
func (w *walker) fileEffect(c *cmd, op string, p interp.Str, o Origin) {
	inner := *c
	inner.origin = o
	inner.runs, inner.stdin, inner.extra, inner.help = nil, nil, false, false
	inner.argv = []arg{{Word: Word{Value: ":", Static: true}}}
	t := Word{Value: p.Value, Static: p.Static}
	if t.Static && c.dir != "" && !strings.HasPrefix(t.Value, "/") {
		t.Value = c.dir + "/" + t.Value
	}
	inner.redirs = []Redirect{{Op: op, Fd: -1, Target: t}}
	inner.synthetic = true
	w.emit(&inner)
}

// synthetic emits one inferred execution.
func (w *walker) synthetic(c *cmd, o Origin, runs *DynamicCode, argv ...Word) {
	inner := *c
	inner.origin = o
	inner.redirs, inner.stdin, inner.extra, inner.help = nil, nil, false, false
	inner.runs = runs
	inner.argv = make([]arg, len(argv))
	for i, a := range argv {
		inner.argv[i] = arg{Word: a}
	}
	inner.synthetic = true
	w.emit(&inner)
}
