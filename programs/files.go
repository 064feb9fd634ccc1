package programs

import "strings"

// Programs that read, write or delete the files they are given.

var (
	tarSpec     = S("fCbTX", "file", "directory", "exclude", "exclude-from", "files-from", "transform", "xform")
	unzipSpec   = S("dxP")
	rmSpec      = S("")
	copySpec    = S("tS", "target-directory", "suffix")
	mountSpec   = S("otTLUO", "options", "types", "label", "uuid")
	installSpec = S("mogtS", "target-directory", "mode", "owner", "group", "suffix")
)

var _ = register(
	// Deleter: destroys the files it names. mv is not one: the content
	// lives on under the new name.
	&Program{Name: "rm", Kind: Deleter | NonReader, Opts: rmSpec},
	&Program{Name: "unlink", Kind: Deleter | NonReader},
	&Program{Name: "rmdir", Kind: Deleter | NonReader},
	&Program{Name: "rimraf", Names: []string{"del-cli"}, Kind: Deleter | NonReader},
	&Program{Name: "trash", Names: []string{"trash-put", "gio", "rmtrash", "trash-cli", "gtrash"}, Kind: NonReader, Removes: trashRemoves},
	&Program{Name: "shred", Names: []string{"srm", "wipe"}, Kind: Deleter | Writer | NonReader, Opts: S("nsx", "iterations", "size", "random-source")},
	&Program{Name: "cp", Kind: Reader | Writer | Copier | Archiver, Opts: copySpec, Links: cpLinks},
	&Program{Name: "mv", Kind: Writer | NonReader | Copier, Opts: copySpec},
	&Program{Name: "install", Kind: Reader | Writer | Copier, Opts: installSpec},
	&Program{Name: "ln", Kind: Writer | NonReader | Copier, Opts: copySpec, Links: lnLinks},
	&Program{Name: "mount", Kind: Writer | NonReader, Opts: mountSpec, Links: mountLinks, MountsOn: mountOn},
	&Program{Name: "bindfs", Kind: Writer | NonReader, Opts: S("oupgm", "mirror", "perms", "force-user", "force-group"), Links: bindfsLinks,
		MountsOn: func(a []string) string { _, dir, _ := bindfsLinks(a); return dir }},
	&Program{Name: "ditto", Kind: Reader | Writer | Copier | Archiver},
	&Program{Name: "tee", Names: []string{"sponge"}, Kind: Writer, Outputs: Operands},
	&Program{Name: "dd", Kind: Reader | Writer, Outputs: ddOutputs},
	// truncate is a Deleter of content: find -exec truncate -s 0 {} + empties all it finds
	&Program{Name: "truncate", Kind: Writer | NonReader | Deleter, Opts: S("sr", "size", "reference")},
	&Program{Name: "sed", Kind: Reader | Writer | Pattern, Opts: S("ef", "expression", "file"), CodeIn: sedCode,
		Outputs: func(a []string) []string { ef, _ := sedEffects(a); return ef.Writes },
		Inputs:  func(a []string) []string { ef, _ := sedEffects(a); return ef.Reads }},
	&Program{Name: "chmod", Kind: Writer | NonReader | Permissions, Opts: S("", "reference"), ModeOperand: true},
	&Program{Name: "chown", Names: []string{"chgrp"}, Kind: Writer | NonReader | Permissions, Opts: S("", "reference", "from"), ModeOperand: true},
	&Program{Name: "chattr", Kind: Writer | NonReader | Permissions},
	&Program{Name: "setfacl", Kind: Writer | NonReader | Permissions},
	&Program{Name: "touch", Names: []string{"mkdir"}, Kind: Writer | NonReader},
	&Program{Name: "tar", Names: []string{"bsdtar"}, Kind: Reader | Writer | Archiver, Opts: tarSpec, Unpacks: tarUnpacks, CodeIn: tarCode, Removes: tarRemoves},
	&Program{Name: "unzip", Kind: Writer, Opts: unzipSpec, Unpacks: unzipUnpacks},
	&Program{Name: "zip", Kind: Reader | Writer | Archiver, CodeIn: zipCode, Removes: zipRemoves},
	&Program{Name: "7z", Names: []string{"7za", "7zz", "7zr", "rar"}, Kind: Reader | Writer | Archiver, Removes: sevenZipRemoves, Unpacks: sevenZipUnpacks},
	&Program{Name: "cpio", Names: []string{"pax"}, Kind: Reader | Writer | Archiver, Unpacks: cpioUnpacks},
	// readers of their operands
	// editors: what they change is decided by keystrokes or -c/-s scripts
	// no grammar here can read, so every file operand may be written
	// ed reads its commands on stdin; -s is silence there, not a script
	&Program{Name: "ed", Names: []string{"red"}, Kind: Reader | Writer, EditsOperands: true, Opts: S("p", "prompt")},
	&Program{Name: "vim", Names: []string{"vi", "nvim", "ex", "emacs", "nano", "micro", "kak", "hx", "joe",
		"pico", "mcedit", "jed", "gedit", "kate", "subl", "zed"}, Kind: Reader | Writer, EditsOperands: true,
		Opts:     S("cSsuiwWTtqo", "cmd", "eval", "load", "funcall"),
		ReadOnly: func(a []string) bool { return has(a, "-R", "-M", "--diff", "-d", "--version", "--list-extensions") },
		CodeIn:   vimCode},
	&Program{Name: "cat", Names: []string{"tac", "nl", "bat", "batcat", "view", "strings", "hexdump", "hd"}, Kind: Reader},
	&Program{Name: "head", Names: []string{"tail"}, Kind: Reader, Opts: S("nc", "lines", "bytes")},
	&Program{Name: "grep", Names: []string{"egrep", "fgrep", "ag", "ack", "zgrep"}, Kind: Reader | Pattern},
	&Program{Name: "rg", Kind: Reader | Pattern, CodeIn: rgCode},
	&Program{Name: "jq", Names: []string{"yq", "gojq"}, Kind: Reader | Pattern},
	&Program{Name: "sort", Kind: Reader, Outputs: sortOutputs, Zeroes: sortZeroes, Opts: sortSpec.Runs("compress-program", RunsShell)},
	&Program{Name: "uniq", Kind: Reader, Outputs: uniqOutputs, Zeroes: uniqZeroes},
	&Program{Name: "shuf", Kind: Reader, Opts: shufSpec, Outputs: optOutputs(shufSpec, 'o', "output"), Zeroes: shufZeroes},
	&Program{Name: "diff", Names: []string{"cmp", "comm", "cut", "paste", "column", "fold", "fmt"}, Kind: Reader},
	&Program{Name: "iconv", Kind: Reader, Opts: iconvSpec, Outputs: optOutputs(iconvSpec, 'o', "output"), Zeroes: iconvZeroes},
	&Program{Name: "sha256sum", Names: []string{"sha1sum", "md5sum", "sha512sum", "b2sum", "cksum", "shasum"}, Kind: NonReader},
	// never print a file's content
	&Program{Name: "ls", Names: []string{"exa", "eza", "lsd"}, Kind: NonReader | Lister},
	&Program{Name: "find", Kind: NonReader | Lister | Runner},
	&Program{Name: "fd", Names: []string{"fdfind"}, Kind: NonReader | Lister | Runner, Opts: S("xXteEdj", "exec", "exec-batch", "type", "extension", "exclude", "max-depth")},
	&Program{Name: "tree", Kind: NonReader | Lister},
	&Program{Name: "locate", Names: []string{"plocate", "mlocate"}, Kind: NonReader | Lister},
	&Program{Name: "stat", Names: []string{"file", "realpath", "readlink", "dirname", "basename", "du", "wc", "lsof", "getfacl", "test", "[", "[["}, Kind: NonReader},
	&Program{Name: "cd", Names: []string{"pushd", "popd"}, Kind: NonReader},
	&Program{Name: "true", Names: []string{"false", "code"}, Kind: NonReader},
	&Program{Name: "which", Names: []string{"type", "whereis"}, Kind: NonReader | Manual},
	&Program{Name: "tldr", Names: []string{"help", "whatis", "apropos", "info"}, Kind: Manual},
	&Program{Name: "ssh-add", Names: []string{"ssh-keygen", "ssh-copy-id"}, Kind: NonReader},
)

