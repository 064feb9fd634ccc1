package judge

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// SQL files already on disk are judged as inline SQL is; a FIFO in their
// place is refused without blocking.
func TestSQLFilesOnDisk(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"wipe.sql":   "BEGIN;\nDROP TABLE users CASCADE;\nCOMMIT;\n",
		"purge.sql":  "DELETE FROM orders WHERE 1=1;\n",
		"report.sql": "SELECT count(*) FROM orders WHERE created > now() - interval '1 day';\n",
		"fix.sql":    "UPDATE users SET active = false WHERE id = 7;\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		cmd  string
		want Verdict
	}{
		{"psql -h db.prod -U app -f wipe.sql", Deny},
		{"psql -h db.prod -U app < wipe.sql", Deny},
		{"mysql -h prod shop < purge.sql", Deny},
		{"sqlite3 app.db < wipe.sql", Deny},
		{"psql -h db.prod -U app -f report.sql", Allow},
		{"psql -h db.prod -U app < fix.sql", Allow},
		{"mysql -h prod shop < report.sql", Allow},
		{"psql -h db.prod -f missing.sql", Allow},
		{"psql -f wipe.sql test_db", Allow}, // a test database
	}
	for _, tc := range cases {
		d := decideIn(t, dir, tc.cmd)
		if d.Verdict != tc.want || tc.want == Deny && !contains(d.RuleIDs(), RuleDataSqlDestructive) {
			t.Errorf("%q: %s %v, want %s", tc.cmd, d.Decision, d.RuleIDs(), tc.want)
		}
	}
	if testing.Short() {
		return
	}
	fifo := filepath.Join(dir, "pipe.sql")
	if err := mkfifo(fifo); err != nil {
		t.Skip("mkfifo:", err)
	}
	start := time.Now()
	d := decideIn(t, dir, "psql -h db.prod -f pipe.sql")
	if time.Since(start) > 2*time.Second {
		t.Fatalf("a FIFO as psql -f blocked the judge for %s", time.Since(start))
	}
	_ = d
}

// WHERE clauses that bound nothing count as none.
func TestUnboundedWhere(t *testing.T) {
	unbounded := []string{"DELETE FROM users WHERE 1=1", "delete from users where true;",
		"UPDATE accounts SET balance = 0 WHERE 'a'='a'", "DELETE FROM users WHERE (1 = 1) RETURNING id"}
	bounded := []string{"DELETE FROM users WHERE id = 1", "DELETE FROM users WHERE 1=1 AND id = 4",
		"UPDATE t SET x = 1 WHERE true_flag = 1", "DELETE FROM sessions WHERE expires < now()"}
	for _, s := range unbounded {
		if !destructiveSQL(s) {
			t.Errorf("%q: not a mass change", s)
		}
	}
	for _, s := range bounded {
		if destructiveSQL(s) {
			t.Errorf("%q: judged a mass change", s)
		}
	}
}
