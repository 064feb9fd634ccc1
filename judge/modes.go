package judge

import (
	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
	"path/filepath"
	"strings"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleChmodRecursiveSystem = "CHMOD-RECURSIVE-SYSTEM"
	RuleRsyncDeleteHome      = "RSYNC-DELETE-HOME"
	RulePrivSetuid           = "PRIV-SETUID"
	RuleChmodLockout         = "CHMOD-LOCKOUT"
)

var _ = rules(
	Rule{ID: RuleChmodRecursiveSystem, Class: ClassDestroyFiles, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "recursive chmod/chown of /, a system directory or the home directory",
		Alternative: "change the permissions of the project paths you mean",
		Matches:     "`chmod/chown/chgrp -R` of `/`, a system dir, home",
		Fire:        []string{"chmod -R 777 /", "chown -R nobody /usr"},
		Pass:        []string{"chmod -R 755 ./scripts", "chmod +x ./build.sh"}},
	Rule{ID: RuleChmodLockout, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "taking the owner's access away from the home directory or a home folder: the operator's files and the programs that use them stop working",
		Alternative: "change the permissions of the files you mean, keeping the owner's read access",
		Matches:     "`chmod` of a home folder (`~/Documents`, `~/Projects`) to a mode without the owner's read or search bit (`000`, `0311`, `a-rwx`, `u=`, `-r`); recursive, of home itself or fed by a finder it is CHMOD-RECURSIVE-HOME",
		Fire:        []string{"chmod 000 ~/Documents", "chmod a-rwx ~/Pictures", "chmod u= ~/Music", "chmod 0200 ~/Projects"},
		Pass:        []string{"chmod 755 ~/Documents", "chmod 700 ~/.ssh", "chmod go-rwx ~/Documents", "chmod 000 ./secret.txt", "chmod a-w ~/Documents"}},
	Rule{ID: RuleRsyncDeleteHome, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "rsync --delete into the home directory or a system directory",
		Alternative: "sync into a new directory, or drop --delete",
		Matches:     "`rsync --delete*` into home, a home dot-dir, a home folder (`~/Documents`), a system dir",
		Fire:        []string{"rsync -a --delete ./empty/ ~/", "rsync -a --delete /tmp/empty/ ~/Documents/"},
		Pass:        []string{"rsync -a --delete ./src/ ./backup/", "rsync -a ./dotfiles/ ~/"}},
	Rule{ID: RulePrivSetuid, Class: ClassPrivilege, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "setting the setuid/setgid bit makes a program run with its owner's rights",
		Alternative: "use normal permissions",
		Matches:     "`chmod u+s`/`g+s`/`+s`, `chmod 4755`/`2755`/`6755`; `setcap` of a capability that amounts to root (`cap_setuid`, `cap_sys_admin`, `cap_dac_override`, ...)",
		Fire:        []string{"chmod u+s /bin/bash", "chmod 4755 ./helper", "setcap cap_setuid+ep ./helper", "sudo setcap 'cap_dac_read_search=eip' /usr/bin/tar"},
		Pass:        []string{"chmod 755 ./helper", "chmod u+x ./helper", "setcap cap_net_bind_service=+ep ./server", "getcap ./helper"}},
)

// copyLike judges a Copier (cp, mv, install, ln, rsync, scp, ...): the
// destination is written, mv's sources are removed.
func (j *judge) copyLike(e *parse.Exec, args []string, detail string) {
	prog := programs.Lookup(e.Name)
	pos, dest := prog.CopyDest(args)
	if dest == "" || programs.IsRemote(dest) {
		return
	}
	// a destination the shell computes that names the guard
	// (cp /bin/true $(command -v sentinel-hook)) may well be it
	for _, w := range e.Argv[1:] {
		if !w.Static && w.Value == dest && namesGuard(dest) {
			j.add(RuleSentinelTamper, detail)
		}
	}
	p, ok := j.resolve(dest, e.Dir)
	if !ok {
		return
	}
	if ro := prog.Parse(args); prog.Name == "rsync" && (ro.LongPrefix("delete") || hasKey(ro.Long, "del")) {
		switch l := j.locate(p); {
		case l == locHome, l == locHomeDot, l == locSystem, j.homeFolder(p):
			j.add(RuleRsyncDeleteHome, detail)
		case l == locProjectRoot:
			j.add(RuleRmProjectRoot, detail) // what the source lacks is deleted: rm -rf ./* at most
		}
	}
	// onto an existing file this overwrites it; from /dev/null it empties
	// it; otherwise it may only create one: a rewrite, not a truncation.
	k := kindRewrite
	if contains(pos, "/dev/null") || contains(pos, "/dev/zero") {
		k = kindEmpty
	}
	j.writeAbs(p, k, detail)
	j.copyInto(prog, args, pos, dest, p, k, detail)
	if e.Name == "mv" {
		if p == "/dev/null" {
			j.writesTo(e, pos, kindEmpty, detail) // mv F /dev/null: F is gone
		} else {
			j.writesTo(e, pos, kindDelete, detail)
		}
	}
}