// Listers print file names: their output piped to xargs becomes arguments.
// git ls-files is one too (git's table says so).

// CopyDest splits a Copier's operands into sources and the destination:
// -t DIR / --target-directory, else the last operand ("" when there are
// fewer than two operands).
func (p *Program) CopyDest(args []string) (srcs []string, dest string) {
	o := p.Parse(args)
	pos := o.Pos
	if v := o.Value('t', "target-directory"); v != "" {
		return pos, v
	}
	if len(pos) < 2 {
		return pos, ""
	}
	return pos[:len(pos)-1], pos[len(pos)-1]
}

// FindRuns reports a find action that runs the command after it, up to
// ";" or "+" (-exec, -execdir, -ok, -okdir).
func FindRuns(a string) bool {
	return a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir"
}

// FindSelects reports whether find's expression narrows what it finds by
// name, path, age, size, owner or emptiness: without such a test (only
// -type, -mindepth, -maxdepth, -xdev), an action applies to everything
// under the roots (find . -type f -delete empties the project).
func FindSelects(args []string) bool {
	for _, a := range args {
		switch a {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname",
			"-newer", "-anewer", "-cnewer", "-newermt", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-used",
			"-size", "-empty", "-user", "-group", "-uid", "-gid", "-nouser", "-nogroup", "-perm", "-links", "-inum", "-samefile", "-prune":
			return true
		}
	}
	return false
}

