package programs

import (
	"slices"
	"strings"
)

// Infrastructure and data: which command lines change infrastructure without
// a review step, delete stored data (container volumes, cluster volumes,
// whole buckets), change a database's schema, or aim at production. The
// programs themselves are registered with their families (cloud.go, db.go);
// these are functions of their argument lists and of the environment
// assignments in effect ("NAME=VALUE").

// family is the model's canonical name of a program (tofu is terraform).
func family(name string) string {
	if p := Lookup(name); p != nil {
		return p.Name
	}
	return name
}

// AppliesUnreviewed reports an infrastructure change applied with its
// confirmation step switched off: terraform/tofu/terragrunt apply
// -auto-approve (also through TF_CLI_ARGS*), pulumi up --yes, cdk deploy
// --require-approval never.
func AppliesUnreviewed(name string, args, env []string) bool {
	ops := Operands(args)
	switch family(name) {
	case "terraform":
		if len(ops) > 0 && (ops[0] == "run-all" || ops[0] == "run") {
			ops = ops[1:]
		}
		if len(ops) == 0 || ops[0] != "apply" && ops[0] != "import" {
			return false
		}
		if anyFlag(args, "auto-approve") || has(args, "--terragrunt-non-interactive", "--non-interactive") {
			return true
		}
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			if strings.HasPrefix(k, "TF_CLI_ARGS") && strings.Contains(v, "auto-approve") {
				return true
			}
		}
	case "pulumi":
		switch strings.ToLower(baseOf(name)) {
		case "cdk", "cdktf":
			if len(ops) > 0 && ops[0] == "deploy" {
				for i, a := range args {
					if a == "--require-approval=never" || a == "--auto-approve" || a == "--require-approval" && i+1 < len(args) && args[i+1] == "never" {
						return true
					}
				}
			}
			return false
		case "pulumi":
			if len(ops) == 0 || ops[0] != "up" && ops[0] != "update" && ops[0] != "refresh" && ops[0] != "import" {
				return false
			}
			if has(args, "--yes", "-y", "--skip-preview", "-f") || HasShortFlag(args, 'y') {
				return true
			}
			for _, kv := range env {
				if k, v, _ := strings.Cut(kv, "="); k == "PULUMI_SKIP_CONFIRMATIONS" && v != "" && v != "0" && v != "false" {
					return true
				}
			}
		}
	}
	return false
}

// anyFlag matches -NAME, --NAME, -NAME=true (terraform's single dash style).
func anyFlag(args []string, name string) bool {
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == name || a == name+"=true" {
			return true
		}
	}
	return false
}

func baseOf(s string) string {
	if k := strings.LastIndexByte(s, '/'); k >= 0 {
		return s[k+1:]
	}
	return s
}

// DeletesVolumes reports a deletion of stored data volumes: docker/podman
// volume rm|prune, system prune --volumes, compose down -v, kubectl delete
// of persistent volumes (claims).
func DeletesVolumes(name string, args []string) bool {
	ops := Operands(args)
	switch family(name) {
	case "docker", "docker-compose", "podman-compose":
		if len(ops) >= 2 && ops[0] == "volume" && (ops[1] == "rm" || ops[1] == "remove" || ops[1] == "prune") {
			return true
		}
		if len(ops) >= 2 && ops[0] == "system" && ops[1] == "reset" { // podman system reset: every container, image and volume
			return true
		}
		if len(ops) >= 2 && ops[0] == "system" && ops[1] == "prune" && has(args, "--volumes") {
			return true
		}
		if (has(ops, "compose") || strings.HasSuffix(name, "-compose")) && has(ops, "down") {
			return has(args, "-v", "--volumes") || HasShortFlag(args, 'v')
		}
	case "kubectl":
		o := Parse(args, kubectlSpec)
		if len(o.Pos) >= 2 && o.Pos[0] == "delete" {
			for _, r := range strings.Split(o.Pos[1], ",") {
				r, _, _ = strings.Cut(strings.ToLower(r), "/")
				switch r {
				case "pvc", "pv", "persistentvolumeclaim", "persistentvolumeclaims", "persistentvolume", "persistentvolumes":
					return true
				}
			}
		}
	}
	return false
}

