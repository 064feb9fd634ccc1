package programs

import (
	"strings"
	"testing"
)

// TestTreeRunners: a runner that runs files it finds under its directory
// names them as patterns; a written file matches the patterns it is under.
func TestTreeRunners(t *testing.T) {
	cases := []struct {
		cmd  string
		file string // written at /p/FILE, the runner run in /p
		runs bool
	}{
		{"pytest -q", "tests/test_x.py", true},
		{"python3 -m unittest discover", "test_x.py", true},
		{"python3 -m pytest", "a/b/c/test_x.py", true},
		{"pytest -q", "tests/x.sh", false}, // not python
		{"pytest --version", "tests/test_x.py", false},
		{"npm run build --workspaces", "packages/a/package.json", true},
		{"npm run build --workspaces", "package.json", false}, // the root's is read exactly
		{"npm run build", "packages/a/package.json", false},
		{"pnpm -r run build", "packages/a/package.json", true},
		{"npm install", "vendor/x/package.json", true},
		{"npx turbo run build", "apps/web/package.json", true},
		{"npx jest", "src/x.test.ts", true},
		{"node --test", "test/x.test.mjs", true},
		{"node x.js", "test/x.test.mjs", false},
		{"bundle exec rspec", "spec/x_spec.rb", true},
		{"bundle install", "spec/x_spec.rb", false},
		{"vendor/bin/phpunit", "tests/XTest.php", true},
		{"pip install .", "backend.py", true},
		{"pip install requests", "backend.py", false},
		{"uv build", "hatch_build.py", true},
		{"terraform plan", "main.tf", true},
		{"terraform fmt", "main.tf", false},
		{"dotnet build", "Directory.Build.targets", true},
		{"run-parts hooks.d", "hooks.d/10-x", true},
		{"run-parts hooks.d", "other.d/10-x", false},
		{"python3 -c 'import requests'", ".venv/lib/python3.12/site-packages/requests/__init__.py", true},
		{"python3 -c 'import requests'", ".venv/lib/python3.12/site-packages/urllib3/__init__.py", false},
		{"node -e \"require('lodash')\"", "node_modules/lodash/index.js", true},
	}
	for _, tc := range cases {
		f := strings.Fields(tc.cmd)
		if strings.Contains(tc.cmd, "'") || strings.Contains(tc.cmd, "\"") {
			i := strings.IndexAny(tc.cmd, "'\"")
			f = append(strings.Fields(tc.cmd[:i]), strings.Trim(tc.cmd[i:], "'\""))
		}
		got := false
		for _, tf := range ToolFiles(f[0], f[1:]) {
			p := tf.Path
			if !strings.HasPrefix(p, "/") {
				p = "/p/" + p
			}
			if TreeMatch(p, "/p/"+tc.file) || p == "/p/"+tc.file {
				got = true
			}
		}
		if got != tc.runs {
			t.Errorf("%s with /p/%s written: runs it %v, want %v", tc.cmd, tc.file, got, tc.runs)
		}
	}
}

// TestTreeFactsBounded: the patterns of a deep file stay bounded and never
// name the root.
func TestTreeFactsBounded(t *testing.T) {
	p := "/" + strings.Repeat("d/", 40) + "x.py"
	fs := TreeFacts(p)
	if len(fs) > 3*maxTreeDepth+2 {
		t.Errorf("%d patterns for a file 40 deep", len(fs))
	}
	for _, f := range fs {
		if strings.HasPrefix(f, "/**") {
			t.Errorf("a pattern of the root: %s", f)
		}
	}
}