// FindActs reports a find action that runs something on, deletes, or
// writes out what find finds (-exec ..., -delete, -fprint FILE, -fls FILE).
func FindActs(a string) bool {
	switch a {
	case "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
		return true
	}
	return FindRuns(a)
}

// ddOutputs: dd of=FILE.
func ddOutputs(args []string) []string {
	var out []string
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "of="); ok {
			out = append(out, v)
		}
	}
	return out
}

// tarUnpacks: tar -x/--extract/--get, old style too (tar xzf a.tgz), with
// -f/--file the archive and -C/--directory the destination.
func tarUnpacks(args []string) (archive, dest string, ok bool) {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = append([]string{"-" + args[0]}, args[1:]...) // tar xzf a.tgz
	}
	o := Parse(args, tarSpec)
	if !o.Has('x', "extract", "get") || o.Has('O', "to-stdout") {
		return "", "", false // tar -xO prints the members: nothing lands on disk
	}
	return o.Value('f', "file"), o.Value('C', "directory"), true
}

// sevenZipUnpacks: 7z x|e ARCHIVE [-oDIR] (the directory joined to -o).
func sevenZipUnpacks(args []string) (archive, dest string, ok bool) {
	o := Operands(args)
	if len(o) == 0 || o[0] != "x" && o[0] != "e" {
		return "", "", false
	}
	if len(o) > 1 {
		archive = o[1]
	}
	for _, a := range args {
		if d, ok := strings.CutPrefix(a, "-o"); ok && d != "" {
			dest = d
		}
	}
	return archive, dest, true
}

// cpioUnpacks: cpio -i (--extract) reads the archive on stdin and writes
// its members below the working directory or -D/--directory DIR.
func cpioUnpacks(args []string) (archive, dest string, ok bool) {
	o := Parse(args, S("DHEFIOMRC", "directory", "format", "file", "pattern-file", "owner", "message", "io-size", "block-size"))
	if !o.Has('i', "extract") {
		return "", "", false
	}
	archive = o.Value('F', "file")
	if archive == "" {
		archive = o.Value('I')
	}
	if archive == "" {
		archive = "-"
	}
	return archive, o.Value('D', "directory"), true
}

// TarTransforms are the replacement texts of tar's --transform/--xform
// expressions (s,^stage/cc,.claude,): where members land is computed by
// tar from these, not named on the line.
func TarTransforms(args []string) []string {
	var out []string
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--transform=")
		if !ok {
			v, ok = strings.CutPrefix(a, "--xform=")
		}
		if !ok && (a == "--transform" || a == "--xform") && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if !ok {
			continue
		}
		for _, expr := range strings.Split(v, ";") {
			if len(expr) < 4 || expr[0] != 's' {
				continue
			}
			parts := strings.Split(expr[2:], expr[1:2])
			if len(parts) >= 2 {
				out = append(out, parts[1])
			}
		}
	}
	return out
}

