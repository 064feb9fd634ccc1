package judge

import (
	"slices"
	"testing"
)

// Decide is a pure function of the call and Env: the process environment
// does not move the sentinel's protected paths; Env does.
func TestDecideReadsNoEnvironment(t *testing.T) {
	t.Setenv("HOME", "/elsewhere")
	t.Setenv("SENTINEL_HOME", "/srv/state")
	t.Setenv("XDG_CONFIG_HOME", "/srv/config")
	env := Env{Home: "/home/user", ProjectDir: "/home/user/proj", StateDir: "/var/sentinel", ConfigDir: "/etc/sentinel-op"}
	for _, c := range []struct{ protected, moved string }{
		{"rm /var/sentinel/register.db", "rm /srv/state/register.db"},
		{"cat /etc/sentinel-op/signing.key", "cat /srv/config/sentinel/signing.key"},
	} {
		guard := Decide(bash(c.protected), env).RuleIDs()
		other := Decide(bash(c.moved), env).RuleIDs()
		extra := slices.DeleteFunc(slices.Clone(guard), func(id string) bool { return slices.Contains(other, id) })
		if len(extra) == 0 {
			t.Errorf("%s: %v, and %s: %v; want a rule for the path in Env only", c.protected, guard, c.moved, other)
		}
	}
}