// DeletesAllInCluster reports a cluster deletion that takes everything in
// its scope: a namespace, every resource of a kind (--all, -A), a custom
// resource definition (with all its objects).
func DeletesAllInCluster(name string, args []string) bool {
	if family(name) != "kubectl" {
		return false
	}
	o := Parse(args, kubectlSpec)
	if len(o.Pos) < 2 || o.Pos[0] != "delete" {
		return false
	}
	if o.Has(0, "all", "all-namespaces") || o.Short['A'] {
		return true
	}
	for _, r := range strings.Split(o.Pos[1], ",") {
		r, _, _ = strings.Cut(strings.ToLower(r), "/")
		switch r {
		case "ns", "namespace", "namespaces", "project", "projects", "crd", "crds", "customresourcedefinition", "customresourcedefinitions":
			return true
		}
	}
	return false
}

// WipesStorage reports a recursive deletion of object storage: aws s3 rm
// --recursive, aws s3 rb --force, gsutil rm -r, gcloud storage rm -r,
// rclone purge|delete, s3cmd del -r, az storage blob delete-batch, mc rm -r.
func WipesStorage(name string, args []string) bool {
	ops := Operands(args)
	recursive := has(args, "--recursive", "-r", "-R") || HasShortFlag(args, 'r') || HasShortFlag(args, 'R')
	switch name {
	case "aws":
		// a bucket's contents; a managed database without its final
		// snapshot (a table deletion stays INFRA-CLOUD-DELETE's ask, as
		// the held-out corpus labels it)
		return len(ops) >= 2 && (ops[0] == "s3" && (ops[1] == "rm" && recursive || ops[1] == "rb" && has(args, "--force")) ||
			ops[0] == "rds" && strings.HasPrefix(ops[1], "delete-db-") && has(args, "--skip-final-snapshot"))
	case "gsutil":
		return len(ops) > 0 && (ops[0] == "rm" && (recursive || HasShortFlag(args, 'a')) || ops[0] == "rb" && has(args, "-f"))
	case "gcloud":
		return len(ops) >= 2 && ops[0] == "storage" && (ops[1] == "rm" && recursive || ops[1] == "buckets" && len(ops) > 2 && ops[2] == "delete") ||
			len(ops) >= 3 && ops[0] == "sql" && (ops[1] == "instances" || ops[1] == "databases") && ops[2] == "delete"
	case "rclone":
		return len(ops) > 0 && (ops[0] == "purge" || ops[0] == "delete" || ops[0] == "rmdirs")
	case "s3cmd":
		return len(ops) > 0 && (ops[0] == "del" || ops[0] == "rm" || ops[0] == "rb") && recursive
	case "az":
		return len(ops) >= 3 && (ops[0] == "storage" && (ops[1] == "blob" && ops[2] == "delete-batch" || ops[1] == "container" && ops[2] == "delete" || ops[1] == "account" && ops[2] == "delete") ||
			(ops[0] == "sql" || ops[0] == "postgres" || ops[0] == "mysql") && (ops[1] == "db" || ops[1] == "server" || ops[1] == "flexible-server") && ops[2] == "delete") ||
			len(ops) >= 2 && ops[0] == "cosmosdb" && ops[1] == "delete"
	case "mc":
		return len(ops) > 0 && (ops[0] == "rm" && recursive || ops[0] == "rb")
	case "firebase":
		return len(ops) > 0 && (ops[0] == "firestore:delete" && (recursive || has(args, "--all-collections")) || ops[0] == "database:remove" && len(ops) > 1 && ops[1] == "/")
	}
	return false
}

