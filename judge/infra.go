package judge

import (
	"path"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleInfraTerraformDestroy = "INFRA-TERRAFORM-DESTROY"
	RuleInfraKubeDelete       = "INFRA-KUBE-DELETE"
	RuleInfraCloudDelete      = "INFRA-CLOUD-DELETE"
	RuleDataSqlDestructive    = "DATA-SQL-DESTRUCTIVE"
	RuleDataDbReset           = "DATA-DB-RESET"
)

var _ = rules(
	Rule{ID: RuleInfraTerraformDestroy, Class: ClassInfrastructure, Severity: SevCritical, Decision: Deny, Catastrophic: false,
		Reason:      "destroying infrastructure (terraform/tofu/pulumi destroy)",
		Alternative: "plan the change and let the operator apply it",
		Matches:     "`terraform/tofu/terragrunt destroy`, `apply -destroy`, `run-all destroy`, `pulumi/cdk destroy`, `serverless remove`",
		Fire:        []string{"terraform destroy", "tofu apply -destroy"},
		Pass:        []string{"terraform plan", "terraform plan -destroy -out p"}},
	Rule{ID: RuleInfraKubeDelete, Class: ClassInfrastructure, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "deleting cluster resources (kubectl delete, helm uninstall)",
		Alternative: "ask the operator; scale down or use a dry run first",
		Matches:     "`kubectl/oc delete`, `kubectl drain`, `helm uninstall/delete` (not `--dry-run`); the delete family of the other cluster, GitOps, release and VM managers' verbs (`nomad`, `eksctl`, `argocd app delete`, `helmfile destroy`, `vagrant destroy`, `virsh undefine`, `multipass delete`: programs/effects.go)",
		Fire:        []string{"kubectl delete pod web-1", "helm uninstall my-release", "helmfile destroy", "argocd app delete prod --cascade", "vagrant destroy -f", "virsh undefine db --remove-all-storage"},
		Pass:        []string{"kubectl get pods", "kubectl delete pod web-1 --dry-run=client", "helmfile apply", "argocd app list", "vagrant up", "virsh list --all"}},
	Rule{ID: RuleInfraCloudDelete, Class: ClassInfrastructure, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "deleting or terminating cloud resources",
		Alternative: "ask the operator; use a dry run first",
		Matches:     "an operation whose verb is of the delete family of the lexicon (programs/effects.go: delete, terminate, destroy, deregister, purge, remove, drop, truncate, wipe, flush, erase, abandon, ...; the verb of `stop-instances`, `batch-delete-image`, `sites:delete`, `purge_queue`): `aws … delete-*/terminate-*/batch-delete-*`, `aws s3 rb/rm`, `gcloud/az/doctl/sam/eb/wrangler/turso/neonctl/openstack/databricks/rabbitmqctl/… delete/destroy`, `netlify sites:delete`, `hdfs dfs -rm`, `kafka-topics --delete`, `glab api -X DELETE`, `gh repo delete`, `heroku apps:destroy/pg:reset`; a repository deleted, archived or transferred by a hosting CLI: `gh repo archive`, `glab repo delete`, `hub delete`, `tea repo delete`, `gh api`/`glab api` writes to the repository with `archived=true`, to `…/transfer` (programs/hosting.go)",
		Fire:        []string{"aws ec2 terminate-instances --instance-ids i-1", "aws ecr batch-delete-image --repository-name r --image-ids imageTag=x", "netlify sites:delete s", "sam delete --stack-name s", "hdfs dfs -rm -r /data", "gh repo delete org/repo --yes", "gh repo archive org/repo -y", "glab repo delete group/app --yes", "gh api repos/org/repo/transfer -f new_owner=someone"},
		Pass:        []string{"aws ec2 describe-instances", "aws ecr describe-images --repository-name r", "netlify sites:list", "sam validate", "hdfs dfs -ls /data", "gh repo view org/repo", "glab repo archive group/app", "gh api repos/org/repo/transfer", "gh repo unarchive org/repo"}},
	Rule{ID: RuleDataSqlDestructive, Class: ClassInfrastructure, Severity: SevCritical, Decision: Deny, Catastrophic: false,
		Reason:      "DROP, TRUNCATE or an unbounded DELETE/UPDATE sent to a database",
		Alternative: "back up first; add a WHERE clause; let the operator run it",
		Matches:     "`DROP`, `TRUNCATE`, `ALTER TABLE … DROP`, sessions cut off (`pg_terminate_backend(`, `CONNECTION LIMIT 0`), `DELETE`/`UPDATE` without `WHERE` or with one that bounds nothing (`WHERE 1=1`, `WHERE true`, a column compared with itself, `WHERE id > 0`) in `psql -c`, `mysql -e`, `sqlite3 DB SQL`, piped `echo … | psql`, heredocs, a file written earlier in the command or the session, or already on disk (read bounded: a FIFO, a device or a file over the script cap adds nothing), and fed to a client (`psql -f F`, `mysql < F`, `sqlite3 DB '.read F'`, `redis-cli < F`) or to a raw sender (`nc HOST PORT < F`, `printf 'FLUSHALL\r\n' | nc`); `dropdb`, `mysqladmin drop`, `redis-cli FLUSHALL` (also inside `EVAL`), `redis-cli SHUTDOWN`, `pg_restore --clean`, `mongorestore --drop`, mongo `dropDatabase()`, a script file a client runs (`cqlsh -f F`, `mongosh URI F.js`); destructive SQL handed to a cloud CLI (`wrangler d1 execute --remote --command`, not `--local`); not when every database named is a test one (`test_db`, `app_test`, `test.sqlite3`), nor the developer's own store (programs/db.go DevDatabase): a development or test sqlite3 file in the project (`dev.db`), redis-cli -h on loopback, a development or test database (`app_dev`, `myapp_test`) on loopback or the local socket, unless an assignment in effect (`PGHOST=`, `MYSQL_HOST=`, programs.ServerEnv) points the client at another server",
		Fire: []string{"psql -c 'DROP TABLE users'", "dropdb production", "psql -c 'TRUNCATE TABLE users' prod_db", "redis-cli -h cache.prod.example.com FLUSHALL", "psql -h db.prod.example.com -c 'DROP DATABASE app_dev'", "sqlite3 /var/lib/app/app.db 'DROP TABLE users'", "PGHOST=db.prod.example.com psql -c 'DROP DATABASE app_dev'", "export MYSQL_HOST=10.0.0.5; mysql -e 'drop database test_db'",
			"psql -h db.example.com -c 'ALTER TABLE users DROP COLUMN email'", "sqlite3 /srv/app.db 'DELETE FROM users WHERE id = id'",
			"pg_restore --clean -d postgresql://db.example.com/app app.dump", "mongorestore --drop --uri mongodb://db.example.com/app dump/",
			"redis-cli -h cache.example.com EVAL \"return redis.call('FLUSHALL')\" 0", "wrangler d1 execute app --remote --command 'DROP TABLE users'",
			`mcp__postgres__query {"sql":"ALTER TABLE users DROP COLUMN email"}`, `mcp__mongodb__drop-collection {"database":"app","collection":"users"}`, `mcp__redis__execute {"command":"FLUSHALL"}`},
		Pass: []string{"psql -c 'SELECT count(*) FROM users'", "redis-cli -h localhost FLUSHALL", "dropdb myapp_test", "psql -h localhost -c 'DROP DATABASE app_dev'", "sqlite3 dev.db 'DROP TABLE users'", "psql -c 'DELETE FROM users WHERE id = 3'", "psql -c 'TRUNCATE TABLE test_fixtures' test_db",
			"psql -h db.example.com -c 'ALTER TABLE users ADD COLUMN age int'", "sqlite3 /srv/app.db 'DELETE FROM users WHERE id = 7'",
			"pg_restore -d postgresql://db.example.com/app app.dump", "mongorestore --uri mongodb://db.example.com/app dump/",
			"redis-cli -h cache.example.com INFO", "wrangler d1 execute app --local --command 'DROP TABLE users'",
			`mcp__postgres__query {"sql":"SELECT count(*) FROM users"}`, `mcp__mongodb__delete-many {"database":"app","collection":"users","filter":{"active":false}}`, `mcp__redis__execute {"command":"GET session:1"}`}},
	Rule{ID: RuleDataDbReset, Class: ClassInfrastructure, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "dropping or resetting a database through an ORM or admin tool",
		Alternative: "ask the operator; migrate instead of reset",
		Matches:     "`rails db:drop/reset/purge/truncate_all`, `prisma migrate reset`, `manage.py flush`, `artisan migrate:fresh`, `mix ecto.reset`, `dotnet ef database drop`, `flyway clean`, a migration tool's drop or reset (`dbmate drop`, `goose ... reset`), or migrations taken all the way down (`alembic`/`flask db downgrade base`, `manage.py migrate APP zero`, `dotnet ef database update 0`, `sequelize db:migrate:undo:all`, `migrate ... down -all`): programs.ResetsDatabase",
		Fire: []string{"rails db:drop", "npx prisma migrate reset", "python manage.py migrate billing zero", "flask db downgrade base",
			"dotnet ef database update 0", "dbmate drop", `goose -dir migrations postgres "$DATABASE_URL" reset`, "npx sequelize-cli db:migrate:undo:all"},
		Pass: []string{"rails db:migrate", "npx prisma migrate dev", "python manage.py migrate billing 0003", "flask db upgrade", "alembic downgrade -1",
			"dbmate up", "npm update --all", "dotnet ef database update"}},
)

