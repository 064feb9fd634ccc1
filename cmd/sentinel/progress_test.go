package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/register"
)

// progressRegister writes a register of n entries where sentinel reads it.
func progressRegister(t *testing.T, n int) {
	t.Helper()
	isolate(t)
	path, err := paths.RegisterPath()
	if err != nil {
		t.Fatal(err)
	}
	r, err := register.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	// Per five entries: an allow and its outcome, an ask, a deny (no breach:
	// a breach's message would be stderr the test must tell from progress),
	// a grade of the ask.
	err = register.BulkLoad(r, n, func(i int) *register.Entry {
		e := &register.Entry{Kind: register.KindDecision, Time: at.Add(time.Duration(i) * time.Second), Tool: "Bash",
			ToolUseID: fmt.Sprintf("toolu_%d", i), Decision: []string{"allow", "", "ask", "deny", ""}[i%5], Rules: []string{},
			Input: []byte(`{"command":"ls"}`)}
		switch i % 5 {
		case 1:
			e.Kind, e.Input, e.Label, e.ToolUseID = register.KindOutcome, nil, register.LabelRan, fmt.Sprintf("toolu_%d", i-1)
		case 4:
			e.Kind, e.Input, e.Label, e.ToolUseID, e.Ref = register.KindGrade, nil, "true", "", int64(i-1)
		}
		return e
	})
	if err != nil {
		t.Fatal(err)
	}
}

// runOn runs the CLI with stderr on f and returns stdout and the exit code.
func runOn(f *os.File, args ...string) (string, int) {
	var out bytes.Buffer
	n := run(args, &out, f)
	return out.String(), n
}

// progressCommands are the long reads that draw a bar, each with the
// description its bar shows.
var progressCommands = []struct {
	args []string
	what string
}{
	{[]string{"verify", "--allow-unsealed"}, "verifying"},
	{[]string{"outcomes"}, "joining"},
	{[]string{"grades"}, "reading the register"},
	{[]string{"grades", "--ungraded"}, "reading the register"},
	{[]string{"replay"}, "replaying"},
	{[]string{"log", "-n", "0"}, "reading"},
}

// TestProgressOnlyOnATerminal: on a terminal (a pty) the long reads draw a
// bar on stderr and print the same stdout as without one; on a pipe, and
// with --json on the terminal, not one byte of progress is written, and
// --json's stdout is the same as without a terminal.
func TestProgressOnlyOnATerminal(t *testing.T) {
	progressRegister(t, 6000)
	old := progressDelay
	progressDelay = 0 // draw at once: the register is small
	defer func() { progressDelay = old }()
	for _, c := range progressCommands {
		name := strings.Join(c.args, " ")
		for _, asJSON := range []bool{false, true} {
			args := c.args
			if asJSON {
				args = append(append([]string(nil), args...), "--json")
			}
			// A pipe: nothing but the command's own messages.
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			piped, code := runOn(pw, args...)
			pw.Close()
			stderr, _ := io.ReadAll(pr)
			pr.Close()
			if bytes.Contains(stderr, []byte(c.what)) || bytes.ContainsAny(stderr, "\r\x1b") || len(stderr) > 0 && code == 0 {
				t.Errorf("%s (json %v): progress on a pipe: %q", name, asJSON, stderr)
			}
			// A terminal.
			ptmx, tty, err := pty.Open()
			if err != nil {
				t.Skipf("no pty on this machine: %v", err)
			}
			got := make(chan []byte)
			go func() { b, _ := io.ReadAll(ptmx); got <- b }()
			onTTY, code2 := runOn(tty, args...)
			tty.Close()
			drawn := <-got
			ptmx.Close()
			if onTTY != piped || code2 != code {
				t.Errorf("%s (json %v): stdout differs on a terminal (exit %d, %d):\n%s\n---\n%s", name, asJSON, code2, code, onTTY, piped)
			}
			switch {
			case asJSON && (bytes.Contains(drawn, []byte(c.what)) || bytes.ContainsAny(drawn, "\x1b") || len(drawn) > 0 && code == 0):
				t.Errorf("%s --json: progress bytes on the terminal: %q", name, drawn)
			case !asJSON && (!bytes.Contains(drawn, []byte(c.what)) || !bytes.ContainsAny(drawn, "\x1b")):
				t.Errorf("%s: no bar on the terminal: %q", name, drawn)
			}
		}
	}
}

// TestProgressQuietWhenQuick: a read that ends before progressDelay draws
// nothing, even on a terminal.
func TestProgressQuietWhenQuick(t *testing.T) {
	progressRegister(t, 3000)
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty on this machine: %v", err)
	}
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(ptmx); got <- b }()
	old := progressDelay
	progressDelay = time.Hour
	defer func() { progressDelay = old }()
	runOn(tty, "outcomes")
	tty.Close()
	if drawn := <-got; len(drawn) > 0 {
		t.Errorf("a quick read drew %q", drawn)
	}
	ptmx.Close()
}
