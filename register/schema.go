package register

import (
	"database/sql"
	"fmt"
	"time"
)

// migrations[i] takes the schema from version i to i+1. The schema version
// is SQLite's user_version. Never edit a released migration: add one.
var migrations = []string{
	// v1: the entries and the register's identity.
	`CREATE TABLE meta (
		key   TEXT PRIMARY KEY,
		value TEXT NOT NULL
	) WITHOUT ROWID;
	CREATE TABLE entries (
		seq             INTEGER PRIMARY KEY AUTOINCREMENT,
		kind            TEXT    NOT NULL,
		time_us         INTEGER NOT NULL,
		session_id      TEXT    NOT NULL,
		tool_use_id     TEXT    NOT NULL,
		cwd             TEXT    NOT NULL,
		tool            TEXT    NOT NULL,
		input           BLOB,
		salt            BLOB,
		commitment      TEXT    NOT NULL,
		decision        TEXT    NOT NULL,
		rules           TEXT    NOT NULL,
		reason          TEXT    NOT NULL,
		attended        INTEGER NOT NULL,
		permission_mode TEXT    NOT NULL,
		catalog_version TEXT    NOT NULL,
		catalog_hash    TEXT    NOT NULL,
		version         TEXT    NOT NULL,
		ref             INTEGER NOT NULL,
		label           TEXT    NOT NULL,
		prev_hash       TEXT    NOT NULL,
		hash            TEXT    NOT NULL
	);`,
	// v2: indexes for log and the hook's lookups, the journal's merge
	// ledger, and triggers that refuse in-place edits (tampering then has
	// to be deliberate; Verify still catches it).
	`CREATE INDEX entries_time ON entries(time_us);
	CREATE INDEX entries_tool_use_id ON entries(tool_use_id);
	CREATE INDEX entries_kind ON entries(kind);
	CREATE INDEX entries_decision ON entries(decision);
	CREATE TABLE journal_merged (
		key TEXT PRIMARY KEY
	) WITHOUT ROWID;
	CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
	BEGIN SELECT RAISE(ABORT, 'register entries are append-only'); END;
	CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
	BEGIN SELECT RAISE(ABORT, 'register entries are append-only'); END;`,
	// v3: the merge ledger remembers which entry each journal line became,
	// so verify can say how many entries came from the journal (which any
	// process of the operator's user can write) rather than from an append.
	`ALTER TABLE journal_merged ADD COLUMN seq INTEGER;`,
	// v4: session memory (package session): the facts a decision leaves
	// for the same session's later calls, and the index its bounded
	// look-up of a session's newest facts walks. The index is partial: only
	// entries with facts are in it, so the many appends without facts do
	// not pay for it.
	`ALTER TABLE entries ADD COLUMN facts TEXT NOT NULL DEFAULT '';
	CREATE INDEX entries_session_facts ON entries(session_id, seq) WHERE facts != '';`,
	// v5: the harness that made the call ('' Claude Code, 'codex'), so
	// that census and outcomes can tell two agents' calls apart.
	`ALTER TABLE entries ADD COLUMN harness TEXT NOT NULL DEFAULT '';`,
}

// SchemaVersion is the schema this sentinel writes.
var SchemaVersion = len(migrations)

func (r *Register) schemaVersion() (int, error) {
	var v int
	err := r.db.QueryRow(`PRAGMA user_version`).Scan(&v)
	return v, err
}

// checkVersion refuses a file that is not a register or is newer than us.
// v == 0 is a fresh file when it has no tables (and may be initialised).
func (r *Register) checkVersion(v int, mayInit bool) error {
	if v > SchemaVersion {
		return &Error{Path: r.path, Class: ErrSchemaTooNew, Detail: fmt.Sprintf("schema version %d is newer than this sentinel knows (%d); upgrade sentinel", v, SchemaVersion)}
	}
	if v > 0 {
		return nil
	}
	var n int
	if err := r.db.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
		return err
	}
	if n > 0 || !mayInit {
		return &Error{Path: r.path, Class: ErrNotRegister, Detail: "not a sentinel register (a SQLite database without the register schema)"}
	}
	return nil
}

// migrate brings the schema to SchemaVersion. The common case (already
// current) costs one PRAGMA; otherwise all steps run in one IMMEDIATE
// transaction, re-checked inside it, so two processes opening a fresh
// register at once do not both initialise it.
func (r *Register) migrate() error { return r.migrateTo(SchemaVersion) }

func (r *Register) migrateTo(target int) error {
	v, err := r.schemaVersion()
	if err != nil {
		return err
	}
	if err := r.checkVersion(v, true); err != nil || v >= target {
		return err
	}
	tx, err := r.db.Begin() // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		return err
	}
	if v >= target {
		return nil
	}
	if v == 0 {
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return &Error{Path: r.path, Class: ErrNotRegister, Detail: "not a sentinel register (a SQLite database without the register schema)"}
		}
	}
	for ; v < target; v++ {
		if _, err := tx.Exec(migrations[v]); err != nil {
			return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
		}
		if v == 0 {
			if err := initMeta(tx); err != nil {
				return err
			}
		}
	}
	if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, target)); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	// A migration writes many pages at once: fold them into the database
	// now, so that a nearly full disk has room for the appends that follow.
	r.checkpoint()
	return nil
}

func initMeta(tx *sql.Tx) error {
	_, err := tx.Exec(`INSERT INTO meta(key, value) VALUES ('register_id', ?), ('created', ?)`,
		newID(), time.Now().UTC().Format(time.RFC3339))
	return err
}
