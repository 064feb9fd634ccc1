package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// HANDED-CODE-TEMP: a program handed to another program as code, through
// an option its grammar types as code (go test -exec, scp -S, sort
// --compress-program, pandoc --filter: programs.Spec.Code) or a variable
// it reads (RUSTC_WRAPPER, $PAGER, CC: programs.EnvCode), lies in a
// temporary directory. The command line names only the program that is
// started; what runs is whatever sits in /tmp, where anyone can write.
// Judged on parse's Origin.Handed, whatever the option or variable is
// called; a program by name (sccache, gzip, pandoc-crossref), the
// project's and the system's pass, and so does a script in /tmp typed as
// the command itself (the reader sees it run).

// RuleHandedCodeTemp is spelled as its id.
const RuleHandedCodeTemp = "HANDED-CODE-TEMP"

var _ = rules(Rule{ID: RuleHandedCodeTemp, Class: ClassRemoteCode, Severity: SevHigh, Decision: Ask,
	Reason:      "a program is handed code to run (an option or a variable that names a program) from a temporary directory, where anyone can write",
	Alternative: "name the program itself (a tool on PATH, or a script in the project), or run the script directly",
	Matches:     "an option typed as code in the program's grammar (`go build -toolexec`, `go test -exec`, `scp -S`, `rsync -e`, `sort --compress-program`, `split --filter`, `pandoc --filter/--lua-filter`, `aria2c --on-download-complete`, `wget --use-askpass`, `yt-dlp --exec`, bash's `enable -f FILE`, ...) or a variable a program runs (`RUSTC_WRAPPER`, `CC`, `PAGER`, `EDITOR`, `npm_config_script_shell`, ...: programs.EnvCode) whose program, or the script its interpreter runs, is under /tmp, /var/tmp or /dev/shm",
	Fire: []string{"go test -exec /tmp/run.sh ./...", "scp -S /tmp/s.sh dist.tgz host:/tmp/", "sort --compress-program=/var/tmp/c.sh big.txt",
		"pandoc --filter /tmp/f.py in.md -o out.html", "pandoc --lua-filter /dev/shm/f.lua in.md", "rsync -e /tmp/r.sh -a dist/ host:/srv/",
		"enable -f /tmp/x.so x && x"},
	Pass: []string{"go test -exec ./run.sh ./...", "sort --compress-program=gzip big.txt", "pandoc --filter pandoc-crossref in.md -o out.html",
		"/tmp/build.sh", "scp -C dist.tgz host:/tmp/", "go build -toolexec=/usr/bin/time ./...", "rsync -e 'ssh -p 2222' -a dist/ host:/srv/",
		"enable -f /usr/lib/bash/sleep sleep"},
})

var _ = onExec(func(j *judge, x execution) {
	if !x.e.Origin.Handed || len(x.e.Argv) == 0 {
		return
	}
	if v, ok := strings.CutPrefix(x.e.Origin.Via, "$"); ok && programs.EnvCode(v) == "node" {
		return // the files node options load are ENV-CODE-PRELOAD's
	}
	if p := handedProgram(x.e); p != "" && j.writableLoad(p, x.e.Dir) {
		j.add(RuleHandedCodeTemp, x.detail+" (handed by "+x.e.Origin.Via+")")
	}
})

// handedProgram is the file a handed execution runs: its program by path,
// or the script a shell or an interpreter it names runs (lua /tmp/f.lua).
func handedProgram(e *parse.Exec) string {
	w := e.Argv[0]
	if !w.Static {
		return ""
	}
	if strings.Contains(w.Value, "/") {
		return w.Value
	}
	if p := programs.Lookup(e.Name); p.Is(programs.Shell) || p.Is(programs.Interpreter) {
		if len(e.Argv) > 1 && e.Argv[1].Static && !strings.HasPrefix(e.Argv[1].Value, "-") {
			return e.Argv[1].Value
		}
	}
	return ""
}
