package parse

import "testing"

func TestWrappers(t *testing.T) {
	runCases(t, casesWrappers)
}

func TestReentry(t *testing.T) {
	runCases(t, casesReentry)
}

func TestInterpreters(t *testing.T) {
	runCases(t, casesInterpreters)
}

func TestDataPositions(t *testing.T) {
	runCases(t, casesDataPositions)
	r, _ := Parse(`git commit -m "never run git stash drop"; echo 'rm -rf /'; grep -e 'x|y' f`, opts)
	whys := map[string]string{}
	for _, d := range r.Data {
		whys[d.Text] = d.Why
	}
	if whys["never run git stash drop"] != "commit message" || whys["rm -rf /"] != "argument of echo" || whys["x|y"] != "pattern" {
		t.Errorf("data: %+v", r.Data)
	}
	// echo fed to a shell is code, not data.
	r, _ = Parse("echo 'rm x' | sh", opts)
	if len(r.Data) != 0 {
		t.Errorf("echo piped to sh still listed as data: %+v", r.Data)
	}
}

var casesWrappers = []tcase{
	{src: "sudo -u root -g wheel -E rm -rf /x", n: 1, want: []want{{argv: "rm -rf /x", name: "rm", wrap: "sudo", kind: "top"}}},
	{src: "sudo --user=root -- rm x", want: []want{{argv: "rm x", name: "rm", wrap: "sudo"}}},
	{src: "sudo -Eu root rm x", want: []want{{argv: "rm x", name: "rm", wrap: "sudo"}}},
	{src: "doas -u root rm x", want: []want{{argv: "rm x", name: "rm", wrap: "doas"}}},
	{src: "sudo -s", want: []want{{argv: "sh", name: "sh", wrap: "sudo"}}},
	{src: "echo 'rm -rf /' | sudo -i", want: []want{{argv: "rm -rf /", name: "rm", kind: "shell-stdin", depth: 1, wrap: "sudo"}}},
	{src: "sudo GIT_DIR=/x FOO=1 git reset --hard", want: []want{{argv: "git reset --hard", name: "git", wrap: "sudo"}}},
	{src: "echo 'rm -rf /q' | tee log | sh", want: []want{{argv: "rm -rf /q", name: "rm", kind: "shell-stdin", depth: 1}}},
	{src: "sudo -e /etc/hosts", want: []want{{argv: "sudo -e /etc/hosts", name: "sudo"}}},
	{src: "env -i A=1 B=2 git push -f", want: []want{{argv: "git push -f", name: "git", wrap: "env"}}},
	{src: "env -u HOME -C /tmp rm x", want: []want{{argv: "rm x", name: "rm", wrap: "env", dir: "/tmp"}}},
	{src: "env -S 'rm -rf /y' ", want: []want{{argv: "rm -rf /y", name: "rm", wrap: "env"}}},
	{src: "env", want: []want{{argv: "env", name: "env"}}},
	{src: "command rm x", want: []want{{argv: "rm x", name: "rm", wrap: "command"}}},
	{src: "command -p rm x", want: []want{{argv: "rm x", name: "rm", wrap: "command"}}},
	{src: "builtin cd /", want: []want{{argv: "cd /", name: "cd", wrap: "builtin"}}},
	{src: "exec -a name rm x", want: []want{{argv: "rm x", name: "rm", wrap: "exec"}}},
	{src: "exec > log", want: []want{{argv: "exec", name: "exec", redir: "> /work/repo/log"}}},
	{src: "nohup rm x &", want: []want{{argv: "rm x", name: "rm", wrap: "nohup"}}},
	{src: "nice -n 10 rm x; nice -5 rm y", want: []want{{argv: "rm x", name: "rm", wrap: "nice"}, {argv: "rm y", name: "rm", wrap: "nice"}}},
	{src: "timeout -s KILL -k 5 30s rm x", want: []want{{argv: "rm x", name: "rm", wrap: "timeout"}}},
	{src: "/usr/bin/time -p rm x", want: []want{{argv: "rm x", name: "rm", wrap: "time"}}},
	{src: "stdbuf -oL -e 0 rm x", want: []want{{argv: "rm x", name: "rm", wrap: "stdbuf"}}},
	{src: "ionice -c 3 -n 7 rm x", want: []want{{argv: "rm x", name: "rm", wrap: "ionice"}}},
	{src: "flock -w 5 /tmp/lock rm x", want: []want{{argv: "rm x", name: "rm", wrap: "flock"}}},
	{src: "flock /tmp/lock -c 'rm y'", want: []want{{argv: "rm y", name: "rm", wrap: "flock", kind: "shell-c", depth: 1, via: "flock -c"}}},
	{src: "watch -n 5 'rm x; ls'", want: []want{{argv: "rm x", name: "rm", wrap: "watch", kind: "shell-c", depth: 1}, {argv: "ls", name: "ls"}}},
	{src: "watch -x rm x", want: []want{{argv: "rm x", name: "rm", wrap: "watch", kind: "top"}}},
	{src: "xargs -0 -n 1 -P 4 -I {} rm -rf {}", want: []want{{argv: "rm -rf {}", name: "rm", wrap: "xargs", extra: true, static: "SSD"}}},
	{src: "xargs", want: []want{{argv: "echo", name: "echo", wrap: "xargs", extra: true}}},
	{src: "cat list | xargs sh -c 'rm \"$1\"' _", want: []want{{argv: "rm $1", name: "rm", wrap: "xargs", kind: "shell-c", depth: 1}}},
	{src: "ls | xargs sh -c", want: []want{{argv: "sh -c", name: "sh", runs: "shell-c", srcs: "ls", extra: true}}},
	{src: "find . -name '*.o' -delete", want: []want{{argv: "find . -name *.o -delete", name: "find"}}},
	{src: `find / -type f -exec rm -f {} \; -execdir shred {} +`, want: []want{
		{argv: "rm -f {}", name: "rm", wrap: "find -exec", kind: "wrapper", via: "find -exec", extra: true, static: "SSD"},
		{argv: "shred {}", name: "shred", wrap: "find -exec", via: "find -execdir", extra: true}}},
	{src: `find . -ok sh -c 'rm "$0"' {} \;`, want: []want{{argv: "rm ./*", name: "rm", wrap: "find -exec", kind: "shell-c", depth: 1}}},
	{src: "parallel -j4 rm {} ::: a b", want: []want{{argv: "rm a", name: "rm", wrap: "parallel"}, {argv: "rm b", name: "rm", wrap: "parallel"}}},
	{src: "parallel -j4 rm {} :::: list.txt", want: []want{{argv: "rm {}", name: "rm", wrap: "parallel", extra: true, static: "SD"}}},
	{src: "parallel ::: 'rm -rf a' 'git stash drop'", want: []want{{argv: "rm -rf a", name: "rm", wrap: "parallel", kind: "wrapper", depth: 1}, {argv: "git stash drop", name: "git"}}},
	{src: "busybox rm -rf /x", want: []want{{argv: "rm -rf /x", name: "rm", wrap: "busybox"}}},
	{src: "busybox sh -c 'rm y'", want: []want{{argv: "rm y", name: "rm", kind: "shell-c", depth: 1, wrap: "busybox"}}},
	{src: "sudo env X=1 nice xargs rm", want: []want{{argv: "rm", name: "rm", wrap: "sudo,env,nice,xargs", extra: true}}},
	{src: "sudo timeout 5 nohup stdbuf -o0 command rm z", want: []want{{argv: "rm z", name: "rm", wrap: "sudo,timeout,nohup,stdbuf,command"}}},
	{src: "sudo $CMD x", want: []want{{argv: "$CMD x", name: "", wrap: "sudo"}}},
	{src: "sudo bash -c 'rm -rf /opt'", want: []want{{argv: "rm -rf /opt", name: "rm", wrap: "sudo", kind: "shell-c", depth: 1}}},
	{src: "su -c 'rm -rf /a' root", want: []want{{argv: "rm -rf /a", name: "rm", wrap: "su", kind: "shell-c", depth: 1, via: "su -c"}}},
	{src: "sudo su - deploy -c 'git push -f'", want: []want{{argv: "git push -f", name: "git", wrap: "sudo,su", kind: "shell-c", depth: 1}}},
	{src: "echo 'rm -rf /b' | su", want: []want{{argv: "rm -rf /b", name: "rm", wrap: "su", kind: "shell-stdin", depth: 1}}},
	{src: "runuser -u app -- rm x", want: []want{{argv: "rm x", name: "rm", wrap: "runuser"}}},
	{src: "sg docker -c 'docker rm -f c'", want: []want{{argv: "docker rm -f c", name: "docker", wrap: "sg", kind: "shell-c", depth: 1}}},
	{src: "pkexec rm /x; run0 -u root rm /y", want: []want{{argv: "rm /x", name: "rm", wrap: "pkexec"}, {argv: "rm /y", name: "rm", wrap: "run0"}}},
	{src: "chroot /mnt rm -rf /z", want: []want{{argv: "rm -rf /z", name: "rm", wrap: "chroot"}}},
	{src: "strace -f -o log rm q", want: []want{{argv: "rm q", name: "rm", wrap: "strace"}}},
	{src: "trap 'rm -rf /tmp/w' EXIT", want: []want{{argv: "rm -rf /tmp/w", name: "rm", kind: "eval", depth: 1, via: "trap"}}},
	{src: "trap - EXIT; trap -p", n: 2},
	{src: "script -qc 'rm v' /dev/null", want: []want{{argv: "rm v", name: "rm", wrap: "script", kind: "shell-c", depth: 1}}},
	{src: "ssh host -t 'rm u'", want: []want{{argv: "rm u", name: "rm", kind: "remote", depth: 1}}},
}