// assigned looks up an assignment in effect for e (PGHOST=h psql, export
// DOCKER_HOST=h; docker ...).
func assigned(e *parse.Exec) func(string) (string, bool) {
	return func(name string) (string, bool) {
		for _, a := range e.Assigns {
			if a.Name == name {
				return a.Value.Value, true
			}
		}
		return "", false
	}
}

// ownServer reports an execution whose database server is the one its
// options name: no assignment in effect (PGHOST=..., export MYSQL_HOST=...)
// points the client elsewhere.
func ownServer(e *parse.Exec) bool {
	for _, a := range e.Assigns {
		if programs.ServerEnv(a.Name) {
			return false
		}
	}
	return true
}

// destroys judges a program that tears down what it manages (the model's
// Destroys): infrastructure, cluster and cloud resources, databases.
func (j *judge) destroys(e *parse.Exec, p *programs.Program, args []string, detail string) {
	if remoteSQL(p, args) {
		j.add(RuleDataSqlDestructive, detail) // wrangler d1 execute DB --remote --command 'DROP TABLE users'
		return
	}
	if p.Destroys == nil || !p.Destroys(args) {
		return
	}
	switch {
	case p.Is(programs.Database):
		if !(ownServer(e) && programs.DevDatabase(p.Name, args, destructiveSQL)) {
			j.add(RuleDataSqlDestructive, detail) // dropdb, redis-cli FLUSHALL; not dropdb app_dev, redis-cli on loopback
		}
	case p.Is(programs.Infra):
		j.add(RuleInfraTerraformDestroy, detail)
	case p.Is(programs.Cluster):
		if !programs.DeletesAllInCluster(p.Name, args) && !programs.DeletesVolumes(p.Name, args) {
			j.add(RuleInfraKubeDelete, detail) // else INFRA-KUBE-DELETE-ALL / DATA-VOLUME-DELETE (infradata.go)
		}
	case p.Is(programs.Storage):
		j.add(RuleDiskFormat, detail) // lvremove, zpool destroy, cryptsetup luksErase (programs/storage.go)
	case p.Is(programs.Cloud):
		if !programs.WipesStorage(e.Name, args) {
			j.add(RuleInfraCloudDelete, detail) // else INFRA-STORAGE-WIPE (infradata.go)
		}
	}
}

