package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// SECRET-VAR-PRINT: echo "$GITHUB_TOKEN" prints a credential the agent had
// no need to see: what a command prints goes into the transcript and to
// the model's provider. Handing the variable to a program that uses it
// (echo "$TOKEN" | docker login --password-stdin, curl -H "Bearer $TOKEN")
// is everyday work and passes; sending it elsewhere is an exfiltration.

// RuleSecretVarPrint is spelled as its id.
const RuleSecretVarPrint = "SECRET-VAR-PRINT"

var _ = rules(Rule{ID: RuleSecretVarPrint, Class: ClassSecrets, Severity: SevHigh, Decision: Ask,
	Reason:      "prints a variable that holds a credential into the transcript",
	Alternative: "check that it is set without printing it: `test -n \"$NAME\" && echo set`",
	Matches:     "`echo`/`printf`/`print` of `$NAME` whose name says it holds a credential (`*TOKEN*`, `*SECRET*`, `*KEY*`, `*PASSWORD*`, ...), with nothing after it in the pipeline but a decoder or a printer, and its output not redirected to a file; the same variable named to a printer of variables (`declare -p`/`typeset -p NAME`, awk's `ENVIRON[\"NAME\"]`, jq's `env.NAME`/`$ENV.NAME`), put in by `envsubst` for its name in its input, or spelled into a here-string or heredoc of a program that shows its input (`cat`, `base64`, `xxd`, `tee`); an interpreter's inline code that prints such a variable read through its environment accessor (`os.getenv(\"GITHUB_TOKEN\")`, `os.environ[...]`, `ENV[...]`, `process.env.X`, `$ENV{X}`), not a test of whether it is set",
	Fire: []string{"echo $AWS_SECRET_ACCESS_KEY", `printf '%s\n' "$GITHUB_TOKEN"`, `echo "key=${OPENAI_API_KEY}" | base64`, `echo $DB_PASSWORD | cat`,
		`lua -e 'print(os.getenv("GITHUB_TOKEN"))'`, `python3 -c 'import os; print(os.environ["AWS_SECRET_ACCESS_KEY"])'`, "node -p process.env.NPM_TOKEN",
		`cat <<< "$GITHUB_TOKEN"`, "declare -p GITHUB_TOKEN", `envsubst <<< 'token=$GITHUB_TOKEN'`, "jq -n env.GITHUB_TOKEN", `awk 'BEGIN{print ENVIRON["GITHUB_TOKEN"]}'`},
	Pass: []string{`echo "$GITHUB_TOKEN" | gh auth login --with-token`, `echo "$REGISTRY_PASSWORD" | docker login -u me --password-stdin r.example`,
		`echo "$API_KEY" > .secret-key`, `test -n "$GITHUB_TOKEN" && echo set`, "echo $HOME", `echo "${#API_KEY}"`,
		`lua -e 'print(os.getenv("HOME"))'`, `python3 -c 'import os; print("set" if os.environ.get("GITHUB_TOKEN") else "unset")'`,
		`cat <<< "$PATH"`, "declare -p PATH", `envsubst <<< 'user=$USER'`, "jq -n env.SHELL", `gh auth login --with-token <<< "$GITHUB_TOKEN"`}},
)

var _ = onExec(func(j *judge, x execution) {
	if names := programs.CodeEnvNames(x.e.Name, x.args); names != nil && !stdoutToFile(x.e) {
		// python3 -c 'print(os.environ["AWS_SECRET_ACCESS_KEY"])', lua -e
		// 'print(os.getenv("GITHUB_TOKEN"))': the same print in code
		for _, n := range names {
			if secretName(n) && !strings.ContainsAny(n, " ./") {
				j.add(RuleSecretVarPrint, x.detail)
				if j.secretRead == "" {
					j.secretRead = x.detail
				}
				return
			}
		}
	}
	name := ""
	if programs.PrintsArgs(x.e.Name) {
		if indirectValue(x.e) {
			// compgen -v | while read -r v; do echo "$v=${!v}"; done: each
			// variable's value by its listed name, the whole environment
			for k := range x.all {
				if f := &x.all[k]; len(f.Argv) > 0 && programs.ListsVarNames(f.Name, wordValues(f.Argv[1:])) {
					j.envDump(x.detail)
					return
				}
			}
		}
		for _, w := range x.e.Argv[1:] {
			if !w.Static {
				if n := secretVarRef(w.Value); n != "" && !strings.Contains(w.Value, "${#"+n) {
					name = n
					break
				}
			}
		}
	} else {
		name = printedSecretVar(x.e, x.args)
	}
	if name == "" || stdoutToFile(x.e) {
		return
	}
	for _, f := range x.all[x.i+1:] {
		if x.e.Pipeline == 0 || f.Pipeline != x.e.Pipeline || f.Stage <= x.e.Stage {
			continue
		}
		p := programs.Lookup(f.Name)
		if !(p.Is(programs.Decoder) || programs.PrintsArgs(f.Name) || p.Is(programs.Reader) && len(f.Argv) == 1) {
			return // the output is handed to a program that uses it
		}
	}
	j.add(RuleSecretVarPrint, x.detail)
	if j.secretRead == "" {
		j.secretRead = x.detail
	}
})

