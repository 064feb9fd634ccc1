package judge

import (
	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Infrastructure and data (issue 12 class 12): changes applied with the
// review step switched off, stored data deleted wholesale (container and
// cluster volumes, namespaces, buckets), and schema changes aimed at
// production. What each program's arguments mean is the program model's
// (programs/infra.go); these rules ask it.

// The rules' constants are spelled as their ids.
const (
	RuleInfraApplyUnreviewed = "INFRA-APPLY-UNREVIEWED"
	RuleDataVolumeDelete     = "DATA-VOLUME-DELETE"
	RuleInfraKubeDeleteAll   = "INFRA-KUBE-DELETE-ALL"
	RuleInfraStorageWipe     = "INFRA-STORAGE-WIPE"
	RuleDataProdDb           = "DATA-PROD-DB"
	RuleDataMigrateDeploy    = "DATA-MIGRATE-DEPLOY"
	RuleDataOrmWipe          = "DATA-ORM-WIPE"
)

var _ = rules(
	Rule{ID: RuleInfraApplyUnreviewed, Class: ClassInfrastructure, Severity: SevHigh, Decision: Deny,
		Reason:      "an infrastructure change is applied with its confirmation switched off: nobody reviews the plan",
		Alternative: "run the plan or preview (terraform plan, pulumi preview) and let the operator apply it",
		Matches:     "`terraform`/`tofu`/`terragrunt apply|import -auto-approve` (also `TF_CLI_ARGS*=-auto-approve`, `run-all apply --terragrunt-non-interactive`), `pulumi up|refresh --yes`/`--skip-preview` (also `PULUMI_SKIP_CONFIRMATIONS`), `cdk deploy --require-approval never`",
		Fire:        []string{"terraform apply -auto-approve", "tofu apply -auto-approve=true", "pulumi up --yes", "TF_CLI_ARGS_apply=-auto-approve terraform apply", "cdk deploy --require-approval never"},
		Pass:        []string{"terraform plan", "terraform apply", "pulumi preview", "cdk diff", "tofu plan -out p"}},
	Rule{ID: RuleDataVolumeDelete, Class: ClassInfrastructure, Severity: SevHigh, Decision: Deny,
		Reason:      "stored data volumes are deleted (a database's files go with them)",
		Alternative: "list the volumes (docker volume ls) and let the operator delete the ones meant",
		Matches:     "`docker`/`podman` `volume rm|prune`, `system prune --volumes`, `podman system reset`, `compose down -v`, `docker-compose down --volumes`, `kubectl delete pvc|pv`",
		Fire:        []string{"docker volume rm pgdata", "docker volume prune -f", "docker system prune -a --volumes", "docker compose down -v", "kubectl delete pvc data-db-0"},
		Pass:        []string{"docker volume ls", "docker system prune -f", "docker compose down", "kubectl get pvc", "docker volume inspect pgdata"}},
	Rule{ID: RuleInfraKubeDeleteAll, Class: ClassInfrastructure, Severity: SevHigh, Decision: Deny,
		Reason:      "a cluster deletion takes everything in its scope (a namespace, all resources of a kind, a resource definition)",
		Alternative: "delete the one resource meant, by name, or ask the operator",
		Matches:     "`kubectl`/`oc` `delete ns|namespace|crd`, `delete … --all`, `--all-namespaces`/`-A` (not `--dry-run`)",
		Fire:        []string{"kubectl delete ns prod", "kubectl delete pods --all -n prod", "kubectl delete namespace/staging", "oc delete crd certificates.cert-manager.io", `mcp__kubernetes__kubectl_delete {"resourceType":"namespace","name":"prod"}`},
		Pass:        []string{"kubectl get ns", "kubectl delete pod web-1 -n prod --dry-run=client", "kubectl create ns dev", `mcp__kubernetes__kubectl_get {"resourceType":"namespace","name":"prod"}`}},
	Rule{ID: RuleInfraStorageWipe, Class: ClassInfrastructure, Severity: SevHigh, Decision: Deny,
		Reason:      "stored data is deleted wholesale (a bucket's contents, a managed database without a backup)",
		Alternative: "delete the objects meant by name, or ask the operator",
		Matches:     "`aws s3 rm --recursive`, `aws s3 rb --force`, `aws rds delete-db-* --skip-final-snapshot`, `gsutil rm -r|-a`, `gsutil rb -f`, `gcloud storage rm -r`, `gcloud storage buckets delete`, `gcloud sql instances|databases delete`, `rclone purge|delete`, `s3cmd del -r`, `az storage blob delete-batch`, `az sql|postgres|mysql db|server delete`, `az cosmosdb delete`, `mc rm -r`, `firebase firestore:delete --all-collections|-r`, `firebase database:remove /`, `xargs redis-cli DEL` (keys fed from a listing)",
		Fire:        []string{"aws s3 rm --recursive s3://bucket", "gsutil -m rm -r gs://bucket", "rclone purge remote:bucket", "aws s3 rb s3://bucket --force", "aws rds delete-db-instance --db-instance-identifier prod --skip-final-snapshot", "gcloud sql instances delete prod-db"},
		Pass:        []string{"aws s3 ls s3://bucket", "gsutil ls gs://bucket", "aws s3 rm s3://bucket/one.txt --dryrun", "rclone ls remote:bucket", "aws rds describe-db-instances", "gcloud sql instances list"}},
	Rule{ID: RuleDataOrmWipe, Class: ClassInfrastructure, Severity: SevCritical, Decision: Deny,
		Reason:      "code run by a framework's runner deletes every row or drops tables",
		Alternative: "back up first; delete the rows meant with a condition; let the operator run it",
		Matches:     "`rails runner|r`, `manage.py|django-admin shell -c`, `artisan tinker --execute`, `mix run -e` with `.delete_all`/`.destroy_all`, `.objects.all().delete()`, `deleteMany({})`, `Repo.delete_all`, `drop_table`, `DROP TABLE`, `TRUNCATE`",
		Fire:        []string{"rails runner 'User.delete_all'", `python manage.py shell -c "from app.models import Order; Order.objects.all().delete()"`, "bin/rails r 'ActiveRecord::Base.connection.drop_table(:users)'"},
		Pass:        []string{"rails runner 'puts User.count'", `python manage.py shell -c "print(Order.objects.count())"`, "rails runner 'User.where(spam: true).first.destroy'"}},
	Rule{ID: RuleDataProdDb, Class: ClassInfrastructure, Severity: SevCritical, Decision: Deny,
		Reason:      "a migration, schema push or reset is aimed at a production database",
		Alternative: "let the deployment pipeline or the operator migrate production",
		Matches:     "a migration/schema command (`db:*`, `migrate …`, `prisma db push`, `alembic upgrade`, `goose up`, …) with a production target: `RAILS_ENV`/`NODE_ENV`/`MIX_ENV`/… `=production`, `--env production`, `DISABLE_DATABASE_ENVIRONMENT_CHECK=1`, a `*_URL`/`--url` whose host or database says prod",
		Fire:        []string{"RAILS_ENV=production rails db:migrate", "DATABASE_URL=postgres://app@db.prod.example/app npx prisma migrate deploy", "knex migrate:latest --env production", "MIX_ENV=prod mix ecto.reset"},
		Pass:        []string{"rails db:migrate", "RAILS_ENV=test rails db:migrate", "NODE_ENV=production npm run build", "DATABASE_URL=postgres://localhost/app_dev npx prisma migrate dev"}},
	Rule{ID: RuleDataMigrateDeploy, Class: ClassInfrastructure, Severity: SevMedium, Decision: Ask,
		Reason:      "migrations are applied with a tool's deployment command, to whatever database it is configured for",
		Alternative: "apply migrations in development (prisma migrate dev) and let the pipeline deploy them",
		Matches:     "`prisma migrate deploy|resolve`, `flyway migrate|clean`, `liquibase update|drop-all`, `atlas schema|migrate apply`",
		Fire:        []string{"npx prisma migrate deploy", "flyway migrate", "atlas schema apply -u postgres://x"},
		Pass:        []string{"npx prisma migrate dev", "npx prisma migrate status", "flyway info"}},
)

// envOf lists the static assignments in effect as NAME=VALUE.
func envOf(e *parse.Exec) []string {
	var out []string
	for _, a := range e.Assigns {
		if a.Value.Static {
			out = append(out, a.Name+"="+a.Value.Value)
		}
	}
	return out
}

var _ = onExec(func(j *judge, x execution) {
	e, args := x.e, x.args
	p := programs.Lookup(e.Name)
	tool, targs := programs.PackageRun(e.Name, args)
	switch {
	case programs.AppliesUnreviewed(tool, targs, envOf(e)):
		j.add(RuleInfraApplyUnreviewed, x.detail)
	case programs.DeletesVolumes(e.Name, args) && !programs.DryRun(args):
		j.add(RuleDataVolumeDelete, x.detail)
	case programs.DeletesAllInCluster(e.Name, args) && !programs.DryRun(args):
		j.add(RuleInfraKubeDeleteAll, x.detail)
	case programs.WipesStorage(e.Name, args) && !programs.DryRun(args),
		e.ExtraArgs && programs.DeletesKeys(e.Name, args): // KEYS '*' | xargs redis-cli DEL
		j.add(RuleInfraStorageWipe, x.detail)
	case syncDeletes(e.Name, args, true):
		j.add(RuleInfraStorageWipe, x.detail) // aws s3 sync ./empty s3://b --delete
	case syncDeletes(e.Name, args, false):
		j.add(RuleInfraCloudDelete, x.detail) // a deploy that prunes: asked
	case programs.WipesData(tool, targs):
		j.add(RuleDataOrmWipe, x.detail)
	case p.Is(programs.Database) || p != nil && p.Kind.Any(programs.NonReader|programs.Reader|programs.Lister|programs.Downloader):
		// a database client's SQL is DATA-SQL-DESTRUCTIVE's; readers and
		// listers do not migrate (cat migrations/x.sql)
	case programs.ChangesSchema(e.Name, args):
		if t := programs.ProductionTarget(args, envOf(e)); t != "" {
			j.add(RuleDataProdDb, x.detail+" ("+t+")")
		} else if programs.DeploysMigrations(e.Name, args) {
			j.add(RuleDataMigrateDeploy, x.detail)
		}
	case programs.DeploysMigrations(e.Name, args):
		j.add(RuleDataMigrateDeploy, x.detail)
	}
})

// syncDeletes: a sync into remote storage that deletes what its source
// lacks, from an empty source (wipe) or another one (asked).
func syncDeletes(name string, args []string, wipe bool) bool {
	d, empty := programs.SyncDeletes(programs.Canon(name), args)
	return d && empty == wipe && !programs.DryRun(args)
}
