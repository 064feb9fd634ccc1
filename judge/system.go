package judge

import (
	"regexp"
	"strings"
	"sync"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// system judges privilege, system, infrastructure and data commands.
func (j *judge) system(all []parse.Exec, i int, e *parse.Exec, args []string, detail string) {
	switch e.Name {
	case "sudo", "doas", "pkexec", "run0":
		// reached only when nothing was unwrapped: sudo -i, sudo -s, sudo su
		if len(args) > 0 && onlyOptions(args) && !containsAny(args, "-i", "-s", "--login", "--shell") {
			return // sudo -l, -v, -k
		}
		if len(args) > 0 {
			j.add(RuleSudo, detail)
		}
	case "su", "sg", "machinectl":
		j.add(RuleSudo, detail)
	case "visudo":
		j.add(RuleSudoers, detail)
	case "usermod", "gpasswd", "adduser", "addgroup", "dseditgroup":
		for _, a := range args {
			for _, g := range strings.Split(a, ",") {
				if g == "sudo" || g == "wheel" || g == "admin" || g == "root" {
					j.add(RuleSudoers, detail)
					return
				}
			}
		}
	case "shutdown", "reboot", "halt", "poweroff":
		j.add(RuleShutdown, detail)
	case "init", "telinit":
		if len(args) > 0 && (args[0] == "0" || args[0] == "6") {
			j.add(RuleShutdown, detail)
		}
	case "systemctl", "loginctl":
		j.systemctl(args, detail)
	case "service":
		if len(args) >= 2 && (args[1] == "stop" || args[1] == "disable") {
			if isFirewallUnit(args[0]) {
				j.add(RuleFirewallFlush, detail)
			} else {
				j.add(RuleServiceStop, detail)
			}
		}
	case "launchctl":
		if len(args) > 0 && containsAny(args[:1], "unload", "bootout", "disable", "remove", "stop") {
			j.add(RuleServiceStop, detail)
		}
	case "kill":
		if killsAll(args) {
			j.add(RuleKillAll, detail)
		}
	case "killall5":
		j.add(RuleKillAll, detail)
	case "pkill", "killall":
		o := parseOpts(args, "u", "user")
		if len(o.Pos) == 0 && (o.Values["u"] != "" || o.Long["user"] != "") {
			j.add(RuleKillAll, detail)
		}
	case "iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft":
		o := parseOpts(args, "tP")
		if o.Has('F', "flush") || o.Has('X', "delete-chain") || strings.EqualFold(lastOr(args), "ACCEPT") && o.Values["P"] != "" {
			j.add(RuleFirewallFlush, detail)
		}
	case "ufw":
		if containsAny(args, "disable", "reset") {
			j.add(RuleFirewallFlush, detail)
		}
	case "nft":
		s := strings.Join(args, " ")
		if strings.Contains(s, "flush ruleset") || strings.Contains(s, "delete table") || strings.Contains(s, "flush table") {
			j.add(RuleFirewallFlush, detail)
		}
	case "pfctl":
		o := parseOpts(args, "F")
		if o.Short['d'] || o.Values["F"] != "" {
			j.add(RuleFirewallFlush, detail)
		}
	case "setenforce":
		if len(args) > 0 && (args[0] == "0" || strings.EqualFold(args[0], "permissive")) {
			j.add(RuleFirewallFlush, detail)
		}
	case "crontab":
		o := parseOpts(args, "u")
		if o.Short['r'] {
			j.add(RuleCrontabRemove, detail)
		}
	case "terraform", "tofu", "terragrunt":
		j.terraform(args, detail)
	case "pulumi", "cdk", "cdktf", "serverless", "sls":
		if containsAny(programs.Operands(args), "destroy", "remove") {
			j.add(RuleTerraformDestroy, detail)
		}
	case "kubectl", "oc", "kubecolor":
		j.kubectl(args, detail)
	case "helm":
		if p := programs.Operands(args); len(p) > 0 && containsAny(p[:1], "uninstall", "delete", "del", "un") {
			j.add(RuleKubectlDelete, detail)
		}
	case "aws", "gcloud", "az", "doctl", "gsutil", "heroku", "fly", "flyctl", "vercel", "netlify",
		"gh", "linode-cli", "hcloud", "ibmcloud", "oci", "scw", "exo", "vultr-cli", "railway", "render", "supabase", "firebase":
		j.cloud(e.Name, args, detail)
	case "psql", "mysql", "mariadb", "sqlite3", "clickhouse-client", "clickhouse", "cockroach", "duckdb",
		"mongosh", "mongo", "redis-cli", "sqlcmd", "snowsql", "bq", "pgcli", "mycli", "litecli":
		j.sql(all, i, e, args, detail)
	case "dropdb", "dropuser":
		j.add(RuleSQLDestructive, detail)
	case "mysqladmin":
		if containsAny(args, "drop") {
			j.add(RuleSQLDestructive, detail)
		}
	}
	j.orm(e, args, detail)
}

func lastOr(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[len(args)-1]
}

func isFirewallUnit(u string) bool {
	u = strings.TrimSuffix(u, ".service")
	return u == "firewalld" || u == "ufw" || u == "nftables" || u == "iptables" || u == "ip6tables" || u == "pf"
}

func (j *judge) systemctl(args []string, detail string) {
	p := programs.Operands(args)
	if len(p) == 0 {
		return
	}
	switch p[0] {
	case "poweroff", "reboot", "halt", "kexec", "soft-reboot":
		j.add(RuleShutdown, detail)
	case "isolate":
		if len(p) > 1 && (strings.HasPrefix(p[1], "rescue") || strings.HasPrefix(p[1], "emergency") ||
			strings.HasPrefix(p[1], "poweroff") || strings.HasPrefix(p[1], "reboot") || strings.HasPrefix(p[1], "halt")) {
			j.add(RuleShutdown, detail)
		}
	case "stop", "disable", "mask", "kill":
		for _, u := range p[1:] {
			if isFirewallUnit(u) {
				j.add(RuleFirewallFlush, detail)
				return
			}
		}
		if len(p) > 1 {
			j.add(RuleServiceStop, detail)
		}
	}
}

// killsAll reports kill with the process id -1 (every process).
func killsAll(args []string) bool {
	sigDone := false
	for k := 0; k < len(args); k++ {
		a := args[k]
		if a == "--" {
			sigDone = true
			continue
		}
		if !sigDone && (a == "-s" || a == "-n" || a == "--signal") {
			k++
			sigDone = true
			continue
		}
		if !sigDone && strings.HasPrefix(a, "-") && a != "-1" {
			sigDone = true
			continue
		}
		if a == "-1" {
			if sigDone {
				return true
			}
			sigDone = true // "kill -1 PID" is SIGHUP
			continue
		}
		sigDone = true
	}
	return false
}

func (j *judge) terraform(args []string, detail string) {
	var p []string
	destroyFlag := false
	for _, a := range args {
		if a == "-destroy" || a == "--destroy" {
			destroyFlag = true
		}
		if !strings.HasPrefix(a, "-") {
			p = append(p, a)
		}
	}
	if len(p) == 0 {
		return
	}
	sub := p[0]
	if sub == "run-all" || sub == "run" {
		if len(p) > 1 {
			sub = p[1]
		}
	}
	if sub == "destroy" || (sub == "apply" && destroyFlag) {
		j.add(RuleTerraformDestroy, detail)
	}
}

func dryRun(args []string) bool {
	for _, a := range args {
		if a == "--dry-run" || strings.HasPrefix(a, "--dry-run=") && !strings.HasSuffix(a, "=none") || a == "--dryrun" {
			return true
		}
	}
	return false
}

func (j *judge) kubectl(args []string, detail string) {
	o := parseOpts(args, "nlfcos", "namespace", "context", "kubeconfig", "selector", "filename", "output", "cluster", "user")
	if len(o.Pos) > 0 && (o.Pos[0] == "delete" || o.Pos[0] == "drain") && !dryRun(args) {
		j.add(RuleKubectlDelete, detail)
	}
}

// The expressions are compiled on first use (lazyRegexp): compiling them
// at package init cost every hook process, most of which never run them.
var cloudDeleteVerb = lazyRegexp(`^(delete|terminate|destroy|deregister|purge|remove|rb|rm)([-:_].*)?$`)

func (j *judge) cloud(name string, args []string, detail string) {
	if dryRun(args) {
		return
	}
	p := programs.Operands(args)
	switch name {
	case "aws":
		// aws SERVICE OPERATION; s3 rb / s3 rm
		if len(p) >= 2 {
			op := p[1]
			if p[0] == "s3" && (op == "rb" || op == "rm") {
				j.add(RuleCloudDelete, detail)
				return
			}
			if strings.HasPrefix(op, "delete-") || strings.HasPrefix(op, "terminate-") ||
				strings.HasPrefix(op, "deregister-") || strings.HasPrefix(op, "purge-") || strings.HasPrefix(op, "remove-") {
				j.add(RuleCloudDelete, detail)
			}
		}
		return
	case "gh":
		if len(p) > 0 && p[0] == "api" {
			for k, a := range args {
				if (a == "-X" || a == "--method") && k+1 < len(args) && strings.EqualFold(args[k+1], "DELETE") ||
					strings.EqualFold(a, "-XDELETE") || strings.EqualFold(a, "--method=DELETE") {
					j.add(RuleCloudDelete, detail)
					return
				}
			}
			return
		}
		if len(p) >= 2 && p[1] == "delete" && (p[0] == "repo" || p[0] == "release" || p[0] == "secret" || p[0] == "variable" || p[0] == "gist" || p[0] == "run" || p[0] == "cache") {
			j.add(RuleCloudDelete, detail)
		}
		return
	case "heroku":
		if len(p) > 0 && (p[0] == "apps:destroy" || p[0] == "pg:reset" || p[0] == "destroy") {
			j.add(RuleCloudDelete, detail)
		}
		return
	}
	// gcloud compute instances delete NAME, az vm delete, doctl compute droplet delete ...
	for _, v := range p {
		if cloudDeleteVerb().MatchString(v) && (v != "rm" || name == "gsutil" || name == "vercel") && (v != "remove" || name == "vercel") {
			j.add(RuleCloudDelete, detail)
			return
		}
	}
}

var (
	sqlDrop     = lazyRegexp(`(?i)\b(drop\s+(table|database|schema|view|index|user|role|owned|collection|keyspace|materialized)|truncate(\s+table)?\s+[\w."` + "`" + `\[]|dropdatabase\s*\(|\.drop\s*\(\s*\)|flushall|flushdb)`)
	sqlDelete   = lazyRegexp(`(?i)\bdelete\s+from\b`)
	sqlUpdate   = lazyRegexp(`(?i)\bupdate\s+[\w."` + "`" + `\[\]]+\s+set\b`)
	sqlWhere    = lazyRegexp(`(?i)\bwhere\b`)
	mongoDelAll = lazyRegexp(`(?i)\b(deletemany|remove)\s*\(\s*(\{\s*\})?\s*\)`)
)

// destructiveSQL reports DROP/TRUNCATE and DELETE/UPDATE without WHERE.
func destructiveSQL(s string) bool {
	if sqlDrop().MatchString(s) || mongoDelAll().MatchString(s) {
		return true
	}
	for _, stmt := range strings.Split(s, ";") {
		if (sqlDelete().MatchString(stmt) || sqlUpdate().MatchString(stmt)) && !sqlWhere().MatchString(stmt) {
			return true
		}
	}
	return false
}

// sql scans the SQL a database client would run: its -c/-e/--command
// strings, operands, and text piped in by echo/printf/cat heredocs.
func (j *judge) sql(all []parse.Exec, i int, e *parse.Exec, args []string, detail string) {
	if e.Name == "redis-cli" {
		for _, a := range args {
			if strings.EqualFold(a, "flushall") || strings.EqualFold(a, "flushdb") {
				j.add(RuleSQLDestructive, detail)
				return
			}
		}
		return
	}
	for _, a := range args {
		if destructiveSQL(a) {
			j.add(RuleSQLDestructive, detail)
			return
		}
	}
	// stdin from an earlier pipeline stage (echo "DROP TABLE x" | psql)
	if e.Pipeline != 0 && e.Stage > 0 {
		for k := range all {
			f := &all[k]
			if f.Pipeline == e.Pipeline && f.Stage < e.Stage && (f.Name == "echo" || f.Name == "printf" || f.Name == "cat") {
				for _, w := range f.Argv[1:] {
					if destructiveSQL(w.Value) {
						j.add(RuleSQLDestructive, detail)
						return
					}
				}
			}
		}
	}
	for _, d := range j.data {
		if d.Why == "stdin text of "+e.Name && destructiveSQL(d.Text) {
			j.add(RuleSQLDestructive, detail)
			return
		}
	}
	for _, r := range e.Redirects {
		if (r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-") && destructiveSQL(r.Target.Value) {
			j.add(RuleSQLDestructive, detail)
			return
		}
	}
}

// ormResets are token sets that reset or drop a database through a
// framework's tooling.
var ormResets = [][]string{
	{"db:drop"}, {"db:reset"}, {"db:purge"}, {"db:migrate:reset"}, {"db:schema:load"},
	{"prisma", "migrate", "reset"}, {"prisma", "--force-reset"}, {"prisma", "--accept-data-loss"},
	{"manage.py", "flush"}, {"django-admin", "flush"}, {"manage.py", "reset_db"},
	{"artisan", "migrate:fresh"}, {"artisan", "migrate:reset"}, {"artisan", "db:wipe"},
	{"ecto.drop"}, {"ecto.reset"}, {"schema:drop"}, {"doctrine:database:drop"},
	{"doctrine:schema:drop"}, {"alembic", "downgrade", "base"}, {"sequelize", "db:drop"},
	{"migrate:rollback", "--all"}, {"supabase", "db", "reset"},
}

var ormRunners = map[string]bool{
	"rails": true, "rake": true, "bundle": true, "prisma": true, "npx": true, "bunx": true, "pnpm": true,
	"yarn": true, "npm": true, "python": true, "python3": true, "php": true, "mix": true, "alembic": true,
	"sequelize": true, "typeorm": true, "knex": true, "django-admin": true, "symfony": true,
	"manage.py": true, "artisan": true, "bin/rails": true, "uv": true, "poetry": true, "pipenv": true,
	"supabase": true, "dotnet": true, "bun": true, "console": true, "doctrine": true, "pnpx": true,
}

func (j *judge) orm(e *parse.Exec, args []string, detail string) {
	if !ormRunners[e.Name] {
		return
	}
	toks := make([]string, 0, len(args)+1)
	toks = append(toks, e.Name)
	for _, a := range args {
		if s := strings.LastIndexByte(a, '/'); s >= 0 {
			a = a[s+1:]
		}
		toks = append(toks, a)
	}
	for _, set := range ormResets {
		if allTokens(toks, set) {
			j.add(RuleDBReset, detail)
			return
		}
	}
	// dotnet ef database drop
	if e.Name == "dotnet" && allTokens(toks, []string{"ef", "database", "drop"}) {
		j.add(RuleDBReset, detail)
	}
}

func allTokens(toks, want []string) bool {
	for _, w := range want {
		if !contains(toks, w) {
			return false
		}
	}
	return true
}

// lazyRegexp compiles expr once, on first call of the returned func.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
