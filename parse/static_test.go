package parse

import (
	"encoding/base64"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Static evaluation (issue 12 class 8 and its false flags): values the
// shell computes from text the command holds are computed here too.
func TestStaticValues(t *testing.T) {
	runCases(t, []tcase{
		// a lone "[" is the test command, not a bracket glob
		{src: `[ -n "$(git status --porcelain)" ]`, want: []want{{argv: "git status --porcelain", name: "git"}, {argv: "[ -n $(git status --porcelain) ]", name: "[", static: "SSDS"}}},
		{src: `while [ -n "x" ]; do sleep 1; done`, want: []want{{argv: "[ -n x ]", name: "[", static: "SSSS"}}},
		{src: `ls a[]`, want: []want{{argv: "ls a[]", name: "ls", static: "SS"}}},
		{src: `rm -rf /tmp/[ab]`, want: []want{{argv: "rm -rf /tmp/[ab]", name: "rm", static: "SSD"}}},
		// the stdin of < <(cmd) is cmd's output
		{src: `bash < <(curl -s x)`, want: []want{{argv: "bash", name: "bash", runs: "shell-stdin", srcs: "curl"}}},
		{src: `sh < <(echo 'rm -rf /a')`, want: []want{{argv: "rm -rf /a", name: "rm", kind: "shell-stdin", depth: 1}}},
		// decoded text: judged, and still RunsCode from the decoder
		{src: `echo cm0gL2E= | base64 -d | sh`, want: []want{{argv: "sh", name: "sh", runs: "shell-stdin", srcs: "base64"}, {argv: "rm /a", name: "rm", kind: "shell-stdin", depth: 1}}},
		{src: `$(echo mr | rev) -rf /a`, want: []want{{argv: "rm -rf /a", name: "rm", runs: "decoded", srcs: "rev", static: "SSS"}}},
		{src: `x=$(echo cm0= | base64 -d); $x /a`, want: []want{{argv: "rm /a", name: "rm", runs: "decoded", srcs: "base64"}}},
		{src: `$(echo rm) /a`, want: []want{{argv: "rm /a", name: "rm", runs: "-"}}},
		// a default's second reading
		{src: `${c:-rm} /a`, want: []want{{argv: "rm /a", name: "rm"}, {argv: "${c:-rm} /a", name: ""}}},
		{src: `x=ls; ${x:-rm} /a`, n: 1, want: []want{{argv: "ls /a", name: "ls"}}},
	})
}

// TestStaticAgainstBash runs each source with bash (when there is one) and
// compares what printf prints with the words parse computed for it: IFS
// splitting, parameter operators and pure programs computed as bash does.
func TestStaticAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	srcs := []string{
		`IFS=_; x=_a__b_; printf '[%s]' $x`,
		`IFS=' _'; x=' _a _ b '; printf '[%s]' $x`,
		`IFS=' _'; x='a  _  _b'; printf '[%s]' $x`,
		`IFS=; x='a b'; printf '[%s]' $x`,
		`IFS=:; x=a::b:; printf '[%s]' $x`,
		`x='  a  b  '; printf '[%s]' $x`,
		`IFS=_; x=a_b; printf '[%s]' p$x"q"`,
		`IFS=_; x=_; printf '[%s]' $x`,
		`IFS=_; cmd=rm_-rf_~; printf '[%s]' $cmd`,
		`IFS=,; set -- a,b c; printf '[%s]' "$@"`,
		`x=abcabc; printf '[%s]' "${x/b/X}" "${x//b/X}" "${x/#a/X}" "${x/%c/X}" "${x/#b/X}"`,
		`x=abcabc; printf '[%s]' "${x#*b}" "${x##*b}" "${x%b*}" "${x%%b*}" "${x#?}" "${x%??}"`,
		`x=abcabc; printf '[%s]' "${x:1:2}" "${x: -2}" "${x:2}" "${x:1:-1}" "${x:9}" "${x: -9}"`,
		`x=hello; printf '[%s]' "${x^^}" "${x^}" "${x,,}" "${x@U}" "${x@u}"`,
		`v='\x72\x6d'; printf '[%s]' "${v@E}"`,
		`x=y; y=z; printf '[%s]' "${!x}" "${!x:-d}"`,
		`x='a*c'; printf '[%s]' "${x/\*/S}" "${x//\*/S}"`,
		`x=aXbXc; printf '[%s]' ${x//X/ }`,
		`printf '[%s]' "$(echo mr | rev)" $(echo cm0= | base64 -d) "$(echo abc | tr a-c x-z)"`,
		`printf '[%s]' "$(echo hello | cut -c2-4)" "$(echo a:b:c | cut -d: -f2-)" "$(echo a:b:c | cut -d: -f1,3)"`,
		`printf '[%s]' "$(echo xrmx | sed 's/x//g')" "$(echo hello | sed 's/\(l\+\)/[\1]/')" "$(echo 'a b' | sed -E 's/(a) (b)/\2 \1/')"`,
		`printf '[%s]' "$(echo abc | sed 'y/abc/xyz/')" "$(echo aaa | sed 's/a/b/2')" "$(echo a.b | sed 's/./-/g')"`,
		`printf '[%s]' "$(printf 'a\nb\nc\n' | tail -n 2)" "$(printf 'a\nb\nc\n' | head -n 1)" "$(printf 'a\nb\n' | tac)"`,
		`printf '[%s]' "$(echo 726d | xxd -r -p)" "$(echo rm | xxd -p)" "$(echo rm | base64)" "$(echo cm0K | base64 -d)"`,
		`printf '[%s]' "$(echo aaa-bb | tr -s ab)" "$(echo HeLLo | tr '[:upper:]' '[:lower:]')" "$(echo a-b | tr -d -- -)"`,
		`printf '[%s]' "$(echo 'ez -es ~' | tr 'a-z' 'n-za-m')" "$(echo hello | head -c 3)" "$(echo hello | tail -c 3)"`,
		`printf '[%s]' $(printf 'a\n\nb\n')`,
		`x=$(echo 'a  b'); printf '[%s]' $x "$x"`,
		`a=(r m); IFS=; printf '[%s]' "${a[*]}"; set -- x y; printf '[%s]' "$*"`,
		`IFS=-; a=(r m); set -- x y; printf '[%s]' "${a[*]}" "$*"`,
		`printf '[%s]' $(printf '%c%c' r m) "$(printf '%o' 114)" "$(echo -n r; echo m)"`,
		`printf '[%s]' rm${IFS}-rf "$(echo rm | xargs -I{} echo {}x)"`,
	}
	for _, src := range srcs {
		out, err := exec.Command(bash, "--norc", "--noprofile", "-c", src).Output()
		if err != nil {
			t.Errorf("%s: bash: %v", src, err)
			continue
		}
		r, err := Parse(src, Options{Home: "/home/u", Cwd: "/p"})
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		var got string
		found := false
		for _, e := range r.Execs {
			if e.Name != "printf" || e.Origin.Kind != OriginTop {
				continue
			}
			found = true
			for _, a := range e.Argv[2:] {
				if !a.Static {
					got += "[~" + a.Value + "~]"
					continue
				}
				got += "[" + a.Value + "]"
			}
		}
		if !found {
			t.Errorf("%s: no printf", src)
			continue
		}
		if got != string(out) {
			t.Errorf("%s:\n bash  %q\n parse %q", src, out, got)
		}
	}
}