var casesReentry = []tcase{
	{src: "bash -lc 'rm a'; sh -ec 'rm b'; zsh -xc 'rm c'; dash --norc -c 'rm d'; ksh -o pipefail -c 'rm e'", want: []want{
		{argv: "rm a", name: "rm", kind: "shell-c", depth: 1, via: "bash -c"},
		{argv: "rm b", name: "rm", kind: "shell-c", depth: 1}, {argv: "rm c", name: "rm", kind: "shell-c", depth: 1},
		{argv: "rm d", name: "rm", kind: "shell-c", depth: 1}, {argv: "rm e", name: "rm", kind: "shell-c", depth: 1}}},
	{src: `bash -c "bash -c 'rm deep'"`, want: []want{{argv: "rm deep", name: "rm", kind: "shell-c", depth: 2}}},
	{src: "bash script.sh", n: 1, want: []want{{argv: "bash script.sh", name: "bash", runs: "-"}}},
	{src: "bash < script.sh", n: 1, want: []want{{argv: "bash", name: "bash", runs: "-", redir: "< /work/repo/script.sh"}}},
	{src: `bash -c "$(curl -fsSL https://x)"`, want: []want{
		{argv: "bash -c $(curl -fsSL https://x)", name: "bash", runs: "shell-c", srcs: "curl"},
		{argv: "curl -fsSL https://x", name: "curl", kind: "subst"}}},
	{src: `bash -c "rm -rf $DIR"`, want: []want{{argv: "rm -rf $DIR", name: "rm", kind: "shell-c", depth: 1, static: "SSD"}, {argv: "bash -c rm -rf $DIR", name: "bash", runs: "shell-c"}}},
	{src: `eval "$X"`, want: []want{{argv: "eval $X", name: "eval", runs: "eval", srcs: "-"}, {argv: "$X", name: "", kind: "eval", depth: 1}}},
	{src: `X=$(curl -s x); eval "$X"`, want: []want{{argv: "eval $X", name: "eval", runs: "eval", srcs: "curl"}}},
	{src: "source <(curl -s https://x)", want: []want{{argv: "source <(curl -s https://x)", name: "source", runs: "source", srcs: "curl"}}},
	{src: ". <(echo rm x)", want: []want{{argv: ". <(echo rm x)", name: ".", runs: "-"}, {argv: "rm x", name: "rm", kind: "source", depth: 1}}},
	{src: ". <(echo \"$X\")", want: []want{{argv: ". <(echo \"$X\")", name: ".", runs: "source", srcs: "echo"}}},
	{src: "source ./env.sh", n: 1, want: []want{{argv: "source ./env.sh", name: "source", runs: "-"}}},
	{src: "echo 'rm -rf /tmp/a' | sh", want: []want{{argv: "rm -rf /tmp/a", name: "rm", kind: "shell-stdin", depth: 1}}},
	{src: "printf 'rm %s\\n' /tmp/b | bash", want: []want{{argv: "rm /tmp/b", name: "rm", kind: "shell-stdin", depth: 1}}},
	{src: "bash <<EOF\nrm -rf /c\nEOF", want: []want{{argv: "rm -rf /c", name: "rm", kind: "shell-stdin", depth: 1, via: "bash stdin"}}},
	{src: "bash <<'EOF'\nrm -rf /d\nEOF", want: []want{{argv: "rm -rf /d", name: "rm", kind: "shell-stdin", depth: 1}}},
	{src: "sh <<< 'rm -rf /e'", want: []want{{argv: "rm -rf /e", name: "rm", kind: "shell-stdin", depth: 1}}},
	{src: "cat <<'EOF' | sh\nrm -rf /f\nEOF", want: []want{{argv: "rm -rf /f", name: "rm", kind: "shell-stdin", depth: 1}}},
	// cat FILE | sh reads FILE as sh < FILE does: a script, not unknown code.
	{src: "cat setup.sh | sh", want: []want{{argv: "sh", name: "sh", runs: "-"}}},
	{src: "cat a.sh b.sh | sh", want: []want{{argv: "sh", name: "sh", runs: "shell-stdin", srcs: "cat"}}},
	{src: "curl -fsSL https://x | bash", want: []want{{argv: "bash", name: "bash", runs: "shell-stdin", srcs: "curl", pipe: "1/1"}}},
	{src: "curl -s x | sudo bash -s -- --flag", want: []want{{argv: "bash -s -- --flag", name: "bash", runs: "shell-stdin", srcs: "curl", wrap: "sudo"}}},
	{src: "wget -qO- x | sh", want: []want{{argv: "sh", name: "sh", runs: "shell-stdin", srcs: "wget"}}},
	{src: "base64 -d <<< cm0gLXJmIC8= | sh", want: []want{{argv: "sh", name: "sh", runs: "shell-stdin", srcs: "base64"}}},
	{src: "echo $X | sh", want: []want{{argv: "sh", name: "sh", runs: "shell-stdin", srcs: "echo"}}},
	{src: `echo "$(curl x)" | sh`, want: []want{{argv: "sh", name: "sh", runs: "shell-stdin", srcs: "curl"}}},
	{src: "curl -s x | python3", want: []want{{argv: "python3", name: "python3", runs: "interpreter", srcs: "curl"}}},
	{src: "curl -s x | node", want: []want{{argv: "node", name: "node", runs: "interpreter", srcs: "curl"}}},
	{src: "curl -s x | perl", want: []want{{argv: "perl", name: "perl", runs: "interpreter", srcs: "curl"}}},
	{src: "ssh -p 2222 -i key user@host 'rm -rf /srv'", want: []want{
		{argv: "ssh -p 2222 -i key user@host rm -rf /srv", name: "ssh", kind: "top"},
		{argv: "rm -rf /srv", name: "rm", kind: "remote", depth: 1, via: "ssh", dir: "-"}}},
	{src: "ssh host git reset --hard", want: []want{{argv: "git reset --hard", name: "git", kind: "remote", depth: 1}}},
	{src: "ssh host 'cd /srv && bash -c \"rm -rf build > log\"'", want: []want{{argv: "rm -rf build", name: "rm", kind: "shell-c", depth: 2, dir: "-", redir: "> log"}}},
	{src: "f() { rm x; }; ssh host f; docker exec c f", n: 4, not: []string{"rm"}},
	{src: "ssh host", n: 1, want: []want{{argv: "ssh host", name: "ssh"}}},
	{src: "ssh host <<'EOF'\nrm -rf /g\nEOF", want: []want{{argv: "rm -rf /g", name: "rm", kind: "remote", depth: 1}}},
	{src: "ssh host bash -c \"'rm -rf /h'\"", want: []want{{argv: "rm -rf /h", name: "rm", kind: "shell-c", depth: 2}}},
	{src: "docker exec -it -u root web sh -c 'rm -rf /data'", want: []want{
		{argv: "sh -c rm -rf /data", name: "sh", kind: "remote", depth: 1, via: "docker exec"},
		{argv: "rm -rf /data", name: "rm", kind: "shell-c", depth: 2}}},
	{src: "docker run --rm -v /:/host alpine rm -rf /host/etc", want: []want{{argv: "rm -rf /host/etc", name: "rm", kind: "remote", depth: 1, via: "docker run"}}},
	{src: "docker run --entrypoint sh img -c 'rm x'", want: []want{{argv: "rm x", name: "rm", kind: "shell-c", depth: 2}}},
	{src: "docker compose exec app rm -rf /y", want: []want{{argv: "rm -rf /y", name: "rm", kind: "remote", via: "docker exec", depth: 1}}},
	{src: "podman exec c rm z", want: []want{{argv: "rm z", name: "rm", kind: "remote", via: "podman exec", depth: 1}}},
	{src: "kubectl exec -n prod -c app pod-1 -- rm -rf /x", want: []want{{argv: "rm -rf /x", name: "rm", kind: "remote", via: "kubectl exec", depth: 1}}},
	{src: "kubectl -n prod exec -it pod -- sh -c 'rm y'", want: []want{{argv: "rm y", name: "rm", kind: "shell-c", depth: 2}}},
	{src: "alias gs='git stash drop'; gs", want: []want{{argv: "git stash drop", name: "git", kind: "alias", depth: 1, via: "alias gs"}}},
	{src: "alias rm='rm -i'; rm x", want: []want{{argv: "rm -i x", name: "rm", kind: "alias", depth: 1}}},
	{src: "f() { rm -rf \"$1\"; }; g() { f /x; }; g", want: []want{{argv: "rm -rf /x", name: "rm", kind: "function", via: "function f", static: "SSS"}}},
	{src: "f() { eval \"rm $1\"; rm $2; rm $3 $0; }; f '/a b' '*' ", want: []want{
		{argv: "rm /a b", name: "rm", kind: "eval", depth: 1, static: "SSS"}, {argv: "rm *", name: "rm", static: "SD"}, {argv: "rm f", name: "rm", static: "SS"}}}, // $2 a glob; unset $3 unquoted: no word
	{src: "bash -c 'rm -rf \"$1\" \"$0\" \"$2\"' sh /y", want: []want{{argv: "rm -rf /y sh ", name: "rm", kind: "shell-c", depth: 1, static: "SSSSS"}}},
	{src: "bash -c 'rm -rf \"$1\"'", want: []want{{argv: "rm -rf ", name: "rm", static: "SSS"}}},
	// find -exec ... \; runs sh once per name found: $1 is one of them (the
	// pattern of what find lists); with + or after a word of its own, unknown
	{src: "find . -exec sh -c 'rm \"$1\"' _ {} \\;", want: []want{{argv: "rm ./*", name: "rm", static: "SD"}}},
	{src: "find . -exec sh -c 'rm \"$1\"' _ {} +", want: []want{{argv: "rm $1", name: "rm", static: "SD"}}},
	{src: "find . -exec sh -c 'rm \"$1\"' _ x{} \\;", want: []want{{argv: "rm $1", name: "rm", static: "SD"}}},
	{src: "sudo bash -c 'f() { rm -rf /a; }; cd /srv; f; rm b'", want: []want{
		{argv: "rm -rf /a", name: "rm", kind: "function", depth: 1, wrap: "sudo", dir: "/srv"},
		{argv: "rm b", name: "rm", wrap: "sudo", dir: "/srv"}}},
	{src: "f() { rm -rf /c; }; time f; sudo f", want: []want{{argv: "rm -rf /c", name: "rm", wrap: "time"}, {argv: "f", name: "f", wrap: "sudo"}}},
	{src: "f() { watch \"rm $1\"; }; f /z", want: []want{{argv: "rm /z", name: "rm", kind: "shell-c", depth: 1, via: "watch"}}},
	{src: "f() { cd /tmp; }; f; rm x", want: []want{{argv: "rm x", name: "rm", dir: "/tmp"}}},
	{src: "deploy() { git push -f; }", n: 0, not: []string{"git"}},
	{src: "f() { f; }; f; g() { h; }; h() { g; }; g", n: 0},
}

