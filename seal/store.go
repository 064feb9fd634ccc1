package seal

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

// Record kinds and statuses.
const (
	KindRekorV1   = "rekor-v1-hashedrekord" // a hashedrekord v0.0.1 in a Rekor v1 log
	StatusPending = "pending"               // signed, not (yet) accepted by Rekor
	StatusSealed  = "sealed"                // Rekor's answer stored

	SubjectRegister = "register" // a register checkpoint
	SubjectArtifact = "artifact" // an artifact statement (census, protocol)
)

// Record is one seal: the signed payload and, once sealed, Rekor's answer.
type Record struct {
	ID         int64  `json:"id"`
	Kind       string `json:"kind"`
	Subject    string `json:"subject"`
	Size       uint64 `json:"size,omitempty"`
	Root       string `json:"root,omitempty"`
	Head       string `json:"head,omitempty"`
	Prev       string `json:"prev,omitempty"`
	Checkpoint string `json:"checkpoint"` // the signed payload, exactly
	Signature  []byte `json:"signature"`  // ASN.1 ECDSA over sha256(Checkpoint)
	PublicKey  string `json:"public_key"` // operator key PEM used to sign
	TreeState  string `json:"-"`          // compact range after this seal (register only)
	Status     string `json:"status"`
	RekorURL   string `json:"rekor_url"`
	RekorUUID  string `json:"rekor_uuid,omitempty"`
	// RekorEntry is the LogEntryAnon JSON of Rekor's answer.
	RekorEntry string    `json:"rekor_entry,omitempty"`
	CreatedAt  time.Time `json:"created_at"`
	SealedAt   time.Time `json:"sealed_at,omitzero"`
}

// schema is the seals table, kept in package register beside the
// migrations so that the register's schema check (register.SchemaProblem)
// knows it.
const schema = register.SealsSchema

// EnsureSchema creates the seals table if it does not exist.
func EnsureSchema(db *sql.DB) error {
	if _, err := db.Exec(schema); err != nil {
		return fmt.Errorf("creating seals table: %w", err)
	}
	return nil
}

const cols = `id, kind, subject, size, root, head, prev, checkpoint, signature, public_key,
	tree_state, status, rekor_url, rekor_uuid, rekor_entry, created_at, sealed_at`

func scanRecord(sc interface{ Scan(...any) error }) (*Record, error) {
	var r Record
	var created, sealed string
	if err := sc.Scan(&r.ID, &r.Kind, &r.Subject, &r.Size, &r.Root, &r.Head, &r.Prev,
		&r.Checkpoint, &r.Signature, &r.PublicKey, &r.TreeState, &r.Status, &r.RekorURL,
		&r.RekorUUID, &r.RekorEntry, &created, &sealed); err != nil {
		return nil, err
	}
	r.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
	if sealed != "" {
		r.SealedAt, _ = time.Parse(time.RFC3339Nano, sealed)
	}
	return &r, nil
}

// Records lists the seals of a subject in order. A register without a seals
// table has no seals.
func Records(db *sql.DB, subject string) ([]*Record, error) {
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type='table' AND name='seals'`).Scan(&n); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	rows, err := db.Query(`SELECT `+cols+` FROM seals WHERE subject = ? ORDER BY id`, subject)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Record
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func lastRecord(db *sql.DB, subject string) (*Record, error) {
	r, err := scanRecord(db.QueryRow(`SELECT `+cols+` FROM seals WHERE subject = ? ORDER BY id DESC LIMIT 1`, subject))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}

func insertRecord(db *sql.DB, r *Record) error {
	res, err := db.Exec(`INSERT INTO seals (kind, subject, size, root, head, prev, checkpoint,
		signature, public_key, tree_state, status, rekor_url, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Kind, r.Subject, r.Size, r.Root, r.Head, r.Prev, r.Checkpoint, r.Signature,
		r.PublicKey, r.TreeState, r.Status, r.RekorURL, r.CreatedAt.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("storing seal: %w", err)
	}
	r.ID, err = res.LastInsertId()
	return err
}

func markSealed(db *sql.DB, r *Record) error {
	_, err := db.Exec(`UPDATE seals SET status = 'sealed', rekor_url = ?, rekor_uuid = ?,
		rekor_entry = ?, sealed_at = ? WHERE id = ? AND status = 'pending'`,
		r.RekorURL, r.RekorUUID, r.RekorEntry, r.SealedAt.UTC().Format(time.RFC3339Nano), r.ID)
	if err != nil {
		return fmt.Errorf("storing Rekor's answer for seal %d: %w", r.ID, err)
	}
	return nil
}