var (
	sqlDrop   = lazyRegexp(`(?i)(\b(alter\s+table\s+\S+\s+drop\s|pg_terminate_backend\s*\(|connection\s+limit\s+0\b|allow_connections\s*(=\s*)?false|drop\s+(table|database|schema|view|index|user|role|owned|collection|keyspace|materialized)|truncate(\s+table)?\s+[\w."` + "`" + `\[]|dropdatabase\s*\(|flushall|flushdb)|\.drop\s*\(\s*\))`)
	sqlDelete = lazyRegexp(`(?i)\bdelete\s+from\b`)
	sqlUpdate = lazyRegexp(`(?i)\bupdate\s+[\w."` + "`" + `\[\]]+\s+set\b`)
	sqlWhere  = lazyRegexp(`(?i)\bwhere\b`)
	// WHERE 1=1, WHERE true, WHERE 'a'='a' bound nothing: a mass delete
	sqlWhereTrue = lazyRegexp(`(?i)\bwhere\s+\(?\s*(1\s*=\s*1|true|1|'(\w*)'\s*=\s*'(\w*)')\s*\)?\s*(;|$|\b(limit|returning|order|or)\b)`)
	// WHERE id = id, WHERE id > 0: a condition every row meets
	sqlWhereSelf = lazyRegexp(`(?i)\bwhere\s+\(?\s*(\w+)\s*(=|>=|<=)\s*(\w+)\s*\)?\s*(;|$)`)
	sqlWhereKeys = lazyRegexp(`(?i)\bwhere\s+\(?\s*\w*id\s*(>\s*0|>=\s*[01]|is\s+not\s+null)\s*\)?\s*(;|$)`)
	mongoDelAll  = lazyRegexp(`(?i)\b(deletemany|remove)\s*\(\s*(\{\s*\})?\s*\)`)
)

