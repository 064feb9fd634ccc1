package judge

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Writes whose destination the program computes (issue 19, the guard's
// own files named once): find -exec WRITER ... {} writes what find finds,
// so the files its tests can match are written. The guard's files
// (Claude Code's settings and hooks, the sentinel's binaries) that the
// tests can match are judged as written (CLAUDE-SETTINGS-EDIT,
// SENTINEL-TAMPER); the sentinel's state directories are SENTINEL-REACH's
// (selfreach.go).

var _ = onExec(func(j *judge, x execution) {
	if x.e.Remote {
		return
	}
	switch programs.Canon(x.e.Name) {
	case "find":
		j.findWritesGuard(x.args, x.e.Dir, x.detail)
	default:
		if f, dir, strip, ok := programs.PatchFile(x.e.Name, x.args); ok {
			if f == "" || f == "-" {
				f = stdinFile(x.e) // patch -p1 < fix.patch
			}
			j.patchWrites(f, dir, strip, x.e.Dir, x.detail)
		}
	}
})

// stdinFile is the file redirected to e's standard input, "" for none.
func stdinFile(e *parse.Exec) string {
	for _, r := range e.Redirects {
		if r.Op == "<" && (r.Fd == -1 || r.Fd == 0) && r.Target.Static {
			return r.Target.Value
		}
	}
	return ""
}

// maxPatchBytes bounds the patch text read to find the files it changes.
const maxPatchBytes = 1 << 20

// patchWrites reads a patch file (bounded, through internal/safefile: a
// FIFO or a device is refused) and judges each file it changes as edited:
// git apply and patch write the files the patch names, not the command.
// A patch that cannot be read is not judged here: what it changes is not
// known (a file written earlier in the session is remembered, session.go).
func (j *judge) patchWrites(f, dir string, strip int, cwd, detail string) {
	if f == "" || j.env.NoFiles {
		return
	}
	p, ok := j.resolve(f, cwd)
	if !ok {
		return
	}
	j.recallPatch(p, detail)
	b, err := safefile.ReadFile(p, maxPatchBytes)
	if err != nil {
		return
	}
	j.patchTargets(string(b), dir, strip, cwd, detail+" (a file the patch changes)")
}

// notePatch keeps the fact for a patch written in the session (a .patch
// or .diff file with a patch's file names): what applying it from the
// working directory would get, so that git apply of it later is judged
// even before the file is on disk.
func (j *judge) notePatch(p, text string) bool {
	if ext := filepath.Ext(p); ext != ".patch" && ext != ".diff" || len(programs.PatchNames(text)) == 0 {
		return false
	}
	s := j.sessionState()
	sub := newJudge(Call{ToolName: "Bash", Cwd: j.cwd}, j.env)
	sub.sess = &sessionState{depth: s.depth + 1, files: s.files}
	sub.patchTargets(text, "", 1, j.cwd, "applying "+p)
	sub.patchTargets(text, "", -1, j.cwd, "applying "+p)
	d := finish(sub.hits, false)
	if d.Verdict == Allow {
		return false
	}
	f := WrittenFact{Path: p, Verdict: d.Verdict}
	for _, id := range d.RuleIDs() {
		if len(f.Rules) < maxFactRules && !contains(f.Rules, id) {
			f.Rules = append(f.Rules, id)
		}
	}
	s.facts.Written = append(s.facts.Written, f)
	return true
}

// recallPatch adds the rule a patch written earlier in the session got
// as applied (notePatch).
func (j *judge) recallPatch(p, detail string) {
	if j.env.Memory == nil || j.sessionState().depth > 0 {
		return
	}
	f, ok := j.env.Memory.Written(filepath.Clean(p))
	if !ok || f.Verdict == Allow || len(f.Rules) == 0 {
		return
	}
	r, ok := ruleByID(f.Rules[0])
	if !ok || j.cfg.disabled(r.ID) {
		return
	}
	j.used("memory: " + p + " written in entry #" + itoa(f.Seq) + ": " + f.Verdict.String() + rulesNote(f.Rules))
	h := hitFor(r, detail+" (a patch written in this session, entry #"+itoa(f.Seq)+")")
	h.Verdict, h.Decision, h.After = f.Verdict, f.Verdict.String(), f.Seq
	j.hits = append(j.hits, h)
}

// patchTargets judges the files the patch text changes, below base (or
// the working directory), with strip leading components removed (-1:
// patch's default, which tries the name as written and its base name).
func (j *judge) patchTargets(text, base string, strip int, cwd, detail string) {
	root := cwd
	if base != "" {
		if r, ok := j.resolve(base, cwd); ok {
			root = r
		}
	}
	for _, name := range programs.PatchNames(text) {
		for _, c := range stripped(name, strip) {
			if abs, ok := j.resolve(c, root); ok {
				j.writeAbs(abs, kindEdit, detail)
			}
		}
	}
}

// stripped are the names a patch's file name stands for after -pN.
func stripped(name string, strip int) []string {
	if strip < 0 {
		return []string{name, filepath.Base(name), strings.Join(strings.SplitN(name, "/", 2)[1:], "")}
	}
	for k := 0; k < strip; k++ {
		_, rest, ok := strings.Cut(name, "/")
		if !ok {
			return nil
		}
		name = rest
	}
	return []string{name}
}

// findTests are find's name and path tests, its depth bound and whether
// an alternative or a negation makes them not all required.
type findTests struct {
	names, inames, paths, ipaths []string
	maxDepth                     int
	anyOf                        bool
}

// findWritesGuard judges find's -exec/-execdir/-ok actions that write the
// file found ({} as a copy's destination, an operand of a writer or
// deleter): every guard file below a root that the tests can match.
func (j *judge) findWritesGuard(args []string, dir, detail string) {
	var roots []string
	k := 0
	for ; k < len(args); k++ {
		a := args[k]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	t := findTests{maxDepth: -1}
	kind, writes := writeKind(0), false
	for i := k; i < len(args); i++ {
		a := args[i]
		next := ""
		if i+1 < len(args) {
			next = args[i+1]
		}
		switch a {
		case "-name":
			t.names = append(t.names, next)
		case "-iname":
			t.inames = append(t.inames, next)
		case "-path", "-wholename":
			t.paths = append(t.paths, next)
		case "-ipath", "-iwholename":
			t.ipaths = append(t.ipaths, next)
		case "-maxdepth":
			if n, err := strconv.Atoi(next); err == nil {
				t.maxDepth = n
			}
		case "-o", "-or", "-not", "!", ",":
			t.anyOf = true
		case "-regex", "-iregex", "-lname", "-ilname", "-samefile", "-inum", "-newer":
			t.anyOf = true // a test not read here: it may match anything
		}
		if !programs.FindRuns(a) {
			continue
		}
		end := i + 1
		for end < len(args) && args[end] != ";" && args[end] != "+" {
			end++
		}
		if kd, ok := placeholderWrite(args[i+1 : end]); ok {
			kind, writes = kd, true
		}
		i = end
	}
	if !writes {
		return
	}
	for _, r := range roots {
		abs, ok := j.resolve(r, dir)
		if !ok {
			continue
		}
		for _, c := range j.guardFilesUnder(abs) {
			rel := strings.TrimPrefix(c[len(abs):], "/")
			if !t.aimed() && !j.existingFile(c) {
				continue // find . -name '*.json': only what is there is found
			}
			if t.match(strings.TrimSuffix(r, "/")+"/"+rel, rel) {
				j.writeAbs(c, kind, detail+" (find's -exec on "+c+")")
				return
			}
		}
	}
}

// placeholderWrite reports an -exec command that writes the file find
// hands it ({}): the destination of a copy (cp SRC {}), an operand of a
// writer that reads nothing (truncate, tee, touch), of an in-place editor
// (sed -i), or of a deleter.
func placeholderWrite(cmd []string) (writeKind, bool) {
	if len(cmd) == 0 {
		return 0, false
	}
	p := programs.Lookup(cmd[0])
	if p == nil {
		return 0, false
	}
	args := cmd[1:]
	holds := func(ws []string) bool {
		for _, w := range ws {
			if strings.Contains(w, "{}") {
				return true
			}
		}
		return false
	}
	switch {
	case p.Is(programs.Copier):
		_, dest := p.CopyDest(args)
		return kindRewrite, strings.Contains(dest, "{}")
	case p.Is(programs.Deleter) && !p.Is(programs.Writer):
		return kindDelete, holds(args)
	case p.Outputs != nil && holds(p.Outputs(args)):
		return kindTruncate, true
	case p.Is(programs.Writer) && p.Is(programs.NonReader) && !p.Is(programs.Permissions):
		return kindEmpty, holds(args) // truncate -s 0 {}, shred {}
	case p.Name == "sed" && (programs.HasShortFlag(args, 'i') || anyPrefixWord(args, "--in-place")):
		return kindEdit, holds(args)
	}
	return 0, false
}

func anyPrefixWord(args []string, p string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, p) {
			return true
		}
	}
	return false
}

