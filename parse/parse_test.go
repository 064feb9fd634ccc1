package parse

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// want describes one execution that must be found. Argv (values joined by
// single spaces) and Name are always compared; the other fields only when
// set ("-" means "must be empty").
type want struct {
	argv   string
	name   string
	kind   string // Origin.Kind; Depth is compared with it
	depth  int
	via    string
	wrap   string // Wrappers joined by ","
	dir    string
	runs   string // RunsCode.How
	srcs   string // RunsCode.Sources joined by ","
	redir  string // "op target" of each redirect joined by ";"
	pipe   string // "pipeline/stage"
	static string // one letter per argv word: S static, D dynamic
	extra  bool
	synth  bool
	help   bool
}

type tcase struct {
	src  string
	want []want
	// not lists argv prefixes that no execution may start with (data
	// that must never be judged as a command).
	not []string
	// n is the exact number of executions, when > 0.
	n int
}

var opts = Options{Cwd: "/work/repo", Home: "/home/u"}

func argvString(e Exec) string {
	var parts []string
	for _, w := range e.Argv {
		parts = append(parts, w.Value)
	}
	return strings.Join(parts, " ")
}

func staticString(e Exec) string {
	var b strings.Builder
	for _, w := range e.Argv {
		if w.Static {
			b.WriteByte('S')
		} else {
			b.WriteByte('D')
		}
	}
	return b.String()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// mismatch returns "" when e matches w, else the first difference.
func mismatch(w want, e Exec) string {
	check := func(field, wantv, got string) string {
		if wantv != "" && wantv != got {
			return fmt.Sprintf("%s: want %q, got %q", field, wantv, got)
		}
		return ""
	}
	var redirs []string
	for _, r := range e.Redirects {
		redirs = append(redirs, r.Op+" "+r.Target.Value)
	}
	runs, srcs := "", ""
	if e.RunsCode != nil {
		runs, srcs = e.RunsCode.How, strings.Join(e.RunsCode.Sources, ",")
	}
	if argvString(e) != w.argv {
		return "argv"
	}
	if e.Name != w.name {
		return fmt.Sprintf("name: want %q, got %q", w.name, e.Name)
	}
	for _, d := range []string{
		check("kind", w.kind, e.Origin.Kind),
		check("via", w.via, e.Origin.Via),
		check("wrappers", w.wrap, dash(strings.Join(e.Wrappers, ","))),
		check("dir", w.dir, dash(e.Dir)),
		check("runs", w.runs, dash(runs)),
		check("srcs", w.srcs, dash(srcs)),
		check("redirects", w.redir, dash(strings.Join(redirs, ";"))),
		check("pipe", w.pipe, fmt.Sprintf("%d/%d", e.Pipeline, e.Stage)),
		check("static", w.static, staticString(e)),
	} {
		if d != "" {
			return d
		}
	}
	if w.kind != "" && w.depth != e.Origin.Depth {
		return fmt.Sprintf("depth: want %d, got %d", w.depth, e.Origin.Depth)
	}
	if w.extra != e.ExtraArgs || w.synth != e.Synthetic || w.help != e.HelpOnly {
		return fmt.Sprintf("flags: want extra=%v synth=%v help=%v, got %v %v %v", w.extra, w.synth, w.help, e.ExtraArgs, e.Synthetic, e.HelpOnly)
	}
	if (w.name == "") != e.Dynamic {
		return "dynamic"
	}
	return ""
}

func dump(r *Result) string {
	var b strings.Builder
	for _, e := range r.Execs {
		j, _ := json.Marshal(e)
		b.WriteString("\n  ")
		b.Write(j)
	}
	return b.String()
}

func runCases(t *testing.T, cases []tcase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			r, err := Parse(tc.src, opts)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			for _, w := range tc.want {
				found, closest := false, ""
				for _, e := range r.Execs {
					d := mismatch(w, e)
					if d == "" {
						found = true
						break
					}
					if d != "argv" {
						closest = d
					}
				}
				if !found {
					t.Errorf("no exec %q (%s); got:%s", w.argv, closest, dump(r))
				}
			}
			for _, bad := range tc.not {
				for _, e := range r.Execs {
					if strings.HasPrefix(argvString(e), bad) {
						t.Errorf("data judged as a command: %q; got:%s", bad, dump(r))
					}
				}
			}
			if tc.n > 0 && len(r.Execs) != tc.n {
				t.Errorf("want %d execs, got %d:%s", tc.n, len(r.Execs), dump(r))
			}
		})
	}
}

