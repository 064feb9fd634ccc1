package main

import (
	"bytes"
	"strings"
	"testing"
)

// A stream as go test -json writes it: a passing package, a package whose
// test skipped, a testscript that skipped, a failing test and a build error.
const stream = `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestOK"}
{"Action":"output","Package":"m/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"m/a","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}
{"Action":"pass","Package":"m/a","Test":"TestOK"}
{"Action":"output","Package":"m/a","Output":"PASS\n"}
{"Action":"output","Package":"m/a","Output":"ok  \tm/a\t0.01s\n"}
{"Action":"pass","Package":"m/a"}
{"Action":"run","Package":"m/b","Test":"TestPage"}
{"Action":"output","Package":"m/b","Test":"TestPage","Output":"=== RUN   TestPage\n"}
{"Action":"output","Package":"m/b","Test":"TestPage","Output":"    page_test.go:17: no chromium\n"}
{"Action":"output","Package":"m/b","Test":"TestPage","Output":"--- SKIP: TestPage (0.00s)\n"}
{"Action":"skip","Package":"m/b","Test":"TestPage"}
{"Action":"run","Package":"m/b","Test":"TestScripts/cosign"}
{"Action":"output","Package":"m/b","Test":"TestScripts/cosign","Output":"    testscript.go:609: WORK=$WORK\n"}
{"Action":"output","Package":"m/b","Test":"TestScripts/cosign","Output":"        > [!exec:cosign] skip 'cosign is not on PATH'\n"}
{"Action":"output","Package":"m/b","Test":"TestScripts/cosign","Output":"        \n"}
{"Action":"skip","Package":"m/b","Test":"TestScripts/cosign"}
{"Action":"run","Package":"m/b","Test":"TestBad"}
{"Action":"output","Package":"m/b","Test":"TestBad","Output":"    bad_test.go:3: got 1, want 2\n"}
{"Action":"output","Package":"m/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"m/b","Test":"TestBad"}
{"Action":"output","Package":"m/b","Output":"FAIL\n"}
{"Action":"output","Package":"m/b","Output":"FAIL\tm/b\t0.02s\n"}
{"Action":"fail","Package":"m/b"}
{"ImportPath":"m/c","Action":"build-output","Output":"c.go:1: syntax error\n"}
`

func TestSummarise(t *testing.T) {
	var w bytes.Buffer
	skips := summarise(strings.NewReader(stream), &w)
	want := "ok  \tm/a\t0.01s\n    bad_test.go:3: got 1, want 2\n--- FAIL: TestBad (0.00s)\nFAIL\nFAIL\tm/b\t0.02s\nc.go:1: syntax error\n"
	if w.String() != want {
		t.Errorf("printed\n%q\nwant\n%q", w.String(), want)
	}
	if got := skipLine(skips, "m/"); got != "skipped 2 tests: b TestPage (no chromium); b TestScripts/cosign (cosign is not on PATH)" {
		t.Errorf("closing line %q", got)
	}
	if got := skipLine(nil, "m/"); got != "skipped 0 tests" {
		t.Errorf("closing line %q", got)
	}
}
