// Command gotest runs go test and says what it skipped. go test without -v
// prints "ok" for a package whose suite skipped (no chromium, no Claude Code
// binary), so a reader cannot tell a suite that ran from one that did not.
// This runs `go test -json ARGS`, prints what plain go test prints (each
// package's closing line, the output of failing tests, build errors), then
// one closing line naming each skipped test and why:
//
//	skipped 2 tests: census TestPageScreenshot (/usr/bin/chromium not installed ...); e2e/claudecode TestClaudeCode (no Claude Code binary at ...)
//
// or "skipped 0 tests". The exit status is go test's. `make test` and .ci/run run
// it: go run ./scripts/gotest ./...
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
)

// event is one line of go test -json (test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

// skip is a group of skipped tests of one package with one reason.
type skip struct {
	pkg, why string
	tests    []string
}

// fileLine is the "    x_test.go:12: " a t.Skip message starts with.
var fileLine = regexp.MustCompile(`^\s+[\w.-]+\.go:\d+: `)

func main() {
	args := append([]string{"test", "-json"}, os.Args[1:]...)
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(1)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(1)
	}
	skips := summarise(out, os.Stdout)
	err = cmd.Wait()
	mod, _ := exec.Command("go", "list", "-m").Output()
	fmt.Println(skipLine(skips, strings.TrimSpace(string(mod))+"/"))
	if ee, ok := err.(*exec.ExitError); ok {
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(1)
	}
}

// summarise copies to w what go test without -v would print and returns
// the skipped tests, grouped by package and reason.
func summarise(r io.Reader, w io.Writer) []*skip {
	type key struct{ pkg, test string }
	held := map[key][]string{} // a running test's output, printed only if it fails
	groups := map[[2]string]*skip{}
	var order []*skip
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if json.Unmarshal(line, &e) != nil {
			fmt.Fprintln(w, string(line)) // not test2json: pass it on
			continue
		}
		k := key{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(w, e.Output)
		case e.Test == "" && e.Action == "output":
			if e.Output != "PASS\n" { // -json runs the binary verbose; plain go test prints no PASS
				fmt.Fprint(w, e.Output)
			}
		case e.Test == "":
		case e.Action == "output":
			held[k] = append(held[k], e.Output)
		case e.Action == "fail":
			for _, s := range held[k] {
				fmt.Fprint(w, s)
			}
			delete(held, k)
		case e.Action == "skip":
			why := reason(held[k])
			delete(held, k)
			g := groups[[2]string{e.Package, why}]
			if g == nil {
				g = &skip{pkg: e.Package, why: why}
				groups[[2]string{e.Package, why}] = g
				order = append(order, g)
			}
			g.tests = append(g.tests, e.Test)
		case e.Action == "pass":
			delete(held, k)
		}
	}
	return order
}

// scriptSkip is a testscript's skip command as its log echoes it
// ("> [!exec:cosign] skip 'why'"): the script's reason, where the only
// file:line in its output is testscript's own "WORK=..." line.
var scriptSkip = regexp.MustCompile(`^\s+> (?:\[[^\]]*\]\s*)*skip\b\s*(.*)$`)

// reason is the last t.Skip message (or testscript skip) in a test's output.
func reason(lines []string) string {
	why := ""
	for _, l := range lines {
		if m := scriptSkip.FindStringSubmatch(strings.TrimRight(l, "\n")); m != nil {
			why = strings.Trim(strings.TrimSpace(m[1]), `'"`)
			if why == "" {
				why = "the script's skip gave no reason"
			}
		} else if fileLine.MatchString(l) {
			why = strings.TrimSpace(fileLine.ReplaceAllString(l, ""))
		}
	}
	if why == "" {
		return "no reason given"
	}
	return why
}

// skipLine is the closing line: each group (its package without the
// module's prefix), its tests (the first three named) and its reason.
func skipLine(groups []*skip, modPrefix string) string {
	n := 0
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].pkg < groups[j].pkg })
	var parts []string
	for _, g := range groups {
		n += len(g.tests)
		names := g.tests
		more := ""
		if len(names) > 3 {
			more = fmt.Sprintf(" +%d more", len(names)-3)
			names = names[:3]
		}
		parts = append(parts, fmt.Sprintf("%s %s%s (%s)", strings.TrimPrefix(g.pkg, modPrefix), strings.Join(names, ", "), more, g.why))
	}
	if n == 0 {
		return "skipped 0 tests"
	}
	noun := "tests"
	if n == 1 {
		noun = "test"
	}
	return fmt.Sprintf("skipped %d %s: %s", n, noun, strings.Join(parts, "; "))
}