// printedSecretVar is the secret variable a program other than echo and
// printf prints: named to a printer of variables (declare -p NAME, awk's
// ENVIRON["NAME"], jq's env.NAME), put in by envsubst for its name in the
// text it is given, or spelled into the input of a program that shows its
// input (cat <<< "$TOKEN", base64 <<< "$KEY", a heredoc to tee).
func printedSecretVar(e *parse.Exec, args []string) string {
	for _, n := range programs.EnvNamesPrinted(e.Name, args) {
		if secretName(n) {
			return n
		}
	}
	if programs.SubstitutesEnv(e.Name) {
		texts := programs.Operands(args)
		if e.StdinText != nil {
			texts = append(texts, e.StdinText.Value)
		}
		for _, t := range texts {
			if n := secretVarRef(t); n != "" {
				return n
			}
		}
		return ""
	}
	if e.StdinText == nil || e.StdinText.Static || e.Remote {
		return ""
	}
	p := programs.Lookup(e.Name)
	shows := p.Is(programs.Decoder) && !p.Is(programs.CredPrinter) || p.Is(programs.Reader) && len(programs.Operands(args)) == 0 ||
		programs.Canon(e.Name) == "tee"
	if !shows {
		return ""
	}
	if n := secretVarRef(e.StdinText.Value); n != "" && !strings.Contains(e.StdinText.Value, "${#"+n) {
		return n
	}
	return ""
}

// stdoutToFile reports a redirect of e's standard output to a file.
func stdoutToFile(e *parse.Exec) bool {
	for _, r := range e.Redirects {
		if (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>" || r.Op == "&>>") && (r.Fd == -1 || r.Fd == 1) {
			return true
		}
	}
	return false
}

// A credential printer's output handed to its own service is a use, not a
// read (the blind attack's benign twins): piped to a login that reads it
// on stdin for the credential's own registry (aws ecr get-login-password |
// docker login --password-stdin ACCOUNT.dkr.ecr.REGION.amazonaws.com, gh
// auth token | docker login ghcr.io --password-stdin), or substituted into
// a command whose every network host is the service's (curl -H
// "Authorization: Bearer $(gh auth token)" https://api.github.com/user).
// Anywhere else, printed or sent to another host, it is a secret read.

// credUse is a credential printer inside $(...): its detail and the hosts
// its credential is for.
type credUse struct {
	detail string
	hosts  []string
}

// credHandedOn reports the execution at i piping its whole output to a
// login that reads it on stdin (programs.LoginFromStdin) for hosts all of
// the printer's own service (programs.CredentialHosts).
func credHandedOn(all []parse.Exec, i int) bool {
	e := &all[i]
	if e.Pipeline == 0 || len(e.Argv) == 0 || stdoutToFile(e) {
		return false
	}
	own := programs.CredentialHosts(e.Name, wordValues(e.Argv[1:]))
	if own == nil {
		return false
	}
	found := false
	for k := range all {
		f := &all[k]
		if f.Pipeline != e.Pipeline || f.Stage <= e.Stage {
			continue
		}
		if f.Stage > e.Stage+1 || len(f.Argv) == 0 || f.Dynamic {
			return false
		}
		hosts, ok := programs.LoginFromStdin(f.Name, wordValues(f.Argv[1:]))
		if !ok || len(hosts) == 0 {
			return false
		}
		for _, h := range hosts {
			if !programs.ServiceHost(h, own) {
				return false
			}
		}
		found = true
	}
	return found
}

// settleCredUses decides the credential printers found inside $(...):
// a use when the command sends only to their service's hosts and prints
// no computed text, else a secret read.
func (j *judge) settleCredUses(all []parse.Exec) {
	for _, u := range j.credUses {
		used := j.networkSend != "" || len(j.sendHosts) > 0
		used = used && !j.sendUnknown && len(j.sendHosts) > 0
		for _, h := range j.sendHosts {
			used = used && programs.ServiceHost(h, u.hosts)
		}
		for k := range all {
			f := &all[k]
			if !programs.PrintsArgs(f.Name) {
				continue
			}
			for _, w := range f.Argv[1:] {
				used = used && w.Static // echo "$(gh auth token)": printed
			}
		}
		if !used {
			j.secretReadHit(u.detail)
		}
	}
	j.credUses = nil
}

// indirectValue reports a printed ${!name} (the value of the variable
// whose name name holds); ${!prefix*} and ${!array[@]} expand to names.
func indirectValue(e *parse.Exec) bool {
	for _, w := range e.Argv[1:] {
		for rest := w.Value; !w.Static; {
			k := strings.Index(rest, "${!")
			if k < 0 {
				break
			}
			rest = rest[k+3:]
			end := strings.IndexByte(rest, '}')
			if end > 0 && !strings.ContainsAny(rest[:end], "*@[") {
				return true
			}
		}
	}
	return false
}
