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
