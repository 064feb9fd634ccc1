package register

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// The register's schema is what its migrations create, nothing more and
// nothing less. Any process of the operator's user can open the file and
// drop the session memory's index, add a trigger that blanks facts, or a
// table the hook never made; the session memory and verify check the
// schema against the migrations' own (issue 21), so such an edit makes
// memory unavailable (never empty) and verify fail.

// SealsSchema is the table package seal adds to the register the first
// time it seals (seal.EnsureSchema): the one object not made by the
// migrations that a register may hold.
const SealsSchema = `CREATE TABLE IF NOT EXISTS seals (
	id INTEGER PRIMARY KEY,
	kind TEXT NOT NULL,
	subject TEXT NOT NULL,
	size INTEGER NOT NULL DEFAULT 0,
	root TEXT NOT NULL DEFAULT '',
	head TEXT NOT NULL DEFAULT '',
	prev TEXT NOT NULL DEFAULT '',
	checkpoint TEXT NOT NULL,
	signature BLOB NOT NULL,
	public_key TEXT NOT NULL,
	tree_state TEXT NOT NULL DEFAULT '',
	status TEXT NOT NULL CHECK (status IN ('pending','sealed')),
	rekor_url TEXT NOT NULL,
	rekor_uuid TEXT NOT NULL DEFAULT '',
	rekor_entry TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	sealed_at TEXT NOT NULL DEFAULT ''
)`

// knownSchemas are the digests (schemaDigest) of what migrations[:v]
// create, without and with the seals table, so that the hook's check is
// one read of sqlite_master; a version not listed is built in memory
// (about a millisecond), and TestKnownSchemas says which digest to add.
var knownSchemas = map[int][2]string{
	4: {"ec11750193a7093b3172c9248b5d24b0eeadb34c1c97f9ec303869edb5b52112", "ab8070bead96bb38ecffed00adaaa2cec98caa0e8790e0428bb7cbd365d7902c"},
	5: {"b9cff4bcfcd8f23e9c0c43a953f3c318d355f28ecc0b79d71174cef2d60eb26a", "3ffb3cb77a1e0e9001f1772d2d8947e8fe15ef2820177dfb78804700c9093393"},
}

// schemaDigest is a digest of the objects, in name order.
func schemaDigest(objs map[string]schemaObject) string {
	keys := make([]string, 0, len(objs))
	for k := range objs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := sha256.New()
	for _, k := range keys {
		o := objs[k]
		fmt.Fprintf(h, "%q %q %q %q\n", o.kind, o.name, o.table, o.sql)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// schemaObject is one row of sqlite_master.
type schemaObject struct{ kind, name, table, sql string }

func (o schemaObject) String() string { return o.kind + " " + o.name }

// expected is the schema each version's migrations create (and the seals
// table), built once per process in a private in-memory database.
var expected struct {
	sync.Mutex
	byVersion map[int]map[string]schemaObject
	seals     schemaObject
}

// sealsKey is the seals table's key in a schema map.
const sealsKey = "table\x00seals"

// expectedSchema is the schema migrations[:version] create, the seals
// table with it.
func expectedSchema(version int) (map[string]schemaObject, error) {
	expected.Lock()
	defer expected.Unlock()
	if s, ok := expected.byVersion[version]; ok {
		return s, nil
	}
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for v := 0; v < version && v < len(migrations); v++ {
		if _, err := db.Exec(migrations[v]); err != nil {
			return nil, fmt.Errorf("building the expected schema: %w", err)
		}
	}
	if _, err := db.Exec(SealsSchema); err != nil {
		return nil, fmt.Errorf("building the expected schema: %w", err)
	}
	s, err := schemaOf(context.Background(), db)
	if err != nil {
		return nil, err
	}
	if expected.byVersion == nil {
		expected.byVersion = map[int]map[string]schemaObject{}
	}
	expected.byVersion[version] = s
	return s, nil
}

type queryer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func schemaOf(ctx context.Context, q queryer) (map[string]schemaObject, error) {
	rows, err := q.QueryContext(ctx, `SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]schemaObject{}
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.kind, &o.name, &o.table, &o.sql); err != nil {
			return nil, err
		}
		out[o.kind+"\x00"+o.name] = o
	}
	return out, rows.Err()
}

// SchemaProblem says how the register's schema differs from the one its
// migrations create for its version ("" when it is the same): an object
// missing (the session memory's index dropped), changed, or added by
// someone else (a trigger, a view, a table). ctx bounds it.
func (r *Register) SchemaProblem(ctx context.Context) (string, error) {
	var v int
	if err := r.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return "", err
	}
	have, err := schemaOf(ctx, r.db)
	if err != nil {
		return "", err
	}
	if d, ok := knownSchemas[v]; ok && (d[0] == schemaDigest(have) || d[1] == schemaDigest(have)) {
		return "", nil
	}
	want, err := expectedSchema(v)
	if err != nil {
		return "", err
	}
	var missing, changed, added []string
	for k, w := range want {
		h, ok := have[k]
		switch {
		case !ok && k == sealsKey:
			// never sealed: the table comes with the first seal
		case !ok:
			missing = append(missing, w.String())
		case h != w:
			changed = append(changed, w.String())
		}
	}
	for k, h := range have {
		if _, ok := want[k]; !ok {
			added = append(added, h.String())
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing: "+strings.Join(sorted(missing), ", "))
	}
	if len(changed) > 0 {
		parts = append(parts, "changed: "+strings.Join(sorted(changed), ", "))
	}
	if len(added) > 0 {
		parts = append(parts, "not sentinel's: "+strings.Join(sorted(added), ", "))
	}
	if len(parts) == 0 {
		return "", nil
	}
	return fmt.Sprintf("the register's schema (version %d) is not the one sentinel creates (%s)", v, strings.Join(parts, "; ")), nil
}

func sorted(s []string) []string { slices.Sort(s); return s }
