package judge

import (
	"strings"
	"testing"
)

// TestInterpOverLimit: interpreter code the grammar cannot read within its
// limits is not judged: ask attended, deny unattended, an error decision
// (Decision.Error) with a reason that says which limit; the same code
// within the limits is judged as usual.
func TestInterpOverLimit(t *testing.T) {
	big := "x = [" + strings.Repeat("1,", 120_000) + "]" // over the grammar's syntax-node limit
	cases := []struct {
		cmd  string
		want Verdict
	}{
		{"python3 -c '" + big + "'", Ask},
		{"python3 <<'EOF'\n" + big + "\nEOF", Ask},
		{"python3 -c 'x = [1, 2, 3]'", Allow},
		{"node -e 'const x = [" + strings.Repeat("1,", 120_000) + "]'", Ask},
	}
	for _, tc := range cases {
		for _, unatt := range []bool{false, true} {
			env := testEnv(t)
			env.Unattended = unatt
			d := Decide(bash(tc.cmd), env)
			want := tc.want
			if unatt && want == Ask {
				want = Deny
			}
			if d.Verdict != want {
				t.Errorf("%.40q (unattended %v): %s %v, want %s", tc.cmd, unatt, d.Decision, d.RuleIDs(), want)
			}
			if tc.want != Allow && (!contains(d.RuleIDs(), RuleSentinelUnjudged) || !strings.Contains(d.Error, "code over the analysis limit: ")) {
				t.Errorf("%.40q: rules %v, error %q: want SENTINEL-UNJUDGED saying which limit", tc.cmd, d.RuleIDs(), d.Error)
			}
		}
	}
}