// guardFilesUnder are the guard's files a find rooted at root may reach:
// Claude Code's settings in any .claude directory (root's own, the
// project's, home's), the user's state file, and the sentinel's own paths.
func (j *judge) guardFilesUnder(root string) []string {
	cands := []string{root + "/.claude/settings.json", root + "/.claude/settings.local.json", root + "/.claude/hooks/hook"}
	for _, d := range []string{j.project, j.home} {
		if d != "" {
			cands = append(cands, d+"/.claude/settings.json", d+"/.claude/settings.local.json", d+"/.claude/hooks/hook")
		}
	}
	if j.home != "" {
		cands = append(cands, j.home+"/.claude.json")
	}
	cands = append(cands, j.sentinel...)
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		c = filepath.Clean(c)
		if strictlyUnder(c, root) && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// aimed reports tests that name the guard's files (settings*.json,
// *claude*, sentinel*): they select such a file whether or not it is
// there yet.
func (t findTests) aimed() bool {
	for _, list := range [][]string{t.names, t.inames, t.paths, t.ipaths} {
		for _, p := range list {
			l := strings.ToLower(p)
			for _, w := range []string{"settings", "claude", "sentinel", "hook"} {
				if strings.Contains(l, w) {
					return true
				}
			}
		}
	}
	return false
}

// match reports whether find's tests can select the file at printed
// (the path as find prints it: the root as given, then rel): with
// alternatives or tests not read here, any one test matching is enough.
func (t findTests) match(printed, rel string) bool {
	if t.maxDepth >= 0 && strings.Count(rel, "/")+1 > t.maxDepth {
		return false
	}
	base := filepath.Base(rel)
	var results []bool
	for _, p := range t.names {
		ok, err := filepath.Match(p, base)
		results = append(results, ok || err != nil)
	}
	for _, p := range t.inames {
		ok, err := filepath.Match(strings.ToLower(p), strings.ToLower(base))
		results = append(results, ok || err != nil)
	}
	for _, p := range t.paths {
		results = append(results, wholeMatch(p, printed, false))
	}
	for _, p := range t.ipaths {
		results = append(results, wholeMatch(p, printed, true))
	}
	if len(results) == 0 {
		return true
	}
	all, any := true, false
	for _, r := range results {
		all, any = all && r, any || r
	}
	if t.anyOf {
		return any
	}
	return all
}

// wholeMatch is find's -path matching: the pattern against the whole path,
// '*' and '?' matching '/' too. A pattern that does not translate matches.
func wholeMatch(pat, s string, fold bool) bool {
	var b strings.Builder
	b.WriteString("^")
	if fold {
		b.WriteString("(?i)")
	}
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			end := strings.IndexByte(pat[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := pat[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		case '\\':
			if i+1 < len(pat) {
				i++
				b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err != nil || re.MatchString(s)
}
