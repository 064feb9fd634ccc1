package protocol

import (
	"testing"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/toolcall"
)

// The real catalog, each entry in the mode it was recorded in; the memo
// must not mix up calls that differ only in attendance or configuration.
func TestHookDeciderModesAndMemo(t *testing.T) {
	in, err := judge.Canonical("Bash", []byte(`{"command":"git reset --hard origin/main"}`))
	if err != nil {
		t.Fatal(err)
	}
	e := register.Entry{Kind: register.KindDecision, Tool: "Bash", Cwd: "/home/dev/proj", Input: in, PermissionMode: "default", Attended: true}
	d := HookDecider(nil, &toolcall.Environ{Home: "/home/dev"})
	for i := 0; i < 2; i++ { // the second round comes from the memo
		att, _ := d(e, nil)
		u := e
		u.Attended, u.PermissionMode = false, "bypassPermissions"
		unatt, _ := d(u, nil)
		if att.Decision != "ask" || unatt.Decision != "deny" || len(unatt.Rules) == 0 || unatt.Rules[0] != judge.RuleGitResetHard {
			t.Fatalf("round %d: attended %+v, unattended %+v", i, att, unatt)
		}
	}
	cfg, err := judge.ParseConfig("candidate.toml", `disable = ["GIT-RESET-HARD"]`, true)
	if err != nil {
		t.Fatal(err)
	}
	e.Attended, e.PermissionMode = false, "bypassPermissions"
	if got, _ := HookDecider(cfg, &toolcall.Environ{Home: "/home/dev"})(e, nil); got.Decision != "allow" {
		t.Fatalf("with the reset rule off: %+v", got)
	}
}