var casesInterpreters = []tcase{
	{src: `python3 -c "import os; os.system('rm -rf /a')"`, want: []want{
		{argv: `python3 -c import os; os.system('rm -rf /a')`, name: "python3", kind: "top"},
		{argv: "rm -rf /a", name: "rm", kind: "interpreter", depth: 1, via: "python3 -c"}}},
	{src: `python -c 'import subprocess; subprocess.run(["git", "reset", "--hard"])'`, want: []want{{argv: "git reset --hard", name: "git", kind: "interpreter", depth: 1}}},
	{src: `python -c 'import subprocess; subprocess.check_output("git stash drop", shell=True)'`, want: []want{{argv: "git stash drop", name: "git", kind: "interpreter", depth: 1}}},
	{src: `python3 -c 'import subprocess as sp; sp.run(["git", "clean", "-fdx"]); app.run("0.0.0.0")'`, n: 2, want: []want{{argv: "git clean -fdx", name: "git", kind: "interpreter", depth: 1}}},
	{src: `python3 -c 'import shutil; shutil.rmtree("/tmp/x")'`, want: []want{{argv: "rm -rf /tmp/x", name: "rm", kind: "interpreter", depth: 1, synth: true}}},
	{src: `python3 -c 'import os; os.remove("a.txt"); os.rmdir("d")'`, want: []want{{argv: "rm a.txt", name: "rm", synth: true}, {argv: "rmdir d", name: "rmdir", synth: true}}},
	{src: `python3 -c 'from pathlib import Path; Path("/etc/x").unlink()'`, want: []want{{argv: "rm /etc/x", name: "rm", synth: true}}},
	{src: `python3 -c 'import shutil,sys; shutil.rmtree(sys.argv[1])'`, want: []want{{argv: "rm -rf sys.argv[1]", name: "rm", synth: true, static: "SSD"}}},
	{src: `python3 -c 'import os; os.system(cmd)'`, want: []want{{argv: "cmd", name: "", runs: "interpreter", kind: "interpreter", depth: 1}}},
	{src: `python3 -c 'import os; os.system("rm " + p)'`, want: []want{{argv: "rm ${_interp}", name: "", runs: "interpreter", static: "D"}}},
	{src: `python3 -c 'import os; os.system(f"rm -rf {p}/x")'`, want: []want{
		{argv: "rm -rf ${_interp}/x", name: "", runs: "interpreter", static: "D"},
		{argv: "rm -rf ${_interp}/x", name: "rm", kind: "interpreter", depth: 1, static: "SSD"}}},
	{src: "node -e 'require(\"child_process\").execSync(`git push -f ${remote}`)'", want: []want{{argv: "git push -f ${_interp}", name: "git", static: "SSSD"}}},
	{src: `ruby -e 'system("rm -rf #{dir}")'`, want: []want{{argv: "rm -rf ${_interp}", name: "rm", static: "SSD"}}},
	{src: `node -pe "require('child_process').execSync('rm -rf /t')"`, want: []want{{argv: "rm -rf /t", name: "rm", kind: "interpreter", depth: 1, via: "node -p"}}},
	{src: `python3 -c 'print("os.system(\"rm -rf /\")")'`, n: 1, not: []string{"rm"}},
	{src: `python3 -c "$(curl x)"`, n: 2, want: []want{{argv: "python3 -c $(curl x)", name: "python3", runs: "interpreter", srcs: "curl"}}},
	{src: `python3 -c "import shutil; shutil.rmtree('$DIR'); shutil.rmtree('$HOME/.cache')"`, want: []want{
		{argv: `python3 -c import shutil; shutil.rmtree('$DIR'); shutil.rmtree('/home/u/.cache')`, name: "python3", runs: "interpreter"},
		{argv: "rm -rf $DIR", name: "rm", synth: true, static: "SSD"},
		{argv: "rm -rf /home/u/.cache", name: "rm", synth: true, static: "SSS"}}},
	{src: `python3 script.py; python3 -m http.server`, n: 2},
	{src: `node -e "require('child_process').execSync('rm -rf /b')"`, want: []want{{argv: "rm -rf /b", name: "rm", kind: "interpreter", depth: 1, via: "node -e"}}},
	{src: `node -e "const {spawnSync}=require('child_process'); spawnSync('rm', ['-rf', '/c'])"`, want: []want{{argv: "rm -rf /c", name: "rm", kind: "interpreter", depth: 1}}},
	{src: `node -e "require('fs').rmSync('/d', {recursive: true, force: true})"`, want: []want{{argv: "rm -rf /d", name: "rm", synth: true}}},
	{src: `node -e "fs.unlinkSync('e')"`, want: []want{{argv: "rm e", name: "rm", synth: true}}},
	{src: "node --eval 'require(\"child_process\").exec(`rm x`)'", want: []want{{argv: "rm x", name: "rm", kind: "interpreter", depth: 1, via: "node --eval"}}},
	{src: `deno eval 'Deno.removeSync("/f")'`, want: []want{{argv: `deno eval Deno.removeSync("/f")`, name: "deno"}}},
	{src: `perl -e 'system("rm -rf /g")'`, want: []want{{argv: "rm -rf /g", name: "rm", kind: "interpreter", depth: 1, via: "perl -e"}}},
	{src: `perl -ne 'print' file; perl -e 'unlink "h"'`, want: []want{{argv: "rm h", name: "rm", synth: true}}},
	// perl's glob call and operator are rm's pattern, $ENV{HOME} the home (perlglob.go)
	{src: `perl -e 'unlink glob("$ENV{HOME}/Documents/*")'`, want: []want{{argv: "rm /home/u/Documents/*", name: "rm", synth: true, static: "SD"}}},
	{src: `perl -e 'unlink <~/Pictures/*.jpg>'`, want: []want{{argv: "rm ~/Pictures/*.jpg", name: "rm", synth: true, static: "SD"}}},
	{src: `perl -e 'unlink("$ENV{HOME}/.bashrc")'`, want: []want{{argv: "rm /home/u/.bashrc", name: "rm", synth: true}}},
	{src: `perl -e 'unlink <STDIN>'`, want: []want{{argv: "rm <STDIN>", name: "rm", synth: true, static: "SD"}}},
	{src: "perl -e 'my $x = `rm -rf /i`;'", want: []want{{argv: "rm -rf /i", name: "rm", kind: "interpreter", depth: 1}}},
	{src: `perl -MFile::Path -e 'rmtree("/j")'`, want: []want{{argv: "rm -rf /j", name: "rm", synth: true}}},
	{src: `perl -pi -e 's/a/b/' f`, n: 1},
	{src: `ruby -e 'system("git stash drop")'`, want: []want{{argv: "git stash drop", name: "git", kind: "interpreter", depth: 1, via: "ruby -e"}}},
	{src: "ruby -e '%x{rm -rf /k}'", want: []want{{argv: "rm -rf /k", name: "rm", kind: "interpreter", depth: 1}}},
	{src: `ruby -e 'require "fileutils"; FileUtils.rm_rf("/l")'`, want: []want{{argv: "rm -rf /l", name: "rm", synth: true}}},
	{src: `ruby -e 'File.delete("m")'`, want: []want{{argv: "rm m", name: "rm", synth: true}}},
	{src: `php -r 'shell_exec("rm -rf /n"); unlink("o");'`, want: []want{{argv: "rm -rf /n", name: "rm", kind: "interpreter", depth: 1, via: "php -r"}, {argv: "rm o", name: "rm", synth: true}}},
	{src: `echo 'import os; os.system("rm -rf /p")' | python3`, want: []want{{argv: "rm -rf /p", name: "rm", kind: "interpreter", depth: 1, via: "python3 stdin"}}},
	{src: `python3 <<'EOF'` + "\nimport shutil\nshutil.rmtree('/q')\nEOF", want: []want{{argv: "rm -rf /q", name: "rm", synth: true}}},
	{src: `python3 -c 'import os; os.system("bash -c \"rm -rf /r\"")'`, want: []want{{argv: "rm -rf /r", name: "rm", kind: "shell-c", depth: 2}}},
	{src: `awk 'BEGIN { system("rm -rf /s") }'`, want: []want{{argv: "rm -rf /s", name: "rm", kind: "interpreter", depth: 1, via: "awk"}}},
}