// The seed cases of the issue: found through every carrier, not in data.
func TestSeedCases(t *testing.T) {
	runCases(t, casesSeedCases)
}

func TestCoreWalker(t *testing.T) {
	runCases(t, casesCoreWalker)
}

func TestWords(t *testing.T) {
	runCases(t, casesWords)
}

func TestDirAndAssigns(t *testing.T) {
	runCases(t, casesDirAndAssigns)
	r, err := Parse("GIT_DIR=/x; export B=2; A=1 git reset --hard", opts)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range r.Execs[0].Assigns {
		got[a.Name] = a.Value.Value
	}
	if got["GIT_DIR"] != "/x" || got["B"] != "2" || got["A"] != "1" || len(got) != 3 {
		t.Errorf("assigns: %v", got)
	}
	r, _ = Parse("A=1 true; git status", opts)
	if len(r.Execs[1].Assigns) != 0 {
		t.Errorf("prefix assignment leaked: %+v", r.Execs[1].Assigns)
	}
}

func TestErrors(t *testing.T) {
	for _, src := range []string{`echo "unterminated`, `echo 'x`, `if then fi`, `a &&`, `$(`, "bash -c 'echo \"x'"} {
		_, err := Parse(src, opts)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: want *SyntaxError, got %v", src, err)
		}
	}
	limits := []struct {
		src   string
		opt   Options
		limit string
	}{
		{strings.Repeat("a", 101), Options{MaxBytes: 100}, "bytes"},
		{strings.Repeat("(", 300) + "a" + strings.Repeat(")", 300), Options{}, "depth"},
		{strings.Repeat("$(", 20) + "a" + strings.Repeat(")", 20), Options{MaxDepth: 10}, "depth"},
		{strings.Repeat("a;", 11), Options{MaxExecs: 10}, "execs"},
		{"f() { f; }; f", Options{}, ""},
		{"f0() { :; }; " + chain(20) + "f20", Options{}, "execs"},
		{"alias a='b'; alias b='a'; a", Options{}, ""},
		// Here-document bodies are text: their separators and keywords do
		// not count towards the lexical pre-scan (balanced brackets do).
		{"cat <<'EOF' > x\n" + strings.Repeat("a; b | c & $(d) (x) don't\n", 3000) + "EOF\nls", Options{MaxExecs: 100}, ""},
		{"cat <<-EOF\n" + strings.Repeat("\tif a; then (x)\n", 300) + "\tEOF\n", Options{}, ""},
		{strings.Repeat("a\n", 50000), Options{}, "execs"},
		// Operators inside $( ) are not arithmetic nesting.
		{"echo $(" + strings.Repeat("a -b --c=d | ", 200) + "e)", Options{}, ""},
		{"echo $(( " + strings.Repeat("1+", 300) + "1 ))", Options{}, "depth"},
		// A << that is a shift, not a here-document, must not hide nesting.
		{"(( 1 << X ))\n" + strings.Repeat("$(", 300) + "a" + strings.Repeat(")", 300), Options{}, "depth"},
		{"cat <<EOF\n" + strings.Repeat("$(", 300) + "a" + strings.Repeat(")", 300) + "\nEOF", Options{}, "depth"},
		{strings.Repeat("if a; then ", 300) + "b" + strings.Repeat("; fi", 300), Options{}, "depth"},
	}
	for _, l := range limits {
		_, err := Parse(l.src, l.opt)
		var le *LimitError
		switch {
		case l.limit == "" && err != nil:
			t.Errorf("%.40q: %v", l.src, err)
		case l.limit != "" && (!errors.As(err, &le) || le.Limit != l.limit):
			t.Errorf("%.40q: want %s limit, got %v", l.src, l.limit, err)
		}
	}
	// Re-parse depth: bash -c nested past MaxDepth.
	src := "x"
	for range 12 {
		src = "bash -c " + shq(src)
	}
	_, err := Parse(src, Options{MaxDepth: 10})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "depth" {
		t.Errorf("nested bash -c: want depth limit, got %v", err)
	}
}

