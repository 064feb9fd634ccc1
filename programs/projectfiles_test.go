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
		{"flask --app app run", "app.py python"},
		{"uvicorn app:app --reload", "app.py python"},
		{"celery -A proj.tasks worker", "proj/tasks.py python"},
		{"streamlit run dash.py", "dash.py python"},
		{"coverage run x.py", "x.py python"},
		{"python3 -m pdb -c continue x.py", "x.py python"},
		{"python3 -m cProfile x.py", "x.py python"},
		{"node -r ./x.js -e 0", "./x.js js"},
		{"npx mocha x.js", "x.js js"},
		{"pm2 start x.js", "x.js js"},
		{"npx nodemon --exec ./job.sh", "./job.sh "},
		{"npx concurrently ./job.sh", "./job.sh "},
		{"pnpm exec ./job.sh", "./job.sh "},
		{"npx c8 node x.js", "x.js js"},
		// no file: another subcommand, help, an awk program given inline
		{"brew install jq", ""},
		{"deno fmt x.ts", ""},
		{"docker compose ps", ""},
		{"vite --help", ""},
		{"awk '{print}' data.txt", ""},
		{"gio info x", ""},
		{"python3 -m http.server", ""},
		{"pm2 logs", ""},
	}
	for _, tc := range cases {
		f := strings.Fields(tc.line)
		var got []string
		for _, tf := range ToolFiles(f[0], f[1:]) {
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

func TestLaunchers(t *testing.T) {
	for line, want := range map[string]string{
		"perf stat -- ./job.sh":            "./job.sh",
		"perf record -g ./job.sh":          "./job.sh",
		"xterm -e ./job.sh":                "./job.sh",
		"gnome-terminal -- ./job.sh":       "./job.sh",
		"bwrap --bind / / ./job.sh":        "./job.sh",
		"distrobox enter box -- ./job.sh":  "./job.sh",
		"mise x -- ./job.sh":               "./job.sh",
		"c8 node x.js":                     "node",
		"cross-env NODE_ENV=test ./job.sh": "./job.sh",
		"perf list":                        "",
		"xterm":                            "",
		"distrobox list":                   "",
	} {
		f := strings.Fields(line)
		l, ok := Lookup(f[0]).Launch(f[1:])
		got := ""
		if ok && l.At < len(f)-1 {
			got = f[1+l.At]
		}
		if got != want {
			t.Errorf("%s: launches %q, want %q", line, got, want)
		}
	}
}
