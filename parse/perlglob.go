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
)

// perlPaths rewrites the arguments of a perl deletion: a glob call or
// operator becomes its pattern, $ENV{HOME} the home directory (when
// known); an argument that is still interpolated stays as it was.
func perlPaths(items []codeItem, home string) []codeItem {
	out := make([]codeItem, 0, len(items))
	for _, it := range items {
		v := strings.TrimSpace(it.val)
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