// copyInto judges the files a copy into a directory lands on, as the
// shell and the copier would name them (issue 19): cp .zshrc ~/ writes
// ~/.zshrc; a directory's contents (rsync -a dist/ ~/, cp -r dist/. ~)
// copied into home or a home dot-directory may replace any startup file
// there. The destination is a directory when it ends in "/", is home,
// ".", given by -t, or when there are several sources.
func (j *judge) copyInto(prog *programs.Program, args, pos []string, dest, p string, k writeKind, detail string) {
	dir := strings.HasSuffix(dest, "/") || p == j.home || p == j.project || dest == "." || len(pos) > 1 ||
		prog.Parse(args).Value('t', "target-directory") != ""
	if !dir {
		return
	}
	for _, src := range pos {
		if src == "" || programs.IsRemote(src) {
			continue
		}
		if strings.HasSuffix(src, "/") || strings.HasSuffix(src, "/.") || src == "." {
			// the directory's contents, names unknown here
			if l := j.locate(p); l == locHome || l == locHomeDot && p != j.home {
				j.writeAbs(p+"/.profile", kindEdit, detail+" (contents into "+p+")")
			} else if l == locProjectRoot || l == locGitDir {
				// the project's root holds its agent settings (.claude/),
				// git's hooks and config (.git/), the editor's auto-run tasks:
				// a tree whose names are unknown here may land on any of them
				j.add(RulePersistenceInstall, detail+" (a directory's contents into "+p+", where the project's settings and hooks are)")
			}
			continue
		}
		b := filepath.Base(src)
		if b == "." || b == "/" || strings.ContainsAny(b, "*?[") {
			continue
		}
		j.writeAbs(p+"/"+b, k, detail)
	}
}

// inPlace judges sed -i / perl -i / ruby -i file edits.
func (j *judge) inPlace(e *parse.Exec, args []string, detail string) {
	inplace := false
	hasScriptOpt := false
	var files, scripts []string
	for k := 0; k < len(args); k++ {
		a := args[k]
		switch {
		case a == "-i" || strings.HasPrefix(a, "-i") || a == "--in-place" || strings.HasPrefix(a, "--in-place=") ||
			(strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'i') && programs.LangOf(e.Name) == "perl"):
			inplace = true
		case a == "-e" || a == "-f" || a == "--expression" || a == "--file":
			hasScriptOpt = true
			if (a == "-e" || a == "--expression") && k+1 < len(args) {
				scripts = append(scripts, args[k+1])
			}
			k++
		case strings.HasPrefix(a, "-"):
			if programs.LangOf(e.Name) == "perl" && strings.HasSuffix(a, "e") {
				hasScriptOpt = true
				k++
			}
		default:
			files = append(files, a)
		}
	}
	if !inplace {
		return
	}
	script := ""
	if !hasScriptOpt && len(files) > 0 {
		script, files = files[0], files[1:] // the first operand is the script
		scripts = append(scripts, script)
	}
	k := kindEdit
	if emptyingEdit(e.Name, args, script) {
		k = kindEmpty // sed -i d F, perl -i -ne '' F
	}
	j.writesTo(e, files, k, detail)
	j.editsRunLater(e, files, strings.Join(scripts, "\n"), detail)
}