// chain defines f1..fn each calling the previous one twice: 2^n calls.
func chain(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "f%d() { f%d; f%d; }; ", i, i-1, i-1)
	}
	return b.String()
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

const reset, drop = "git reset --hard origin/main", "git stash drop"

var casesSeedCases = []tcase{
	{src: "git reset --hard origin/main", n: 1, want: []want{{argv: reset, name: "git", kind: "top", wrap: "-", dir: "/work/repo", pipe: "0/0", static: "SSSS"}}},
	{src: "bash -c 'git reset --hard origin/main'", want: []want{{argv: reset, name: "git", kind: "shell-c", depth: 1, via: "bash -c"}}},
	{src: `sh -c "git stash drop"`, want: []want{{argv: drop, name: "git", kind: "shell-c", depth: 1, via: "sh -c"}}},
	{src: "eval 'git reset --hard origin/main'", want: []want{{argv: reset, name: "git", kind: "eval", depth: 1, via: "eval"}}},
	{src: "eval git stash drop", want: []want{{argv: drop, name: "git", kind: "eval", depth: 1}}},
	{src: "sudo git reset --hard origin/main", n: 1, want: []want{{argv: reset, name: "git", kind: "top", wrap: "sudo"}}},
	{src: "echo x | xargs git reset --hard", want: []want{{argv: "git reset --hard x", name: "git", wrap: "xargs", kind: "wrapper", via: "xargs", pipe: "1/1"}}},
	{src: "cat f | xargs git reset --hard", want: []want{{argv: "git reset --hard", name: "git", wrap: "xargs", kind: "wrapper", via: "xargs", extra: true, pipe: "1/1"}}},
	{src: "f() { git reset --hard origin/main; }; f", n: 1, want: []want{{argv: reset, name: "git", kind: "function", via: "function f"}}},
	{src: "echo 'git stash drop' | sh", want: []want{{argv: drop, name: "git", kind: "shell-stdin", depth: 1, via: "sh stdin"}}},
	{src: "echo 'git reset --hard origin/main'", n: 1, not: []string{"git"}, want: []want{{argv: "echo " + reset, name: "echo"}}},
	{src: `git commit -m "never run git stash drop"`, n: 1, not: []string{"git stash"}},
}

