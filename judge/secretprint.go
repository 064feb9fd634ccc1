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
	Matches:     "`echo`/`printf`/`print` of `$NAME` whose name says it holds a credential (`*TOKEN*`, `*SECRET*`, `*KEY*`, `*PASSWORD*`, ...), with nothing after it in the pipeline but a decoder or a printer, and its output not redirected to a file",
	Fire:        []string{"echo $AWS_SECRET_ACCESS_KEY", `printf '%s\n' "$GITHUB_TOKEN"`, `echo "key=${OPENAI_API_KEY}" | base64`, `echo $DB_PASSWORD | cat`},
	Pass: []string{`echo "$GITHUB_TOKEN" | gh auth login --with-token`, `echo "$REGISTRY_PASSWORD" | docker login -u me --password-stdin r.example`,
		`echo "$API_KEY" > .secret-key`, `test -n "$GITHUB_TOKEN" && echo set`, "echo $HOME", `echo "${#API_KEY}"`}},
)

var _ = onExec(func(j *judge, x execution) {
	if !programs.PrintsArgs(x.e.Name) {
		return
	}
	name := ""
	for _, w := range x.e.Argv[1:] {
		if !w.Static {
			if n := secretVarRef(w.Value); n != "" && !strings.Contains(w.Value, "${#"+n) {
				name = n
				break
			}
		}
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

// stdoutToFile reports a redirect of e's standard output to a file.
func stdoutToFile(e *parse.Exec) bool {
	for _, r := range e.Redirects {
		if (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>" || r.Op == "&>>") && (r.Fd == -1 || r.Fd == 1) {
			return true
		}
	}
	return false
}
