//go:build ignore

// gen builds a register of N entries for the scale benchmark through the
// register API (register.BulkLoad: valid chain, real SQLite), not the hook,
// so that a million entries take about a minute instead of hours. The mix
// follows a working week of the real hook: per 100 calls about 89 allows
// (most followed by their PostToolUse outcome entry), 6 asks (half approved,
// so they ran), 3 denies, 2 errors; about a third of the flags graded.
//
//	go run bench/scale/gen.go -out /tmp/sentinel-scale/1000000/register.db -n 1000000
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

var commands = []string{
	`{"command":"go test ./..."}`, `{"command":"git status --short"}`, `{"command":"ls -la internal/"}`,
	`{"command":"npm run build"}`, `{"command":"cat README.md | head -40"}`, `{"command":"rg -n TODO --type go"}`,
	`{"file_path":"/home/dev/project/main.go","content":"package main\n"}`,
}

func main() {
	out := flag.String("out", "", "register file to create (must not exist)")
	n := flag.Int("n", 10000, "entries")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: go run bench/scale/gen.go -out FILE -n N")
		os.Exit(2)
	}
	if _, err := os.Stat(*out); err == nil {
		fmt.Fprintf(os.Stderr, "%s exists: refusing to add to it\n", *out)
		os.Exit(1)
	}
	os.MkdirAll(filepath.Dir(*out), 0o700)
	r, err := register.Open(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer r.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Now().Add(-30 * 24 * time.Hour)
	step := 30 * 24 * time.Hour / time.Duration(*n)
	var queue []*register.Entry // entries that follow a call: its outcome, a grade
	var flags []int64
	call := 0
	t0 := time.Now()
	err = register.BulkLoad(r, *n, func(i int) *register.Entry {
		at := start.Add(time.Duration(i) * step).UTC()
		seq := int64(i + 1)
		if len(queue) > 0 {
			e := queue[0]
			queue = queue[1:]
			e.Time = at
			if e.Kind == register.KindGrade {
				e.Ref = flags[rng.IntN(len(flags))]
			}
			return e
		}
		call++
		sess := fmt.Sprintf("3f1c2a9e-5b7d-4c21-9a0e-%012d", call/400)
		e := &register.Entry{Kind: register.KindDecision, Time: at, SessionID: sess,
			ToolUseID: fmt.Sprintf("toolu_%016x", rng.Uint64()), Cwd: "/home/dev/project", Tool: "Bash",
			Input: []byte(commands[rng.IntN(len(commands))]), Decision: "allow", Rules: []string{},
			Attended: rng.IntN(5) != 0, PermissionMode: "default", CatalogVersion: "2026.11.3",
			CatalogHash: "b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c", Version: "0.1.0-dev"}
		ran := true
		switch p := rng.IntN(100); {
		case p < 6:
			e.Decision, e.Rules, e.Reason = "ask", []string{"CURL-PIPE-SHELL"}, "downloads and runs code"
			ran = rng.IntN(2) == 0
		case p < 9:
			e.Decision, e.Rules, e.Reason = "deny", []string{"GIT-RESET-HARD"}, "discards uncommitted work"
			ran = false
		case p < 11:
			e.Kind, e.Decision, e.Rules, e.Reason = register.KindError, "ask", []string{"UNJUDGED"}, "could not parse"
			ran = false
		}
		if e.Decision != "allow" {
			flags = append(flags, seq)
			if rng.IntN(3) == 0 {
				label := []string{"true", "true", "true", "false", "unclear"}[rng.IntN(5)]
				queue = append(queue, &register.Entry{Kind: register.KindGrade, Label: label, SessionID: sess,
					Tool: "Bash", Input: []byte(`{"note":""}`), Rules: []string{}, Version: "0.1.0-dev"})
			}
		}
		if ran && rng.IntN(20) != 0 {
			queue = append(queue, &register.Entry{Kind: register.KindOutcome, Label: "ran", SessionID: sess,
				ToolUseID: e.ToolUseID, Tool: "Bash", Rules: []string{}, Version: "0.1.0-dev"})
		}
		return e
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fi, _ := os.Stat(*out)
	fmt.Printf("wrote %s: %d entries (%d calls, %d flags), %d MiB, in %s\n", *out, *n, call, len(flags), fi.Size()>>20, time.Since(t0).Round(time.Second))
}