var casesCoreWalker = []tcase{
	// Lists, pipelines, operators.
	{src: "a; b && c || d & e", n: 5, want: []want{{argv: "a", name: "a"}, {argv: "e", name: "e"}}},
	{src: "a | b |& c; d | e", want: []want{
		{argv: "a", name: "a", pipe: "1/0"}, {argv: "b", name: "b", pipe: "1/1"}, {argv: "c", name: "c", pipe: "1/2"},
		{argv: "d", name: "d", pipe: "2/0"}, {argv: "e", name: "e", pipe: "2/1"}}},
	{src: "! a", want: []want{{argv: "a", name: "a"}}},
	// Compound commands.
	{src: "(a; b)", n: 2},
	{src: "{ a; b; }", n: 2},
	{src: "if a; then b; elif c; then d; else e; fi", n: 5},
	{src: "while a; do b; done; until c; do d; done", n: 4},
	{src: "for f in $(ls); do rm \"$f\"; done", want: []want{
		{argv: "ls", name: "ls", kind: "subst", via: "$(...)"},
		{argv: "rm $f", name: "rm", static: "SD"}}},
	{src: "for ((i=$(n); i<3; i++)); do a; done", want: []want{{argv: "n", name: "n", kind: "subst"}, {argv: "a", name: "a"}}},
	{src: "case $x in a) rm a;; b|c) rm b;; esac", n: 2},
	{src: "[[ -f $(touch x) ]]", want: []want{{argv: "touch x", name: "touch", kind: "subst"}}},
	{src: "(( $(rm -rf /) + 1 ))", want: []want{{argv: "rm -rf /", name: "rm", kind: "subst"}}},
	{src: "time rm x", want: []want{{argv: "rm x", name: "rm", wrap: "time"}}},
	{src: "coproc rm x", want: []want{{argv: "rm x", name: "rm"}}},
	// Substitutions anywhere.
	{src: `echo "a $(rm -rf /x) b"`, want: []want{{argv: "rm -rf /x", name: "rm", kind: "subst"}}},
	{src: "echo `rm y`", want: []want{{argv: "rm y", name: "rm", kind: "subst", via: "`...`"}}},
	{src: "cat > $(rm z)", want: []want{{argv: "rm z", name: "rm", kind: "subst"}}},
	{src: "X=$(rm w) a", want: []want{{argv: "rm w", name: "rm", kind: "subst"}}},
	{src: "export X=$(rm v)", want: []want{{argv: "rm v", name: "rm", kind: "subst"}}},
	{src: "cat <<EOF\n$(rm u)\nEOF", want: []want{{argv: "rm u", name: "rm", kind: "subst"}}},
	{src: "cat <<'EOF'\n$(rm u)\nEOF", n: 1, not: []string{"rm"}},
	{src: "diff <(rm a) >(rm b)", want: []want{{argv: "rm a", name: "rm", kind: "procsubst", via: "<(...)"}, {argv: "rm b", name: "rm", kind: "procsubst", via: ">(...)"}}},
	{src: "echo ${X:-$(rm t)}", want: []want{{argv: "rm t", name: "rm", kind: "subst"}}},
	{src: "a=( $(rm s) )", want: []want{{argv: "rm s", name: "rm", kind: "subst"}}},
	{src: "echo $(echo $(rm nested))", want: []want{{argv: "rm nested", name: "rm", kind: "subst"}}},
	// Echo of a substitution still runs it.
	{src: "echo $(rm -rf /)", want: []want{{argv: "rm -rf /", name: "rm"}}},
}

