package parse

import (
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// Typical Claude Code Bash commands, 10-200 characters.
var benchTypical = []string{
	"git status",
	"ls -la src/",
	"go test ./parse/ -run TestSeedCases -v 2>&1 | tail -20",
	"cd /work/main && git add parse/ && git commit -m \"parse: walker, tests\" -- parse/",
	"find . -name '*.go' -not -path './vendor/*' | xargs grep -n 'TODO' | head -50",
	"npm install && npm run build && npm test -- --coverage 2>&1 | tee build.log",
	`python3 -c "import json,sys; print(json.load(open('package.json'))['version'])"`,
	"for f in $(git diff --name-only HEAD~1); do gofmt -l \"$f\"; done",
}

// Inputs of the maximum size (1 MiB), decided or refused by the limits.
var benchHuge = map[string]string{
	"over-bytes":  strings.Repeat("a", DefaultMaxBytes+1),
	"one-arg":     "echo '" + strings.Repeat("x", DefaultMaxBytes-8) + "'",
	"heredoc":     "cat > f.js <<'EOF'\n" + strings.Repeat("f(a|b); if (x) { g(); }\n", DefaultMaxBytes/32) + "EOF\n",
	"many-cmds":   strings.Repeat("a;", DefaultMaxBytes/2),
	"many-lines":  strings.Repeat("a\n", DefaultMaxBytes/2),
	"deep-parens": strings.Repeat("(", DefaultMaxBytes/2) + strings.Repeat(")", DefaultMaxBytes/2),
	"long-pipe":   strings.Repeat("a|", DefaultMaxBytes/2-1) + "a",
	"deep-if":     strings.Repeat("if a; then ", DefaultMaxBytes/16) + "b; " + strings.Repeat("fi; ", DefaultMaxBytes/16),
	"many-substs": "echo " + strings.Repeat("$(a) ", DefaultMaxBytes/5-2),
}

// BenchmarkParse measures Parse on typical commands; BenchmarkSyntaxOnly
// is the baseline: mvdan.cc/sh parsing the same inputs, nothing else.
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, s := range benchTypical {
			if _, err := Parse(s, opts); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkSyntaxOnly(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, s := range benchTypical {
			p := syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash))
			if _, err := p.Parse(strings.NewReader(s), ""); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkParseHuge(b *testing.B) {
	for _, name := range []string{"over-bytes", "one-arg", "heredoc", "many-cmds", "many-lines", "deep-parens", "long-pipe", "deep-if", "many-substs"} {
		src := benchHuge[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Parse(src, Options{})
			}
		})
	}
}

// TestHugeInputsDecided checks that every maximum-size input ends in a
// result or a limit error (never a crash), and which.
func TestHugeInputsDecided(t *testing.T) {
	if testing.Short() {
		t.Skip("1 MiB inputs")
	}
	for name, src := range benchHuge {
		_, err := Parse(src, Options{})
		var le *LimitError
		switch name {
		case "one-arg", "heredoc":
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		default:
			if err == nil || !asLimit(err, &le) {
				t.Errorf("%s: want a limit error, got %v", name, err)
			}
		}
	}
}

func asLimit(err error, le **LimitError) bool {
	l, ok := err.(*LimitError)
	*le = l
	return ok
}

// BenchmarkRatio alternates Parse and the syntax-only baseline on the same
// inputs within each iteration, so that a noisy shared machine slows both
// alike, and reports Parse's time over the baseline's as "x-baseline".
func BenchmarkRatio(b *testing.B) {
	var tParse, tBase time.Duration
	for i := 0; i < b.N; i++ {
		for _, s := range benchTypical {
			t0 := time.Now()
			p := syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash))
			if _, err := p.Parse(strings.NewReader(s), ""); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			if _, err := Parse(s, opts); err != nil {
				b.Fatal(err)
			}
			tParse += time.Since(t1)
			tBase += t1.Sub(t0)
		}
	}
	b.ReportMetric(float64(tParse)/float64(tBase), "x-baseline")
	b.ReportMetric(float64(tParse.Nanoseconds())/float64(b.N*len(benchTypical)), "ns/command")
}
