package programs

import (
	"strings"
	"testing"
)

// TestTestDatabase pins the reading moved here from judge/infra.go: every
// database named must be a test one; the SQL, user, host and port are not
// names of the database.
func TestTestDatabase(t *testing.T) {
	isSQL := func(s string) bool { return strings.Contains(strings.ToUpper(s), "DROP") }
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-c", "TRUNCATE TABLE fixtures", "test_db"}, true},
		{[]string{"-d", "app_test", "-c", "DROP TABLE x"}, true},
		{[]string{"--dbname=app_test", "-c", "DROP TABLE x"}, true},
		{[]string{"postgres://localhost/app_test?sslmode=disable"}, true},
		{[]string{"test.sqlite3", "DROP TABLE users"}, true},
		{[]string{"-h", "test-db", "-U", "test", "prod"}, false}, // host and user are not the database
		{[]string{"-c", "DROP DATABASE test_db"}, false},         // no database named outside the SQL
		{[]string{"app_test", "prod"}, false},                    // every one must be a test database
		{[]string{"-d"}, false},                                  // -d without its value
		{[]string{"contest"}, false},                             // a word ending in test is not a test database
		{nil, false},
	} {
		if got := TestDatabase(c.args, isSQL); got != c.want {
			t.Errorf("TestDatabase(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

// TestDevDatabase: the developer's own store passes; another host, a
// database named like anything else, a file outside the project does not.
func TestDevDatabase(t *testing.T) {
	isSQL := func(s string) bool { return strings.Contains(strings.ToUpper(s), "DROP") }
	for _, c := range []struct {
		cmd  []string
		want bool
	}{
		{[]string{"redis-cli", "-h", "localhost", "FLUSHALL"}, true},
		{[]string{"redis-cli", "FLUSHDB"}, false}, // no host named: held as before
		{[]string{"redis-cli", "-h", "127.0.0.1", "-n", "3", "FLUSHDB"}, true},
		{[]string{"redis-cli", "-h", "cache.prod.example.com", "FLUSHALL"}, false},
		{[]string{"redis-cli", "-u", "redis://10.0.0.5:6379", "FLUSHALL"}, false},
		{[]string{"dropdb", "myapp_test"}, true},
		{[]string{"dropdb", "--if-exists", "myapp_development"}, true},
		{[]string{"dropdb", "production"}, false},
		{[]string{"dropdb", "-h", "db.prod.example.com", "app_dev"}, false},
		{[]string{"psql", "-h", "localhost", "-c", "DROP DATABASE app_dev"}, true},
		{[]string{"psql", "-h", "localhost", "-c", "DROP DATABASE app"}, false},
		{[]string{"psql", "-h", "localhost", "-c", "DROP TABLE users"}, false}, // no database named
		{[]string{"psql", "-h", "localhost", "-d", "app_dev", "-c", "DROP DATABASE prod"}, false},
		{[]string{"psql", "-h", "db.internal", "-c", "DROP DATABASE app_dev"}, false},
		{[]string{"mysql", "-u", "root", "-e", "drop database test_db"}, true},
		{[]string{"mysql", "-h127.0.0.1", "-e", "DROP DATABASE app_dev"}, true},
		{[]string{"mysql", "-h", "prod-db", "-e", "drop database test_db"}, false},
		{[]string{"mongosh", "mongodb://localhost:27017/app_dev", "--eval", "db.dropDatabase()"}, true},
		{[]string{"mongosh", "mongodb://prod.example.com/app_dev", "--eval", "db.dropDatabase()"}, false},
		{[]string{"sqlite3", "dev.db", "DROP TABLE users"}, true},
		{[]string{"sqlite3", "app.db", "DROP TABLE users"}, false},
		{[]string{"sqlite3", "/var/lib/app/dev.db", "DROP TABLE users"}, false},
		{[]string{"sqlite3", "../other/dev.db", "DROP TABLE users"}, false},
		{[]string{"sqlite3", "~/.local/share/dev.db", "DROP TABLE users"}, false},
		{[]string{"clickhouse-client", "-q", "DROP DATABASE dev"}, false}, // not read here
	} {
		if got := DevDatabase(c.cmd[0], c.cmd[1:], isSQL); got != c.want {
			t.Errorf("DevDatabase(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}