// editsRunLater judges the text an in-place edit's script puts into a
// file that runs later (sed -i '1a curl ... | sh' .githooks/pre-commit):
// what the rest of the file holds is not known, what the script adds
// (its a/i/c text, its replacement) is judged as the commands it embeds.
func (j *judge) editsRunLater(e *parse.Exec, files []string, script, detail string) {
	if script == "" || j.sessionState().depth > 0 {
		return
	}
	for _, f := range files {
		p, ok := j.resolve(f, e.Dir)
		if !ok {
			continue
		}
		rel := j.relHome(p)
		table, _ := programs.CronTable(p)
		later := table || programs.StartupFile(p, rel) || j.persistencePath(p) || j.configPlace(p)
		if !later && !agentInstructionFile(p) {
			continue
		}
		v, rules := j.writtenVerdict(p, script, programs.LangEmbedded)
		switch {
		case v == Deny && later:
			j.add(RulePersistenceHarmful, detail+": "+p+" would run: "+strings.Join(rules, ", "))
			return
		case v == Deny:
			j.add(RulePersistenceInstall, detail+": "+p+" would have the agent run: "+strings.Join(rules, ", "))
			return
		}
	}
}

// chmod judges chmod/chown/... : setuid bits, recursion on system or home,
// and changes to protected files.
func (j *judge) chmod(e *parse.Exec, args []string, detail string) {
	if e.Name == "chmod" {
		// chmod -x FILE: "-x" is the mode, not an option (GNU chmod reads a
		// mode that starts with "-"); keep it as the first operand.
		for k, a := range args {
			if isDashMode(a) {
				args = append(append(append([]string(nil), args[:k]...), "--", a), args[k+1:]...)
				break
			}
			if !strings.HasPrefix(a, "-") || a == "--" {
				break
			}
		}
	}
	o := parseOpts(args, "", "reference")
	pos := o.Pos
	if _, ref := o.Long["reference"]; !ref && len(pos) > 0 && programs.Lookup(e.Name).ModeOperand {
		if e.Name == "chmod" && isSetuidMode(pos[0]) {
			j.add(RulePrivSetuid, detail)
		}
		pos = pos[1:]
	}
	recursive := o.Has('R', "recursive")
	// recursive, of home itself, or of what a finder hands over: CHMOD-RECURSIVE-HOME's
	lockout := e.Name == "chmod" && !recursive && !e.ExtraArgs && e.Origin.Kind != parse.OriginWrapper && len(o.Pos) > 0 && lockoutMode(o.Pos[0]) // roots.go
	for _, t := range pos {
		p, ok := j.resolve(t, e.Dir)
		if !ok {
			continue
		}
		if lockout && j.locate(p) != locHome && j.homeFolder(p) {
			j.add(RuleChmodLockout, detail)
		}
		if recursive {
			switch j.locate(p) {
			case locSystem, locHome:
				j.add(RuleChmodRecursiveSystem, detail)
			}
		}
		j.writeAbs(p, kindChmod, detail)
	}
	if e.Name == "chmod" {
		for _, a := range args {
			if strings.HasPrefix(a, "-") && isSetuidMode(a) {
				j.add(RulePrivSetuid, detail)
			}
		}
	}
}

// isDashMode matches a chmod mode written with a leading "-" (-x, -rwx,
// -w,o-r): mode letters only, none of chmod's own options (c f v R).
func isDashMode(a string) bool {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return false
	}
	return strings.Trim(a[1:], "rwxXstugoa+-=,01234567") == ""
}

// isSetuidMode matches u+s, g+s, +s, 4755, 2755, 06755 ...
func isSetuidMode(m string) bool {
	if m == "" {
		return false
	}
	if m[0] >= '0' && m[0] <= '7' {
		digits := strings.TrimLeft(m, "0")
		if len(digits) == 4 && strings.Trim(digits, "01234567") == "" {
			d := digits[0]
			return d == '2' || d == '4' || d == '6' || d == '3' || d == '5' || d == '7'
		}
		return false
	}
	for _, clause := range strings.Split(m, ",") {
		if k := strings.IndexAny(clause, "+="); k >= 0 && strings.ContainsRune(clause[k:], 's') {
			return true
		}
	}
	return false
}
