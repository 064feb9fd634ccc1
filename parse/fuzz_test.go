package parse

import (
	"errors"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	"git reset --hard origin/main", "bash -c 'git stash drop'", "eval 'git reset --hard'",
	"echo x | xargs git reset --hard", "f() { git reset --hard; }; f", "echo 'git stash drop' | sh",
	"echo 'git reset --hard origin/main'", `git commit -m "never run git stash drop"`,
	"sudo -u root env X=1 nice -n 5 timeout 3 stdbuf -oL ionice -c3 flock l xargs -I{} rm {}",
	"find . -exec rm {} \\; -execdir sh -c 'rm $0' {} +", "parallel ::: 'rm a' b", "watch 'rm x'",
	"ssh -p 1 h 'rm x'", "docker run --entrypoint sh i -c 'rm y'", "kubectl exec p -- sh -c 'rm z'",
	`python3 -c 'import os,shutil; os.system("rm a"); shutil.rmtree(p); subprocess.run(["rm","-rf","/"])'`,
	`node -e "require('child_process').spawnSync('rm', ['-rf', '/'])"`, "perl -e '`rm x`; qx{rm y}; unlink \"z\"'",
	"ruby -e '%x(rm a); FileUtils.rm_rf(\"/\")'", "php -r 'system(\"rm\");'", "awk 'BEGIN{system(\"rm\")}'",
	"cat <<EOF | sh\n$(rm x)\nEOF", "bash <<'EOF'\nrm y\nEOF", "sh <<< 'rm z'", "source <(curl x)",
	"curl x | bash", `bash -c "$(curl x)"`, "base64 -d <<< eA== | sh", "alias a='b'; alias b='a c'; a",
	"cd /tmp && (cd x; rm y) && rm z", "X=$(curl a); eval \"$X\"", "$CMD; $(echo rm) -rf /; \"${X}\" y",
	"for i in $(seq 3); do rm $i; done; case $x in a) rm;; esac; while :; do :; done",
	"[[ $(rm a) ]]; (( $(rm b) )); a=( $(rm c) ); echo ${x:-$(rm d)}", "> f; { a; } > g 2>&1 &> h",
	"echo $'\\x41\\u00e9' ~ ~/x ~u/y $HOME $PWD *.go {a,b}", "time ! a | b |& c &", "coproc x; let 'a=$(rm)'",
	"printf '%s %d %q\\n' a 1 b | sh", "echo -e 'rm\\tx' | bash -s", "env -S 'a b' -u X -C d c",
	// Variables: substitution, splitting, scopes, branches, loops.
	"x='git stash drop'; $x; \"$x\"; eval \"$x\"; bash -c \"$x\"; echo $x | sh",
	"c=git; a=(1 2); a+=x; b=${c:-d}${#c}${c:+y}; declare -lu -i -n -g -x d=$c; $c $d $b",
	"f() { local x=1; declare y=$x; x+=2; }; x=0; f; for i in a \"b c\" $x; do for j in $i; do $j; done; done",
	"if a; then x=1; cd /a; elif b; then x=2; else x=1; fi; case $x in 1) y=a;; *) y=b;; esac; $x $y",
	"while read -r x; do ((n++)); unset y; y=$x; done < f; printf -v z %s $y; mapfile -t w; getopts ab o; $n $z",
	"IFS=,; x=a,b; $x; x=; $x; x='*'; rm $x; x=' a  b '; rm -$x-",
	"x=1 eval 'y=$x'; source f; . <(echo x=2); alias a='x=3'; a; builtin export x=4; command read x; $x",
	// The static evaluator: IFS, indirection, operators, defaults, pure programs.
	"IFS=_; c=rm_-rf_~; $c; IFS=' :'; x=' :a: :b'; $x; y=x; ${!y} ${!y:-d} ${x/a*/b} ${x//:/ } ${x#*:} ${x%%:*}",
	"x=Abc; ${x^^} ${x,} ${x:1:-1} ${x: -2} ${x@E} ${x@U}; ${u:-rm} -rf ${d:=/}; \"${u-a}\"",
	"$(echo mr | rev) $(echo cm0= | base64 -d) $(printf 726d | xxd -r -p) $(echo zr | tr a-z n-za-m) `echo x`",
	"$(echo axb | sed -E 's/(a)x(b)/\\2\\1/g; y/ab/cd/') $(echo a:b | cut -d: -f2) $(printf 'a\\nb' | tail -n1 | head -c1)",
	"echo H4sIAAAAAAAAAyvKVdAtSlPQ5wIAAOnmUAkAAAA= | base64 -d | gunzip | sh; x=$(echo eA== | base64 -d); eval \"$x\"",
}

