package judge

import "github.com/sentinel-guard/sentinel/programs"

// Remote repository state through the hosting CLIs (blind attack class 5,
// issue 19): deleting, archiving or transferring a repository is the
// model's Destroys (INFRA-CLOUD-DELETE, infra.go); making a private one
// public hands its whole history, secrets committed once included, to
// everyone (programs/hosting.go: Publishes).

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleRepoMadePublic = "REPO-MADE-PUBLIC"
)

var _ = rules(
	Rule{ID: RuleRepoMadePublic, Class: ClassExfiltration, Severity: SevCritical, Decision: Deny, Catastrophic: false,
		Reason:      "making a repository public publishes its whole history to everyone, whatever was ever committed in it",
		Alternative: "leave the repository's visibility to its owner",
		Matches:     "`gh repo edit --visibility public`; `gh api`/`glab api` writes (PATCH, PUT, or POST implied by fields) to the repository itself (`repos/OWNER/REPO`, `projects/ID`) with `visibility=public` or `private=false`",
		Fire:        []string{"gh api -X PATCH repos/acme/app -f visibility=public", "gh repo edit acme/app --visibility public --accept-visibility-change-consequences", "glab api -X PUT projects/42 -f visibility=public"},
		Pass:        []string{"gh api repos/acme/app --jq .visibility", "gh repo edit acme/app --description 'API server'", "gh api -X PATCH repos/acme/app -f visibility=private", "gh repo create acme/demo --public"}},
)

var _ = onExec(func(j *judge, x execution) {
	if p := programs.Lookup(x.e.Name); p != nil && p.Publishes != nil && p.Publishes(x.args) {
		j.add(RuleRepoMadePublic, x.detail)
	}
})
