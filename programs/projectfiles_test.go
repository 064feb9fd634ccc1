package programs

import (
	"strings"
	"testing"
)

func TestProjectFiles(t *testing.T) {
	cases := []struct {
		line string
		want string // a file among ProjectFiles, with its language ("" none)
	}{
		{"npx vite build", "vite.config.js js"},
		{"npx jest", "jest.config.ts js"},
		{"pnpm exec eslint .", "eslint.config.mjs js"},
		{"rake", "Rakefile ruby"},
		{"bundle install", "Gemfile ruby"},
		{"brew bundle", "Brewfile ruby"},
		{"task build", "Taskfile.yml embedded"},
		{"tox", "tox.ini embedded"},
		{"hatch run clean", "pyproject.toml embedded"},
		{"deno task clean", "deno.json embedded"},
		{"docker compose up", "docker-compose.yml embedded"},
		{"cmake -B build", "CMakeLists.txt embedded"},
		{"./gradlew build", "build.gradle embedded"},
		{"awk -f clean.awk data.txt", "clean.awk embedded"},
		{"sed -f fix.sed README.md", "fix.sed embedded"},
		{"vim -es -S fmt.vim README.md", "fmt.vim embedded"},
		{"emacs --batch -l init.el", "init.el embedded"},
		{"gdb -batch -x dbg.gdb ./app", "dbg.gdb embedded"},
		{"cmake -P clean.cmake", "clean.cmake embedded"},
		{"gio launch run.desktop", "run.desktop embedded"},
		// no file: another subcommand, help, an awk program given inline
		{"brew install jq", ""},
		{"deno run x.ts", ""},
		{"docker compose ps", ""},
		{"vite --help", ""},
		{"awk '{print}' data.txt", ""},
		{"gio info x", ""},
	}
	for _, tc := range cases {
		f := strings.Fields(tc.line)
		var got []string
		for _, tf := range ProjectFiles(f[0], f[1:]) {
			got = append(got, tf.Path+" "+tf.Lang)
		}
		if tc.want == "" {
			if len(got) > 0 {
				t.Errorf("%s: %v, want none", tc.line, got)
			}
			continue
		}
		if !contains(got, tc.want) {
			t.Errorf("%s: %v, want %q among them", tc.line, got, tc.want)
		}
	}
	for base, want := range map[string]string{"CMakeLists.txt": LangEmbedded, "Rakefile": "ruby", "x.R": LangEmbedded,
		"vite.config.ts": "js", "Procfile": LangEmbedded, "notes.md": ""} {
		if got, _ := FileLang(base); got != want {
			t.Errorf("FileLang(%s) = %q, want %q", base, got, want)
		}
	}
	if !EmbedsShell("Rakefile") || EmbedsShell("Gemfile") {
		t.Error("EmbedsShell: a Rakefile's strings are commands, a Gemfile's are not")
	}
}