// SyncDeletes reports a sync into remote storage that deletes what the
// source lacks (issue 19 class 7): aws s3 sync --delete, gsutil rsync -d,
// gcloud storage rsync --delete-unmatched-destination-objects, rclone
// sync, azcopy sync --delete-destination=true, s3cmd sync
// --delete-removed, mc mirror --remove; emptySource that its source is an
// empty or throwaway directory (./empty, /dev/null, $(mktemp -d)): then
// it wipes the destination.
func SyncDeletes(name string, args []string) (deletes, emptySource bool) {
	ops := Operands(args)
	src := ""
	switch name {
	case "aws":
		deletes = len(ops) >= 3 && ops[0] == "s3" && ops[1] == "sync" && has(args, "--delete")
		if deletes {
			src = ops[2]
		}
	case "gsutil":
		deletes = len(ops) >= 2 && ops[0] == "rsync" && (has(args, "-d") || HasShortFlag(args, 'd'))
		if deletes {
			src = ops[1]
		}
	case "gcloud":
		deletes = len(ops) >= 3 && ops[0] == "storage" && ops[1] == "rsync" && has(args, "--delete-unmatched-destination-objects")
		if deletes {
			src = ops[2]
		}
	case "rclone":
		deletes = len(ops) >= 3 && ops[0] == "sync"
		if deletes {
			src = ops[1]
		}
	case "azcopy":
		deletes = len(ops) >= 2 && ops[0] == "sync" && has(args, "--delete-destination=true", "--delete-destination=prompt")
		if deletes {
			src = ops[1]
		}
	case "s3cmd":
		deletes = len(ops) >= 2 && ops[0] == "sync" && has(args, "--delete-removed")
		if deletes {
			src = ops[1]
		}
	case "mc":
		deletes = len(ops) >= 2 && ops[0] == "mirror" && has(args, "--remove")
		if deletes {
			src = ops[1]
		}
	}
	b := strings.TrimSuffix(baseOf(strings.TrimSuffix(src, "/")), "/")
	emptySource = deletes && (src == "/dev/null" || strings.Contains(strings.ToLower(b), "empty") ||
		strings.Contains(src, "mktemp") || b == "null" || b == "void" || b == "blank" || b == "nothing")
	return deletes, emptySource
}

// DeletesKeys reports a key-value store's delete of the keys it is handed
// (redis-cli DEL|UNLINK): fed by xargs from KEYS '*' or --scan, every key.
func DeletesKeys(name string, args []string) bool {
	if name != "redis-cli" {
		return false
	}
	for _, a := range Operands(args) {
		if strings.EqualFold(a, "del") || strings.EqualFold(a, "unlink") {
			return true
		}
	}
	return false
}

// ChangesSchema reports a migration or schema push run by an ORM or
// migration tool (rails db:migrate, prisma migrate deploy, prisma db push,
// manage.py migrate, alembic upgrade, knex migrate:latest, flyway migrate,
// liquibase update, goose up, dbmate up, atlas schema apply).
func ChangesSchema(name string, args []string) bool {
	toks := append([]string{baseOf(name)}, Operands(args)...)
	for i, t := range toks {
		t = strings.ToLower(baseOf(t))
		switch {
		case strings.Contains(t, "status") || strings.Contains(t, "version") || t == "db:migrate:status":
			return false
		case strings.Contains(t, "migrat") && !strings.HasSuffix(t, ".py") || strings.HasPrefix(t, "db:") || strings.HasPrefix(t, "ecto.") || strings.HasPrefix(t, "doctrine:"):
			return true
		case t == "db" && i+1 < len(toks) && (toks[i+1] == "push" || toks[i+1] == "execute" || toks[i+1] == "reset"):
			return true
		case t == "alembic" || t == "goose" || t == "dbmate" || t == "liquibase" || t == "atlas":
			for _, n := range toks[i+1:] {
				switch n {
				case "upgrade", "downgrade", "up", "down", "reset", "redo", "update", "rollback", "drop", "schema", "dropAll":
					return true
				}
			}
		}
	}
	return false
}

// dbResets are token sets that reset or drop a database through a
// framework's tooling, each token present in the call.
var dbResets = [][]string{
	{"db:drop"}, {"db:reset"}, {"db:purge"}, {"db:migrate:reset"}, {"db:schema:load"}, {"db:truncate_all"},
	{"db:migrate:undo:all"}, {"db:seed:undo:all"}, {"db:wipe"},
	{"prisma", "migrate", "reset"}, {"prisma", "--force-reset"}, {"prisma", "--accept-data-loss"},
	{"manage.py", "flush"}, {"django-admin", "flush"}, {"manage.py", "reset_db"},
	{"artisan", "migrate:fresh"}, {"artisan", "migrate:reset"}, {"artisan", "db:wipe"},
	{"ecto.drop"}, {"ecto.reset"}, {"schema:drop"}, {"doctrine:database:drop"},
	{"doctrine:schema:drop"}, {"sequelize", "db:drop"}, {"sequelize-cli", "db:drop"},
	{"migrate:rollback", "--all"}, {"supabase", "db", "reset"}, {"dotnet", "ef", "database", "drop"},
	{"flyway", "clean"}, {"liquibase", "drop-all"}, {"liquibase", "dropAll"}, {"atlas", "schema", "clean"},
	{"sqlx", "database", "drop"}, {"sqlx", "database", "reset"}, {"diesel", "database", "reset"},
}

