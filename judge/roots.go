package judge

import (
	"path/filepath"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Moves and permissions of roots (issue 12, class 11). Moving the home
// directory, a system directory or a home folder away (to a temp dir, to
// /dev/null, out of home) is a deletion spelled as a move; moving the whole
// project out is the same as rm -rf of it. A recursive chmod/chown that
// locks the owner out of a home folder or opens it to everyone, or gives it
// to another user, breaks it as surely as deleting it.
//
// A "home folder" is an entry directly in home without an extension
// (~/Projects, ~/Documents, ~/src): the judge never looks at the disk, and
// a name without a dot directly in home is a folder far more often than a
// file. Deeper paths (~/Downloads/x.zip) are ordinary files to move.

// Rules of this file.
const (
	RuleMoveRoot           = "MOVE-ROOT"
	RuleMoveProjectAway    = "MOVE-PROJECT-AWAY"
	RuleChmodRecursiveHome = "CHMOD-RECURSIVE-HOME"
)

var _ = rules(
	Rule{ID: RuleMoveRoot, Class: ClassDestroyFiles, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "moving /, a system directory, the home directory or a home folder away deletes it from where everything expects it",
		Alternative: "move the specific files you mean, inside the project",
		Matches:     "`mv` (any wrapper, `-t`) or `rsync --remove-source-files` of `/`, a system dir, `~`, `~/*`, or a home folder (`~/Projects`) to a temp dir, `/dev/null`, out of home, into a cache or a dot-directory of home (a trash, `~/.local/share`); not into another visible folder of home (`~/Archive/`: the operator can see it there)",
		Fire: []string{`mcp__fs__rename {"from":"/home/user/Documents","to":"/tmp/x"}`, "mv ~ /tmp/old", "mv ~/* /tmp/", "mv /etc /tmp/etc", "mv ~/Projects /tmp/x", "mv -t /tmp ~/Documents", "mv ~/Documents ~/.cache/x",
			"rsync -a --remove-source-files ~/ /tmp/h/", "mv ~/Pictures ~/.local/share/Trash/files/"},
		Pass: []string{`mcp__fs__rename {"from":"/home/user/proj/a.txt","to":"/home/user/proj/b.txt"}`, "mv build/ /tmp/old-build", "mv ~/Downloads/file.zip ./", "mv ~/Downloads/x.zip ~/Documents/", "mv ~/Projects ~/Archive/", "mv /tmp/a /tmp/b",
			"rsync -a --remove-source-files ./out/ /tmp/out/"}},
	Rule{ID: RuleMoveProjectAway, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "moving the whole project (or all its files) out of the project directory",
		Alternative: "move the build outputs by name (build/, dist/), or move files within the project",
		Matches:     "`mv` of the project dir, `.`, `*`, `./*` at the project root to a place outside the project",
		Fire:        []string{"mv ./* /tmp/", "mv * ../", "mv /home/user/proj /tmp/", "cd .. && mv proj /tmp/p"},
		Pass:        []string{"mv * src/", "mv ./*.log /tmp/", "mv dist /tmp/dist-old"}},
	Rule{ID: RuleChmodRecursiveHome, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "recursive permission change of a home folder or dot-directory that locks its owner out, opens it to everyone, or gives it to another user",
		Alternative: "change the permissions of the project paths you mean; keep owner rwx and no write for others",
		Matches:     "`chmod -R` of `~/*`, a home folder or dot-dir with a mode without owner r/x (`000`, `644`, `a-r`) or with others' write (`777`, `o+w`), of the project root without owner read; `chown/chgrp -R` of them to another user; `chattr -R +i`, `setfacl -R -m`; the same for home itself without `-R`",
		Fire: []string{"chmod -R 000 ~/Projects", "chmod -R 777 ~/Documents", "chmod -R a-rwx ~/.ssh", "chown -R nobody ~/Projects",
			"chmod -R 000 .", "chattr -R +i ~/Projects", "setfacl -R -m u:nobody:rwx ~/Documents", "chmod 000 ~", "chown nobody ~"},
		Pass: []string{"chmod -R u+w ./build", "chmod -R 700 ~/.ssh", "chmod -R go-rwx ~/.ssh", "sudo chown -R $USER ~/.npm",
			"sudo chown -R $(whoami) ~/.npm", "chmod -R 755 ~/tools", "chmod -R 777 ./build", "chown -R user:user ~/Projects", "chmod -R 777 .", "chmod -R 644 .", "chmod 700 ~", "chmod 755 ~"}},
)

// homeFolder reports an entry directly in home without a dot in its name.
func (j *judge) homeFolder(p string) bool {
	if b, glob := globBase(p); glob && !strings.HasSuffix(b, "/*") {
		p = b // ~/Projects/* is ~/Projects
	}
	if j.home == "" || filepath.Dir(p) != j.home {
		return false
	}
	return !strings.Contains(filepath.Base(p), ".")
}

// rootLike reports a path whose move or lockout is a deletion of a root:
// /, a system dir, home, all of home's entries, a home folder.
func (j *judge) rootLike(p string) bool {
	if j.project != "" && under(p, j.project) {
		return false // the project's own rules (MOVE-PROJECT-AWAY)
	}
	switch j.locate(p) {
	case locSystem, locHome:
		return true
	}
	return j.homeFolder(p)
}

var _ = onExec(func(j *judge, x execution) {
	e := x.e
	switch e.Name {
	case "mv":
		j.moveRoots(e, x.args, x.detail)
	case "rsync":
		o := programs.Lookup("rsync").Parse(x.args)
		if _, ok := o.Long["remove-source-files"]; ok && len(o.Pos) >= 2 {
			j.moveAway(e, o.Pos[:len(o.Pos)-1], o.Pos[len(o.Pos)-1], x.detail)
		}
	default:
		if programs.Is(e.Name, programs.Permissions) { // chmod, chown, chgrp, chattr, setfacl
			j.permsOfRoots(e, x.args, x.detail)
		}
	}
})

// moveRoots judges mv SRC... DEST and mv -t DEST SRC...
func (j *judge) moveRoots(e *parse.Exec, args []string, detail string) {
	if srcs, dest := programs.Lookup("mv").CopyDest(args); dest != "" {
		j.moveAway(e, srcs, dest, detail)
	}
}

// moveAway judges moving srcs to dest.
func (j *judge) moveAway(e *parse.Exec, srcs []string, dest, detail string) {
	d, ok := j.resolve(dest, e.Dir)
	if programs.IsRemote(dest) {
		d, ok = "", true // to another machine: out of here
	}
	if !ok {
		return
	}
	for _, s := range srcs {
		p, ok := j.resolve(s, e.Dir)
		if !ok {
			continue
		}
		switch {
		case j.rootLike(p) && j.awayFromHome(p, d):
			j.add(RuleMoveRoot, detail)
		case j.wholeProject(p) && !(d != "" && under(d, j.project)):
			j.add(RuleMoveProjectAway, detail)
		case j.gitDirMovedAway(p, d):
			j.add(RuleRmGitDir, detail) // gitrefs.go
		case j.rootLike(p) && globTarget(p) && globTarget(d):
			// for f in ~/Documents/*; do mv "$f" "$f.locked"; done: each
			// entry renamed after itself (destroy2.go)
			j.add(RuleRenameHomeFiles, detail)
		}
	}
}

// awayFromHome reports a destination that takes p out of where it lives:
// a temp dir, /dev/null, another machine (""), out of home; a system dir
// or home itself moved anywhere.
func (j *judge) awayFromHome(p, d string) bool {
	if !j.homeFolder(p) {
		return true
	}
	// into a cache: gone at the next clean-up (mv ~/Documents ~/.cache/x);
	// into a dot-directory (a trash, ~/.local/share): out of sight
	return d == "" || d == "/dev/null" || j.home == "" || !under(d, j.home) || j.cache(d) || j.hiddenInHome(d)
}

// wholeProject reports the project dir itself or all of its entries.
func (j *judge) wholeProject(p string) bool {
	if j.project == "" {
		return false
	}
	base, glob := globBase(p)
	return base == j.project && (!glob || p == j.project+"/*" || p == j.project+"/.*")
}

// permsOfRoots judges a recursive chmod/chown/chgrp/chattr/setfacl of a
// home folder, a home dot-dir, home's entries or the project root.
func (j *judge) permsOfRoots(e *parse.Exec, args []string, detail string) {
	recursive := false
	for _, a := range args {
		if a == "-R" || a == "--recursive" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'R') {
			recursive = true
		}
	}
	if !recursive {
		j.permsOfHome(e, args, detail)
		return
	}
	var ops []string
	for k, a := range args {
		if a == "--" {
			ops = append(ops, args[k+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && !(e.Name == "chmod" && isDashMode(a)) {
			continue
		}
		ops = append(ops, a)
	}
	if len(ops) < 2 && programs.Lookup(e.Name).ModeOperand {
		return
	}
	harmful, unreadable := false, false
	switch canon(programs.Lookup(e.Name), e.Name) {
	case "chmod":
		harmful = lockoutMode(ops[0]) || openMode(ops[0])
		unreadable = noOwnerRead(ops[0])
		ops = ops[1:]
	case "chown": // chgrp
		harmful = !j.ownUser(ops[0])
		ops = ops[1:]
	case "chattr":
		harmful = len(ops) > 0 && strings.HasPrefix(ops[0], "+") && strings.ContainsRune(ops[0], 'i')
		if len(ops) > 0 && (strings.HasPrefix(ops[0], "+") || strings.HasPrefix(ops[0], "=")) {
			ops = ops[1:]
		}
	case "setfacl":
		harmful = containsAny(args, "-m", "-M", "--modify", "--set") || anyHasPrefix(args, "--modify=", "--set=")
		for k := 0; k+1 < len(args); k++ {
			if args[k] == "-m" || args[k] == "-M" || args[k] == "--modify" || args[k] == "--set" || args[k] == "-x" {
				ops = removeOnce(ops, args[k+1])
			}
		}
	}
	if !harmful {
		return
	}
	for _, t := range ops {
		p, ok := j.resolve(t, e.Dir)
		if !ok {
			continue
		}
		switch l := j.locate(p); {
		case l == locProjectRoot:
			// the project: only a mode that takes the owner's read away
			// (chmod -R 777 . is sloppy, not destructive)
			if unreadable {
				j.add(RuleChmodRecursiveHome, detail) // chown -R www-data . is a server's set-up
			}
		case l == locHomeDot, j.homeFolder(p), l == locHome && p != j.home:
			j.add(RuleChmodRecursiveHome, detail)
		}
	}
}

func anyHasPrefix(list []string, prefixes ...string) bool {
	for _, a := range list {
		for _, p := range prefixes {
			if strings.HasPrefix(a, p) {
				return true
			}
		}
	}
	return false
}

func removeOnce(list []string, s string) []string {
	for k, a := range list {
		if a == s {
			return append(append([]string(nil), list[:k]...), list[k+1:]...)
		}
	}
	return list
}

// ownUser reports an owner[:group] that is the user running the command:
// $USER, $(whoami), $(id -u), the name of the home directory.
func (j *judge) ownUser(spec string) bool {
	owner, _, _ := strings.Cut(spec, ":")
	if owner == "" { // chown :group: only the group changes
		return true
	}
	switch owner {
	case "$USER", "${USER}", "$(whoami)", "`whoami`", "$(id -u)", "$(id -un)", "$LOGNAME", "$(id -u -n)", "$UID":
		return true
	}
	return j.home != "" && owner == filepath.Base(j.home)
}

// lockoutMode reports a chmod mode that leaves the owner without read or
// search (x) permission: 000, 644 on directories, a-r, u-x, u=, =.
func lockoutMode(m string) bool {
	if m != "" && m[0] >= '0' && m[0] <= '7' && strings.Trim(m, "01234567") == "" {
		if len(m) < 3 {
			return true // "0", "00": everything cleared
		}
		u := m[len(m)-3] - '0'
		return u&4 == 0 || u&1 == 0
	}
	for _, clause := range strings.Split(m, ",") {
		who, op, perms := splitClause(clause)
		if !strings.ContainsAny(who, "ua") && who != "" {
			continue
		}
		switch op {
		case '-':
			if strings.ContainsAny(perms, "rx") {
				return true
			}
		case '=':
			if !strings.ContainsRune(perms, 'r') || !strings.ContainsAny(perms, "xX") {
				return true
			}
		}
	}
	return false
}

// noOwnerRead reports a mode that takes the owner's read permission away.
func noOwnerRead(m string) bool {
	if m != "" && m[0] >= '0' && m[0] <= '7' && strings.Trim(m, "01234567") == "" {
		return len(m) < 3 || (m[len(m)-3]-'0')&4 == 0
	}
	for _, clause := range strings.Split(m, ",") {
		who, op, perms := splitClause(clause)
		if (who == "" || strings.ContainsAny(who, "ua")) && (op == '-' && strings.ContainsRune(perms, 'r') || op == '=' && !strings.ContainsRune(perms, 'r')) {
			return true
		}
	}
	return false
}

// openMode reports a mode that lets others write: 777, 666, o+w, a+w, o=rwx.
func openMode(m string) bool {
	if m != "" && m[0] >= '0' && m[0] <= '7' && strings.Trim(m, "01234567") == "" {
		return len(m) >= 1 && (m[len(m)-1]-'0')&2 != 0
	}
	for _, clause := range strings.Split(m, ",") {
		who, op, perms := splitClause(clause)
		if (op == '+' || op == '=') && strings.ContainsAny(who, "oa") && strings.ContainsRune(perms, 'w') {
			return true
		}
	}
	return false
}

// splitClause splits a symbolic chmod clause "go+rw" into who, op, perms.
func splitClause(c string) (string, byte, string) {
	k := strings.IndexAny(c, "+-=")
	if k < 0 {
		return c, 0, ""
	}
	return c[:k], c[k], c[k+1:]
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// permsOfHome judges a chmod/chown of the home directory itself (not
// recursive): a mode that locks the owner out or lets others write, or
// another owner, breaks every login and ssh key under it.
func (j *judge) permsOfHome(e *parse.Exec, args []string, detail string) {
	if e.Name != "chmod" && e.Name != "chown" && e.Name != "chgrp" {
		return
	}
	var ops []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || e.Name == "chmod" && isDashMode(a) {
			ops = append(ops, a)
		}
	}
	if len(ops) < 2 {
		return
	}
	harmful := e.Name == "chmod" && (lockoutMode(ops[0]) || openMode(ops[0])) || e.Name != "chmod" && !j.ownUser(ops[0])
	if !harmful {
		return
	}
	for _, t := range ops[1:] {
		if p, ok := j.resolve(t, e.Dir); ok && p == j.home {
			j.add(RuleChmodRecursiveHome, detail)
		}
	}
}
