package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

const maxDetail = 200

// describe is the short text of an execution used in hit details.
func describe(e *parse.Exec) string {
	var b strings.Builder
	for i, w := range e.Argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.Value)
		if b.Len() > maxDetail {
			break
		}
	}
	s := truncUTF8(b.String(), maxDetail)
	if e.Origin.Kind != "" && e.Origin.Kind != parse.OriginTop && e.Origin.Via != "" {
		s += " (via " + e.Origin.Via + ")"
	}
	return s
}

func wordValues(ws []parse.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

// exec judges execution i of all (the whole list is there for pipelines).
func (j *judge) exec(all []parse.Exec, i int) {
	e := &all[i]
	detail := describe(e)
	if i == len(all)-1 {
		j.launder(all) // across executions: a fetched file run later
	}
	if e.Dynamic && !j.coveredByRunsCode(all, e) {
		j.add(RuleDynamicCommand, detail)
	}
	if e.RunsCode != nil {
		j.runsCode(e.RunsCode.Sources, detail)
	} else if src, ok := procSubstCode(e); ok {
		j.runsCode(src, detail)
	}
	for _, w := range e.Wrappers {
		name, _, _ := strings.Cut(w, " ")
		if programs.Is(name, programs.Privilege) {
			j.add(RuleSudo, detail)
			break
		}
	}
	j.redirects(e, detail)
	if len(e.Argv) == 0 || e.Dynamic {
		return
	}
	for _, w := range e.Argv[1:] {
		if !w.Static && j.secretVar == "" {
			if n := secretVarRef(w.Value); n != "" {
				j.secretVar = "secret variable $" + n
			}
		}
	}
	if e.HelpOnly {
		return // parse saw a lookup (--help before any "--"): nothing runs
	}
	args := wordValues(e.Argv[1:])
	j.command(all, i, e, args, detail)
	j.reads(e, args, detail)
	j.network(e, args, detail)
	j.custom(e, detail)
}

// coveredByRunsCode reports a dynamic execution that is the re-parse of
// code another execution already reports as RunsCode (eval "$(cmd)"): the
// RunsCode judgement covers it.
func (j *judge) coveredByRunsCode(all []parse.Exec, e *parse.Exec) bool {
	if len(e.Argv) == 0 || e.Origin.Depth == 0 {
		return false
	}
	v := e.Argv[0].Value
	for k := range all {
		f := &all[k]
		if f.RunsCode == nil || f == e {
			continue
		}
		for _, w := range f.Argv[1:] {
			if !w.Static && strings.Contains(w.Value, v) {
				return true
			}
		}
	}
	return false
}

func (j *judge) redirects(e *parse.Exec, detail string) {
	for _, r := range e.Redirects {
		t := r.Target
		if !t.Static {
			continue
		}
		if strings.HasPrefix(t.Value, "/dev/tcp/") || strings.HasPrefix(t.Value, "/dev/udp/") {
			j.sendsTo(detail, "")
			continue
		}
		p, ok := j.resolve(t.Value, e.Dir)
		if !ok {
			continue
		}
		switch r.Op {
		case "<", "<<<":
			j.readAbsShell(p, detail)
		case ">>", "&>>":
			j.writeAbs(p, kindAppend, detail)
		case "<>":
			j.writeAbs(p, kindEdit, detail)
		case ">", ">|", "&>":
			j.writeAbs(p, kindTruncate, detail)
		}
	}
}

// readAbsShell is a read by a shell command; /proc/*/environ dumps the env.
func (j *judge) readAbsShell(p, detail string) {
	if isProcEnviron(p) {
		j.envDump(detail)
		return
	}
	j.readAbs(p, detail)
}

func isProcEnviron(p string) bool {
	return strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ")
}

func (j *judge) envDump(detail string) {
	j.add(RuleEnvDump, detail)
	if j.secretRead == "" {
		j.secretRead = detail
	}
}

// writesTo records writes of kind to the static operands given.
func (j *judge) writesTo(e *parse.Exec, targets []string, kind writeKind, detail string) {
	for _, t := range targets {
		if p, ok := j.resolve(t, e.Dir); ok {
			j.writeAbs(p, kind, detail)
		}
	}
}

// command dispatches on the command name.
func (j *judge) command(all []parse.Exec, i int, e *parse.Exec, args []string, detail string) {
	name := e.Name
	switch {
	case strings.HasPrefix(name, "mkfs") || name == "mke2fs" || name == "mkswap" || name == "wipefs" ||
		name == "blkdiscard" || name == "sfdisk":
		j.add(RuleMkfs, detail)
		return
	}
	switch name {
	case "git":
		j.git(e, args, detail)
	case "rm", "unlink":
		j.rm(all, i, e, args, detail)
	case "rimraf":
		j.rmWords(e, e.Argv[1:], true, true, detail)
	case "npx", "bunx", "pnpx":
		// npx rimraf DIR: rimraf is rm -rf
		for k, w := range e.Argv[1:] {
			if w.Value == "rimraf" || strings.HasPrefix(w.Value, "rimraf@") {
				j.rmWords(e, e.Argv[k+2:], true, true, detail)
				break
			}
			if !strings.HasPrefix(w.Value, "-") {
				break
			}
		}
		j.system(all, i, e, args, detail) // npx prisma migrate reset ...
	case "find":
		j.find(e, args, detail)
	case "shred", "srm", "wipe":
		j.add(RuleShred, detail)
		o := parseOpts(args, "nsx", "iterations", "size", "random-source")
		j.writesTo(e, o.Pos, kindDelete, detail)
	case "dd":
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				if p, ok := j.resolve(v, e.Dir); ok {
					j.writeAbs(p, kindTruncate, detail)
				}
			}
		}
	case "truncate":
		o := parseOpts(args, "sr", "size", "reference")
		j.writesTo(e, o.Pos, kindTruncate, detail)
	case "tee":
		o := parseOpts(args, "")
		k := kindTruncate
		if o.Has('a', "append") {
			k = kindAppend
		}
		j.writesTo(e, o.Pos, k, detail)
	case "cp", "mv", "install", "ln", "rsync", "scp":
		j.copyLike(e, args, detail)
	case "sed", "perl", "ruby":
		j.inPlace(e, args, detail)
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		j.chmod(e, args, detail)
	case "parted":
		if containsAny(args, "mklabel", "mktable", "rm") {
			j.add(RuleMkfs, detail)
		}
	case "sgdisk":
		o := parseOpts(args, "")
		if o.Has('Z', "zap-all") || o.Has('o', "clear") {
			j.add(RuleMkfs, detail)
		}
	case "diskutil":
		if len(args) > 0 {
			s := strings.ToLower(args[0])
			if strings.HasPrefix(s, "erase") || s == "zerodisk" || s == "randomdisk" ||
				s == "partitiondisk" || s == "secureerase" || s == "reformat" {
				j.add(RuleMkfs, detail)
			}
		}
	default:
		if p := programs.Lookup(name); p.Is(programs.Downloader) && p.Outputs != nil {
			// curl -o F, curl -O URL (the URL's name in the directory), wget
			j.writesTo(e, p.Outputs(args), kindTruncate, detail)
		}
		j.system(all, i, e, args, detail)
	}
}

