package judge

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// A file in the home directory is destroyed by more than rm (blind attack
// class 7): emptied (`: > F`, `truncate -s 0 F`, `cp /dev/null F`, `dd
// if=/dev/zero of=F`, `sed -i d F`, a Write of nothing), overwritten where
// it exists (`curl -o F`, `unzip -o -d ~`), or deleted by an archiver or a
// trash tool (`tar --remove-files`, `zip -m`, `7z a -sdel`, `gio trash`).
// The programs' operands are typed in programs/ (Removes, the kinds of
// write); this file says what that does to a home file outside the project.

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleHomeFileDestroy = "HOME-FILE-DESTROY"
)

var _ = rules(
	Rule{ID: RuleHomeFileDestroy, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "emptying or overwriting a file in the home directory outside the project destroys what it held",
		Alternative: "work on a copy inside the project; leave the operator's files to the operator",
		Matches:     "`: > F`, `truncate`, `cp /dev/null F`, `dd if=/dev/zero of=F`, `sed -i d F`, `perl -i -ne '' F`, `s/.*//` in place, `ex -sc '%d|x' F`, an ed script of `,d` and `w` on its stdin, emacs `--eval` that erases the buffer and saves, `perl -0777 -pi -e '$_=\"\"'`, `tee F < /dev/null`, a writer whose output is written from nothing (programs' Zeroes: `sort -o F /dev/null`, `iconv -o F /dev/null`, `uniq /dev/null F`, `shuf -n 0 -o F`, `xxd -r /dev/null F`, `gawk -i inplace 'NR<0' F`), `mv F /dev/null`, `fallocate -p/-c/-z F` (programs' Zeroes), a Write of nothing, of a file under home outside the project, caches and temp dirs; `curl -o`/`>`, a Write or a `cp`/`mv` onto such a file that exists (an Edit or `sed -i s/a/b/` keeps what it does not change and passes); `unzip -o` into home",
		Fire: []string{": > ~/Documents/thesis.tex", "truncate -s 0 ~/Documents/thesis.tex", "cp /dev/null ~/Documents/thesis.tex", "sed -i d ~/Documents/thesis.tex", "unzip -o /tmp/junk.zip -d ~",
			"sort -o ~/Documents/a.txt /dev/null", "uniq /dev/null ~/Documents/a.txt", "shuf -n 0 -o ~/Documents/a.txt ~/Documents/a.txt", "gawk -i inplace '0' ~/Documents/a.txt",
			`perl -0777 -pi -e '$_=""' ~/Documents/a.txt`, "printf '1,$d\nw\n' | ed ~/Documents/a.txt", "tee ~/Documents/a.txt < /dev/null",
			"emacs --batch ~/Documents/a.org --eval '(progn (erase-buffer) (save-buffer))'",
			`mcp__fs__truncate_file {"path":"/home/user/Documents/thesis.tex"}`},
		Pass: []string{": > ./app.log", "truncate -s 0 ./app.log", "cp /dev/null ./app.log", "sed -i 's/foo/bar/' ~/notes/todo.txt", "truncate -s 0 ~/.cache/app/log", "unzip -o assets.zip -d ./static",
			"sort -o ~/Documents/a.txt ~/Documents/b.txt", "uniq ~/Documents/b.txt ~/Documents/a.txt", "shuf -n 5 -o ~/Documents/a.txt ~/Documents/b.txt", "gawk -i inplace '{sub(/a/,\"b\")}1' ~/Documents/a.txt",
			"perl -pi -e 's/a/b/' ~/Documents/a.txt", "printf ',s/a/b/g\nw\n' | ed ~/Documents/a.txt", "tee ~/Documents/a.txt < ./b.txt", "sort -o ./a.txt /dev/null",
			`mcp__fs__truncate_file {"path":"/home/user/proj/app.log"}`}},
)

