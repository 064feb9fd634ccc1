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
		Matches:     "`env`/`printenv`/`set`/`export -p` alone, `/proc/*/environ` (read by any reader, `xargs -a` among them), code naming the whole environment (awk `for (k in ENVIRON)`, `jq -n env`/`$ENV`, perl `%ENV`, `node -p process.env`), each variable's value by the names `compgen -v` lists (`${!v}`); not through a filter that lets no credential by (`env | grep -i proxy`)",
		Fire:        []string{"env", "printenv", `compgen -v | while read -r v; do echo "$v=${!v}"; done`, "xargs -0 -n1 -a /proc/self/environ"},
		Pass:        []string{"printenv PATH", "env FOO=1 make", "compgen -c | head", `for v in ${!BASH*}; do echo "$v"; done`, "xargs -n1 -a files.txt"}},
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
	if j.namesOnly || j.envFiltered {
		return // env | cut -d= -f1: the names, not the values; env | grep -i proxy
	}
	j.add(RuleEnvDump, detail)
	if j.secretRead == "" {
		j.secretRead = detail
	}
}

// reads looks for secret files among the operands of commands that read.
func (j *judge) reads(e *parse.Exec, args []string, detail string) {
	p := programs.Lookup(e.Name)
	if p != nil && p.Inputs != nil {
		for _, f := range p.Inputs(args) { // sed r FILE, awk getline < "FILE"
			if abs, ok := j.resolve(f, e.Dir); ok {
				j.readAbsShell(abs, detail)
			}
		}
	}
	if p != nil && p.PrintsEnv != nil && !p.Is(programs.NonReader) {
		if p.PrintsEnv(args) { // awk's ENVIRON
			j.envDump(detail)
		}
	} else if p != nil && p.PrintsEnv != nil {
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
		if !p.Kind.Any(programs.Reader | programs.Interpreter) {
			return // env, printenv, set: no file operands
		}
	}
	if p != nil && p.PrintsCredentials != nil && p.PrintsCredentials(args) {
		switch hosts := programs.CredentialHosts(e.Name, args); {
		case j.credHandedOn:
			// aws ecr get-login-password | docker login --password-stdin ECR
		case e.Origin.Kind == parse.OriginSubst && hosts != nil && !stdoutToFile(e):
			j.credUses = append(j.credUses, credUse{detail, hosts}) // settled with the command's hosts
		default:
			j.secretReadHit(detail) // gh auth token, kubectl get secret -o yaml
		}
		if p.Is(programs.NonReader) {
			return
		}
	}
	if p != nil && p.Prints != nil && !e.Synthetic {
		// git show HEAD:.env, git diff --no-index /dev/null ~/.ssh/id_rsa
		for _, a := range p.Prints(args) {
			if r, ok := j.resolve(a, e.Dir); ok && j.readAbs(r, detail) {
				break
			}
		}
	}
	if p.Is(programs.NonReader) || e.Synthetic {
		j.movesSecret(e, p, args, detail)
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
	code := programs.CodeArgs(e.Name, args)
	for k := 0; k < n; k++ {
		w := e.Argv[k+1]
		a := w.Value
		if code[k] {
			continue // a pattern or code, not a file (grep -r .env src)
		}
		if p != nil && contains(p.KeyArgs, a) {
			k++ // openssl req -key server.key: the key is used, not shown
			continue
		}
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
				if w.Static && secretByName(c) {
					j.secretReadHit(detail) // cd "$DIR" && cat id_rsa (resolve.go)
					break
				}
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
	if p != nil && p.Name == "tar" {
		// tar czf keys.tgz -C ~ .ssh: the members are read from -C's directory
		if dir, members := programs.TarMembers(args); dir != "" {
			if d, ok := j.resolve(dir, e.Dir); ok {
				for _, m := range members {
					if r, ok := j.resolve(m, d); ok && (j.readAbs(r, detail) || programs.ReadsTree(e.Name, args) && j.treeSecret(r, false, detail)) {
						break
					}
				}
			}
		}
	}
	if programs.ReadsTree(e.Name, args) && p.Name != "tar" {
		// grep -r token ~/.config, cp -r ~/.local/share /tmp/x: every file
		// below is read, the credential stores among them
		for k := 0; k < n; k++ {
			if w := e.Argv[k+1]; w.Static && !code[k] && !strings.HasPrefix(w.Value, "-") {
				if r, ok := j.resolve(w.Value, e.Dir); ok && j.treeSecret(r, programs.SkipsHidden(e.Name, args), detail) {
					break
				}
			}
		}
	}
}

// treeSecret notes a read of the whole tree at p when it holds a secret.
func (j *judge) treeSecret(p string, skipHidden bool, detail string) bool {
	if !j.holdsSecret(p, skipHidden) {
		return false
	}
	j.secretReadHit(detail + " (a directory holding credentials)")
	return true
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

// secretName matches variable names that hold credentials. A secret word
// that a word after it makes a property of the secret (TOKEN_EXPIRY_SECONDS,
// KEY_PATH, PASSWORD_MIN_LENGTH) or that a data word before it makes a
// data key (SORT_KEY, PARTITION_KEY, CACHE_KEY) names no credential.
func secretName(n string) bool {
	u := strings.ToUpper(n)
	parts := strings.FieldsFunc(u, func(r rune) bool { return r == '_' || r == '-' })
	for i, part := range parts {
		switch part {
		case "TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "PASS", "APIKEY", "CREDENTIALS", "CREDENTIAL", "PAT", "PRIVATE":
			if i+1 < len(parts) && secretProperty[parts[i+1]] || part == "KEY" && i > 0 && dataKey[parts[i-1]] {
				continue
			}
			return true
		}
	}
	if len(parts) > 1 && secretProperty[parts[len(parts)-1]] {
		return false
	}
	return strings.HasSuffix(u, "TOKEN") || strings.HasSuffix(u, "SECRET") || strings.HasSuffix(u, "APIKEY") || strings.HasSuffix(u, "PASSWORD")
}

// secretProperty are words that, after a secret word, name a property of
// the secret rather than the secret (its lifetime, size, place, kind).
var secretProperty = map[string]bool{
	"EXPIRY": true, "EXPIRES": true, "EXPIRATION": true, "TTL": true, "LIFETIME": true, "TIMEOUT": true,
	"SECONDS": true, "SECS": true, "MINUTES": true, "HOURS": true, "DAYS": true, "MS": true,
	"LENGTH": true, "LEN": true, "SIZE": true, "BITS": true, "COUNT": true, "LIMIT": true, "MIN": true, "MAX": true,
	"URL": true, "URI": true, "ENDPOINT": true, "PATH": true, "FILE": true, "DIR": true, "TYPE": true,
	"NAME": true, "FORMAT": true, "ALGORITHM": true, "ALG": true, "HEADER": true, "PREFIX": true, "FIELD": true,
	"POLICY": true, "ROTATION": true, "REQUIRED": true, "ENABLED": true,
}

// dataKey are words that make KEY a key into data, not a credential.
var dataKey = map[string]bool{
	"SORT": true, "PARTITION": true, "PRIMARY": true, "FOREIGN": true, "CACHE": true, "ROUTING": true,
	"IDEMPOTENCY": true, "LOOKUP": true, "HASH": true, "SHARD": true, "GROUP": true, "ORDER": true,
	"INDEX": true, "QUERY": true, "SEARCH": true, "MAP": true, "DICT": true, "HOT": true, "SHORTCUT": true,
	"KEYBOARD": true, "MEMO": true, "DEDUP": true, "DEDUPE": true, "UNIQUE": true, "COMPOSITE": true, "RANGE": true,
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
	// the stages it feeds, in order: text passers (sort, uniq) may stand
	// before the stage that keeps only names (env | sort | cut -d= -f1)
	for stage := e.Stage + 1; ; stage++ {
		found, passer := false, true
		for k := range all {
			f := &all[k]
			if f.Pipeline != e.Pipeline || f.Stage != stage {
				continue
			}
			if len(f.Argv) == 0 || f.Dynamic {
				return false
			}
			found = true
			args := wordValues(f.Argv[1:])
			if programs.NamesOnly(f.Name, args) {
				passer = false
				continue
			}
			if !textPasser(f.Name, args) || len(f.Redirects) > 0 {
				return false
			}
		}
		if !found {
			return false // the values reached the end of the pipeline
		}
		if !passer {
			return true
		}
	}
}

// movesSecret judges a move (mv, git mv) of a secret file to a name that
// is not one: the content stays whole under a name no rule reads as a
// secret (mv .env notes.txt, then cat notes.txt), so it is a read.
func (j *judge) movesSecret(e *parse.Exec, p *programs.Program, args []string, detail string) {
	if p == nil {
		return
	}
	if p.Name == "git" {
		sub, rest, _ := programs.GitSplit(args)
		if sub != "mv" {
			return
		}
		args, p = rest, programs.Lookup("mv")
	}
	if p.Name != "mv" {
		return
	}
	srcs, dest := p.CopyDest(args)
	d, ok := j.resolve(dest, e.Dir)
	if !ok || j.isSecretPath(d) {
		return // mv .env .env.bak: still a secret by its name
	}
	for _, s := range srcs {
		if sp, ok := j.resolve(s, e.Dir); ok && j.readAbs(sp, detail) {
			return
		}
	}
}

// envFilteredOutput reports an execution whose output reaches the
// transcript only through a grep that lets no credential through
// (programs.FiltersEnv), with only text passers (sort, uniq, head, ...)
// around it: env | sort | grep -i proxy.
func envFilteredOutput(all []parse.Exec, i int) bool {
	e := &all[i]
	if e.Pipeline == 0 {
		return false
	}
	filtered := false
	for k := range all {
		f := &all[k]
		if f.Pipeline != e.Pipeline || f.Stage <= e.Stage {
			continue
		}
		if len(f.Argv) == 0 || f.Dynamic {
			return false
		}
		args := wordValues(f.Argv[1:])
		switch {
		case programs.FiltersEnv(f.Name, args):
			filtered = true
		case !filtered && textPasser(f.Name, args):
		case filtered && (textPasser(f.Name, args) || programs.Canon(f.Name) == "grep" && len(programs.Operands(args)) <= 1):
		default:
			return false
		}
	}
	return filtered
}

// textPasser: a stage that reorders or cuts lines and adds none.
func textPasser(name string, args []string) bool {
	switch programs.Canon(name) {
	case "sort", "uniq":
		return true
	case "diff": // column, ...: the model's name for them
		return name == "column"
	case "head", "cat":
		return len(programs.Operands(args)) == 0 || name == "less" || name == "more"
	}
	return false
}