// rm judges rm/unlink targets.
func (j *judge) rm(all []parse.Exec, i int, e *parse.Exec, args []string, detail string) {
	o := parseOpts(args, "")
	recursive := o.Has('r', "recursive") || o.Short['R'] || o.Has('d', "dir")
	forced := o.Has('f', "force")
	strong := recursive || forced
	if e.Name == "unlink" {
		strong = false
	}
	// operands with their static flag
	words := e.Argv[1:]
	var ops []parse.Word
	seenDash := false
	for _, w := range words {
		if !seenDash && w.Static && w.Value == "--" {
			seenDash = true
			continue
		}
		if !seenDash && w.Static && strings.HasPrefix(w.Value, "-") && len(w.Value) > 1 {
			continue
		}
		ops = append(ops, w)
	}
	if len(ops) == 0 && e.ExtraArgs && strong && !j.feedInside(all, i) {
		j.add(RuleRmDynamic, detail)
	}
	for _, w := range ops {
		j.rmTarget(e, w, recursive, strong, detail)
	}
}

// rmWords judges the operands of an rm-like tool (rimraf) that always
// deletes recursively.
func (j *judge) rmWords(e *parse.Exec, words []parse.Word, recursive, strong bool, detail string) {
	for _, w := range words {
		if w.Static && strings.HasPrefix(w.Value, "-") {
			continue
		}
		j.rmTarget(e, w, recursive, strong, detail)
	}
}

