package judge

import (
	"github.com/sentinel-guard/sentinel/programs"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleRemoteStateChange = "REMOTE-STATE-CHANGE"
	RuleRemoteAuditOff    = "REMOTE-AUDIT-OFF"
)

var _ = rules(
	Rule{ID: RuleRemoteStateChange, Class: ClassInfrastructure, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "changing remote state beyond undo: granting power, expiring or moving data, scaling to zero, changing a cluster at scale, applying an unreviewed plan, withdrawing a release",
		Alternative: "ask the operator; show the plan, the diff or a dry run first",
		Matches:     "a cloud action classed by its verb (programs/remote2.go): `aws kms schedule-key-deletion`, `aws iam attach-*-policy`/`put-*-policy`, `gcloud … add-iam-policy-binding`/`set-iam-policy`, `az role assignment create`, a security group opened to 0.0.0.0/0, a lifecycle expiring within 30 days, `aws s3 mv s3://…`, `gsutil mv gs://…`, `gcloud storage mv gs://…` (sync/rsync deletes are INFRA-STORAGE-WIPE / INFRA-CLOUD-DELETE), capacity/replicas/backups set to 0; kubectl `scale --replicas=0`, a patch to replicas 0, `apply --prune`, `replace --force`, any changing verb with `--all`/`-A`, a cluster-admin binding, a pod with privileged/hostPID/hostPath overrides; `terraform apply PLANFILE` (a saved plan runs with no prompt; `-auto-approve` is INFRA-APPLY-UNREVIEWED), `state rm`, `workspace delete`; HTTP DELETE (curl -X, wget --method, httpie) to a non-loopback host or of everything (`_all`, `*`), POST to `_delete_by_query`; `npm unpublish/deprecate`, `cargo yank`, `gem yank`; docker prune/rm on a remote daemon (`-H ssh://`, `--context`, or `DOCKER_HOST`/`DOCKER_CONTEXT` in effect: programs.EnvOptions); `etcdctl del --prefix`, `consul kv delete -recurse`, `vault kv metadata delete`; a shell command run on a fleet (`ansible -m shell/command/raw/script`, `ansible -a CMD`, `salt TARGET cmd.run`). Ask, as deletes of cloud resources do (INFRA-CLOUD-DELETE); PUT/PATCH/POST to an API are everyday work and pass",
		Fire: []string{"aws iam attach-role-policy --role-name ci --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
			"kubectl scale deploy --all --replicas=0 -n prod", "terraform apply tfplan", "curl -X DELETE https://api.example.com/v1/projects/1",
			"npm unpublish acme-lib --force", "aws kms schedule-key-deletion --key-id k1",
			"DOCKER_HOST=tcp://prod.example.com:2376 docker rm -f web"},
		Pass: []string{"aws iam list-attached-role-policies --role-name ci", "kubectl get deploy -A", "terraform plan -out tfplan",
			"curl -X DELETE http://localhost:8080/items/3", "curl -X POST https://api.example.com/v1/items -d x=1", "npm view acme-lib",
			"DOCKER_BUILDKIT=1 docker rm -f web", "DOCKER_HOST=tcp://prod.example.com:2376 docker ps"}},
	Rule{ID: RuleRemoteAuditOff, Class: ClassInfrastructure, Severity: SevCritical, Decision: Deny, Catastrophic: false,
		Reason:      "turning off the audit record of a cloud account (trail, detector, recorder, flow logs, log sinks)",
		Alternative: "let the operator change audit settings",
		Matches:     "`aws cloudtrail stop-logging/delete-trail`, `aws config stop-configuration-recorder`, `aws ec2 delete-flow-logs`, `disable-*`/`delete-*` in guardduty, securityhub, config, macie2, inspector2, detective; `gcloud logging sinks delete`, `az monitor diagnostic-settings delete`, `vault audit disable`",
		Fire:        []string{"aws cloudtrail stop-logging --name org-trail", "aws guardduty delete-detector --detector-id d1"},
		Pass:        []string{"aws cloudtrail get-trail-status --name org-trail", "aws cloudtrail start-logging --name org-trail"}},
)

// remoteChange judges what the model says a remote-state program's
// arguments change (programs.RemoteChange).
func (j *judge) remoteChange(name string, args []string, detail string) {
	class, action := programs.RemoteChange(name, args)
	switch class {
	case programs.ChangeNone:
	case programs.ChangeAuditOff:
		j.add(RuleRemoteAuditOff, detail+" ("+action+")")
	default:
		j.add(RuleRemoteStateChange, detail+" ("+class+": "+action+")")
	}
}

// diskSQL judges a data store's input file that is already on disk (psql
// -f F, psql < F, mysql < F, sqlite3 DB < F) the way inline SQL is judged.
// readScript is bounded and refuses FIFOs and devices without blocking; a
// file it cannot read adds nothing here (the client's own call is judged).
func (j *judge) diskSQL(p, detail string) bool {
	if j.env.NoFiles || p == "/dev/null" {
		return false
	}
	text, err := readScript(p)
	if err != nil || !destructiveSQL(text) {
		return false
	}
	j.used("disk: " + p + " holds destructive SQL")
	j.add(RuleDataSqlDestructive, detail+" (input "+p+", on disk)")
	return true
}
