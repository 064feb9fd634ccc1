package register

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestKnownSchemas keeps the digests the hook's check compares with true
// to the migrations.
func TestKnownSchemas(t *testing.T) {
	for v := 1; v <= SchemaVersion; v++ {
		want, err := expectedSchema(v)
		if err != nil {
			t.Fatal(err)
		}
		with := schemaDigest(want)
		without := map[string]schemaObject{}
		for k, o := range want {
			if k != sealsKey {
				without[k] = o
			}
		}
		d := [2]string{schemaDigest(without), with}
		if v == SchemaVersion && knownSchemas[v] != d {
			t.Errorf("knownSchemas[%d] = %q, want %q (add it: the hook's schema check uses it)", v, knownSchemas[v], d)
		}
		if k, ok := knownSchemas[v]; ok && k != d {
			t.Errorf("knownSchemas[%d] = %q, want %q", v, k, d)
		}
	}
}

// TestSchemaProblem: the register as created passes; each edit an allowed
// one-liner could make is named.
func TestSchemaProblem(t *testing.T) {
	edits := []struct{ sql, want string }{
		{`DROP INDEX entries_session_facts`, "missing: index entries_session_facts"},
		{`DROP INDEX entries_tool_use_id`, "missing: index entries_tool_use_id"},
		{`CREATE TRIGGER blank AFTER INSERT ON entries BEGIN SELECT 1; END`, "not sentinel's: trigger blank"},
		{`DROP INDEX entries_session_facts; CREATE INDEX entries_session_facts ON entries(session_id, seq) WHERE facts = 'x'`, "changed: index entries_session_facts"},
		{`CREATE TABLE other (x)`, "not sentinel's: table other"},
		{`DROP TABLE seals; CREATE TABLE seals (id INTEGER PRIMARY KEY)`, "changed: table seals"},
		{`CREATE VIEW v AS SELECT 1`, "not sentinel's: view v"},
		{`DROP TRIGGER entries_no_update`, "missing: trigger entries_no_update"},
	}
	for _, e := range edits {
		t.Run(e.sql, func(t *testing.T) {
			r, err := Open(filepath.Join(t.TempDir(), "register.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if err := r.Append(&Entry{Kind: KindDecision, Decision: "allow", Rules: []string{}}); err != nil {
				t.Fatal(err)
			}
			if p, err := r.SchemaProblem(context.Background()); p != "" || err != nil {
				t.Fatalf("fresh register: %q, %v", p, err)
			}
			// Sealed once: package seal's table is sentinel's too.
			if _, err := r.DB().Exec(SealsSchema); err != nil {
				t.Fatal(err)
			}
			if p, err := r.SchemaProblem(context.Background()); p != "" || err != nil {
				t.Fatalf("sealed register: %q, %v", p, err)
			}
			if _, err := r.DB().Exec(e.sql); err != nil {
				t.Fatal(err)
			}
			p, err := r.SchemaProblem(context.Background())
			if err != nil || !strings.Contains(p, e.want) {
				t.Errorf("after %s: %q, %v; want %q", e.sql, p, err, e.want)
			}
		})
	}
}