var casesWords = []tcase{
	{src: `rm 'a b' "c d" e\ f`, want: []want{{argv: "rm a b c d e f", name: "rm", static: "SSSS"}}},
	{src: `rm $'a\tb' $'\x41\u00e9'`, want: []want{{argv: "rm a\tb Aé", name: "rm", static: "SSS"}}},
	{src: `rm ~/x ~ "$HOME/y" ${HOME}/z ~other/q`, want: []want{{argv: "rm /home/u/x /home/u /home/u/y /home/u/z /home/other/q", name: "rm", static: "SSSSSD"}}},
	{src: `rm -rf ~root ~ops-1/x ~- ~9x`, want: []want{{argv: "rm -rf /root /home/ops-1/x ~- ~9x", name: "rm", static: "SSDDDD"}}}, // ~user: a home root, dynamic
	{src: `rm $PWD/a`, want: []want{{argv: "rm /work/repo/a", name: "rm", static: "SS"}}},
	{src: `rm *.go "*.go" a?c [ab] {x,y}`, want: []want{{argv: "rm *.go *.go a?c [ab] x y", name: "rm", static: "SDSDDSS"}}},
	// brace expansion comes first; an empty alternative is no word
	{src: `rm -rf {~,} x{1..3} {a..c}`, want: []want{{argv: "rm -rf /home/u x1 x2 x3 a b c", name: "rm", static: "SSSSSSSSS"}}},
	{src: `git {reset,} --{hard,}`, want: []want{{argv: "git reset --hard --", name: "git", static: "SSSS"}}},
	{src: `rm x{1..100000}`, want: []want{{argv: "rm x{1..100000}", name: "rm", static: "SD"}}},
	{src: `rm $X "${Y}" $((1+2))`, want: []want{{argv: "rm $X ${Y} $((1 + 2))", name: "rm", static: "SDDD"}}},
	{src: `\rm -rf x`, want: []want{{argv: "rm -rf x", name: "rm"}}},
	{src: `/bin/rm x`, want: []want{{argv: "/bin/rm x", name: "rm"}}},
	{src: `r"m" x`, want: []want{{argv: "rm x", name: "rm"}}},
	{src: `$CMD -rf /`, want: []want{{argv: "$CMD -rf /", name: "", static: "DSS"}}},
	{src: `"${X}" a`, want: []want{{argv: "${X} a", name: ""}}},
	{src: `$(echo rm) -rf /`, want: []want{{argv: "rm -rf /", name: "rm"}, {argv: "echo rm", name: "echo", kind: "subst"}}},
	{src: `$(cat cmd) -rf /`, want: []want{{argv: "$(cat cmd) -rf /", name: ""}, {argv: "cat cmd", name: "cat", kind: "subst"}}},
}

var casesDirAndAssigns = []tcase{
	{src: "cd sub && rm -rf build > log", want: []want{{argv: "rm -rf build", name: "rm", dir: "/work/repo/sub", redir: "> /work/repo/sub/log"}}},
	{src: "cd /tmp; rm x; cd ..; rm y", want: []want{{argv: "rm x", name: "rm", dir: "/tmp"}, {argv: "rm y", name: "rm", dir: "/"}}},
	{src: "(cd /tmp; rm x); rm y", want: []want{{argv: "rm x", name: "rm", dir: "/tmp"}, {argv: "rm y", name: "rm", dir: "/work/repo"}}},
	{src: "cd $D; rm x", want: []want{{argv: "rm x", name: "rm", dir: "-"}}},
	{src: "cd; rm x", want: []want{{argv: "rm x", name: "rm", dir: "/home/u"}}},
	{src: "cd -; rm x", want: []want{{argv: "rm x", name: "rm", dir: "-"}}},
	{src: "pushd /srv && rm x; popd; rm y", want: []want{{argv: "rm x", name: "rm", dir: "/srv"}, {argv: "rm y", name: "rm", dir: "-"}}},
	{src: "cd /a | rm x", want: []want{{argv: "rm x", name: "rm", dir: "/work/repo"}}},
	{src: "echo hi >> out 2>&1 < in 2> /dev/null", want: []want{{argv: "echo hi", name: "echo", redir: ">> /work/repo/out;< /work/repo/in;> /dev/null"}}},
	{src: "> /etc/passwd", want: []want{{argv: ":", name: ":", redir: "> /etc/passwd"}}},
	{src: "{ a; } > f", want: []want{{argv: ":", name: ":", redir: "> /work/repo/f"}}},
	{src: "&> all cmd", want: []want{{argv: "cmd", name: "cmd", redir: "&> /work/repo/all"}}},
}

// TestSyntaxErrorDepth: a syntax error at the top level says where it is,
// not "re-parsed at depth N" (parseSource once overwrote its depth argument
// with the lexical nesting); one inside bash -c says its depth.
func TestSyntaxErrorDepth(t *testing.T) {
	_, err := Parse("((( echo )", Options{})
	if err == nil || strings.Contains(err.Error(), "re-parsed") {
		t.Errorf("top-level error: %v", err)
	}
	_, err = Parse(`bash -c "echo 'x"`, Options{})
	if err == nil || !strings.Contains(err.Error(), "re-parsed at depth 1") {
		t.Errorf("error in bash -c: %v", err)
	}
}