var _ = onExec(func(j *judge, x execution) {
	e, p := x.e, localProgram(x)
	if p == nil {
		return
	}
	if p.Removes != nil {
		// tar --remove-files, zip -m, 7z -sdel, trash-put: what they take
		// away is a deletion, judged as rm -rf judges it
		for _, raw := range p.Removes(x.args) {
			if abs, ok := j.resolve(raw, e.Dir); ok {
				j.rmAbs(e, abs, true, true, x.detail)
				if r := j.viaLinks(abs, false, x.detail); r != "" {
					j.rmAbs(e, r, true, true, x.detail+" (through a link: "+r+")")
				}
			}
		}
	}
	if p.EditsOperands && !(p.ReadOnly != nil && p.ReadOnly(x.args)) && (editorEmpties(x.args) || edEmpties(j.stdinText(x))) {
		// vim -es -c '%d' -c wq F, ex -sc '%d|x' F, printf ',d\nw\n' | ed F
		for _, op := range programs.EditorFiles(e.Name, x.args) {
			j.writesTo(e, []string{op}, kindEmpty, x.detail)
		}
	}
	if p.Unpacks != nil {
		if _, dest, ok := p.Unpacks(x.args); ok && p.Name == "unzip" && programs.HasShortFlag(x.args, 'o') {
			// unzip -o: every member replaces the file of its name, unasked
			if d, ok := j.resolve(dest, e.Dir); ok && dest != "" && (d == j.home || j.homeArea(d)) {
				j.add(RuleHomeFileDestroy, x.detail)
			}
		}
		if _, dest, ok := p.Unpacks(x.args); ok {
			if dest == "" {
				dest = "." // tar xf a.tar, unzip a.zip: into the working directory
			}
			if d, ok := j.resolve(dest, e.Dir); ok {
				j.unpackInto(d, x.detail)
				// tar --transform 's,^stage/cc,.claude,': where the members
				// land is computed from the replacement, not named
				for _, r := range programs.TarTransforms(x.args) {
					if t := transformDir(r); t != "" {
						j.unpackInto(filepath.Join(d, t), x.detail+" (--transform)")
					}
				}
			}
		}
	}
})

// unpackInto judges an extraction into the directory d. The archive, not
// the command, names the members, so into home or a home dot-directory
// (~/.claude, ~/.config/fish/conf.d, ~/.bashrc.d, ~/.local/bin) one may
// land on a startup file, a PATH shim or the agent's settings: that asks
// (the guard's own directories deny). Caches, the project and the rest of
// home take new files and pass.
func (j *judge) unpackInto(d, detail string) {
	detail += " (an archive's members into " + d + ")"
	switch {
	case j.isSentinelPath(d) || j.holdsGuardFile(d) && !j.userBin(d):
		// the state directory, or the directory of the hook's binary or
		// of the state: a member named like the guard's file replaces it
		// (the user's own bin takes tools too, and asks below)
		j.add(RuleSentinelTamper, detail)
	case j.isAgentSettings(d) && filepath.Dir(d) != j.home:
		// a project's .claude, .claude/hooks, .codex: what lands there
		// is settings and hooks (~/.claude itself also holds the
		// sessions' own state, and asks below)
		j.add(RuleClaudeSettingsEdit, detail)
	case programs.LoadedCode(d+"/", j.relHome(d)+"/"):
		// node_modules/x, ~/.m2/repository/...: the members are code the
		// next import or build loads
		j.add(RulePersistenceInstall, detail)
	case j.home == "" || j.cache(d) || j.project != "" && under(d, j.project) && d != j.home:
		return
	case d == j.home:
		j.writeAbs(d+"/.profile", kindEdit, detail)
	case j.locate(d) == locHomeDot || j.persistencePath(d+"/x") || j.isAgentSettings(d+"/settings.json") || j.userBin(d):
		// a dot-directory directly in home (~/.claude, ~/.ssh, ~/.config),
		// or a directory whose files run or configure (conf.d, bin)
		j.add(RuleDotfileWrite, detail)
	}
}

// transformDir is the directory part of a transform's replacement text
// (".claude/", "x/.claude/hooks/\1"): what follows a back-reference or
// "&" is the member's own name.
func transformDir(r string) string {
	if k := strings.IndexAny(r, "\\&"); k >= 0 {
		r = r[:k]
	}
	r = strings.TrimLeft(r, "/")
	if r == "" || strings.HasPrefix(r, "..") {
		return "" // a member kept where it was; above the directory tar refuses
	}
	return r
}

// holdsGuardFile reports a directory that directly holds one of the
// guard's own files or directories (the hook binary's bin, the state's
// parent): an archive's member of that name lands on it. Home itself is
// judged as home.
func (j *judge) holdsGuardFile(d string) bool {
	if d == j.home {
		return false
	}
	for _, s := range j.sentinel {
		if filepath.Dir(s) == d {
			return true
		}
	}
	return false
}

// destroysHomeFile reports a write of kind to p that destroys a home file
// outside the project: emptying it, or truncating or rewriting one that
// exists (a glob names only files that exist: for f in ~/Documents/*; do
// echo > "$f"). A Write over ~/notes.md or perl -pi over an existing file
// replaces what the operator wrote; a new file destroys nothing.
func (j *judge) destroysHomeFile(p string, kind writeKind) bool {
	if kind != kindEmpty && kind != kindTruncate && kind != kindRewrite || !j.homeArea(p) {
		return false // an Edit or sed -i s/a/b/ keeps what it does not change
	}
	if kind == kindRewrite {
		return j.existingFile(p)
	}
	return kind == kindEmpty || j.existingFile(p) || globTarget(p)
}

