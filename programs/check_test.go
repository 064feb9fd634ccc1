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
