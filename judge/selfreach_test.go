package judge

import (
	"strings"
	"testing"
	"time"
)

// globMayMatch: a pattern can name the directory, what holds it, or what
// is inside it; and a pattern of thousands of "**" is decided at once
// (a recursive match was exponential in them).
func TestGlobMayMatch(t *testing.T) {
	dir := strings.Split("home/user/.local/state/sentinel", "/")
	for _, c := range []struct {
		pat  string
		want bool
	}{
		{"home/user/.local/state/*/gate.json", true},
		{"home/user/.local/*", true},
		{"home/*/.local/st*/**/register.db", true},
		{"home/user/**", true},
		{"**/gate.json", true},
		{"home/user/proj/*/gate.json", false},
		{"home/user/*.txt", false},
		{"home/user/.config/**/*.key", false},
		{"etc/*", false},
	} {
		if got := globMayMatch(strings.Split(c.pat, "/"), dir); got != c.want {
			t.Errorf("%s: %v, want %v", c.pat, got, c.want)
		}
	}
	long := strings.Split(strings.Repeat("**/x/", 5000)+"y", "/")
	start := time.Now()
	globMayMatch(long, dir)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("5000 ** segments took %s", d)
	}
}
