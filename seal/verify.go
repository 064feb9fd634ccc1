package seal

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/sigstore/rekor/pkg/generated/models"
)

// SealResult is the verdict on one seal.
type SealResult struct {
	ID             int64  `json:"id"`
	Size           uint64 `json:"size"`
	Status         string `json:"status"` // sealed, pending
	RekorUUID      string `json:"rekor_uuid,omitempty"`
	LogIndex       *int64 `json:"log_index,omitempty"`
	IntegratedTime *int64 `json:"integrated_time,omitempty"`
	// Verified: the checkpoint signature, Rekor's answer, and the root and
	// head recomputed from the entries all hold.
	Verified bool   `json:"verified"`
	Error    string `json:"error,omitempty"`
}

// SealChecker verifies a register's seals against its entries in one pass:
// feed every entry hash in order with Add, then call Finish. Recomputing
// each seal's root from the same entries in one pass also proves each
// sealed tree is a prefix of the next.
type SealChecker struct {
	recs    []*Record
	cps     []*Checkpoint
	Results []SealResult
	tree    *Tree
	next    int // index of the next seal whose size has not been reached
}

// NewSealChecker runs the checks that need no entries: each checkpoint
// parses, belongs to registerID, is signed by the operator key, is linked to
// its predecessor, and (for sealed records) Rekor's answer verifies against
// the pinned key and binds exactly this checkpoint and operator key.
func NewSealChecker(ctx context.Context, registerID string, recs []*Record, operator *ecdsa.PublicKey, key *RekorKey) *SealChecker {
	return NewSealCheckerChain(ctx, registerID, recs, FollowRotations(ctx, registerID, operator, nil, key), key)
}

// NewSealCheckerChain is NewSealChecker with the register's key chain:
// each seal must be signed by the key the chain gives its position, within
// that key's time in the log.
func NewSealCheckerChain(ctx context.Context, registerID string, recs []*Record, kc *KeyChain, key *RekorKey) *SealChecker {
	c := &SealChecker{recs: recs, cps: make([]*Checkpoint, len(recs)), tree: NewTree()}
	prevUUID, prevSize := NoPrev, uint64(0)
	for i, r := range recs {
		res := SealResult{ID: r.ID, Size: r.Size, Status: r.Status, RekorUUID: r.RekorUUID}
		if e, err := ParseLogEntry([]byte(r.RekorEntry)); err == nil {
			res.LogIndex, res.IntegratedTime = e.LogIndex, e.IntegratedTime
		}
		operator, timeErr := kc.checkSeal(r, res.IntegratedTime)
		cp, err := ParseCheckpoint([]byte(r.Checkpoint))
		switch {
		case err != nil:
			res.Error = err.Error()
		case cp.RegisterID != registerID:
			res.Error = fmt.Sprintf("checkpoint is for register %s, not %s", cp.RegisterID, registerID)
		case cp.Size != r.Size || hex.EncodeToString(cp.Root) != r.Root || cp.Head != r.Head || cp.Prev != r.Prev:
			res.Error = "stored size, root, head or prev differ from the signed checkpoint"
		case cp.Prev != prevUUID:
			res.Error = fmt.Sprintf("checkpoint names previous seal %s, but the previous seal is %s", cp.Prev, prevUUID)
		case cp.Size <= prevSize:
			res.Error = fmt.Sprintf("covers %d entries, not more than the previous seal's %d", cp.Size, prevSize)
		case r.Status == StatusPending:
			if !VerifySignature(operator, []byte(r.Checkpoint), r.Signature) {
				res.Error = fmt.Sprintf("checkpoint signature does not verify with the operator key %s", Fingerprint(operator))
			}
		default:
			if err := VerifyRecord(ctx, r, operator, key); err != nil {
				res.Error = err.Error()
				if signer := BodyKey(r); signer != nil && !signer.Equal(operator) {
					res.Error = fmt.Sprintf("signed by key %s, not the register's key %s, and no key rotation sealed in the log hands over from %s to it: a different operator",
						Fingerprint(signer), Fingerprint(operator), Fingerprint(operator))
				}
			} else if timeErr != "" {
				res.Error = timeErr
			}
		}
		if cp != nil {
			c.cps[i] = cp
			prevSize = cp.Size
		}
		prevUUID = r.RekorUUID
		c.Results = append(c.Results, res)
	}
	return c
}

// BodyKey is the public key in a sealed record's Rekor entry (nil when it
// cannot be read): who signed it, as the log holds it.
func BodyKey(r *Record) *ecdsa.PublicKey {
	e, err := r.Entry()
	if err != nil {
		return nil
	}
	body, err := BodyBytes(e)
	if err != nil {
		return nil
	}
	var hr hashedRekordBody
	if json.Unmarshal(body, &hr) != nil {
		return nil
	}
	k, _ := ParsePublicKey(hr.Spec.Signature.PublicKey.Content)
	return k
}

// Add feeds the hash of entry seq (1, 2, ...).
func (c *SealChecker) Add(seq uint64, hash string) error {
	if seq != c.tree.Size()+1 {
		return fmt.Errorf("entry %d follows entry %d", seq, c.tree.Size())
	}
	if err := c.tree.AppendEntryHashHex(hash); err != nil {
		return fmt.Errorf("entry %d: %w", seq, err)
	}
	for c.next < len(c.recs) && c.cps[c.next] != nil && c.cps[c.next].Size == c.tree.Size() {
		i := c.next
		c.next++
		cp, res := c.cps[i], &c.Results[i]
		if res.Error != "" {
			continue
		}
		switch {
		case cp.Head != hash:
			res.Error = fmt.Sprintf("chain head %s is not the hash of entry %d (%s)", cp.Head, seq, hash)
		case hex.EncodeToString(cp.Root) != hex.EncodeToString(c.tree.Root()):
			res.Error = fmt.Sprintf("Merkle root over entries 1..%d is %x, the seal says %x", seq, c.tree.Root(), cp.Root)
		default:
			res.Verified = res.Status == StatusSealed
		}
	}
	// A malformed checkpoint cannot be placed; skip it.
	for c.next < len(c.recs) && c.cps[c.next] == nil {
		c.next++
	}
	return nil
}

// Finish is called after the last entry; seals beyond it mean the register
// was truncated after sealing.
func (c *SealChecker) Finish() {
	n := c.tree.Size()
	for i := c.next; i < len(c.recs); i++ {
		if c.Results[i].Error == "" && c.cps[i] != nil && c.cps[i].Size > n {
			c.Results[i].Error = fmt.Sprintf("covers %d entries but only %d are present: entries were removed after sealing", c.cps[i].Size, n)
		}
	}
}

// SealedThrough is the number of entries covered by the last seal, provided
// it and every seal before it verified; 0 otherwise.
func (c *SealChecker) SealedThrough() uint64 {
	var through uint64
	for _, r := range c.Results {
		if !r.Verified {
			break
		}
		through = r.Size
	}
	return through
}

// FirstError is the first failing seal as "seal N: ...", or "".
func (c *SealChecker) FirstError() string {
	for _, r := range c.Results {
		if r.Error != "" {
			return fmt.Sprintf("seal %d: %s", r.ID, r.Error)
		}
	}
	return ""
}

// Entry returns the decoded Rekor answer of a sealed record.
func (r *Record) Entry() (*models.LogEntryAnon, error) { return ParseLogEntry([]byte(r.RekorEntry)) }
