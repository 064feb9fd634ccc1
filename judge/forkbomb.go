package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
)

// SYS-FORK-BOMB: a function defined in the command that calls itself
// (:(){ :|:& };:, bomb(){ bomb|bomb & }; bomb). Run, it multiplies until
// the user's process limit is reached and the machine stops answering.
// parse reports the functions that call themselves (Result.Recursive); a
// one-line command has no business recursing.

// RuleSysForkBomb is spelled as its id.
const RuleSysForkBomb = "SYS-FORK-BOMB"

var _ = rules(Rule{ID: RuleSysForkBomb, Class: ClassPrivilege, Severity: SevHigh, Decision: Deny,
	Reason:      "a function that calls itself (a fork bomb) exhausts the machine's processes",
	Alternative: "write the loop out, with a bound",
	Matches:     "a function defined in the command that calls itself when run: `:(){ :|:& };:`",
	Fire:        []string{":(){ :|:& };:", "bomb() { bomb | bomb & }; bomb", "f(){ g; }; g(){ f & }; f"},
	Pass:        []string{"f() { echo hi; }; f; f", "build() { make -C \"$1\"; }; build a; build b", ":"},
})

var _ = onCommand(func(j *judge, res *parse.Result) {
	if len(res.Recursive) > 0 {
		j.add(RuleSysForkBomb, "function "+strings.Join(res.Recursive, ", ")+" calls itself")
	}
})
