package programs

import (
	"strings"
	"testing"
)

// TestChecksOnly: a syntax check reads the code and runs none of it; the
// same program given the file as a script, or code inline, runs it.
func TestChecksOnly(t *testing.T) {
	for cmd, want := range map[string]bool{
		"bash -n x.sh":                     true,
		"sh -n x.sh":                       true,
		"bash -nv x.sh":                    true,
		"bash -o pipefail -n x.sh":         true,
		"zsh -n x.zsh":                     true,
		"fish --no-execute x.fish":         true,
		"node -c x.js":                     true,
		"node --check x.js":                true,
		"node -r ./hook.js --check x.js":   true,
		"ruby -c x.rb":                     true,
		"php -l x.php":                     true,
		"python3 -m py_compile x.py":       true,
		"python3 -mpy_compile x.py":        true,
		"python3 -m compileall src":        true,
		"python3 -W error -m py_compile x": true,
		"bash x.sh -n":                     false, // -n is the script's argument
		"bash -x x.sh":                     false,
		"bash -c 'rm -rf ~' -n":            false,
		"node x.js --check":                false,
		"node -e 'x' -c":                   false,
		"python3 -c 'x' -m py_compile":     false,
		"python3 -m pytest":                false,
		"python3 x.py -m py_compile":       false,
		"perl -c x.pl":                     false, // perl -c runs BEGIN blocks
		"cat -n x.sh":                      false,
	} {
		f := strings.Fields(strings.ReplaceAll(cmd, "'", ""))
		if got := Lookup(f[0]).ChecksOnly(f[1:]); got != want {
			t.Errorf("%s: ChecksOnly %v, want %v", cmd, got, want)
		}
	}
}

// TestGitExpand: abbreviations resolve as git's parse-options resolves
// them; values, operands and what follows "--" are left alone.
func TestGitExpand(t *testing.T) {
	for in, want := range map[string]string{
		"reset --har":              "reset --hard",
		"reset --hard":             "reset --hard",
		"push --mirr origin":       "push --mirror origin",
		"push --forc origin":       "push --force origin",
		"push --force-w origin":    "push --force-with-lease origin",
		"branch --del --forc x":    "branch --delete --force x",
		"clean --forc -n":          "clean --force -n",
		"clean --forc --dry":       "clean --force --dry-run",
		"commit -m --forc":         "commit -m --forc",
		"push origin -- --forc":    "push origin -- --forc",
		"push --repo=x --mirr":     "push --repo=x --mirror",
		"push --recurse-sub=check": "push --recurse-submodules=check",
		"status --shor":            "status --shor", // a subcommand not in the table: as written
	} {
		sub, rest, _ := GitSplit(strings.Fields(in))
		got := strings.Join(append([]string{sub}, rest...), " ")
		if got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	// --config-env as two words is the = form.
	if _, _, cfg := GitSplit([]string{"--config-env", "core.hooksPath=H", "commit"}); len(cfg) != 1 || cfg[0] != "core.hooksPath=H" {
		t.Errorf("--config-env as two words: %v", cfg)
	}
}
