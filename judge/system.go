package judge

import (
	"regexp"
	"strings"
	"sync"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RulePrivSudoers      = "PRIV-SUDOERS"
	RuleSysShutdown      = "SYS-SHUTDOWN"
	RuleSysKillAll       = "SYS-KILL-ALL"
	RuleSysServiceStop   = "SYS-SERVICE-STOP"
	RuleSysFirewallFlush = "SYS-FIREWALL-FLUSH"
	RuleSysCrontabRemove = "SYS-CRONTAB-REMOVE"
)

var _ = rules(
	Rule{ID: RulePrivSudoers, Class: ClassPrivilege, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "changing sudoers grants permanent root access",
		Alternative: "leave sudoers to the operator",
		Matches:     "writing `/etc/sudoers*`, `visudo`, adding a user to `sudo`/`wheel`/`admin`",
		Fire:        []string{"visudo", "echo 'agent ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers"},
		Pass:        []string{"groups", "id -u"}},
	Rule{ID: RuleSysShutdown, Class: ClassPrivilege, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "shutting down or rebooting the machine",
		Alternative: "leave power management to the operator",
		Matches:     "`shutdown`, `reboot`, `halt`, `poweroff`, `init 0/6`, `systemctl poweroff/reboot/halt/kexec`, a write to `/proc/sysrq-trigger` (destroy2.go)",
		Fire:        []string{"shutdown -h now", "systemctl reboot", "echo b > /proc/sysrq-trigger", "echo o | sudo tee /proc/sysrq-trigger"},
		Pass:        []string{"uptime", "systemctl status nginx", "cat /proc/sys/kernel/sysrq"}},
	Rule{ID: RuleSysKillAll, Class: ClassPrivilege, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "killing every process the user can reach",
		Alternative: "kill the specific process id",
		Matches:     "`kill -9 -1` (pid -1), `killall5`, `pkill -u USER` with no pattern; a signal (not 0) to pid 1, `pkill`/`killall` of init, systemd or launchd, `kill` of the pids `pidof`/`pgrep` print for them (destroy2.go)",
		Fire:        []string{"kill -9 -1", "killall5", "kill -9 1", "kill -SEGV 1", "killall -9 systemd", "kill -9 $(pidof systemd)"},
		Pass:        []string{"kill -9 1234", "kill -1 1234", "kill -0 1", "kill 12", "pkill -f 'node server.js'", "kill -0 $(pidof systemd)", "sudo kill -HUP 1"}},
	Rule{ID: RuleSysServiceStop, Class: ClassPrivilege, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "stopping, disabling or masking a system service",
		Alternative: "ask the operator",
		Matches:     "`systemctl stop/disable/mask/kill UNIT`, `service X stop`, `launchctl unload/bootout`",
		Fire:        []string{"systemctl stop nginx", "systemctl mask sshd"},
		Pass:        []string{"systemctl status nginx", "systemctl restart --user app"}},
	Rule{ID: RuleSysFirewallFlush, Class: ClassPrivilege, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "flushing or disabling the firewall",
		Alternative: "change one specific rule with the operator's consent",
		Matches:     "`iptables -F/-X`, `-P … ACCEPT`, `ufw disable/reset`, `nft flush ruleset`, `pfctl -d/-F`, stopping firewalld/ufw/nftables, `setenforce 0`",
		Fire:        []string{"iptables -F", "ufw disable"},
		Pass:        []string{"iptables -L", "ufw status"}},
	Rule{ID: RuleSysCrontabRemove, Class: ClassPrivilege, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "crontab -r deletes every scheduled job of the user",
		Alternative: "`crontab -l` to inspect; edit single entries",
		Matches:     "`crontab -r` (also `-ir`)",
		Fire:        []string{"crontab -r"},
		Pass:        []string{"crontab -l"}},
)

