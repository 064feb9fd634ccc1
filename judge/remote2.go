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
		Reason:      "changing remote state beyond undo: stopping or disabling a service, key or access, granting power, expiring or moving data, scaling to zero, changing a cluster at scale, applying an unreviewed plan, withdrawing a release",
		Alternative: "ask the operator; show the plan, the diff or a dry run first",
		Matches:     "an operation of a cloud, cluster or infrastructure CLI typed by its verb (one lexicon, programs/effects.go, for aws, gcloud, az, kubectl, helm, heroku, fly, firebase, wrangler, nomad, kubeadm, vault, rabbitmqctl, docker stack/service/swarm, ...): stop, disable, suspend, deallocate, shutdown, drain, cordon, revoke, detach, cancel, rollback, undo, reset, seek, down, leave, uninstall (`aws ec2 stop-instances`, `aws kms disable-key`, `az vm deallocate`, `helm rollback`, `firebase hosting:disable`, `kubeadm reset`, `docker swarm leave`), a delete verb of a CLI whose deletions are not its Destroys (`bq rm`, `docker stack rm`, `terraform taint`, `pulumi state delete`); values that switch something off on any verb but a read: a count of replicas, instances, nodes or concurrency of 0 (`--reserved-concurrent-executions 0`, `--set replicaCount=0`, `scale web=0`, `scale count 0`), `--activation-policy NEVER`, `--no-backup`, a retention of 7 days or less, public access unblocked (`BlockPublicAcls=false`), a DELETE in a route53 change batch, a secret or password replaced (`put-secret-value`, `--master-user-password`); an SSH key added to a hosting account, a write deploy key, a collaborator's permission set through `gh api`, a branch moved by force through the API (`git/refs` with `force=true`); an ansible module told `state=absent`. Read verbs (describe, get, list, show, status) and a CLI's local groups (extension, alias, config, auth, plugin; `helm repo`) pass. Also a cloud action classed by its verb (programs/remote2.go): `aws kms schedule-key-deletion`, `aws iam attach-*-policy`/`put-*-policy`, `gcloud … add-iam-policy-binding`/`set-iam-policy`, `az role assignment create`, a security group opened to 0.0.0.0/0, a lifecycle expiring within 30 days, `aws s3 mv s3://…`, `gsutil mv gs://…`, `gcloud storage mv gs://…` (sync/rsync deletes are INFRA-STORAGE-WIPE / INFRA-CLOUD-DELETE), capacity/replicas/backups set to 0; kubectl `scale --replicas=0`, a patch to replicas 0, `apply --prune`, `replace --force`, any changing verb with `--all`/`-A`, a cluster-admin binding, a pod with privileged/hostPID/hostPath overrides; `terraform apply PLANFILE` (a saved plan runs with no prompt; `-auto-approve` is INFRA-APPLY-UNREVIEWED), `state rm`, `workspace delete`; HTTP DELETE (curl -X, wget --method, httpie) to a non-loopback host or of everything (`_all`, `*`), POST to `_delete_by_query`; `npm unpublish/deprecate`, `cargo yank`, `gem yank`; docker prune/rm on a remote daemon (`-H ssh://`, `--context`, or `DOCKER_HOST`/`DOCKER_CONTEXT` in effect: programs.EnvOptions); `etcdctl del --prefix`, `consul kv delete -recurse`, `vault kv metadata delete`; a shell command run on a fleet (`ansible -m shell/command/raw/script`, `ansible -a CMD`, `salt TARGET cmd.run`). Ask, as deletes of cloud resources do (INFRA-CLOUD-DELETE); PUT/PATCH/POST to an API are everyday work and pass",
		Fire: []string{"aws iam attach-role-policy --role-name ci --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
			"kubectl scale deploy --all --replicas=0 -n prod", "terraform apply tfplan", "curl -X DELETE https://api.example.com/v1/projects/1",
			"npm unpublish acme-lib --force", "aws kms schedule-key-deletion --key-id k1",
			"DOCKER_HOST=tcp://prod.example.com:2376 docker rm -f web",
			"aws ec2 stop-instances --instance-ids i-1", "gcloud compute instances suspend vm-1", "az webapp stop -g rg -n api",
			"helm upgrade api ./chart --set replicaCount=0", "heroku ps:scale web=0", "aws logs put-retention-policy --log-group-name g --retention-in-days 1",
			"gcloud sql instances patch db --activation-policy NEVER", "gh ssh-key add k.pub", "ansible all -m file -a 'path=/srv/app state=absent'",
			"docker service scale web=0", "vault lease revoke -prefix aws/"},
		Pass: []string{"aws iam list-attached-role-policies --role-name ci", "kubectl get deploy -A", "terraform plan -out tfplan",
			"curl -X DELETE http://localhost:8080/items/3", "curl -X POST https://api.example.com/v1/items -d x=1", "npm view acme-lib",
			"DOCKER_BUILDKIT=1 docker rm -f web", "DOCKER_HOST=tcp://prod.example.com:2376 docker ps",
			"aws ec2 describe-instances --filters Name=instance-state-name,Values=stopped", "helm upgrade api ./chart --set replicaCount=2",
			"heroku ps:scale web=2", "aws logs put-retention-policy --log-group-name g --retention-in-days 90", "gh extension remove owner/gh-x",
			"kubectl config delete-context old", "helm repo remove bitnami", "gh ssh-key list", "docker service ls", "vault secrets list",
			"ansible all -m file -a 'path=/srv/app state=directory'", "gcloud run services describe api"}},
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