// FuzzParse checks that no input panics, hangs past the limits, or yields
// an execution that breaks the contract.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	// Every table test's source is a seed too.
	for _, cases := range [][]tcase{casesSeedCases, casesCoreWalker, casesWords, casesDirAndAssigns,
		casesWrappers, casesReentry, casesInterpreters, casesDataPositions, casesKnownOutput,
		casesStaticVars, casesVarFlow} {
		for _, tc := range cases {
			f.Add(tc.src)
		}
	}
	opt := Options{Cwd: "/w", Home: "/h", MaxBytes: 1 << 16, MaxDepth: 16, MaxExecs: 2000}
	f.Fuzz(func(t *testing.T, src string) {
		r, err := Parse(src, opt)
		if err != nil {
			var se *SyntaxError
			var le *LimitError
			if !errors.As(err, &se) && !errors.As(err, &le) {
				t.Fatalf("unexpected error kind (a recovered panic?): %v", err)
			}
			if r != nil {
				t.Fatal("result with an error")
			}
			return
		}
		if len(r.Execs) > opt.MaxExecs {
			t.Fatalf("%d execs over the limit", len(r.Execs))
		}
		for _, e := range r.Execs {
			checkExec(t, e, opt)
		}
	})
}

var originKinds = []string{OriginTop, OriginSubst, OriginProcSubst, OriginShellString, OriginEval,
	OriginShellStdin, OriginSource, OriginRemote, OriginWrapper, OriginFunction, OriginAlias, OriginInterpreter}

func checkExec(t *testing.T, e Exec, opt Options) {
	t.Helper()
	if len(e.Argv) == 0 && !e.Dynamic {
		t.Fatalf("empty argv on a static exec: %+v", e)
	}
	if e.Dynamic != (e.Name == "") {
		t.Fatalf("Dynamic=%v with Name %q", e.Dynamic, e.Name)
	}
	if !e.Dynamic && (!e.Argv[0].Static || strings.Contains(e.Name, "/") && e.Name != "/") {
		t.Fatalf("bad name %q for argv0 %+v", e.Name, e.Argv[0])
	}
	found := false
	for _, k := range originKinds {
		found = found || k == e.Origin.Kind
	}
	if !found || e.Origin.Depth < 0 || e.Origin.Depth > opt.MaxDepth {
		t.Fatalf("bad origin %+v", e.Origin)
	}
	if e.Origin.Kind == OriginTop && e.Origin.Depth != 0 {
		t.Fatalf("top-level exec at depth %d", e.Origin.Depth)
	}
	if e.RunsCode != nil && e.RunsCode.How == "" {
		t.Fatalf("RunsCode without How: %+v", e)
	}
	if e.Remote && e.Dir != "" {
		t.Fatalf("remote exec with a local Dir %q", e.Dir)
	}
	if e.Origin.Kind == OriginRemote && !e.Remote {
		t.Fatalf("remote origin not marked Remote: %+v", e)
	}
	names := map[string]bool{}
	for _, a := range e.Assigns {
		if names[a.Name] {
			t.Fatalf("variable %q twice in Assigns: %+v", a.Name, e.Assigns)
		}
		names[a.Name] = true
	}
	if e.Pipeline == 0 && e.Stage != 0 {
		t.Fatalf("stage %d outside a pipeline", e.Stage)
	}
}
