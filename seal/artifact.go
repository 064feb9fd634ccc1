package seal

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"strings"
	"time"
)

// Statement is a parsed artifact statement (see ArtifactStatement).
type Statement struct {
	Kind   string
	SHA256 string
	Time   time.Time
}

// ParseArtifactStatement reads an artifact statement, strictly (the same
// bytes must come back from ArtifactStatement).
func ParseArtifactStatement(text string) (*Statement, error) {
	lines := strings.Split(text, "\n")
	if len(lines) != 5 || lines[4] != "" || lines[0] != ArtifactHeader {
		return nil, fmt.Errorf("not an artifact statement (want %q and 3 more lines)", ArtifactHeader)
	}
	kind, ok1 := strings.CutPrefix(lines[1], "kind ")
	sum, ok2 := strings.CutPrefix(lines[2], "sha256 ")
	ts, ok3 := strings.CutPrefix(lines[3], "time ")
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("artifact statement: want kind, sha256 and time lines")
	}
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return nil, fmt.Errorf("artifact statement: time: %v", err)
	}
	canon, err := ArtifactStatement(kind, sum, t)
	if err != nil {
		return nil, err
	}
	if string(canon) != text {
		return nil, fmt.Errorf("artifact statement: not in canonical form")
	}
	return &Statement{Kind: kind, SHA256: sum, Time: t}, nil
}

// ArtifactResult is the verdict on one artifact seal.
type ArtifactResult struct {
	ID             int64  `json:"id"`
	Kind           string `json:"kind"`
	SHA256         string `json:"sha256"`
	Status         string `json:"status"`
	RekorUUID      string `json:"rekor_uuid,omitempty"`
	LogIndex       *int64 `json:"log_index,omitempty"`
	IntegratedTime *int64 `json:"integrated_time,omitempty"`
	// Statement is the signed text: its sha256 is what the log holds
	// (rekor-cli search --sha sha256:<that>).
	Statement string `json:"statement"`
	Verified  bool   `json:"verified"`
	Error     string `json:"error,omitempty"`
}

// CheckArtifact verifies one artifact seal record on its own.
func CheckArtifact(ctx context.Context, r *Record, operator *ecdsa.PublicKey, key *RekorKey) ArtifactResult {
	res := ArtifactResult{ID: r.ID, Status: r.Status, RekorUUID: r.RekorUUID, Statement: r.Checkpoint}
	st, err := ParseArtifactStatement(r.Checkpoint)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.Kind, res.SHA256 = st.Kind, st.SHA256
	if e, err := ParseLogEntry([]byte(r.RekorEntry)); err == nil {
		res.LogIndex, res.IntegratedTime = e.LogIndex, e.IntegratedTime
	}
	switch {
	case operator == nil:
		res.Error = "not checked: no operator public key"
	case r.Status == StatusPending:
		res.Error = "pending: signed, not yet in Rekor (it proves nothing yet)"
	default:
		if err := VerifyRecord(ctx, r, operator, key); err != nil {
			res.Error = err.Error()
		} else {
			res.Verified = true
		}
	}
	return res
}

// CheckArtifacts verifies every artifact seal; the first failure (pending
// ones excluded: they are reported, they do not fail) as "artifact seal N: ...".
func CheckArtifacts(ctx context.Context, recs []*Record, operator *ecdsa.PublicKey, key *RekorKey) ([]ArtifactResult, string) {
	var kc *KeyChain
	if operator != nil {
		kc = FollowRotations(ctx, "", operator, nil, key)
	}
	return CheckArtifactsChain(ctx, recs, kc, key)
}

// CheckArtifactsChain is CheckArtifacts with a register's key chain: each
// artifact seal must be signed by the key current when the log integrated
// it (a retired key's later statements are not the operator's).
func CheckArtifactsChain(ctx context.Context, recs []*Record, kc *KeyChain, key *RekorKey) ([]ArtifactResult, string) {
	out := []ArtifactResult{}
	first := ""
	for _, r := range recs {
		var operator *ecdsa.PublicKey
		if kc != nil {
			operator = kc.Current()
			if t, ok := r.IntegratedAt(); ok && kc.Rotated() {
				operator = nil
				signer := BodyKey(r)
				for _, k := range kc.keysAt(t.Unix()) {
					if operator == nil || (signer != nil && signer.Equal(k)) {
						operator = k
					}
				}
			}
		}
		a := CheckArtifact(ctx, r, operator, key)
		if a.Error != "" && a.Status != StatusPending && first == "" {
			first = fmt.Sprintf("artifact seal %d: %s", a.ID, a.Error)
		}
		out = append(out, a)
	}
	return out, first
}

// IntegratedAt is when the log integrated a sealed record (its
// integratedTime, covered by the signed entry timestamp).
func (r *Record) IntegratedAt() (time.Time, bool) {
	e, err := r.Entry()
	if err != nil || e.IntegratedTime == nil {
		return time.Time{}, false
	}
	return time.Unix(*e.IntegratedTime, 0).UTC(), true
}

// FindArtifact returns the first record whose statement names kind and
// sha256hex, preferring a sealed one.
func FindArtifact(recs []*Record, kind, sha256hex string) *Record {
	var found *Record
	for _, r := range recs {
		st, err := ParseArtifactStatement(r.Checkpoint)
		if err != nil || st.Kind != kind || !strings.EqualFold(st.SHA256, sha256hex) {
			continue
		}
		if r.Status == StatusSealed {
			return r
		}
		if found == nil {
			found = r
		}
	}
	return found
}