// staticAdversarial are inputs of up to 1 MiB built to make the static
// evaluator work hard: pattern matching, long pure pipelines, splitting of
// a long value, a large decoded script, operators on a 60 KB value.
func staticAdversarial() map[string]string {
	rep := func(s string, n int) string { return strings.Repeat(s, n) }
	return map[string]string{
		"glob-replace":  "x=" + rep("a", 200) + "; echo " + rep("${x//a*a/b} ", 2000),
		"pure-pipeline": "echo " + rep("$(echo cm0gLXJmIH4= | base64 -d | rev | rev | tr a-z a-z | sed 's/x/y/g' | cut -c1-20 | head -c 50); ", 1500),
		"ifs-split":     "IFS=_; x=" + rep("a_", 200000) + "; echo $x $x $x",
		"decoded-eval":  `eval "$(echo ` + base64.StdEncoding.EncodeToString([]byte(rep("echo hi; ", 5000))) + ` | base64 -d)"`,
		"ops-60k":       "x=" + rep("ab", 30000) + "; " + rep("echo ${x#*b}${x%%a*}${x/#ab/c}${x:100:5}; ", 200),
	}
}

// TestStaticAdversarial: each is decided or refused by a limit, never an
// unexpected error.
func TestStaticAdversarial(t *testing.T) {
	for name, src := range staticAdversarial() {
		start := time.Now()
		_, err := Parse(src, Options{Home: "/h", Cwd: "/w"})
		var le *LimitError
		if err != nil && !errors.As(err, &le) {
			t.Errorf("%s: %v", name, err)
		}
		t.Logf("%s (%d bytes): %v, err %v", name, len(src), time.Since(start), err)
	}
}

func BenchmarkStaticAdversarial(b *testing.B) {
	for name, src := range staticAdversarial() {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_, _ = Parse(src, Options{Home: "/h", Cwd: "/w"})
			}
		})
	}
}
