package programs

// Database clients run the SQL they are given (-c, -e, operands, stdin).
var _ = register(
	&Program{Name: "psql", Names: []string{"pgcli", "cockroach"}, Kind: Database, Opts: S("cdfhpUvo", "command", "dbname", "file", "host", "port", "username")},
	&Program{Name: "mysql", Names: []string{"mariadb", "mycli"}, Kind: Database, Opts: S("eDhPuS", "execute", "database", "host", "port", "user")},
	&Program{Name: "sqlite3", Names: []string{"litecli", "duckdb"}, Kind: Database},
	&Program{Name: "clickhouse-client", Names: []string{"clickhouse"}, Kind: Database},
	&Program{Name: "mongosh", Names: []string{"mongo"}, Kind: Database},
	&Program{Name: "redis-cli", Kind: Database},
	&Program{Name: "sqlcmd", Names: []string{"snowsql", "bq"}, Kind: Database},
)