var casesDataPositions = []tcase{
	{src: "echo 'rm -rf /'; printf '%s\\n' 'git stash drop'", n: 2, not: []string{"rm", "git"}},
	{src: `git commit -m "rm -rf / and git reset --hard"`, n: 1, not: []string{"rm"}},
	{src: `git commit -am 'x' -m "$(date)"`, want: []want{{argv: "date", name: "date", kind: "subst"}}},
	{src: `git tag -a v1 -m "eval rm"`, n: 1},
	{src: `gh pr create --title "rm -rf" --body "bash -c 'rm -rf /'"`, n: 1, not: []string{"rm", "bash"}},
	{src: `grep -rn "rm -rf" . | rg 'sh -c' | sed 's/bash -c/x/' | awk '/rm/ {print}' | jq '.cmd'`, n: 5, not: []string{"rm", "bash", "sh"}},
	{src: "cat <<'EOF'\nrm -rf /\nEOF", n: 1, not: []string{"rm"}},
	{src: "tee f <<'EOF' >/dev/null\ngit reset --hard\nEOF", n: 1, not: []string{"git"}},
	{src: "# rm -rf /\nls", n: 1, not: []string{"rm"}},
	{src: "ls # ; rm -rf /", n: 1, not: []string{"rm"}},
	{src: "man rm; which rm; type rm; help cd; whatis rm; apropos rm; command -v rm; command -V rm", n: 8, not: []string{"rm"}},
	{src: "git reset --help", want: []want{{argv: "git reset --help", name: "git", help: true}}},
	{src: "rm -- --help", want: []want{{argv: "rm -- --help", name: "rm"}}},
	{src: "./deploy.sh --help", want: []want{{argv: "./deploy.sh --help", name: "deploy.sh"}}},
	{src: "echo rm | cat", n: 2, not: []string{"rm"}},
	{src: "echo \"x\" > 'rm -rf'", n: 1, not: []string{"rm"}},
}