// destructiveSQL reports DROP/TRUNCATE and DELETE/UPDATE without WHERE.
func destructiveSQL(s string) bool {
	if sqlDrop().MatchString(s) || mongoDelAll().MatchString(s) {
		return true
	}
	for _, stmt := range strings.Split(s, ";") {
		if (sqlDelete().MatchString(stmt) || sqlUpdate().MatchString(stmt)) && (!sqlWhere().MatchString(stmt) || sqlWhereTrue().MatchString(stmt) || whereAll(stmt)) {
			return true
		}
	}
	return false
}

// remoteSQL: a cloud CLI handed destructive SQL for a database it
// manages (wrangler d1 execute --command, turso db shell DB SQL), unless it
// is told to run it on the local copy (--local).
func remoteSQL(p *programs.Program, args []string) bool {
	if !p.Is(programs.Cloud) || programs.LocalOnly(args) {
		return false
	}
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if i > 0 && strings.HasPrefix(args[i-1], "-") && !programs.SQLOption(args[i-1]) {
			continue // gh issue create --body 'DROP TABLE is gone': text, no SQL
		}
		if destructiveSQL(a) {
			return true
		}
	}
	for _, a := range args {
		if n, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(n, "-") && programs.SQLOption(n) && destructiveSQL(v) {
			return true
		}
	}
	return false
}

// whereAll: a WHERE that compares a column with itself (id = id) or a
// key with what every key is (id > 0, id IS NOT NULL).
func whereAll(stmt string) bool {
	if sqlWhereKeys().MatchString(stmt) {
		return true
	}
	m := sqlWhereSelf().FindStringSubmatch(stmt)
	return m != nil && strings.EqualFold(m[1], m[3])
}

// sql scans the SQL a database client would run: its -c/-e/--command
// strings, operands, and text piped in by echo/printf/cat heredocs.
func (j *judge) sql(all []parse.Exec, i int, e *parse.Exec, args []string, detail string) {
	if ownServer(e) && (programs.TestDatabase(args, destructiveSQL) || programs.DevDatabase(e.Name, args, destructiveSQL)) {
		return // psql -c 'TRUNCATE TABLE fixtures' test_db: a test database is rebuilt by its suite; app_dev on localhost is the developer's own
	}
	for _, a := range args {
		if destructiveSQL(a) {
			j.add(RuleDataSqlDestructive, detail)
			return
		}
	}
	// stdin from an earlier pipeline stage (echo "DROP TABLE x" | psql;
	// echo's words are one text: echo DROP TABLE users | mysql)
	if e.Pipeline != 0 && e.Stage > 0 {
		for k := range all {
			f := &all[k]
			if f.Pipeline == e.Pipeline && f.Stage < e.Stage && printsText(f.Name) &&
				destructiveSQL(strings.Join(wordValues(f.Argv[1:]), " ")) {
				j.add(RuleDataSqlDestructive, detail)
				return
			}
		}
	}
	if !j.storeStdin(e, detail) {
		j.storeInputs(e, programs.Lookup(e.Name).Inputs, args, detail)
	}
}