func (j *judge) rmTarget(e *parse.Exec, w parse.Word, recursive, strong bool, detail string) {
	p, ok := j.staticPath(w, e.Dir)
	if !ok {
		if strong {
			j.add(RuleRmDynamic, detail)
		}
		return
	}
	// oversight, credentials, protected paths first
	before := len(j.hits)
	j.writeAbs(p, kindDelete, detail)
	tampered := false
	for _, h := range j.hits[before:] {
		if h.Verdict == Deny {
			tampered = true
		}
	}
	if remoteDelete(e) {
		j.rmRemote(p, strong, tampered, detail)
		return
	}
	switch j.locate(p) {
	case locSystem:
		if strong {
			j.add(RuleRmSystem, detail)
		} else {
			j.add(RuleRmFileOutside, detail)
		}
	case locHome:
		if strong {
			j.add(RuleRmHome, detail)
		}
	case locHomeDot:
		if strong {
			j.add(RuleRmHome, detail)
		} else if !tampered {
			j.add(RuleRmFileOutside, detail)
		}
	case locOutside:
		if tampered {
			return
		}
		if j.isSystemFile(p) {
			j.add(RuleRmSystem, detail) // rm /etc/passwd
			return
		}
		if strong {
			j.add(RuleRmOutside, detail)
		} else {
			j.add(RuleRmFileOutside, detail)
		}
	case locProjectRoot:
		if recursive {
			j.add(RuleRmProjectRoot, detail)
		}
	case locGitDir:
		if strong {
			j.add(RuleRmGitDir, detail)
		}
	}
}

// staticPath resolves a word to an absolute path when that can be known:
// static words, and dynamic words whose static prefix already names a
// directory inside the project or a temp dir ("build/$X", "$TMPDIR/x").
func (j *judge) staticPath(w parse.Word, dir string) (string, bool) {
	v := w.Value
	if w.Static || !strings.ContainsAny(v, "$`") {
		// static, or only a glob: judge the fixed part (globBase)
		return j.resolve(v, dir)
	}
	for _, t := range []string{"$TMPDIR/", "${TMPDIR}/", "${TMPDIR:-/tmp}/"} {
		if strings.HasPrefix(v, t) && len(v) > len(t) && !strings.Contains(v[len(t):], "..") {
			return "/tmp/" + strings.Trim(v[len(t):], "/$"), true
		}
	}
	k := strings.IndexAny(v, "$`")
	if k <= 0 {
		return "", false
	}
	prefix := v[:k]
	slash := strings.LastIndexByte(prefix, '/')
	if slash <= 0 || strings.Contains(v[k:], "..") {
		return "", false
	}
	p, ok := j.resolve(prefix[:slash], dir)
	if !ok || j.locate(p) != locInside {
		return "", false
	}
	// the dynamic part stays below p: judge as p/<something>
	return p + "/_", true
}

// feedInside reports whether the execution's input comes from a listing
// (find, ls, git ls-files, fd) rooted inside the project.
func (j *judge) feedInside(all []parse.Exec, i int) bool {
	e := &all[i]
	if e.Pipeline == 0 || e.Stage == 0 {
		return false
	}
	for k := range all {
		f := &all[k]
		if f.Pipeline != e.Pipeline || f.Stage != e.Stage-1 {
			continue
		}
		switch f.Name {
		case "find", "fd", "ls", "git", "grep", "rg":
		default:
			return false
		}
		roots := findRoots(wordValues(f.Argv[1:]))
		if f.Name != "find" {
			roots = nil
			for _, w := range f.Argv[1:] {
				if w.Static && !strings.HasPrefix(w.Value, "-") && strings.Contains(w.Value, "/") {
					roots = append(roots, w.Value)
				}
			}
		}
		for _, r := range roots {
			p, ok := j.resolve(r, f.Dir)
			if !ok {
				return false
			}
			if l := j.locate(p); l != locInside && l != locProjectRoot {
				return false
			}
		}
		return f.Dir != "" || len(roots) > 0
	}
	return false
}

