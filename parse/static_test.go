package parse

import "testing"

// Static evaluation (issue 12 class 8 and its false flags): values the
// shell computes from text the command holds are computed here too.
func TestStaticValues(t *testing.T) {
	runCases(t, []tcase{
		// a lone "[" is the test command, not a bracket glob
		{src: `[ -n "$(git status --porcelain)" ]`, want: []want{{argv: "git status --porcelain", name: "git"}, {argv: "[ -n $(git status --porcelain) ]", name: "[", static: "SSDS"}}},
		{src: `while [ -n "x" ]; do sleep 1; done`, want: []want{{argv: "[ -n x ]", name: "[", static: "SSSS"}}},
		{src: `ls a[]`, want: []want{{argv: "ls a[]", name: "ls", static: "SS"}}},
		{src: `rm -rf /tmp/[ab]`, want: []want{{argv: "rm -rf /tmp/[ab]", name: "rm", static: "SSD"}}},
	})
}
