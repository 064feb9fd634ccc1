package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// A setting written by a tool's own CLI (programs.ConfigSets) is judged as
// the same setting written into the file by hand: a command line that runs
// later by its content (PERSISTENCE-HARMFUL when it would be denied now,
// PERSISTENCE-INSTALL when asked), a code setting that names a program by
// path (npm config set script-shell /tmp/x) and a package source that is
// no default (poetry source add, npm config set registry) as
// configuration text, a code-loading variable handed to every later user
// service (systemctl --user set-environment LD_PRELOAD=...) as an install.
// No rule of its own: the rules are the ones a hand-written file meets.

var _ = onExec(func(j *judge, x execution) {
	for _, s := range programs.ConfigSets(x.e.Name, x.args) {
		j.configSet(s, x.detail)
	}
})

func (j *judge) configSet(s programs.ConfigSet, detail string) {
	detail += " (sets " + s.Key + " in " + s.File + ")"
	switch {
	case s.Env:
		if loads := programs.EnvLoads(s.Key, s.Value); len(loads) > 0 {
			j.add(RulePersistenceInstall, detail+": every later service of the user loads "+strings.Join(loads, ", "))
		}
	case s.Code:
		v, rules := j.writtenVerdict(s.File, s.Value, "")
		switch {
		case v == Deny:
			j.add(RulePersistenceHarmful, detail+" would run: "+strings.Join(rules, ", "))
		case v > Allow && concreteRules(rules):
			j.add(RulePersistenceInstall, detail+" would run: "+strings.Join(rules, ", "))
		case len(programs.ScratchPrograms("command="+s.Value)) > 0:
			j.add(RulePersistenceInstall, detail+": runs "+s.Value) // gh config set editor /tmp/x/e
		}
	case s.Key == "docker-host":
		if h := programs.HostOf(s.Value); h != "" && !strings.HasPrefix(s.Value, "unix://") && !strings.HasPrefix(s.Value, "npipe://") && programs.PublicAddr(h) {
			j.add(RulePersistenceInstall, detail+": later docker calls go to "+s.Value)
		}
	default:
		text := s.Key + "=" + s.Value
		if off, ok := programs.ProtectionOff(text); ok {
			j.add(RulePersistenceInstall, detail+": turns a protection off ("+off+")")
			return
		}
		if progs := programs.ScratchPrograms(text); len(progs) > 0 {
			j.add(RulePersistenceInstall, detail+": names "+progs[0]+" to run")
			return
		}
		if src, ok := programs.ConfigSource(text); ok {
			j.add(RuleRemotePackageSource, detail+": packages from "+src)
		}
		for _, prog := range programs.ConfigPrograms(text) {
			if strings.Contains(prog, "/") && !systemProgram(prog) {
				j.add(RulePersistenceInstall, detail+": names "+prog+" to run")
				return
			}
		}
	}
}