// unzipUnpacks: unzip ARCHIVE [-d DIR]; listing, testing or printing to
// stdout (-l, -v, -t, -Z, -p, -c) writes no member to disk.
func unzipUnpacks(args []string) (archive, dest string, ok bool) {
	o := Parse(args, unzipSpec)
	for _, c := range []byte("lvtZpc") {
		if o.Short[c] {
			return "", "", false
		}
	}
	if len(o.Pos) > 0 {
		archive = o.Pos[0]
	}
	return archive, o.Values["d"], true
}

// lnLinks: ln TARGET NAME, ln TARGET (a link named as the target, here),
// ln TARGET... DIR, ln -t DIR TARGET....
func lnLinks(args []string) (targets []string, name string, intoDir bool) {
	p := Lookup("ln")
	o := p.Parse(args)
	if v := o.Value('t', "target-directory"); v != "" {
		return o.Pos, v, true
	}
	switch len(o.Pos) {
	case 0:
		return nil, "", false
	case 1:
		return o.Pos, ".", true
	}
	n := len(o.Pos) - 1
	return o.Pos[:n], o.Pos[n], n > 1 || strings.HasSuffix(o.Pos[n], "/")
}

// cpLinks: cp -s (--symbolic-link) and cp -l (--link) make links, not
// copies: SOURCE... DEST as for a copy.
func cpLinks(args []string) (targets []string, name string, intoDir bool) {
	p := Lookup("cp")
	o := p.Parse(args)
	if !o.Has('s', "symbolic-link") && !o.Has('l', "link") {
		return nil, "", false
	}
	srcs, dest := p.CopyDest(args)
	if dest == "" {
		return nil, "", false
	}
	return srcs, dest, len(srcs) > 1 || o.Value('t', "target-directory") != "" || strings.HasSuffix(dest, "/")
}

// mountLinks: mount --bind/--rbind/-B/-R/-o bind SOURCE DIR shows SOURCE
// at DIR.
func mountLinks(args []string) (targets []string, name string, intoDir bool) {
	o := Parse(args, mountSpec)
	bind := o.Has('B', "bind", "rbind") || o.Short['R']
	for _, f := range strings.Split(o.Value('o', "options"), ",") {
		bind = bind || f == "bind" || f == "rbind"
	}
	if !bind || len(o.Pos) != 2 {
		return nil, "", false
	}
	return o.Pos[:1], o.Pos[1], false
}

// bindfsLinks: bindfs [options] SOURCE DIR.
func bindfsLinks(args []string) (targets []string, name string, intoDir bool) {
	o := Lookup("bindfs").Parse(args)
	if len(o.Pos) != 2 {
		return nil, "", false
	}
	return o.Pos[:1], o.Pos[1], false
}

// tarRemoves: tar --remove-files deletes the members it packed (relative
// ones from -C's directory).
func tarRemoves(args []string) []string {
	if !has(args, "--remove-files") {
		return nil
	}
	dir, members := TarMembers(args)
	var out []string
	for _, m := range members {
		if dir != "" && !strings.HasPrefix(m, "/") && !strings.HasPrefix(m, "~") {
			m = strings.TrimSuffix(dir, "/") + "/" + m
		}
		out = append(out, m)
	}
	return out
}

// zipRemoves: zip -m / --move deletes the files once zipped (the first
// operand is the archive).
func zipRemoves(args []string) []string {
	o := Parse(args, S("bnOtxiP", "temp-path", "suffixes", "out", "exclude", "include", "password"))
	if !o.Has('m', "move") || len(o.Pos) < 2 {
		return nil
	}
	return o.Pos[1:]
}

// sevenZipRemoves: 7z a -sdel ARCHIVE FILES, rar m/mf ARCHIVE FILES and
// rar a -df delete what they packed.
func sevenZipRemoves(args []string) []string {
	pos := Operands(args)
	if len(pos) < 3 {
		return nil
	}
	if has(args, "-sdel", "-df") || pos[0] == "m" || pos[0] == "mf" {
		return pos[2:]
	}
	return nil
}