func TestRemoteMarked(t *testing.T) {
	r, err := Parse("ssh h 'cd /x; bash -c \"rm y\"'; docker exec c rm z; rm w", opts)
	if err != nil {
		t.Fatal(err)
	}
	remote := map[string]bool{}
	for _, e := range r.Execs {
		remote[argvString(e)] = e.Remote
		if e.Remote && e.Dir != "" {
			t.Errorf("%q: remote with Dir %q", argvString(e), e.Dir)
		}
	}
	want := map[string]bool{"rm y": true, "cd /x": true, "rm z": true, "rm w": false, "docker exec c rm z": false}
	for k, v := range want {
		if got, ok := remote[k]; !ok || got != v {
			t.Errorf("%q: Remote=%v (found %v), want %v", k, got, ok, v)
		}
	}
}

// The hint filter must never skip code a pattern matches.
func TestPatternHints(t *testing.T) {
	for lang, ps := range langPats() {
		for _, p := range ps {
			if len(p.hints) == 0 {
				t.Errorf("%s %s: no hint words", lang, p.re)
			}
		}
	}
	for _, tc := range casesInterpreters {
		for _, ps := range langPats() {
			for _, p := range ps {
				if p.re.MatchString(tc.src) && !p.mayMatch(tc.src) {
					t.Errorf("%s: hints %v skip a match of %s", tc.src, p.hints, p.re)
				}
			}
		}
	}
}

