package judge

import "github.com/sentinel-guard/sentinel/programs"

// setcap with a capability that amounts to root is PRIV-SETUID's: the file
// runs with rights its user does not have (programs/privilege.go).
var _ = onExec(func(j *judge, x execution) {
	if programs.GrantsRootCaps(x.e.Name, x.args) {
		j.add(RulePrivSetuid, x.detail)
	}
})