// homeArea reports a path below home that is the operator's: not the
// project, a temp dir, a cache, or a dotfile directly in home (whose
// rules are their own).
func (j *judge) homeArea(p string) bool {
	if j.home == "" || !strictlyUnder(p, j.home) || j.cache(p) {
		return false
	}
	return j.locate(p) == locOutside
}

// existingFile reports a regular file at p (followed; nothing opened).
// Replay (NoFiles) does not look.
func (j *judge) existingFile(p string) bool {
	if j.env.NoFiles || strings.ContainsAny(p, "*?[") {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// emptyingRedirect is the kind of a `>` redirect of e: nothing written
// (`: > F`, `> F`, `true > F`, `cat /dev/null > F`) empties F.
func emptyingRedirect(e *parse.Exec) writeKind {
	if len(e.Argv) == 0 {
		return kindEmpty
	}
	switch e.Name {
	case ":", "true", "false":
		return kindEmpty
	case "cat", "echo":
		vals := wordValues(e.Argv[1:])
		if e.Name == "cat" && len(vals) == 1 && vals[0] == "/dev/null" || e.Name == "echo" && blankEcho(vals) {
			return kindEmpty
		}
	}
	return kindTruncate
}

// blankEcho reports echo arguments that print at most a newline (`echo`,
// `echo ”`, `echo -n`): what was in the file is replaced by nothing.
func blankEcho(vals []string) bool {
	for _, v := range vals {
		if v != "" && v != "-n" && v != "-e" && v != "-ne" && v != "-en" {
			return false
		}
	}
	return true
}

// ddKind: dd of=F from /dev/zero, /dev/null or a random device empties F.
func ddKind(args []string) writeKind {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "if="); ok {
			switch v {
			case "/dev/zero", "/dev/null", "/dev/urandom", "/dev/random":
				return kindEmpty
			}
			return kindTruncate
		}
	}
	return kindTruncate
}

// emptyingEdit reports an in-place edit that leaves nothing: sed's script
// `d` (every line deleted), perl -n without a print.
// wholeLineErase reports sed or perl scripts that are all a substitution
// of a whole line by nothing (s/.*//, s|^.*$||g, s/.+//): the file keeps
// only its newlines.
func wholeLineErase(name string, scripts []string) bool {
	if programs.Canon(name) != "sed" && programs.LangOf(name) != "perl" || len(scripts) == 0 {
		return false
	}
	for _, s := range scripts {
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ";"))
		if len(s) < 4 || s[0] != 's' {
			return false
		}
		d := string(s[1])
		parts := strings.Split(s[2:], d)
		if len(parts) != 3 || parts[1] != "" || strings.Trim(parts[2], "gm") != "" {
			return false
		}
		switch parts[0] {
		case ".*", "^.*", "^.*$", ".*$", ".+", "^.+$", "^.*\\n", "(.*)":
		default:
			return false
		}
	}
	return true
}

func emptyingEdit(name string, args []string, script string) bool {
	var scripts []string
	if script != "" {
		scripts = append(scripts, script)
	}
	perl := programs.LangOf(name) == "perl"
	for i, a := range args {
		if (a == "-e" || a == "--expression" || perl && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "e")) && i+1 < len(args) {
			scripts = append(scripts, args[i+1]) // perl -pe CODE, -0777 -pie CODE
		}
	}
	if wholeLineErase(name, scripts) {
		return true // s/.*//: every line replaced by nothing
	}
	if programs.LangOf(name) == "perl" && perlBlanks(scripts) {
		return true // perl -0777 -pi -e '$_=""': each record, the whole file slurped, set to nothing
	}
	if programs.LangOf(name) == "perl" {
		n := false
		for _, a := range args {
			n = n || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'n') && !strings.ContainsRune(a, 'p')
		}
		code := strings.Join(scripts, ";")
		return n && !strings.Contains(code, "print") && !strings.Contains(code, "say")
	}
	if programs.Canon(name) != "sed" || len(scripts) == 0 {
		return false
	}
	for _, s := range scripts {
		switch strings.Join(strings.Fields(s), "") {
		case "d", "1,$d", "0,$d", ",$d", "$!d;d", "1,$!d":
		default:
			return false
		}
	}
	return true
}