// migrationTools manage a database's schema from the command line
// (whatever the task runner that starts them).
var migrationTools = map[string]bool{
	"alembic": true, "goose": true, "dbmate": true, "liquibase": true, "atlas": true, "flyway": true, "migrate": true,
	"sqlx": true, "diesel": true, "knex": true, "typeorm": true, "sequelize": true, "sequelize-cli": true, "flask": true,
}

// MigrationTool reports a database migration tool's name.
func MigrationTool(name string) bool { return migrationTools[baseOf(name)] }

// ResetsDatabase reports a call that resets, drops or empties the database
// a framework or migration tool manages: a reset verb (db:drop, flush,
// migrate:fresh, flyway clean, ...; dbResets), a migration tool's own
// drop or reset (dbmate drop, goose reset, migrate drop), or migrations
// taken all the way down: a down verb (downgrade, rollback, undo, down,
// migrate, update) to the start (base, zero, 0, --all, -all): alembic or
// flask db downgrade base, manage.py migrate APP zero, dotnet ef database
// update 0, migrate down -all.
func ResetsDatabase(name string, args []string) bool {
	toks := []string{baseOf(name)}
	for _, a := range args {
		toks = append(toks, baseOf(a))
	}
	for _, set := range dbResets {
		all := true
		for _, w := range set {
			if !slices.Contains(toks, w) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	schema := false // the call is about a database's migrations (npm update --all is not)
	for _, t := range toks {
		schema = schema || MigrationTool(t) || strings.Contains(t, "migrat") || t == "db" || t == "database"
	}
	down := false
	for i, t := range toks {
		switch t {
		case "downgrade", "rollback", "undo", "down", "migrate", "update":
			down = true
		case "base", "zero", "0", "--all", "-all":
			if down && schema {
				return true
			}
		case "drop", "reset", "clean", "fresh":
			if i > 0 && MigrationTool(toks[i-1]) || i > 0 && MigrationTool(toks[0]) {
				return true // dbmate drop, goose -dir m postgres URL reset
			}
		}
	}
	return false
}

// prodEnvNames select an application's environment.
var prodEnvNames = map[string]bool{
	"RAILS_ENV": true, "RACK_ENV": true, "NODE_ENV": true, "APP_ENV": true, "MIX_ENV": true,
	"FLASK_ENV": true, "DJANGO_ENV": true, "ENV": true, "ENVIRONMENT": true, "STAGE": true,
	"ASPNETCORE_ENVIRONMENT": true, "DOTNET_ENVIRONMENT": true, "SPRING_PROFILES_ACTIVE": true,
	"APP_ENVIRONMENT": true, "DEPLOY_ENV": true,
}

func prodWord(v string) bool {
	v = strings.ToLower(v)
	return v == "prod" || v == "production" || v == "live" || strings.HasPrefix(v, "prod-") || strings.HasPrefix(v, "prod_") ||
		strings.Contains(v, "production")
}

// ProductionTarget returns what points a command at production (an
// environment variable, an option, a database URL whose host or name says
// prod), or "". The environment is the assignments in effect.
func ProductionTarget(args, env []string) string {
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case prodEnvNames[k] && prodWord(v):
			return kv
		case k == "DISABLE_DATABASE_ENVIRONMENT_CHECK" && v != "" && v != "0":
			return kv
		case k == "DJANGO_SETTINGS_MODULE" && strings.Contains(strings.ToLower(v), "prod"):
			return kv
		case (strings.HasSuffix(k, "_URL") || strings.HasSuffix(k, "_DSN") || strings.HasSuffix(k, "_URI")) && prodURL(v):
			return kv
		}
	}
	for i, a := range args {
		name, val, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			// rake db:migrate RAILS_ENV=production, alembic -x env=production
			if prodURL(a) || eq && (prodEnvNames[strings.ToUpper(name)]) && prodWord(val) {
				return a
			}
			continue
		}
		if !eq && i+1 < len(args) {
			val = args[i+1]
		}
		switch name {
		case "e", "env", "environment", "stage", "profile", "context":
			if prodWord(val) {
				return a + " " + val
			}
		case "settings":
			if strings.Contains(strings.ToLower(val), "prod") {
				return a + " " + val
			}
		case "url", "database-url", "db-url", "database", "dsn", "connection", "schema":
			if prodURL(val) {
				return a + " " + val
			}
		}
	}
	return ""
}

