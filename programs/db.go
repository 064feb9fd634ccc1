package programs

import "strings"

// Database clients run the SQL they are given (-c, -e, operands, stdin).
// Those with Destroys take commands, not SQL (redis-cli FLUSHALL) or are
// admin tools (dropdb, mysqladmin drop).
var _ = register(
	&Program{Name: "psql", Names: []string{"pgcli", "cockroach"}, Kind: Database, Opts: S("cdfhpUvo", "command", "dbname", "file", "host", "port", "username"), CodeIn: dbShellCode},
	&Program{Name: "mysql", Names: []string{"mariadb", "mycli"}, Kind: Database, Opts: S("eDhPuS", "execute", "database", "host", "port", "user"), CodeIn: dbShellCode},
	&Program{Name: "sqlite3", Names: []string{"litecli", "duckdb"}, Kind: Database, CodeIn: dbShellCode},
	&Program{Name: "clickhouse-client", Names: []string{"clickhouse"}, Kind: Database},
	&Program{Name: "mongosh", Names: []string{"mongo"}, Kind: Database},
	&Program{Name: "redis-cli", Kind: Database, Destroys: func(a []string) bool { return hasFold(a, "flushall") || hasFold(a, "flushdb") }},
	&Program{Name: "dropdb", Names: []string{"dropuser"}, Kind: Database, Destroys: func([]string) bool { return true }},
	&Program{Name: "mysqladmin", Kind: Database, Destroys: func(a []string) bool { return has(a, "drop") }},
	&Program{Name: "sqlcmd", Names: []string{"snowsql", "bq", "cqlsh"}, Kind: Database},
)

func hasFold(args []string, want string) bool {
	for _, a := range args {
		if strings.EqualFold(a, want) {
			return true
		}
	}
	return false
}