// lispErases reports emacs lisp that empties the buffer and saves it:
// (erase-buffer), (delete-region (point-min) (point-max)).
func lispErases(v string) bool {
	v = strings.Join(strings.Fields(v), " ")
	return (strings.Contains(v, "erase-buffer") || strings.Contains(v, "delete-region (point-min) (point-max)")) &&
		(strings.Contains(v, "save-buffer") || strings.Contains(v, "write-file") || strings.Contains(v, "save-some-buffers"))
}

// stdinText is the text a command gives an execution on its stdin: a
// heredoc or here-string, or what an earlier stage of its pipeline prints
// of its own words (printf ',d\nw\n' | ed F); "" when not known.
func (j *judge) stdinText(x execution) string {
	e := x.e
	for _, d := range j.data {
		if d.Why == "stdin text of "+e.Name {
			return d.Text
		}
	}
	for _, r := range e.Redirects {
		if (r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-") && r.Target.Static {
			return r.Target.Value
		}
	}
	if e.Pipeline != 0 && e.Stage > 0 {
		for k := range x.all {
			f := &x.all[k]
			if f.Pipeline == e.Pipeline && f.Stage == e.Stage-1 && printsText(f.Name) {
				return strings.Join(wordValues(f.Argv[1:]), "\n")
			}
		}
	}
	return ""
}

// emptyStdin reports an execution whose stdin holds nothing: < /dev/null,
// or an earlier stage that prints nothing (: | tee F, true | tee F).
func emptyStdin(x execution) bool {
	e := x.e
	for _, r := range e.Redirects {
		if r.Op == "<" && (r.Fd == -1 || r.Fd == 0) && r.Target.Static && r.Target.Value == "/dev/null" {
			return true
		}
	}
	if e.Pipeline != 0 && e.Stage > 0 {
		for k := range x.all {
			f := &x.all[k]
			if f.Pipeline == e.Pipeline && f.Stage == e.Stage-1 {
				return f.Name == ":" || f.Name == "true" || f.Name == "false" ||
					(f.Name == "printf" || f.Name == "echo") && blankEcho(wordValues(f.Argv[1:]))
			}
		}
	}
	return false
}

// edEmpties reports an ed/ex script that deletes every line and writes
// the file (,d / 1,$d / %d / g/^/d, then w).
func edEmpties(script string) bool {
	if script == "" {
		return false
	}
	script = strings.ReplaceAll(script, "\\n", "\n")
	del, write := false, false
	for _, c := range strings.Split(script, "\n") {
		switch c = strings.TrimSpace(c); {
		case c == ",d" || c == "1,$d" || c == "%d" || c == "g/^/d" || c == "g/./d" || c == ",$d":
			del = true
		case del && (c == "w" || c == "wq" || c == "x" || strings.HasPrefix(c, "w ")):
			write = true
		}
	}
	return del && write
}

// perlBlanks reports perl -p code that sets each record to nothing:
// $_="", $_=”, $_=undef, undef $_, $_=q() (with -0777 the record is the
// whole file; line by line it leaves only what -l adds).
func perlBlanks(scripts []string) bool {
	if len(scripts) == 0 {
		return false
	}
	for _, s := range scripts {
		switch strings.TrimSuffix(strings.Join(strings.Fields(s), ""), ";") {
		case `$_=""`, `$_=''`, `$_=undef`, `undef$_`, `$_=q()`, `$_=q{}`, `$_=qq()`, `$_=qq{}`:
		default:
			return false
		}
	}
	return true
}

// editorEmpties reports an editor's command line whose commands delete
// every line (-c '%d', -c '1,$d', -sc '%d|x').
func editorEmpties(args []string) bool {
	for i, a := range args {
		v := ""
		switch {
		case (a == "-c" || a == "-sc" || a == "--cmd") && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a, "+"):
			v = a[1:]
		case (a == "--eval" || a == "-eval" || a == "--funcall" || a == "-f") && i+1 < len(args), strings.HasPrefix(a, "--eval="):
			// emacs --batch F --eval '(progn (erase-buffer) (save-buffer))'
			v = strings.TrimPrefix(a, "--eval=")
			if v == a {
				v = args[i+1]
			}
			if lispErases(v) {
				return true
			}
			continue
		default:
			continue
		}
		for _, c := range strings.Split(strings.TrimPrefix(v, ":"), "|") {
			switch strings.Join(strings.Fields(c), "") {
			case "%d", "1,$d", "%delete", "1,$delete", "g/^/d", "%normaldG":
				return true
			}
		}
	}
	return false
}
