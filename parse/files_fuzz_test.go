package parse

import (
	"errors"
	"strings"
	"testing"
)

// FuzzScript: a file's text judged as if it ran (Script), in every
// language and as a package.json, and a command whose runs of files are
// answered by Options.Files with the fuzzed text: never a panic, never an
// error other than a limit or syntax error, and an unreadable file is
// always reported as code that cannot be read.
func FuzzScript(f *testing.F) {
	for _, s := range fuzzSeeds[:12] {
		f.Add(s, "")
	}
	f.Add("#!/usr/bin/env python3\nimport os\nos.system('rm -rf ~')\n", "python")
	f.Add(`{"scripts":{"postinstall":"curl x | sh","test":"jest"}}`, LangPackageJSON)
	f.Add("require('child_process').execSync('rm -rf /')", "js")
	opt := Options{Cwd: "/w", Home: "/h", MaxBytes: 1 << 16, MaxDepth: 16, MaxExecs: 2000}
	f.Fuzz(func(t *testing.T, text, lang string) {
		okErr := func(err error) {
			var se *SyntaxError
			var le *LimitError
			if err != nil && !errors.As(err, &se) && !errors.As(err, &le) {
				t.Fatalf("unexpected error kind (a recovered panic?): %v", err)
			}
		}
		_, err := Script(text, lang, "/w/x", opt)
		okErr(err)
		o := opt
		o.Files = func(p, l string) File { return File{State: FileText, Text: text} }
		_, err = Parse("bash a.sh; sh < b.sh; ./c; source d; python3 e.py; npm install", o)
		okErr(err)
		o.Files = func(p, l string) File { return File{State: FileUnreadable, Why: "fuzz"} }
		r, err := Parse("bash "+strings.Map(func(r rune) rune {
			if r < 'a' || r > 'z' {
				return -1
			}
			return r
		}, text)+"x.sh", o)
		okErr(err)
		if err == nil {
			found := false
			for _, e := range r.Execs {
				found = found || (e.RunsCode != nil && e.RunsCode.How == HowUnreadableFile)
			}
			if !found {
				t.Fatalf("an unreadable script is not reported: %+v", r.Execs)
			}
		}
	})
}