// trashRemoves: trash-put F, trash F, gio trash F, gio remove F.
func trashRemoves(args []string) []string {
	pos := Operands(args)
	if len(args) > 0 && (args[0] == "trash" || args[0] == "remove" || args[0] == "rm") {
		return Operands(args[1:]) // gio SUBCOMMAND
	}
	if len(pos) > 0 && has([]string{"list", "empty", "restore", "open", "info", "cat", "copy", "mount", "mkdir", "monitor",
		"move", "rename", "save", "set", "tree", "help", "version", "launch", "mime"}, pos[0]) {
		return nil // trash list, gio open, gio info: nothing deleted
	}
	return pos
}

// TarMembers are the files tar packs or lists (its operands, the archive
// given to -f left out) and the directory -C names for them ("" when
// none): tar czf x.tgz -C ~ .config/nvim packs ~/.config/nvim.
func TarMembers(args []string) (dir string, members []string) {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = append([]string{"-" + args[0]}, args[1:]...) // tar czf x.tgz d
	}
	o := Parse(args, tarSpec)
	return o.Value('C', "directory"), o.Pos
}

// CopiesStdin reports that the program, run with args, copies what it
// reads on stdin to its output: cat (and its family) with no file operand
// or "-", tee. Upstream of a shell it hands the shell its own stdin.
func CopiesStdin(name string, args []string) bool {
	p := Lookup(name)
	if p == nil {
		return false
	}
	switch p.Name {
	case "tee":
		return true
	case "cat", "less":
		ops := p.Parse(args).Pos
		return len(ops) == 0 || has(ops, "-")
	}
	return false
}

// SkipsHidden reports a tree reader that leaves out hidden files and
// directories found below its operands unless told (rg, ag without
// --hidden, -., -uu): rg TODO ~ never opens ~/.ssh.
func SkipsHidden(name string, args []string) bool {
	base := name
	if k := strings.LastIndexByte(base, '/'); k >= 0 {
		base = base[k+1:]
	}
	if Canon(name) != "rg" && base != "ag" {
		return false
	}
	return !has(args, "--hidden", "-.", "-uu", "-uuu", "--unrestricted", "-a", "--all-types") && !anyPrefix(args, "-uu")
}

// ReadsTree reports a reader that, given a directory operand, reads every
// file below it and prints or packs their content: grep -r, rg, ag, ack,
// tar and zip -r creating an archive, cp -r, rsync -r/-a, scp -r, 7z a,
// ditto. What it lists by name only (rg --files, grep -rl) reads no content
// into the transcript.
func ReadsTree(name string, args []string) bool {
	base := name
	if k := strings.LastIndexByte(base, '/'); k >= 0 {
		base = base[k+1:]
	}
	namesOnly := has(args, "-l", "-L", "-c", "--files", "--files-with-matches", "--files-without-match", "--count", "-q", "--quiet") ||
		anyPrefix(args, "--files")
	switch Canon(name) {
	case "grep":
		if base == "ag" || base == "ack" {
			return !namesOnly
		}
		if base == "zgrep" {
			return false
		}
		return !namesOnly && (HasShortFlag(args, 'r') || HasShortFlag(args, 'R') ||
			has(args, "--recursive", "--dereference-recursive", "--directories=recurse"))
	case "rg":
		return !namesOnly
	case "tar":
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			args = append([]string{"-" + args[0]}, args[1:]...)
		}
		o := Parse(args, tarSpec)
		return o.Has('c', "create") || o.Has('r', "append") || o.Has('u', "update")
	case "zip":
		return HasShortFlag(args, 'r') || has(args, "--recurse-paths")
	case "cp", "scp":
		return HasShortFlag(args, 'r') || HasShortFlag(args, 'R') || HasShortFlag(args, 'a') || has(args, "--recursive", "--archive")
	case "rsync":
		return HasShortFlag(args, 'r') || HasShortFlag(args, 'a') || has(args, "--recursive", "--archive")
	case "7z":
		o := Operands(args)
		return len(o) > 0 && (o[0] == "a" || o[0] == "u")
	case "ditto":
		return true
	}
	return false
}
