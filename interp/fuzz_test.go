package interp

import (
	"strings"
	"testing"
)

// FuzzAnalyze: any code in any language gives facts or an error, never a
// panic, and never a fact without a via.
func FuzzAnalyze(f *testing.F) {
	for _, c := range benchCode {
		f.Add(c.lang, c.code)
	}
	f.Add("python", `import shutil, os; shutil.rmtree(os.path.expanduser('~'))`)
	f.Add("python", `exec(bytes.fromhex('6f732e73797374656d28276c732729'))`)
	f.Add("js", "cp['ex'+'ecSync'](`rm -rf ${os.homedir()}`)")
	f.Add("ruby", "`rm -rf #{Dir.home}`; FileUtils.rm_rf(ENV['HOME'])")
	f.Add("php", `$f = "sys"."tem"; $f("id"); eval(base64_decode("aWQ="));`)
	f.Fuzz(func(t *testing.T, lang, code string) {
		langs := Langs
		if lang != "" {
			langs = []string{Langs[int(lang[0])%len(Langs)]}
		}
		for _, l := range langs {
			fs, err := Analyze(code, l, Options{Home: "/h", Cwd: "/h/p", Tainted: strings.Contains(code, "$")})
			if err != nil {
				continue
			}
			for _, c := range fs.Commands {
				if c.Via == "" {
					t.Fatalf("%s %q: command without via", l, code)
				}
			}
		}
	})
}
