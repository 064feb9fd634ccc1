package judge

import (
	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
	"strings"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleEnvDump = "ENV-DUMP"
)

var _ = rules(
	Rule{ID: RuleEnvDump, Class: ClassSecrets, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "dumping the whole environment, which holds tokens",
		Alternative: "print the one variable you need: `printenv NAME`",
		Matches:     "`env`/`printenv`/`set`/`export -p` alone, `/proc/*/environ`",
		Fire:        []string{"env", "printenv"},
		Pass:        []string{"printenv PATH", "env FOO=1 make"}},
)

// readAbsShell is a read by a shell command; /proc/*/environ dumps the env.
func (j *judge) readAbsShell(p, detail string) {
	if isProcEnviron(p) {
		j.envDump(detail)
		return
	}
	j.readAbs(p, detail)
}

func isProcEnviron(p string) bool {
	return strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ")
}

func (j *judge) envDump(detail string) {
	if j.namesOnly {
		return // env | cut -d= -f1: the names, not the values
	}
	j.add(RuleEnvDump, detail)
	if j.secretRead == "" {
		j.secretRead = detail
	}
}

// reads looks for secret files among the operands of commands that read.
func (j *judge) reads(e *parse.Exec, args []string, detail string) {
	p := programs.Lookup(e.Name)
	if p != nil && p.PrintsEnv != nil {
		// env, printenv, export -p, set: the whole environment, or the
		// variables printenv names
		if p.PrintsEnv(args) {
			j.envDump(detail)
		}
		if p.Name == "printenv" {
			for _, v := range programs.Operands(args) {
				if secretName(v) {
					j.add(RuleSecretRead, detail)
					if j.secretRead == "" {
						j.secretRead = detail
					}
				}
			}
		}
		return
	}
	if p != nil && p.PrintsCredentials != nil && p.PrintsCredentials(args) {
		j.secretReadHit(detail) // gh auth token, kubectl get secret -o yaml
		if p.Is(programs.NonReader) {
			return
		}
	}
	if p.Is(programs.NonReader) || e.Synthetic {
		return
	}
	skip := ""
	if p != nil {
		skip = p.KeyOpts
	}
	n := len(e.Argv) - 1
	if p.Is(programs.Copier) && p.Parse(args).Value('t', "target-directory") == "" {
		n-- // the destination is written, not read (cp -t DIR: every operand is read)
	}
	for k := 0; k < n; k++ {
		w := e.Argv[k+1]
		a := w.Value
		if skip != "" && len(a) == 2 && a[0] == '-' && strings.IndexByte(skip, a[1]) >= 0 {
			k++
			continue
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte(skip, a[1]) >= 0 && skip != "" {
			continue
		}
		if strings.HasPrefix(a, "--exclude") || strings.HasPrefix(a, "--ignore") {
			continue // tar --exclude=.env, rsync --exclude .env: patterns left out, not read
		}
		for _, c := range pathCandidates(a) {
			p, ok := j.resolve(c, e.Dir)
			if !ok {
				continue
			}
			if isProcEnviron(p) {
				j.envDump(detail)
				break
			}
			if j.readAbs(p, detail) {
				break
			}
		}
	}
}

func (j *judge) secretReadHit(detail string) {
	if j.namesOnly {
		return
	}
	j.add(RuleSecretRead, detail)
	if j.secretRead == "" {
		j.secretRead = detail
	}
}

// pathCandidates are the paths an argument may name: itself, the part after
// "=" (if=, --file=), after "@" (curl -d @file) or "<" (curl -F x=<file).
func pathCandidates(a string) []string {
	out := []string{a}
	if k := strings.LastIndexByte(a, '='); k >= 0 && k+1 < len(a) {
		out = append(out, a[k+1:])
	}
	for _, c := range append([]string(nil), out...) {
		if strings.HasPrefix(c, "@") || strings.HasPrefix(c, "<") {
			out = append(out, c[1:])
		}
	}
	return out
}

func onlyOptions(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// secretName matches variable names that hold credentials.
func secretName(n string) bool {
	u := strings.ToUpper(n)
	for _, part := range strings.FieldsFunc(u, func(r rune) bool { return r == '_' || r == '-' }) {
		switch part {
		case "TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "PASS", "APIKEY", "CREDENTIALS", "CREDENTIAL", "PAT", "PRIVATE":
			return true
		}
	}
	return strings.HasSuffix(u, "TOKEN") || strings.HasSuffix(u, "SECRET") || strings.HasSuffix(u, "APIKEY") || strings.HasSuffix(u, "PASSWORD")
}

// secretVarRef finds $NAME / ${NAME...} with a secret-like name in s.
func secretVarRef(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		k := i + 1
		if k < len(s) && s[k] == '{' {
			k++
		}
		st := k
		for k < len(s) && (s[k] == '_' || s[k] >= 'A' && s[k] <= 'Z' || s[k] >= 'a' && s[k] <= 'z' || s[k] >= '0' && s[k] <= '9') {
			k++
		}
		if k > st && secretName(s[st:k]) {
			return s[st:k]
		}
	}
	return ""
}

// namesOnlyOutput reports an execution whose output shows no value: it
// prints only names or counts itself (grep -q KEY .env, cut -d= -f1 .env),
// or every stage it feeds does (env | cut -d= -f1, kubectl get secret -o
// jsonpath='{.data}' | jq 'keys'). Its stdout must not go to a file.
func namesOnlyOutput(all []parse.Exec, i int) bool {
	e := &all[i]
	if len(e.Argv) == 0 || e.Dynamic {
		return false
	}
	if programs.NamesOnly(e.Name, wordValues(e.Argv[1:])) {
		return true
	}
	if e.Pipeline == 0 {
		return false
	}
	for _, r := range e.Redirects {
		if r.Fd != 0 && r.Op != "<" && r.Op != "<<<" {
			return false // tee-like: the values go somewhere too
		}
	}
	next := false
	for k := range all {
		f := &all[k]
		if f.Pipeline != e.Pipeline || f.Stage != e.Stage+1 {
			continue
		}
		if len(f.Argv) == 0 || f.Dynamic || !programs.NamesOnly(f.Name, wordValues(f.Argv[1:])) {
			return false
		}
		next = true
	}
	return next
}