var casesKnownOutput = []tcase{
	{src: `eval "$(echo 'rm -rf /a')"`, want: []want{
		{argv: "eval rm -rf /a", name: "eval", runs: "-", static: "SS"},
		{argv: "rm -rf /a", name: "rm", kind: "eval", depth: 1}}},
	{src: `bash -c "$(printf 'rm %s' /b)"`, want: []want{{argv: "rm /b", name: "rm", kind: "shell-c", depth: 1}}},
	{src: "source <(echo 'git stash drop')", want: []want{
		{argv: "source <(echo 'git stash drop')", name: "source", runs: "-"},
		{argv: "git stash drop", name: "git", kind: "source", depth: 1, via: "source"}}},
	{src: "bash <(cat <<'EOF'\nrm -rf /c\nEOF\n)", want: []want{{argv: "rm -rf /c", name: "rm", kind: "source", depth: 1, via: "bash <(...)"}}},
	{src: `eval "$(curl -s x)"`, want: []want{{argv: "eval $(curl -s x)", name: "eval", runs: "eval", srcs: "curl"}}},
	{src: `eval "$(echo a; echo b)"`, want: []want{{argv: "eval a\nb", name: "eval", runs: "-"}, {argv: "a", name: "a", kind: "eval", depth: 1}, {argv: "b", name: "b", kind: "eval", depth: 1}}},
	{src: `eval "$(echo a; cat f)"`, want: []want{{argv: "eval $(echo a\ncat f\n)", name: "eval", runs: "eval", srcs: "echo,cat"}}},
	// the output is computed into words too (static.go)
	{src: `rm $(echo /)`, want: []want{{argv: "rm /", name: "rm", static: "SS"}}},
	{src: `$(echo rm) -rf /`, want: []want{{argv: "rm -rf /", name: "rm", runs: "-"}}},
	{src: `$(cat cmd.txt) -rf /`, want: []want{{argv: "$(cat cmd.txt) -rf /", name: ""}}},
}

func TestKnownOutput(t *testing.T) {
	runCases(t, casesKnownOutput)
	r, _ := Parse("source <(echo 'rm x')", opts)
	if len(r.Data) != 0 {
		t.Errorf("sourced echo text still listed as data: %+v", r.Data)
	}
}
