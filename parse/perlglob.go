package parse

import (
	"regexp"
	"strings"
	"sync"
)

// Perl's paths in a deletion (issue 19, blind class 4): `unlink
// glob("$ENV{HOME}/Documents/*")` and `unlink <~/Documents/*>` delete what
// the pattern matches; $ENV{HOME} is the home directory. The pattern is
// reported as rm's operand (not static), as a shell glob is.

var (
	perlGlobCall = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:CORE::)?glob\s*\(?\s*(["'])([^"'\n]*)["']\s*\)?$`)
	})
	perlGlobOp = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^<([^<>\s$@]*[*?\[/~][^<>\s$@]*)>$`)
	})
	perlEnvHome = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\$ENV\{\s*['"]?HOME['"]?\s*\}`)
	})
	// the home directory joined to a string: $ENV{HOME} . "/x" or the
	// user's passwd entry, (getpwuid $<)[7] . "/x", read as "$ENV{HOME}/x"
	perlHomeConcat = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\(\s*getpwuid\s*\(?\s*\$(?:<|>|UID|EUID|REAL_USER_ID)\s*\)?\s*\)\s*\[\s*7\s*\]|\$ENV\{\s*['"]?HOME['"]?\s*\})\s*\.\s*"`)
	})
	perlOneString = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^"([^"\n]*)"$`) })
	// open(FH, MODE, ...) and open(FH, SPEC): up to the mode or spec
	perlOpenRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bopen\s*\(?\s*(?:(?:my|our|local)\s+)?(?:\$\w+|\w+)\s*,\s*`)
	})
)

// perlOpen is what one of perl's open calls does, from its arguments
// after the handle: a write of a file ("write" or "append", the path the
// one item), or a command ("shell", items as codeCall reads them): the
// three-argument form (open F, ">", P; open F, "-|", "rm", "-rf", P) and
// the two-argument one (open F, ">P"; open F, "|CMD"; open F, "CMD|").
// kind is "" for a read or what cannot be told.
func perlOpen(items []codeItem) (kind string, out []codeItem) {
	if len(items) == 0 {
		return "", nil
	}
	spec := strings.TrimSpace(items[0].val)
	if len(items) > 1 && items[0].static {
		switch spec {
		case ">", "+>", "+<", ">:raw", ">:utf8", ">:encoding(UTF-8)":
			return "write", items[1:2]
		case ">>", "+>>", ">>:utf8":
			return "append", items[1:2]
		case "-|", "|-":
			return "shell", items[1:]
		}
		return "", nil
	}
	switch {
	case strings.HasPrefix(spec, "|"):
		return "shell", []codeItem{{val: strings.TrimSpace(spec[1:]), static: items[0].static}}
	case strings.HasSuffix(spec, "|"):
		return "shell", []codeItem{{val: strings.TrimSpace(spec[:len(spec)-1]), static: items[0].static}}
	case strings.HasPrefix(spec, ">>") || strings.HasPrefix(spec, "+>>"):
		return "append", []codeItem{{val: strings.TrimSpace(strings.TrimLeft(spec, "+>")), static: items[0].static}}
	case strings.HasPrefix(spec, ">") || strings.HasPrefix(spec, "+>") || strings.HasPrefix(spec, "+<"):
		return "write", []codeItem{{val: strings.TrimSpace(strings.TrimLeft(spec, "+<>")), static: items[0].static}}
	}
	return "", nil
}

// perlPostfixFor is the list of a statement's postfix loop, `unlink $_
// for glob(...)`, `truncate $_, 0 foreach LIST`: what $_ ranges over, ""
// when the statement has none. rest is the text after the call's name.
func perlPostfixFor(rest string) string {
	stmt := rest
	if i := strings.IndexAny(stmt, ";\n"); i >= 0 {
		stmt = stmt[:i]
	}
	for _, kw := range []string{"foreach", "for"} {
		for i := 0; i < len(stmt); {
			k := strings.Index(stmt[i:], kw)
			if k < 0 {
				break
			}
			at := i + k
			end := at + len(kw)
			if (at == 0 || stmt[at-1] == ' ' || stmt[at-1] == '\t') && end < len(stmt) && (stmt[end] == ' ' || stmt[end] == '\t' || stmt[end] == '(') {
				return strings.TrimSpace(stmt[end:])
			}
			i = end
		}
	}
	return ""
}

// perlPaths rewrites the arguments of a perl deletion: a glob call or
// operator becomes its pattern, $ENV{HOME} the home directory (when
// known); an argument that is still interpolated stays as it was.
func perlPaths(items []codeItem, home string) []codeItem {
	out := make([]codeItem, 0, len(items))
	for _, it := range items {
		v := strings.TrimSpace(it.val)
		if !it.static {
			if h := perlHomeConcat().ReplaceAllString(v, `"$$ENV{HOME}`); h != v {
				if m := perlOneString().FindStringSubmatch(h); m != nil {
					h = m[1] // (getpwuid $<)[7] . "/x": the string "$ENV{HOME}/x"
				}
				v = h
			}
		}
		glob := false
		if m := perlGlobCall().FindStringSubmatch(v); m != nil {
			v, glob = m[2], true
			if m[1] == "'" {
				v = strings.ReplaceAll(v, "$", "\x00") // single quotes: no interpolation
			}
		} else if m := perlGlobOp().FindStringSubmatch(v); m != nil {
			v, glob = m[1], true
		} else if it.static || !perlEnvHome().MatchString(v) {
			out = append(out, it)
			continue
		}
		if home != "" {
			v = perlEnvHome().ReplaceAllLiteralString(v, home)
		}
		v = strings.ReplaceAll(v, "\x00", "$")
		if strings.ContainsAny(v, "$@") {
			out = append(out, it) // still interpolated: not known
			continue
		}
		out = append(out, codeItem{val: v, static: !glob && !strings.ContainsAny(v, "*?[")})
	}
	return out
}
