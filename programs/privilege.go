package programs

import "strings"

// Rights that make a program root without sudo: file capabilities that
// let it change its user or bypass every permission check.
var rootCaps = []string{"cap_setuid", "cap_setgid", "cap_sys_admin", "cap_dac_override", "cap_dac_read_search",
	"cap_sys_ptrace", "cap_sys_module", "cap_chown", "cap_fowner", "all"}

// GrantsRootCaps reports setcap giving a file a capability that amounts to
// root (setcap cap_setuid+ep ./x); setcap -r and cap_net_bind_service pass.
func GrantsRootCaps(name string, args []string) bool {
	if name != "setcap" {
		return false
	}
	for _, a := range args {
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "-") || !strings.ContainsAny(l, "+=") {
			continue
		}
		for _, c := range rootCaps {
			if strings.Contains(l, c) && !strings.Contains(l, c+"-") {
				return true
			}
		}
	}
	return false
}
