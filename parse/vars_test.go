package parse

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Variables assigned statically earlier in the same source are
// substituted; what may differ at run time stays dynamic.
func TestStaticVars(t *testing.T) {
	runCases(t, casesStaticVars)
}

func TestVarBranchesAndLoops(t *testing.T) {
	runCases(t, casesVarFlow)
}

var casesStaticVars = []tcase{
	// Plain, quoted and braced uses; the command name too.
	{src: "x=reset; git $x --hard", want: []want{{argv: "git reset --hard", name: "git", static: "SSS"}}},
	{src: `x=reset; git "$x" --hard`, want: []want{{argv: "git reset --hard", name: "git", static: "SSS"}}},
	{src: `x=reset; git ${x} "${x}" --hard`, want: []want{{argv: "git reset reset --hard", name: "git", static: "SSSS"}}},
	{src: "c=git; $c reset --hard", want: []want{{argv: "git reset --hard", name: "git", static: "SSS"}}},
	{src: `c=/usr/bin/git; "$c" reset`, want: []want{{argv: "/usr/bin/git reset", name: "git"}}},
	{src: "a=git; b=$a; $b stash drop", want: []want{{argv: drop, name: "git", static: "SSS"}}},
	{src: "export x=reset; git $x --hard", want: []want{{argv: "git reset --hard", name: "git"}}},
	{src: "declare x=reset; readonly y=--hard; typeset z=git; $z $x $y", want: []want{{argv: "git reset --hard", name: "git"}}},
	{src: "x=re; x+=set; git $x --hard", want: []want{{argv: "git reset --hard", name: "git"}}},
	{src: "declare -l c=GIT; $c status", want: []want{{argv: "git status", name: "git"}}},
	{src: "declare -i x=1+1; rm $x", want: []want{{argv: "rm $x", name: "rm", static: "SD"}}},
	{src: "x=$(cat f); git $x --hard", want: []want{{argv: "git $x --hard", name: "git", static: "SDS"}}},
	{src: "x=$y; git $x", want: []want{{argv: "git $x", name: "git", static: "SD"}}},
	{src: "HOME=/srv; rm -rf $HOME", want: []want{{argv: "rm -rf /srv", name: "rm"}}},
	{src: "x=abc; echo ${#x}", want: []want{{argv: "echo 3", name: "echo", static: "SS"}}},
	// Word splitting: unquoted splits on blanks, quoted stays one word.
	{src: "x='git stash drop'; $x", n: 1, want: []want{{argv: drop, name: "git", static: "SSS"}}},
	{src: `x='git stash drop'; "$x"`, n: 1, not: []string{"git stash drop x"}, want: []want{{argv: drop, name: "git stash drop", static: "S"}}},
	{src: "x='a b'; rm $x; rm \"$x\"", want: []want{{argv: "rm a b", name: "rm", static: "SSS"}, {argv: "rm a b", name: "rm", static: "SS"}}},
	{src: "x='  a  b '; rm -$x", want: []want{{argv: "rm - a b", name: "rm", static: "SSSS"}}},
	{src: "x=; git $x reset", want: []want{{argv: "git reset", name: "git", static: "SS"}}},
	{src: `x=; git "$x" reset`, want: []want{{argv: "git  reset", name: "git", static: "SSS"}}},
	{src: "x='*'; rm $x; rm \"$x\"", want: []want{{argv: "rm *", name: "rm", static: "SD"}, {argv: "rm *", name: "rm", static: "SS"}}},
	{src: "IFS=:; x=a:b; rm $x", want: []want{{argv: "rm a b", name: "rm", static: "SSS"}}},
	{src: "IFS=$(cat f); x=a:b; rm $x", want: []want{{argv: "rm $x", name: "rm", static: "SD"}}},
	// ${x:-default}.
	{src: "x=/tmp; rm -rf ${x:-/}", want: []want{{argv: "rm -rf /tmp", name: "rm", static: "SSS"}}},
	{src: "x=; rm -rf ${x:-/}", want: []want{{argv: "rm -rf /", name: "rm", static: "SSS"}}},
	{src: "rm -rf ${x:-/}", want: []want{{argv: "rm -rf ${x:-/}", name: "rm", static: "SSD"}}},
	{src: "x=; echo ${x:=rm}; $x -rf /", want: []want{{argv: "$x -rf /", name: ""}}},
	// Data stays data; code in a variable is code where it runs.
	{src: `x=1; echo "git reset --hard $x"`, n: 1, not: []string{"git"}},
	{src: "x='git stash drop'; echo $x", n: 1, not: []string{"git"}, want: []want{{argv: "echo git stash drop", name: "echo"}}},
	{src: `x='git stash drop'; git commit -m "$x"`, n: 1, not: []string{"git stash"}},
	{src: `x='git stash drop'; eval "$x"`, want: []want{{argv: drop, name: "git", kind: "eval", depth: 1, static: "SSS"}}},
	{src: `x='git stash drop'; eval $x`, want: []want{{argv: drop, name: "git", kind: "eval", depth: 1}}},
	{src: `x='git stash drop'; bash -c "$x"`, want: []want{{argv: drop, name: "git", kind: "shell-c", depth: 1}}},
	{src: `x='git stash drop'; echo "$x" | sh`, want: []want{{argv: drop, name: "git", kind: "shell-stdin", depth: 1}}},
	{src: "x=reset; cat <<EOF | sh\ngit $x --hard\nEOF", want: []want{{argv: "git reset --hard", name: "git", kind: "shell-stdin", depth: 1}}},
	{src: `x='shutil.rmtree("/srv")'; python3 -c "import shutil; $x"`, want: []want{{argv: "rm -rf /srv", name: "rm", synth: true}}},
	// A child shell sees the value only if it was exported; the value is
	// kept as what it may be.
	{src: `x=reset; bash -c 'git $x --hard'`, want: []want{{argv: "git reset --hard", name: "git", kind: "shell-c", depth: 1}}},
	// Another machine does not have the variable.
	{src: `x=reset; ssh h 'git $x --hard'`, want: []want{{argv: "git $x --hard", name: "git", kind: "remote", depth: 1, static: "SDS"}}},
	// Scopes: subshells, substitutions and pipeline stages do not leak.
	{src: "(x=reset); git $x --hard", want: []want{{argv: "git $x --hard", name: "git", static: "SDS"}}},
	{src: "echo $(x=reset); git $x --hard", want: []want{{argv: "git $x --hard", name: "git"}}},
	{src: "x=reset | true; git $x --hard", want: []want{{argv: "git $x --hard", name: "git"}}},
	{src: "x=reset & git $x --hard", want: []want{{argv: "git $x --hard", name: "git"}}},
	{src: "{ x=reset; }; git $x --hard", want: []want{{argv: "git reset --hard", name: "git"}}},
	{src: "x=reset git $x", want: []want{{argv: "git $x", name: "git", static: "SD"}}},
	// Functions share globals; locals are restored on return.
	{src: "f() { x=reset; }; f; git $x --hard", want: []want{{argv: "git reset --hard", name: "git"}}},
	{src: "f() { local x=ls; }; x=rm; f; $x -rf /", want: []want{{argv: "rm -rf /", name: "rm"}}},
	{src: "x=rm; f() { local x=ls; $x a; }; f; $x -rf /", want: []want{{argv: "ls a", name: "ls"}, {argv: "rm -rf /", name: "rm"}}},
	{src: "x=rm; f() { declare x=ls; }; f; $x -rf /", want: []want{{argv: "rm -rf /", name: "rm"}}},
	{src: "x=rm; f() { declare -g x=ls; }; f; $x -rf /", want: []want{{argv: "ls -rf /", name: "ls"}}},
	{src: "f() { git $x --hard; }; x=reset; f", want: []want{{argv: "git reset --hard", name: "git", kind: "function"}}},
	{src: "x=rm; f() { local x; $x -rf /; }; f", want: []want{{argv: "$x -rf /", name: ""}}},
	// What changes a variable in ways not followed makes it unknown.
	{src: "x=reset; unset x; git $x --hard", want: []want{{argv: "git $x --hard", name: "git"}}},
	{src: "x=reset; read x; git $x --hard", want: []want{{argv: "git $x --hard", name: "git"}}},
	{src: "x=reset; read -r a x < f; git $x --hard", want: []want{{argv: "git $x --hard", name: "git"}}},
	{src: "read -r x <<< reset; git $x --hard", want: []want{{argv: "git reset --hard", name: "git", static: "SSS"}}},
	{src: "read a b <<< ' git  reset --hard '; $a $b", want: []want{{argv: "git reset --hard", name: "git"}}},
	{src: "read a b c <<< 'rm'; $a $b $c x", want: []want{{argv: "rm x", name: "rm"}}},
	{src: "read -r x <<EOF\nreset\nEOF\ngit $x", want: []want{{argv: "git reset", name: "git"}}},
	{src: "read x <<< 'a\\b'; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "read -a x <<< reset; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "echo reset | read x; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "x=reset; printf -v x %s y; git $x", want: []want{{argv: "git y", name: "git"}}}, // printf -v of static text is known
	{src: "x=reset; printf -v x %s \"$(cat f)\"; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "x=reset; mapfile x < f; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "x=1; ((x++)); rm $x", want: []want{{argv: "rm $x", name: "rm", static: "SD"}}},
	{src: "x=1; let x=x+1; rm $x", want: []want{{argv: "rm $x", name: "rm"}}},
	{src: "x=1; echo $((x+=2)); rm $x", want: []want{{argv: "rm $x", name: "rm"}}},
	{src: "x=reset; eval 'x=status'; git $x", want: []want{{argv: "git status", name: "git"}}},
	{src: "x=reset; eval \"$y\"; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "x=reset; source ./env.sh; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "x=reset; . <(echo x=status); git $x", want: []want{{argv: "git status", name: "git"}}},
	{src: "x=reset; declare \"$n=1\"; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "declare 'x=reset'; git $x", want: []want{{argv: "git reset", name: "git"}}},
	{src: "x=ls; alias a='x=rm'; a; $x -rf /", want: []want{{argv: "rm -rf /", name: "rm"}}},
	{src: "x=rm; f() { eval 'local x=ls'; }; f; $x -rf /", want: []want{{argv: "rm -rf /", name: "rm"}}},
	{src: "x=ls; builtin export x=rm; $x -rf /", want: []want{{argv: "rm -rf /", name: "rm"}}},
	{src: "x=ls; command read x; $x -rf /", want: []want{{argv: "$x -rf /", name: ""}}},
	{src: "x=ls; sudo read x; $x -rf /", want: []want{{argv: "ls -rf /", name: "ls"}}},
	// Indexed arrays with static elements.
	{src: `a=(reset --hard); git "${a[@]}"`, want: []want{{argv: "git reset --hard", name: "git", static: "SSS"}}},
	{src: `a=(git 'stash drop'); "${a[@]}"; ${a[*]}; "${a[*]}"`, want: []want{{argv: "git stash drop", name: "git", static: "SS"}, {argv: drop, name: "git", static: "SSS"}, {argv: drop, name: "git stash drop", static: "S"}}},
	{src: `a=(rm x); ${a[0]} -rf ${a[1]} $a ${#a[@]} "${a[5]}"`, want: []want{{argv: "rm -rf x rm 2 ", name: "rm", static: "SSSSSS"}}},
	{src: `a=(git); a+=(reset --hard); "${a[@]}"`, want: []want{{argv: "git reset --hard", name: "git"}}},
	{src: `declare -a a=(rm -rf); "${a[@]}" /`, want: []want{{argv: "rm -rf /", name: "rm"}}},
	{src: `a=(ls); a[0]=rm; "${a[@]}" -rf /`, want: []want{{argv: "${a[@]} -rf /", name: ""}}},
	{src: `a=(ls rm); unset 'a[0]'; "${a[@]}" -rf /`, want: []want{{argv: "${a[@]} -rf /", name: ""}}},
	{src: `a=(ls $x); "${a[@]}"`, want: []want{{argv: "${a[@]}", name: ""}}},
	{src: `a=([1]=rm); ${a[1]} x`, want: []want{{argv: "${a[1]} x", name: ""}}},
	{src: `declare -A a=([k]=rm); ${a[k]} x`, want: []want{{argv: "${a[k]} x", name: ""}}},
	{src: `a=(ls); if b; then a=(rm); fi; "${a[@]}" -rf /`, want: []want{{argv: "${a[@]} -rf /", name: ""}}},
	{src: `a=(x); echo "p${a[@]}q"`, want: []want{{argv: "echo p${a[@]}q", name: "echo", static: "SD"}}},
	{src: `a=(rm -rf /); echo "${a[@]}"`, n: 1, not: []string{"rm"}},
	// Positional parameters: set --, shift, "$@", $*, $#.
	{src: "set -- reset --hard; git $1 $2", want: []want{{argv: "git reset --hard", name: "git", static: "SSS"}}},
	{src: `set -- reset --hard; git "$@"`, want: []want{{argv: "git reset --hard", name: "git", static: "SSS"}}},
	{src: `set -- git 'stash drop'; "$@"; $*`, want: []want{{argv: "git stash drop", name: "git", static: "SS"}, {argv: drop, name: "git", static: "SSS"}}},
	{src: "set -e -o pipefail; rm $1", want: []want{{argv: "rm $1", name: "rm", static: "SD"}}},
	{src: "set -e x rm; $2 -rf / $#", want: []want{{argv: "rm -rf / 2", name: "rm"}}},
	{src: "set -- a rm; shift; $1 -rf /", want: []want{{argv: "rm -rf /", name: "rm"}}},
	{src: "set -- a rm; shift 5; $2 -rf /", want: []want{{argv: "rm -rf /", name: "rm"}}},
	{src: "set -- a rm; shift $n; $1 -rf /", want: []want{{argv: "$1 -rf /", name: ""}}},
	{src: "set -- ls; a && set -- rm; $1 -rf /", want: []want{{argv: "$1 -rf /", name: ""}}},
	{src: "set -- ls; if a; then set -- rm; fi; $1 -rf /", want: []want{{argv: "$1 -rf /", name: ""}}},
	{src: "set -- ls; { set -- rm; }; $1 -rf /", want: []want{{argv: "rm -rf /", name: "rm"}}},
	{src: "set -- ls; (set -- rm); $1 -rf /", want: []want{{argv: "ls -rf /", name: "ls"}}},
	{src: "set -- ls; while a; do $1 x; shift; done", want: []want{{argv: "$1 x", name: ""}}},
	{src: `f() { git "$@"; }; f reset --hard`, want: []want{{argv: "git reset --hard", name: "git", kind: "function"}}},
	{src: `set -- ls; f() { set -- rm; }; f; $1 -rf /`, want: []want{{argv: "ls -rf /", name: "ls"}}},
	{src: `set -- "$x"; $1 -rf /`, want: []want{{argv: "$1 -rf /", name: ""}}},
	// xargs reading known text: the arguments are known.
	{src: "xargs rm -rf <<< /home/u/Documents", n: 1, want: []want{{argv: "rm -rf /home/u/Documents", name: "rm", wrap: "xargs", static: "SSS"}}},
	{src: "echo / ~ | xargs rm -rf", want: []want{{argv: "rm -rf / /home/u", name: "rm", wrap: "xargs"}}},
	{src: "printf '%s\\n' a b | xargs -n 1 rm", want: []want{{argv: "rm a b", name: "rm", wrap: "xargs"}}}, // -n 1: two runs, judged as one
	{src: "echo 'a b' | xargs -0 rm", want: []want{{argv: "rm", name: "rm", extra: true}}},
	{src: "echo a | xargs -I{} rm {}", want: []want{{argv: "rm a", name: "rm", static: "SS"}}}, // one known line
	{src: "printf 'a\\nb\\n' | xargs -I{} rm {}", want: []want{{argv: "rm {}", name: "rm", extra: true, static: "SD"}}},
	{src: "echo \"a'b\" | xargs rm", want: []want{{argv: "rm", name: "rm", extra: true}}},
	// A declaration without assignment runs as a command (export -p
	// prints the environment); one with assignments is not an Exec.
	{src: "export -p > f", n: 1, want: []want{{argv: "export -p", name: "export", redir: "> /work/repo/f"}}},
	{src: "declare -p | grep KEY", want: []want{{argv: "declare -p", name: "declare", pipe: "1/0"}}},
	{src: "x=1; export x; rm $x", n: 2, want: []want{{argv: "export x", name: "export"}, {argv: "rm 1", name: "rm"}}},
	{src: "export X=1; ls", n: 1, want: []want{{argv: "ls", name: "ls"}}},
	{src: "RANDOM=4; rm $RANDOM", want: []want{{argv: "rm $RANDOM", name: "rm", static: "SD"}}},
}

var casesVarFlow = []tcase{
	// Branches: known after only when all paths agree.
	{src: "if a; then x=reset; fi; git $x --hard", want: []want{{argv: "git $x --hard", name: "git", static: "SDS"}}},
	{src: "if a; then x=reset; else x=reset; fi; git $x --hard", want: []want{{argv: "git reset --hard", name: "git"}}},
	{src: "if a; then x=reset; else x=status; fi; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "x=status; if a; then x=reset; elif b; then :; fi; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "if a; then x=reset; git $x; fi", want: []want{{argv: "git reset", name: "git"}}},
	{src: "x=1; if a; then x=2; elif b; then git $x; fi", want: []want{{argv: "git 1", name: "git"}}},
	{src: "case $1 in a) x=reset;; esac; git $x --hard", want: []want{{argv: "git $x --hard", name: "git"}}},
	{src: "case $1 in a) x=reset;; *) x=reset;; esac; git $x --hard", want: []want{{argv: "git reset --hard", name: "git"}}},
	{src: "x=status; a && x=reset; git $x", want: []want{{argv: "git $x", name: "git"}}},
	{src: "x=rm; false && x=ls; $x -rf /", want: []want{{argv: "$x -rf /", name: ""}}},
	{src: "x=reset && git $x --hard", want: []want{{argv: "git reset --hard", name: "git"}}},
	// cd in a branch: the directory after is unknown unless all agree.
	{src: "if a; then cd /tmp; fi; rm x", want: []want{{argv: "rm x", name: "rm", dir: "-"}}},
	{src: "if a; then cd /tmp; else cd /tmp; fi; rm x", want: []want{{argv: "rm x", name: "rm", dir: "/tmp"}}},
	{src: "if cd /tmp; then rm x; fi", want: []want{{argv: "rm x", name: "rm", dir: "/tmp"}}},
	{src: "case $1 in a) cd /tmp;; esac; rm x", want: []want{{argv: "rm x", name: "rm", dir: "-"}}},
	{src: "cd /tmp && rm x; rm y", want: []want{{argv: "rm y", name: "rm", dir: "/tmp"}}},
	// Loops: what the body changes is unknown in the body and after.
	{src: "x=status; while a; do git $x; x=reset; done; git $x", n: 3, want: []want{{argv: "git $x", name: "git"}}, not: []string{"git status"}},
	{src: "while a; do rm x; cd ..; done", want: []want{{argv: "rm x", name: "rm", dir: "-"}}},
	{src: "while a; do x=rm; $x y; done", want: []want{{argv: "rm y", name: "rm"}}},
	{src: "f() { x=reset; }; x=status; while a; do git $x; f; done", not: []string{"git status"}},
	{src: "x=status; until a; do eval \"$y\"; done; git $x", not: []string{"git status"}},
	// for over a static list: once per value.
	{src: "for d in / ~; do rm -rf $d; done", n: 2, want: []want{{argv: "rm -rf /", name: "rm", static: "SSS"}, {argv: "rm -rf /home/u", name: "rm", static: "SSS"}}},
	{src: "for c in 'git stash drop' ls; do $c; done", want: []want{{argv: drop, name: "git"}, {argv: "ls", name: "ls"}}},
	{src: "l='a b'; for f in $l c; do rm $f; done", n: 3, want: []want{{argv: "rm a", name: "rm"}, {argv: "rm b", name: "rm"}, {argv: "rm c", name: "rm"}}},
	// a glob binds the variable to the pattern (one match at a time, not static)
	{src: "for f in *.txt; do rm $f; done", n: 1, want: []want{{argv: "rm *.txt", name: "rm", static: "SD"}}},
	{src: "for f in a *.txt; do rm $f; done", n: 2, want: []want{{argv: "rm a", name: "rm"}, {argv: "rm *.txt", name: "rm", static: "SD"}}},
	{src: `for f in ~/Documents/*; do : > "$f"; done`, n: 1, want: []want{{argv: ":", name: ":"}}},
	{src: `for f in *.txt; do rm "${f%.txt}.bak"; done`, n: 1, want: []want{{argv: "rm ${f%.txt}.bak", name: "rm", static: "SD"}}},
	{src: `for f in $(ls); do rm "$f"; done`, n: 2, want: []want{{argv: "ls", name: "ls"}, {argv: "rm $f", name: "rm", static: "SD"}}},
	// a while-read loop fed by a lister binds the variable to what it lists
	{src: `find /srv/x -type f | while read -r f; do rm "$f"; done`, n: 3, want: []want{{argv: "rm /srv/x/*", name: "rm", static: "SD"}}},
	{src: `echo a | while read f; do rm "$f"; done`, n: 3, want: []want{{argv: "rm $f", name: "rm", static: "SD"}}},
	{src: `while read -r f; do rm "$f"; done < <(find /srv/y -type f)`, n: 4, want: []want{{argv: "rm /srv/y/*", name: "rm", static: "SD"}}},
	{src: `find /srv/x | while read -a f; do rm "$f"; done`, n: 3, want: []want{{argv: "rm $f", name: "rm", static: "SD"}}},
	{src: "for i in $(seq 3); do rm $i; done", want: []want{{argv: "rm $i", name: "rm", static: "SD"}}},
	{src: "for i; do rm $i; done", n: 1, want: []want{{argv: "rm $i", name: "rm"}}},
	{src: "select i in a b; do rm $i; done", n: 1, want: []want{{argv: "rm $i", name: "rm"}}},
	{src: "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do rm $i; done", n: 1, want: []want{{argv: "rm $i", name: "rm", static: "SD"}}},
	{src: "for a in 1 2 3 4 5 6 7 8; do for b in 1 2 3 4 5 6 7 8; do for c in x y; do r $a$b$c; done; done; done", n: 64,
		want: []want{{argv: "r 11$c", name: "r", static: "SD"}, {argv: "r 88$c", name: "r"}}},
	{src: "for d in a b; do : " + strings.Repeat("x", 40000) + "; rm $d; done", n: 2, want: []want{{argv: "rm $d", name: "rm", static: "SD"}}},
	{src: "for d in a b; do x=$d; done; rm $x", want: []want{{argv: "rm $x", name: "rm"}}},
	{src: "for d in a b; do cd $d; done; rm x", want: []want{{argv: "rm x", name: "rm", dir: "-"}}},
	{src: "for d in a; do cd /tmp; rm $d; done; rm x", want: []want{{argv: "rm a", name: "rm", dir: "/tmp"}, {argv: "rm x", name: "rm", dir: "/tmp"}}},
	{src: "x=1; for i in a b; do rm $x; x=2; done", want: []want{{argv: "rm 1", name: "rm"}, {argv: "rm 2", name: "rm"}}},
	{src: "for ((i=0; i<3; i++)); do rm $i; done", want: []want{{argv: "rm $i", name: "rm", static: "SD"}}},
	{src: "i=5; for ((i=0; i<3; i++)); do :; done; rm $i", want: []want{{argv: "rm $i", name: "rm"}}},
}

// Expansion is bounded: doubling a variable or repeating a long one is
// over the bytes limit, not a blow-up.
func TestVarExpansionBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("x=0123456789abcdef;")
	for range 40 {
		b.WriteString(" x=$x$x;")
	}
	b.WriteString(" rm $x")
	long := "x=" + strings.Repeat("a", 1000) + "; echo" + strings.Repeat(" $x", 500)
	for _, src := range []string{b.String(), long} {
		_, err := Parse(src, Options{MaxBytes: 100000})
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != "bytes" {
			t.Errorf("%.30q: want bytes limit, got %v", src, err)
		}
	}
	// Under the budget, expansion works.
	r, err := Parse("x=0123456789; x=$x$x; x=$x$x; rm $x", opts)
	if err != nil || len(r.Execs) != 1 || len(r.Execs[0].Argv[1].Value) != 40 {
		t.Errorf("got %v %v", err, r)
	}
}

// Inputs made of many assignments (each Exec carries the assignments in
// effect, and branches and loops merge them): decided, or refused by the
// vars limit, never slow without bound.
var benchVars = map[string]string{
	"1000-vars-9000-uses": repeatf(1000, "a%d=%d;") + repeatf(9000, "t $a%d $u;"),
	"1025-vars":           repeatf(1025, "a%d=%d;"),
	"reassign":            repeatf(1000, "a%d=%d;") + strings.Repeat("a1=2;", 30000),
	"function-chain":      "f0() { " + repeatf(500, "v%d=%d; ") + "}; " + chain(13) + "f13",
	"elif-chain":          repeatf(900, "a%d=%d;") + "if a; then x=1; " + strings.Repeat("elif b; then a1=3; ", 5000) + "fi; t $x",
	"and-chains":          repeatf(900, "a%d=%d;") + strings.Repeat("a && a1=1;", 4000),
	"loops":               repeatf(900, "a%d=%d;") + strings.Repeat("while a; do x=1; done;", 3000),
	"nested-for":          strings.Repeat("for a in 1 2; do ", 40) + "x=$x$x; r $x" + strings.Repeat("; done", 40),
}

// repeatf repeats format n times with the index as every %d.
func repeatf(n int, format string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.ReplaceAll(format, "%d", fmt.Sprint(i)))
	}
	return b.String()
}

func TestVarInputsDecided(t *testing.T) {
	for name, src := range benchVars {
		_, err := Parse(src, Options{})
		var le *LimitError
		switch name {
		case "1000-vars-9000-uses", "nested-for":
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		default:
			if !errors.As(err, &le) || le.Limit != "vars" {
				t.Errorf("%s: want the vars limit, got %v", name, err)
			}
		}
	}
}

func BenchmarkVars(b *testing.B) {
	for _, name := range sortedKeys(map[string]bool{"1000-vars-9000-uses": true, "1025-vars": true, "reassign": true,
		"function-chain": true, "elif-chain": true, "and-chains": true, "loops": true, "nested-for": true}) {
		src := benchVars[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Parse(src, Options{})
			}
		})
	}
}
