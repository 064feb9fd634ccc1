package interp

import (
	"testing"
	"time"
)

// Typical one-liners, one per language.
var benchCode = []struct{ lang, code string }{
	{"python", `import subprocess; print(subprocess.check_output(['git', 'rev-parse', 'HEAD']).decode())`},
	{"js", `const fs=require('fs'); console.log(JSON.parse(fs.readFileSync('package.json')).version)`},
	{"ruby", `puts File.read("Gemfile").lines.size`},
	{"php", `echo json_encode(json_decode(file_get_contents("composer.json")));`},
}

func BenchmarkAnalyze(b *testing.B) {
	for _, c := range benchCode {
		b.Run(c.lang, func(b *testing.B) {
			for b.Loop() {
				if _, err := Analyze(c.code, c.lang, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestFirstUse reports what the first analysis in a process costs per
// language (grammar object and parser built on first use). It is a
// figure for docs/parse.md, not a timed assertion.
func TestFirstUse(t *testing.T) {
	for _, c := range benchCode {
		start := time.Now()
		if _, err := Analyze(c.code, c.lang, opt); err != nil {
			t.Fatal(err)
		}
		first := time.Since(start)
		start = time.Now()
		Analyze(c.code, c.lang, opt)
		t.Logf("%s: first %v, second %v", c.lang, first, time.Since(start))
	}
}
