package programs

import (
	"strings"
)

// Database clients run the SQL they are given (-c, -e, operands, stdin).
// Those with Destroys take commands, not SQL (redis-cli FLUSHALL) or are
// admin tools (dropdb, mysqladmin drop).
var _ = register(
	&Program{Name: "psql", Names: []string{"pgcli", "cockroach"}, Kind: Database, Opts: S("cdfhpUvo", "command", "dbname", "file", "host", "port", "username"), CodeIn: dbShellCode, Inputs: dbInputs},
	&Program{Name: "mysql", Names: []string{"mariadb", "mycli"}, Kind: Database, Opts: S("eDhPuS", "execute", "database", "host", "port", "user"), CodeIn: dbShellCode, Inputs: dbInputs},
	&Program{Name: "sqlite3", Names: []string{"litecli", "duckdb"}, Kind: Database, CodeIn: dbShellCode, Inputs: dbInputs},
	&Program{Name: "clickhouse-client", Names: []string{"clickhouse"}, Kind: Database},
	// mongosh's --eval is JavaScript with Node's modules (require("child_process"))
	&Program{Name: "mongosh", Names: []string{"mongo"}, Kind: Database, Inputs: scriptOperands(".js"), CodeIn: langCode("mongosh --eval", "js", "--eval")},
	&Program{Name: "redis-cli", Kind: Database, Destroys: redisDestroys},
	// restore tools told to drop what they restore over first
	&Program{Name: "pg_restore", Kind: Database, Destroys: func(a []string) bool { return has(a, "--clean", "-c") || HasShortFlag(a, 'c') }},
	&Program{Name: "mongorestore", Kind: Database, Destroys: func(a []string) bool { return has(a, "--drop") }},
	&Program{Name: "dropdb", Names: []string{"dropuser"}, Kind: Database, Destroys: func([]string) bool { return true }},
	&Program{Name: "mysqladmin", Kind: Database, Destroys: func(a []string) bool { return has(a, "drop") }},
	&Program{Name: "sqlcmd", Names: []string{"snowsql", "cqlsh"}, Kind: Database, Inputs: dbInputs},
	&Program{Name: "bq", Kind: Database | Cloud}, // bq rm is the lexicon's (effects.go), bq query SQL
)

// dbInputs are the script files a database client runs besides its
// stdin: -f F / --file F / --file=F, and the client's own commands among
// its arguments (.read F in sqlite3, \i F and \include F in psql, source F
// in mysql). Their text is the client's input, as a heredoc's would be.
func dbInputs(args []string) []string {
	var out []string
	for i, v := range args {
		switch {
		case (v == "-f" || v == "--file") && i+1 < len(args):
			out = append(out, args[i+1])
		case strings.HasPrefix(v, "--file="):
			out = append(out, v[len("--file="):])
		default:
			for _, cmd := range strings.Split(v, ";") {
				f := strings.Fields(cmd)
				if len(f) == 2 && (f[0] == ".read" || f[0] == `\i` || f[0] == `\include` || f[0] == `\ir` || strings.EqualFold(f[0], "source")) {
					out = append(out, f[1])
				}
			}
		}
	}
	return out
}

// scriptOperands: operands that are script files by their extension
// (mongosh URI db/fix.js), besides -f/--file.
func scriptOperands(ext string) func([]string) []string {
	return func(args []string) []string {
		out := dbInputs(args)
		for _, a := range Operands(args) {
			if strings.HasSuffix(a, ext) && !strings.Contains(a, "://") {
				out = append(out, a)
			}
		}
		return out
	}
}

// redisDestroys: FLUSHALL/FLUSHDB as a command or inside an EVAL script
// (redis.call('FLUSHALL')), SHUTDOWN, DEBUG CRASH|SEGFAULT.
func redisDestroys(a []string) bool {
	for i, w := range a {
		l := strings.ToLower(w)
		if strings.Contains(l, "flushall") || strings.Contains(l, "flushdb") || l == "shutdown" ||
			l == "debug" && i+1 < len(a) && (strings.EqualFold(a[i+1], "crash") || strings.EqualFold(a[i+1], "segfault")) {
			return true
		}
	}
	return false
}

// SendsStdin reports a program that hands its stdin to a socket as it is
// (nc, ncat, telnet, socat, openssl s_client): what it reads is a
// protocol's commands (FLUSHALL, DROP TABLE), the input of whatever
// listens there.
func SendsStdin(name string, args []string) bool {
	switch Canon(name) {
	case "nc", "socat", "telnet":
		return true
	case "openssl":
		return len(args) > 0 && args[0] == "s_client"
	}
	return false
}

var testDBName = lazy(`(?i)(^|[/_.-])(test|tests|testing)([_.-]|$)`)

// TestDatabase reports a client whose every database named (operands,
// -d/--dbname, -D/--database, a DSN's path) is a test database: test_db,
// app_test, postgres://localhost/app_test, test.sqlite3. The SQL text,
// the user, host and port are not names of the database. isSQL tells
// the SQL text among the operands (the judge's reading of SQL).
func TestDatabase(args []string, isSQL func(string) bool) bool {
	t, ok := readDBArgs("", args, isSQL)
	if !ok || len(t.dbs) == 0 {
		return false
	}
	for _, db := range t.dbs {
		if k := strings.LastIndexByte(db, '/'); k >= 0 {
			db = db[k+1:] // data/test.sqlite3
		}
		if !testDBName().MatchString(db) {
			return false
		}
	}
	return true
}

// dbArgs is what a SQL client's arguments name: the hosts (-h, --host=,
// mysql's -hHOST, a DSN's host), the databases (operands, -d/--dbname,
// -D/--database, a DSN's path) and the SQL text (-c/-e/--command/
// --execute/--eval, operands that read as SQL).
type dbArgs struct{ hosts, dbs, sql []string }

