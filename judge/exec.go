package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

const maxDetail = 200

// describe is the short text of an execution used in hit details.
func describe(e *parse.Exec) string {
	var b strings.Builder
	for i, w := range e.Argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.Value)
		if b.Len() > maxDetail {
			break
		}
	}
	s := truncUTF8(b.String(), maxDetail)
	if e.Origin.Kind != "" && e.Origin.Kind != parse.OriginTop && e.Origin.Via != "" {
		s += " (via " + e.Origin.Via + ")"
	}
	return s
}

func wordValues(ws []parse.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

// execution is what a rule's matcher sees of one execution.
type execution struct {
	all    []parse.Exec // the whole command (pipelines, earlier steps)
	i      int          // this execution's index in all
	e      *parse.Exec
	args   []string // e.Argv[1:] as text
	detail string   // for the hit
}

// execMatchers are the matchers of rules that judge one execution on their
// own. A rule file registers its matcher with onExec next to the rule's
// declaration; nothing else changes to add such a rule.
var execMatchers []func(j *judge, x execution)

// onExec registers a matcher; call it from a package-level var.
func onExec(m func(j *judge, x execution)) bool {
	execMatchers = append(execMatchers, m)
	return true
}

// exec judges execution i of all (the whole list is there for pipelines).
func (j *judge) exec(all []parse.Exec, i int) {
	e := &all[i]
	detail := describe(e)
	if i == len(all)-1 {
		j.launder(all) // across executions: a fetched file run later
	}
	disk := fromDisk(e) // a script on disk: only concrete findings (scriptfile.go)
	if e.Dynamic && !disk && !j.coveredByRunsCode(all, e) {
		j.add(RuleDynamicCommand, detail)
	}
	if j.unreadableScript(e, detail) {
	} else if e.RunsCode != nil {
		// a build tool or database client's own language: only fetched
		// or decoded code counts, as in a script on disk
		j.runsCodeFrom(e.RunsCode.Sources, detail, disk || e.RunsCode.How == parse.HowStdinReader)
	} else if src, ok := procSubstCode(e); ok {
		j.runsCode(src, detail)
	}
	for _, w := range e.Wrappers {
		name, _, _ := strings.Cut(w, " ")
		if programs.Is(name, programs.Privilege) {
			j.add(RulePrivSudo, detail)
			break
		}
	}
	j.namesOnly = namesOnlyOutput(all, i)
	j.envFiltered = envFilteredOutput(all, i)
	j.credHandedOn = credHandedOn(all, i)
	defer func() { j.namesOnly, j.envFiltered, j.credHandedOn = false, false, false }()
	j.redirects(e, detail)
	if len(e.Argv) == 0 || e.Dynamic {
		return
	}
	for _, w := range e.Argv[1:] {
		if !w.Static && j.secretVar == "" {
			if n := secretVarRef(w.Value); n != "" {
				j.secretVar = "secret variable $" + n
			}
		}
	}
	if e.HelpOnly {
		return // parse saw a lookup (--help before any "--"): nothing runs
	}
	args := wordValues(e.Argv[1:])
	j.command(all, i, e, args, detail)
	x := execution{all: all, i: i, e: e, args: args, detail: detail}
	for _, m := range execMatchers {
		m(j, x)
	}
	j.reads(e, args, detail)
	j.protectedOperands(e, detail)
	j.network(e, args, detail)
	j.custom(e, detail)
}

func (j *judge) redirects(e *parse.Exec, detail string) {
	for _, r := range e.Redirects {
		t := r.Target
		if !t.Static && !globTarget(t.Value) {
			continue
		}
		if strings.HasPrefix(t.Value, "/dev/tcp/") || strings.HasPrefix(t.Value, "/dev/udp/") {
			j.sendsTo(detail, "")
			continue
		}
		p, ok := j.resolve(t.Value, e.Dir)
		if !ok {
			continue
		}
		switch r.Op {
		case "<", "<<<":
			j.readAbsShell(p, detail)
		case ">>", "&>>":
			j.writeAbs(p, kindAppend, detail)
		case "<>":
			j.writeAbs(p, kindEdit, detail)
		case ">", ">|", "&>":
			j.writeAbs(p, emptyingRedirect(e), detail)
		}
	}
}

// writesTo records writes of kind to the static operands given.
func (j *judge) writesTo(e *parse.Exec, targets []string, kind writeKind, detail string) {
	for _, t := range targets {
		if p, ok := j.resolve(t, e.Dir); ok {
			j.writeAbs(p, kind, detail)
		}
	}
}

// command dispatches on the command name.
func (j *judge) command(all []parse.Exec, i int, e *parse.Exec, args []string, detail string) {
	name := e.Name
	if j.disk(e, args, detail) {
		return
	}
	// rimraf DIR, npx shx rm -rf DIR, cmake -E rm -rf DIR: rm by another name
	if tool, targs := programs.PackageRun(name, args); len(targs) <= len(args) {
		if start, rec, ok := programs.RmBuiltin(tool, targs); ok && len(args)-len(targs)+start <= len(args) {
			j.rmWords(e, e.Argv[1+len(args)-len(targs)+start:], rec, true, detail)
		}
	}
	prog := programs.Lookup(name)
	if prog != nil && prog.Outputs != nil && !prog.Is(programs.Downloader) && name != "dd" && canon(prog, name) != "tee" {
		j.writesTo(e, prog.Outputs(args), kindTruncate, detail) // sort -o F, sed w F, git diff --output=F
	}
	if prog.Is(programs.Permissions) { // chmod, chown, chgrp, chattr, setfacl
		j.chmod(e, args, detail)
		return
	}
	switch canon(prog, name) {
	case "git":
		j.git(e, args, detail)
	case "rm", "unlink":
		j.rm(all, i, e, args, detail)
	case "rimraf":
	case "npx": // bunx, pnpx
		j.system(all, i, e, args, detail) // npx prisma migrate reset ...
	case "find":
		j.find(e, args, detail)
	case "truncate":
		k := kindEmpty
		if s := prog.Parse(args).Value('s', "size"); strings.HasPrefix(s, "+") || strings.HasPrefix(s, ">") {
			k = kindAppend // grows it: nothing it held is lost
		}
		j.writesTo(e, prog.Parse(args).Pos, k, detail)
	case "tee": // sponge
		o := prog.Parse(args)
		k := kindTruncate
		if o.Has('a', "append") {
			k = kindAppend
		} else if emptyStdin(execution{all: all, i: i, e: e}) {
			k = kindEmpty // tee F < /dev/null: F is left empty
		}
		j.writesTo(e, o.Pos, k, detail)
	default:
		if prog.Is(programs.Copier) { // cp, mv, install, ln, rsync, scp, ...
			j.copyLike(e, args, detail)
			return
		}
		if name == "sed" || programs.LangOf(name) == "perl" || programs.LangOf(name) == "ruby" {
			j.inPlace(e, args, detail)
		}
		if programs.Canon(name) == "awk" {
			// gawk -i inplace PROG F: F is rewritten with what PROG prints
			if prog, files := programs.AwkInPlace(args); len(files) > 0 {
				j.writesTo(e, files, kindEdit, detail)
				j.editsRunLater(e, files, prog, detail)
			}
		}
		if p := programs.Lookup(name); p.Is(programs.Downloader) && p.Outputs != nil {
			// curl -o F, curl -O URL (the URL's name in the directory), wget
			j.writesTo(e, p.Outputs(args), kindTruncate, detail)
		}
		j.system(all, i, e, args, detail)
	}
}

// custom applies operator command-prefix rules.
func (j *judge) custom(e *parse.Exec, detail string) {
	if j.cfg == nil {
		return
	}
	for _, r := range j.cfg.Custom {
		if len(r.Prefix) == 0 || r.Prefix[0] != e.Name || len(e.Argv) < len(r.Prefix) {
			continue
		}
		match := true
		for k := 1; k < len(r.Prefix); k++ {
			if e.Argv[k].Value != r.Prefix[k] {
				match = false
				break
			}
		}
		if match {
			j.hits = append(j.hits, hitFor(r, detail))
		}
	}
}