// system judges privilege, system, infrastructure and data commands.
func (j *judge) system(all []parse.Exec, i int, e *parse.Exec, args []string, detail string) {
	prog := programs.Lookup(e.Name)
	switch canon(prog, e.Name) {
	case "sudo", "doas", "pkexec": // run0 is pkexec
		// reached only when nothing was unwrapped: sudo -i, sudo -s, sudo su
		if len(args) > 0 && onlyOptions(args) && !containsAny(args, "-i", "-s", "--login", "--shell") {
			return // sudo -l, -v, -k
		}
		if len(args) > 0 {
			j.add(RulePrivSudo, detail)
		}
	case "su", "sg", "machinectl": // runuser is su
		j.add(RulePrivSudo, detail)
	case "visudo":
		j.add(RulePrivSudoers, detail)
	case "usermod", "gpasswd", "adduser", "addgroup", "dseditgroup":
		for _, a := range args {
			for _, g := range strings.Split(a, ",") {
				if g == "sudo" || g == "wheel" || g == "admin" || g == "root" {
					j.add(RulePrivSudoers, detail)
					return
				}
			}
		}
	case "shutdown", "reboot", "halt", "poweroff":
		j.add(RuleSysShutdown, detail)
	case "init", "telinit":
		if len(args) > 0 && (args[0] == "0" || args[0] == "6") {
			j.add(RuleSysShutdown, detail)
		}
	case "systemctl", "loginctl":
		j.systemctl(args, detail)
	case "service":
		if len(args) >= 2 && (args[1] == "stop" || args[1] == "disable") {
			if isFirewallUnit(args[0]) {
				j.add(RuleSysFirewallFlush, detail)
			} else {
				j.add(RuleSysServiceStop, detail)
			}
		}
	case "launchctl":
		if len(args) > 0 && containsAny(args[:1], "unload", "bootout", "disable", "remove", "stop") {
			j.add(RuleSysServiceStop, detail)
		}
	case "kill":
		if killsAll(args) {
			j.add(RuleSysKillAll, detail)
		}
	case "killall5":
		j.add(RuleSysKillAll, detail)
	case "pkill": // killall, skill, slay
		o := prog.Parse(args)
		if len(o.Pos) == 0 && o.Value('u', "user") != "" {
			j.add(RuleSysKillAll, detail)
		}
	case "iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft":
		o := parseOpts(args, "tP")
		if o.Has('F', "flush") || o.Has('X', "delete-chain") || strings.EqualFold(lastOr(args), "ACCEPT") && o.Values["P"] != "" {
			j.add(RuleSysFirewallFlush, detail)
		}
	case "ufw":
		if containsAny(args, "disable", "reset") {
			j.add(RuleSysFirewallFlush, detail)
		}
	case "nft":
		s := strings.Join(args, " ")
		if strings.Contains(s, "flush ruleset") || strings.Contains(s, "delete table") || strings.Contains(s, "flush table") {
			j.add(RuleSysFirewallFlush, detail)
		}
	case "pfctl":
		o := parseOpts(args, "F")
		if o.Short['d'] || o.Values["F"] != "" {
			j.add(RuleSysFirewallFlush, detail)
		}
	case "setenforce":
		if len(args) > 0 && (args[0] == "0" || strings.EqualFold(args[0], "permissive")) {
			j.add(RuleSysFirewallFlush, detail)
		}
	case "crontab":
		if prog.Parse(args).Short['r'] {
			j.add(RuleSysCrontabRemove, detail)
		}
	}
	// Infrastructure, cluster, cloud and database programs: the model says
	// what tears down what they manage (Destroys) and which run SQL.
	if prog.Is(programs.Database) && prog.Destroys == nil {
		j.sql(all, i, e, args, detail)
	} else if rawProtocol(prog, e) {
		// printf 'FLUSHALL\r\n' | nc cache 6379: a database's protocol typed
		// by hand is its client (infra.go)
		j.sql(all, i, e, args, detail)
	} else if prog != nil {
		j.destroys(e, prog, args, detail)
		if prog.Is(programs.Database) {
			j.storeStdin(e, detail) // redis-cli < cmds.txt (infra.go)
		}
	}
	j.remoteChange(e.Name, append(programs.EnvOptions(e.Name, assigned(e)), args...), detail) // remote state changed by verbs that are not delete (remote2.go)
	j.orm(e, args, detail)
}

func lastOr(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[len(args)-1]
}

func isFirewallUnit(u string) bool {
	u = strings.TrimSuffix(u, ".service")
	return u == "firewalld" || u == "ufw" || u == "nftables" || u == "iptables" || u == "ip6tables" || u == "pf"
}

func (j *judge) systemctl(args []string, detail string) {
	p := programs.Operands(args)
	if len(p) == 0 {
		return
	}
	switch p[0] {
	case "poweroff", "reboot", "halt", "kexec", "soft-reboot":
		j.add(RuleSysShutdown, detail)
	case "isolate":
		if len(p) > 1 && (strings.HasPrefix(p[1], "rescue") || strings.HasPrefix(p[1], "emergency") ||
			strings.HasPrefix(p[1], "poweroff") || strings.HasPrefix(p[1], "reboot") || strings.HasPrefix(p[1], "halt")) {
			j.add(RuleSysShutdown, detail)
		}
	case "stop", "disable", "mask", "kill":
		for _, u := range p[1:] {
			if isFirewallUnit(u) {
				j.add(RuleSysFirewallFlush, detail)
				return
			}
		}
		if len(p) > 1 {
			j.add(RuleSysServiceStop, detail)
		}
	}
}

// killsAll reports kill with the process id -1 (every process).
func killsAll(args []string) bool {
	sigDone := false
	for k := 0; k < len(args); k++ {
		a := args[k]
		if a == "--" {
			sigDone = true
			continue
		}
		if !sigDone && (a == "-s" || a == "-n" || a == "--signal") {
			k++
			sigDone = true
			continue
		}
		if !sigDone && strings.HasPrefix(a, "-") && a != "-1" {
			sigDone = true
			continue
		}
		if a == "-1" {
			if sigDone {
				return true
			}
			sigDone = true // "kill -1 PID" is SIGHUP
			continue
		}
		sigDone = true
	}
	return false
}

// lazyRegexp compiles expr once, on first call of the returned func.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