// readDBArgs reads the arguments of psql, mysql, dropdb, mysqladmin,
// mongosh (and sqlite3's operands) once for TestDatabase and DevDatabase;
// ok is false when an option's value is missing. The user, port, password
// and variables are names of nothing.
func readDBArgs(name string, args []string, isSQL func(string) bool) (t dbArgs, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, bool) {
			if i+1 >= len(args) {
				return "", false
			}
			i++
			return args[i], true
		}
		switch {
		case a == "-h" || a == "--host" || a == "-c" || a == "-e" || a == "--command" || a == "--execute" || a == "--eval" ||
			a == "-d" || a == "--dbname" || a == "-D" || a == "--database":
			v, ok := next()
			if !ok {
				return t, false
			}
			switch a {
			case "-h", "--host":
				t.hosts = append(t.hosts, v)
			case "-d", "--dbname", "-D", "--database":
				t.dbs = append(t.dbs, v)
			default:
				t.sql = append(t.sql, v)
			}
		case strings.HasPrefix(a, "--host="):
			t.hosts = append(t.hosts, a[len("--host="):])
		case strings.HasPrefix(a, "-h") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			t.hosts = append(t.hosts, a[2:]) // mysql -hlocalhost
		case strings.HasPrefix(a, "--dbname=") || strings.HasPrefix(a, "--database="):
			_, db, _ := strings.Cut(a, "=")
			t.dbs = append(t.dbs, db)
		case a == "-f" || a == "--file" || a == "-U" || a == "-u" || a == "--username" || a == "--user" ||
			a == "-p" || a == "--port" || a == "-P" || a == "--pset" || a == "-v" || a == "--set":
			i++
		case strings.HasPrefix(a, "-"):
		case strings.Contains(a, "://"):
			if h := HostOf(a); h != "" {
				t.hosts = append(t.hosts, h)
			}
			db := a[strings.Index(a, "://")+3:]
			if k := strings.IndexByte(db, '/'); k >= 0 {
				if db, _, _ = strings.Cut(db[k+1:], "?"); db != "" {
					t.dbs = append(t.dbs, db) // postgres://localhost/app_test
				}
			}
		case strings.ContainsAny(a, " \t\n;") || isSQL(a):
			t.sql = append(t.sql, a)
		case Canon(name) == "mysqladmin" && (a == "drop" || a == "create"):
		default:
			t.dbs = append(t.dbs, a)
		}
	}
	return t, true
}

var (
	devDBName = lazy(`(?i)(^|[/_.-])(test|tests|testing|dev|develop|development|local|sandbox)([_.-]|$)`)
	sqlDropDB = lazy("(?i)\\bdrop\\s+(database|schema)\\s+(if\\s+exists\\s+)?[\"`]?([\\w.-]+)")
)

// ServerEnv reports an environment variable that points a database
// client at a server its options do not name (PGHOST=db.prod psql -c
// 'DROP DATABASE app_dev'): where one is assigned, the options no longer
// say which server is reached, so neither DevDatabase nor TestDatabase
// can vouch for the call.
func ServerEnv(name string) bool {
	switch name {
	case "PGHOST", "PGHOSTADDR", "PGSERVICE", "PGSERVICEFILE", "PGSYSCONFDIR",
		"MYSQL_HOST", "MYSQL_UNIX_PORT", "MYSQL_TEST_LOGIN_FILE", "MYSQL_HOME",
		"REDISCLI_RCFILE", "MONGOSH_URI", "MONGODB_URI":
		return true
	}
	return false
}

// DevDatabase reports a client whose target is the developer's own data
// store, where dropping and flushing is everyday work: a development or
// test file in the project for sqlite3 (dev.db, data/test.sqlite3: a
// relative path that does not climb out; app.db stays judged), a redis-cli with
// -h/-u naming loopback, and for the SQL clients, dropdb and mongosh a
// server on loopback or a local socket (no host named) where every
// database named or dropped is a development or test one (app_dev,
// myapp_test, DROP DATABASE app_development). A host that is not loopback,
// a database named like anything else (prod, app), or an absolute path
// keeps the call judged.
func DevDatabase(name string, args []string, isSQL func(string) bool) bool {
	switch Canon(name) {
	case "sqlite3":
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			return projectRelative(a) && devDBName().MatchString(strings.TrimSuffix(a[strings.LastIndexByte(a, '/')+1:], ".db")) // the database file is the first operand
		}
		return false
	case "redis-cli":
		named := false // redis-cli FLUSHALL alone is held: its default host is not told apart from one set by env or config
		for i, a := range args {
			if (a == "-h" || a == "-u") && i+1 < len(args) {
				h := args[i+1]
				if a == "-u" {
					h = HostOf(h)
				}
				if h == "" || PublicAddr(h) {
					return false
				}
				named = true
			}
		}
		return named
	case "psql", "mysql", "dropdb", "mysqladmin", "mongosh":
	default:
		return false
	}
	t, ok := readDBArgs(name, args, isSQL)
	if !ok {
		return false
	}
	for _, h := range t.hosts {
		if PublicAddr(h) {
			return false
		}
	}
	n := 0
	for _, q := range t.sql {
		for _, m := range sqlDropDB().FindAllStringSubmatch(q, -1) {
			if !devDBName().MatchString(m[3]) {
				return false
			}
			n++
		}
	}
	for _, db := range t.dbs {
		if !devDBName().MatchString(db) {
			return false
		}
		n++
	}
	return n > 0
}

// projectRelative reports a path that names a file under the working
// directory: relative, not climbing out with .., not home (~).
func projectRelative(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.ContainsAny(p, "$`") {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}