// storeStdin judges what a data store's client (or a raw sender) reads on
// stdin: text the command gives it (a heredoc, a here-string, a file
// written earlier in the command: parse's "stdin text of NAME"), and a
// file written earlier in the session (its fact's Input). It reports a hit.
func (j *judge) storeStdin(e *parse.Exec, detail string) bool {
	for _, d := range j.data {
		if d.Why == "stdin text of "+e.Name && destructiveSQL(d.Text) {
			j.add(RuleDataSqlDestructive, detail)
			return true
		}
	}
	var files []string
	for _, r := range e.Redirects {
		switch {
		case (r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-") && destructiveSQL(r.Target.Value):
			j.add(RuleDataSqlDestructive, detail)
			return true
		case r.Op == "<" && (r.Fd == -1 || r.Fd == 0) && r.Target.Static:
			files = append(files, r.Target.Value)
		}
	}
	return j.storeFiles(e, files, detail)
}

// storeInputs judges the script files a client runs by its options
// (programs' Inputs: psql -f F, sqlite3 '.read F').
func (j *judge) storeInputs(e *parse.Exec, inputs func([]string) []string, args []string, detail string) {
	if inputs != nil {
		j.storeFiles(e, inputs(args), detail)
	}
}

// storeFiles adds DATA-SQL-DESTRUCTIVE, at the decision the fact keeps,
// for each file the session wrote with destructive data-store input.
func (j *judge) storeFiles(e *parse.Exec, files []string, detail string) bool {
	if j.sessionState().depth > 0 || j.cfg.disabled(RuleDataSqlDestructive) {
		return false
	}
	hit := false
	for _, f := range files {
		p, ok := j.resolve(f, e.Dir)
		if !ok {
			continue
		}
		p = path.Clean(p)
		var wf WrittenFact
		if j.env.Memory != nil {
			wf, ok = j.env.Memory.Written(p)
		} else {
			ok = false
		}
		if !ok {
			if j.diskSQL(p, detail) { // a file already on disk (remote2.go)
				hit = true
			} else if j.env.Memory != nil {
				j.unavailable(p)
			}
			continue
		}
		if wf.Input == Allow {
			continue
		}
		j.used("memory: " + p + " written in entry #" + itoa(wf.Seq) + ": " + wf.Input.String() + " as a data store's input")
		r, _ := ruleByID(RuleDataSqlDestructive)
		h := hitFor(r, detail+" (input "+p+", written in this session, entry #"+itoa(wf.Seq)+")")
		h.Verdict, h.Decision, h.After = wf.Input, wf.Input.String(), wf.Seq
		j.hits = append(j.hits, h)
		hit = true
	}
	return hit
}

// storeInputVerdict is what text gets as a data store's input.
func (j *judge) storeInputVerdict(text string) Verdict {
	if j.cfg.disabled(RuleDataSqlDestructive) || !destructiveSQL(text) {
		return Allow
	}
	r, _ := ruleByID(RuleDataSqlDestructive)
	return r.Decision
}

// orm judges the task runners of the model (rails, rake, npx, manage.py,
// artisan, python, ...) and the migration tools: a database reset among
// their tokens (programs.ResetsDatabase).
func (j *judge) orm(e *parse.Exec, args []string, detail string) {
	if !programs.Is(e.Name, programs.TaskRunner) && !programs.MigrationTool(e.Name) {
		return
	}
	if programs.ResetsDatabase(e.Name, args) {
		j.add(RuleDataDbReset, detail)
	}
}

// printsText reports a program whose output is its arguments or its files
// as they are (echo, printf, cat and its family): piped into a database
// client, that is the SQL it runs.
func printsText(name string) bool {
	switch canon(programs.Lookup(name), name) {
	case "echo", "printf", "cat":
		return true
	}
	return false
}

// rawProtocol reports a program that hands its stdin to a socket as it is
// (nc, ncat, telnet, socat, openssl s_client), or a printer whose output
// goes to /dev/tcp: what it sends is a protocol's commands (FLUSHALL,
// DROP TABLE), judged as a database client's.
func rawProtocol(p *programs.Program, e *parse.Exec) bool {
	if programs.SendsStdin(e.Name, wordValues(e.Argv[1:])) {
		return true
	}
	if programs.PrintsArgs(e.Name) {
		for _, r := range e.Redirects {
			if strings.HasPrefix(r.Target.Value, "/dev/tcp/") || strings.HasPrefix(r.Target.Value, "/dev/udp/") {
				for _, w := range e.Argv[1:] {
					if destructiveSQL(w.Value) {
						return true
					}
				}
			}
		}
	}
	return false
}
