package judge

import (
	"strings"
	"testing"
	"time"
)

// TestMakeShellBounded: self-referring variables and huge makefiles end
// quickly with bounded text.
func TestMakeShellBounded(t *testing.T) {
	text := "X = $(X)$(X)$(X)$(X)\nall:\n" + strings.Repeat("\techo $(X) $(X)\n", 5000)
	t0 := time.Now()
	sh := makeShell(text, nil)
	if len(sh) > maxMakeText+64<<10 || time.Since(t0) > 5*time.Second {
		t.Fatalf("%d bytes in %v", len(sh), time.Since(t0))
	}
}

// FuzzMakeShell: any makefile text gives shell text without a panic, and
// the judge gives a decision for make over it.
func FuzzMakeShell(f *testing.F) {
	f.Add("all: b\nb:\n\t@rm -rf $(X)\nX ?= ~\n", "all")
	f.Add("V != git rev-parse HEAD\n%.o: %.c\n\t$(CC) -c $< -o $@ $$HOME ${V}\n", "")
	f.Fuzz(func(t *testing.T, text, goal string) {
		var goals []string
		if goal != "" {
			goals = []string{goal}
		}
		if sh := makeShell(text, goals); len(sh) > maxMakeText+(1<<20) {
			t.Fatalf("%d bytes of shell", len(sh))
		}
	})
}