// findRoots are find's starting points ("." when none).
func findRoots(args []string) []string {
	var roots []string
	for _, a := range args {
		if a == "-H" || a == "-L" || a == "-P" || strings.HasPrefix(a, "-O") || a == "-D" {
			continue
		}
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == "\\(" {
			break
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	return roots
}

var destructiveExec = map[string]bool{"rm": true, "shred": true, "unlink": true, "rmdir": true, "srm": true}

func (j *judge) find(e *parse.Exec, args []string, detail string) {
	destructive := false
	for k, a := range args {
		if a == "-delete" {
			destructive = true
		}
		if (a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir") && k+1 < len(args) {
			n := args[k+1]
			if s := strings.LastIndexByte(n, '/'); s >= 0 {
				n = n[s+1:]
			}
			if destructiveExec[n] {
				destructive = true
			}
		}
	}
	if !destructive {
		return
	}
	for _, r := range findRoots(args) {
		p, ok := j.resolve(r, e.Dir)
		if !ok {
			j.add(RuleRmDynamic, detail)
			continue
		}
		j.writeAbs(p, kindDelete, detail)
		if remoteDelete(e) {
			j.findRemote(p, detail)
			continue
		}
		switch j.locate(p) {
		case locSystem, locHome, locHomeDot, locOutside:
			j.add(RuleFindDelete, detail)
		}
	}
}

// copyLike judges cp/mv/install/ln/rsync/scp: the destination is written,
// mv's sources are removed.
func (j *judge) copyLike(e *parse.Exec, args []string, detail string) {
	var o opts
	switch e.Name {
	case "rsync":
		o = parseOpts(args, "eBfT", "rsh", "exclude", "include", "filter", "rsync-path", "temp-dir", "backup-dir", "files-from", "exclude-from", "chmod", "chown")
	case "scp":
		o = parseOpts(args, "iFPlcoSJ")
	case "install":
		o = parseOpts(args, "mogtS", "target-directory", "mode", "owner", "group", "suffix")
	default:
		o = parseOpts(args, "tS", "target-directory", "suffix")
	}
	pos := o.Pos
	dest := ""
	if v := o.Values["t"]; v != "" {
		dest = v
	} else if v := o.Long["target-directory"]; v != "" {
		dest = v
	} else if len(pos) >= 2 {
		dest = pos[len(pos)-1]
		pos = pos[:len(pos)-1]
	}
	if dest == "" || programs.IsRemote(dest) {
		return
	}
	p, ok := j.resolve(dest, e.Dir)
	if !ok {
		return
	}
	if e.Name == "rsync" && o.LongPrefix("delete") {
		switch j.locate(p) {
		case locHome, locHomeDot, locSystem:
			j.add(RuleRsyncDeleteHome, detail)
		}
	}
	// onto an existing file this overwrites it; from /dev/null it empties
	// it; otherwise it may only create one: an edit, not a truncation.
	k := kindEdit
	if contains(pos, "/dev/null") {
		k = kindTruncate
	}
	j.writeAbs(p, k, detail)
	if e.Name == "mv" {
		j.writesTo(e, pos, kindDelete, detail)
	}
}

// inPlace judges sed -i / perl -i / ruby -i file edits.
func (j *judge) inPlace(e *parse.Exec, args []string, detail string) {
	inplace := false
	hasScriptOpt := false
	var files []string
	for k := 0; k < len(args); k++ {
		a := args[k]
		switch {
		case a == "-i" || strings.HasPrefix(a, "-i") || a == "--in-place" || strings.HasPrefix(a, "--in-place=") ||
			(strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'i') && e.Name == "perl"):
			inplace = true
		case a == "-e" || a == "-f" || a == "--expression" || a == "--file":
			hasScriptOpt = true
			k++
		case strings.HasPrefix(a, "-"):
			if e.Name == "perl" && strings.HasSuffix(a, "e") {
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
	if !hasScriptOpt && len(files) > 0 {
		files = files[1:] // the first operand is the script
	}
	j.writesTo(e, files, kindEdit, detail)
}

// chmod judges chmod/chown/... : setuid bits, recursion on system or home,
// and changes to protected files.
func (j *judge) chmod(e *parse.Exec, args []string, detail string) {
	o := parseOpts(args, "", "reference")
	pos := o.Pos
	if _, ref := o.Long["reference"]; !ref && len(pos) > 0 && e.Name != "chattr" && e.Name != "setfacl" {
		if e.Name == "chmod" && isSetuidMode(pos[0]) {
			j.add(RuleSetuid, detail)
		}
		pos = pos[1:]
	}
	// chmod -x, +x style modes parse as short options; that is fine.
	recursive := o.Has('R', "recursive")
	for _, t := range pos {
		p, ok := j.resolve(t, e.Dir)
		if !ok {
			continue
		}
		if recursive {
			switch j.locate(p) {
			case locSystem, locHome:
				j.add(RuleChmodRecursive, detail)
			}
		}
		j.writeAbs(p, kindChmod, detail)
	}
	if e.Name == "chmod" {
		for _, a := range args {
			if strings.HasPrefix(a, "-") && isSetuidMode(a) {
				j.add(RuleSetuid, detail)
			}
		}
	}
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

// reads looks for secret files among the operands of commands that read.
func (j *judge) reads(e *parse.Exec, args []string, detail string) {
	name := e.Name
	switch name {
	case "env":
		if onlyOptions(args) {
			j.envDump(detail)
		}
		return
	case "printenv":
		o := parseOpts(args, "")
		if len(o.Pos) == 0 {
			j.envDump(detail)
		}
		for _, v := range o.Pos {
			if secretName(v) {
				j.add(RuleSecretRead, detail)
				if j.secretRead == "" {
					j.secretRead = detail
				}
			}
		}
		return
	case "set", "export", "declare", "typeset":
		if len(args) == 0 || (len(args) == 1 && (args[0] == "-p" || args[0] == "-x" || args[0] == "-px")) {
			j.envDump(detail)
		}
		return
	}
	p := programs.Lookup(name)
	if p != nil && p.PrintsCredentials != nil && p.PrintsCredentials(args) {
		j.secretReadHit(detail) // gh auth token, kubectl get secret -o yaml
		if p.Is(programs.NonReader) {
			return
		}
	}
	if p.Is(programs.NonReader) || e.Synthetic {
		return
	}
	skip := ""
	if p != nil {
		skip = p.KeyOpts
	}
	n := len(e.Argv) - 1
	switch name {
	case "cp", "install", "rsync", "scp":
		n-- // the destination is written, not read
	}
	for k := 0; k < n; k++ {
		w := e.Argv[k+1]
		a := w.Value
		if skip != "" && len(a) == 2 && a[0] == '-' && strings.IndexByte(skip, a[1]) >= 0 {
			k++
			continue
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte(skip, a[1]) >= 0 && skip != "" {
			continue
		}
		for _, c := range pathCandidates(a) {
			p, ok := j.resolve(c, e.Dir)
			if !ok {
				continue
			}
			if isProcEnviron(p) {
				j.envDump(detail)
				break
			}
			if j.readAbs(p, detail) {
				break
			}
		}
	}
}

func (j *judge) secretReadHit(detail string) {
	j.add(RuleSecretRead, detail)
	if j.secretRead == "" {
		j.secretRead = detail
	}
}

// pathCandidates are the paths an argument may name: itself, the part after
// "=" (if=, --file=), after "@" (curl -d @file) or "<" (curl -F x=<file).
func pathCandidates(a string) []string {
	out := []string{a}
	if k := strings.LastIndexByte(a, '='); k >= 0 && k+1 < len(a) {
		out = append(out, a[k+1:])
	}
	for _, c := range append([]string(nil), out...) {
		if strings.HasPrefix(c, "@") || strings.HasPrefix(c, "<") {
			out = append(out, c[1:])
		}
	}
	return out
}

func onlyOptions(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// secretName matches variable names that hold credentials.
func secretName(n string) bool {
	u := strings.ToUpper(n)
	for _, part := range strings.FieldsFunc(u, func(r rune) bool { return r == '_' || r == '-' }) {
		switch part {
		case "TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "PASS", "APIKEY", "CREDENTIALS", "CREDENTIAL", "PAT", "PRIVATE":
			return true
		}
	}
	return strings.HasSuffix(u, "TOKEN") || strings.HasSuffix(u, "SECRET") || strings.HasSuffix(u, "APIKEY") || strings.HasSuffix(u, "PASSWORD")
}

// secretVarRef finds $NAME / ${NAME...} with a secret-like name in s.
func secretVarRef(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		k := i + 1
		if k < len(s) && s[k] == '{' {
			k++
		}
		st := k
		for k < len(s) && (s[k] == '_' || s[k] >= 'A' && s[k] <= 'Z' || s[k] >= 'a' && s[k] <= 'z' || s[k] >= '0' && s[k] <= '9') {
			k++
		}
		if k > st && secretName(s[st:k]) {
			return s[st:k]
		}
	}
	return ""
}

// network records a network send (for the exfiltration combination) unless
// every host it names is allowed.
func (j *judge) network(e *parse.Exec, args []string, detail string) {
	p := programs.Lookup(e.Name)
	if p == nil {
		return
	}
	if p.Uploads != nil && p.Uploads(args) {
		j.sendsTo(detail, "")
		return
	}
	if !p.Is(programs.NetSender) || p.Is(programs.Uploader) {
		return // an uploader sends only what Uploads says (gh pr list sends nothing of ours)
	}
	hosts, local := programs.Hosts(e.Name, args)
	if local {
		return // rsync/scp between local paths
	}
	allowed := len(hosts) > 0
	for _, h := range hosts {
		if !j.cfg.hostAllowed(h) {
			allowed = false
		}
	}
	if allowed {
		return
	}
	j.sendsTo(detail, "")
}

func (j *judge) sendsTo(detail, _ string) {
	if j.networkSend == "" {
		j.networkSend = detail
	}
}

// procSubstCode finds "bash <(curl ...)": a shell or interpreter whose
// script operand is a process substitution. It returns the command names
// inside it.
func procSubstCode(e *parse.Exec) ([]string, bool) {
	if !programs.RunsCode(e.Name) {
		return nil, false
	}
	for _, w := range e.Argv[1:] {
		v := w.Value
		if strings.HasPrefix(v, "-") && w.Static {
			continue
		}
		if !strings.HasPrefix(v, "<(") {
			return nil, false
		}
		var names []string
		for _, seg := range strings.FieldsFunc(strings.TrimSuffix(v[2:], ")"), func(r rune) bool {
			return r == '|' || r == ';' || r == '&' || r == '('
		}) {
			if f := strings.Fields(seg); len(f) > 0 {
				n := f[0]
				if k := strings.LastIndexByte(n, '/'); k >= 0 {
					n = n[k+1:]
				}
				names = append(names, n)
			}
		}
		return names, true
	}
	return nil, false
}

// runsCode judges code that is run but cannot be read; src are the
// commands whose output becomes the code.
func (j *judge) runsCode(src []string, detail string) {
	switch {
	case anyIs(src, programs.Downloader):
		j.add(RuleRemoteCodePipe, detail)
	case anyIs(src, programs.Decoder):
		j.add(RuleDecodeExec, detail)
	case len(src) > 0 && allAre(src, programs.EnvSetup):
		// eval "$(ssh-agent -s)", eval "$(pyenv init -)": well-known setup
	default:
		j.add(RuleEvalDynamic, detail)
	}
}

// anyIs reports a command name among xs that is a program of kind k.
func anyIs(xs []string, k programs.Kind) bool {
	for _, x := range xs {
		if programs.Is(x, k) {
			return true
		}
	}
	return false
}

func allAre(xs []string, k programs.Kind) bool {
	for _, x := range xs {
		if !programs.Is(x, k) {
			return false
		}
	}
	return true
}

// custom applies operator command-prefix rules.
func (j *judge) custom(e *parse.Exec, detail string) {
	if j.cfg == nil {
		return
	}
	for _, r := range j.cfg.Custom {
		if len(r.Prefix) == 0 || r.Prefix[0] != e.Name || len(e.Argv) < len(r.Prefix) {
			continue
		}
		match := true
		for k := 1; k < len(r.Prefix); k++ {
			if e.Argv[k].Value != r.Prefix[k] {
				match = false
				break
			}
		}
		if match {
			j.hits = append(j.hits, hitFor(r, detail))
		}
	}
}
