package programs

import "strings"

// Programs that change files in place without writing them by name
// (issue 19, blind class 4): renamers (rename, prename: every operand
// renamed where it is) and fallocate, whose --punch-hole, --collapse-range
// and --zero-range destroy a file's content without truncating it.

var _ = register(
	&Program{Name: "rename", Names: []string{"prename", "perl-rename", "file-rename"}, Kind: Writer | NonReader, Renames: renameOperands},
	&Program{Name: "fallocate", Kind: Writer | NonReader, Opts: S("olx", "offset", "length", "posix"), Zeroes: fallocateZeroes},
)

// renameOperands are the files rename renames: perl's rename EXPR FILES
// (an expression: s/…/…/, y/…/…/, tr/…/…/ or any code), util-linux's
// rename FROM TO FILES. -n (--no-act, --nono) renames nothing.
func renameOperands(args []string) []string {
	o := Parse(args, S("e", "expr"))
	if o.Has('n', "no-act", "nono", "dry-run", "just-print") || o.Has('h', "help", "version") || o.Short['V'] {
		return nil
	}
	p := o.Pos
	if v := o.Value('e', "expr"); v != "" {
		return p // rename -e 's/x/y/' FILES
	}
	if len(p) > 0 && perlExpr(p[0]) {
		return p[1:]
	}
	if len(p) > 2 {
		return p[2:]
	}
	return nil
}

// perlExpr reports perl rename's first operand: a substitution or
// transliteration, or code (it has a sigil or a semicolon).
func perlExpr(s string) bool {
	for _, pre := range []string{"s/", "y/", "tr/", "s{", "s#", "s|", "s!", "s,"} {
		if strings.HasPrefix(s, pre) {
			return true
		}
	}
	return strings.ContainsAny(s, "$;")
}

// fallocateZeroes are the files fallocate -p/-c/-z destroys the content
// of (a range of it, given by -o/-l: all of it as far as a rule can say).
func fallocateZeroes(args []string) []string {
	o := Parse(args, S("olx", "offset", "length", "posix"))
	if o.Has('p', "punch-hole") || o.Has('c', "collapse-range") || o.Has('z', "zero-range") || o.Has('i', "insert-range") {
		return o.Pos
	}
	return nil
}