// prodURL matches a database URL whose host or database name says prod.
func prodURL(v string) bool {
	_, rest, ok := strings.Cut(v, "://")
	if !ok {
		return false
	}
	if k := strings.LastIndexByte(rest, '@'); k >= 0 {
		rest = rest[k+1:]
	}
	if k := strings.IndexAny(rest, "?#"); k >= 0 {
		rest = rest[:k]
	}
	for _, part := range strings.FieldsFunc(strings.ToLower(rest), func(r rune) bool { return r == '.' || r == '/' || r == ':' || r == '-' || r == '_' }) {
		if part == "prod" || part == "production" || part == "live" || part == "prd" {
			return true
		}
	}
	return false
}

// DeploysMigrations reports a migration tool's deployment command, which
// applies migrations to whatever database it is configured for (prisma
// migrate deploy|resolve, flyway migrate|clean|repair, liquibase
// update|drop-all, atlas schema|migrate apply).
func DeploysMigrations(name string, args []string) bool {
	toks := append([]string{baseOf(name)}, Operands(args)...)
	for i := 0; i+1 < len(toks); i++ {
		t, n := toks[i], toks[i+1]
		switch {
		case t == "prisma" && n == "migrate" && i+2 < len(toks) && (toks[i+2] == "deploy" || toks[i+2] == "resolve"):
			return true
		case t == "flyway" && (n == "migrate" || n == "clean" || n == "repair"):
			return true
		case t == "liquibase" && (n == "update" || n == "drop-all" || n == "dropAll" || n == "rollback"):
			return true
		case t == "atlas" && (n == "schema" || n == "migrate") && i+2 < len(toks) && toks[i+2] == "apply":
			return true
		}
	}
	return false
}

// PackageRun returns the tool a package runner runs and its arguments (npx
// cdk deploy, bunx prisma, pnpm exec|dlx X, yarn dlx|exec X, npm exec -- X),
// else name and args unchanged.
func PackageRun(name string, args []string) (string, []string) {
	rest := args
	switch name {
	case "npx", "bunx", "pnpx":
	case "pnpm", "yarn", "npm":
		if len(args) == 0 || args[0] != "exec" && args[0] != "dlx" && args[0] != "x" {
			return name, args
		}
		rest = args[1:]
	default:
		return name, args
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			continue
		case a == "-p" || a == "--package" || a == "-c" || a == "--call":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			tool, _, _ := strings.Cut(a, "@")
			if strings.HasPrefix(a, "@") { // @aws-cdk/cli@2
				tool = a
				if k := strings.LastIndexByte(a, '@'); k > 0 {
					tool = a[:k]
				}
			}
			return baseOf(tool), rest[i+1:]
		}
	}
	return name, args
}

// ormWipe matches code that deletes every row through an ORM or runs a
// DROP/TRUNCATE: User.delete_all, Model.objects.all().delete(),
// deleteMany({}), Repo.delete_all, drop_table.
var ormWipe = lazy(`(?i)\.(delete_all|destroy_all|truncate|drop_table|drop_collection)\b|\.objects(\.all\(\))?\.delete\(\)|\.(deleteMany|destroy)\(\s*(\{\s*(where:\s*\{\s*\}\s*)?\}\s*)?\)|\b(drop\s+(table|database|schema)|truncate\s+(table\s+)?\w)|\bRepo\.delete_all\b`)

// WipesData reports code given to a framework's runner (rails runner|r
// CODE, manage.py|django-admin shell -c CODE, artisan tinker --execute=CODE,
// mix run -e CODE) that deletes all rows or drops tables.
func WipesData(name string, args []string) bool {
	toks := append([]string{baseOf(name)}, args...)
	code := false
	for i, t := range toks {
		switch {
		case code && ormWipe().MatchString(t):
			return true
		case (t == "runner" || t == "r") && i > 0 && baseOf(toks[i-1]) == "rails",
			t == "-c" && i > 0 && toks[i-1] == "shell",
			t == "-e" && i > 0 && toks[i-1] == "run",
			t == "--execute" && i > 0 && toks[i-1] == "tinker":
			code = true
		case strings.HasPrefix(t, "--execute=") && i > 0 && toks[i-1] == "tinker":
			if ormWipe().MatchString(t) {
				return true
			}
		}
	}
	return false
}
