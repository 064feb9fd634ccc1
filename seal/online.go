package seal

import (
	"context"
	"errors"
	"fmt"
	"strings"

	genclient "github.com/sigstore/rekor/pkg/generated/client"
	"github.com/sigstore/rekor/pkg/generated/client/entries"
	"github.com/sigstore/rekor/pkg/generated/client/tlog"
	"github.com/sigstore/rekor/pkg/util"
	"github.com/sigstore/rekor/pkg/verify"
)

// UnreachableError says the live log could not be asked.
type UnreachableError struct {
	URL string
	Err error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach Rekor at %s: %v", e.URL, e.Err)
}
func (e *UnreachableError) Unwrap() error { return e.Err }

// VerifyOnline asks the live log about each sealed record: the entry is
// still there with the same body and verifies against the pinned key, and
// the log's current tree (signed by the pinned key) is consistent with the
// tree the stored inclusion proof was made against. Then, with operatorPEM
// set, it monitors the key (Monitor): every entry the log holds for it must
// be one of recs. recs are all the seals of the register or bundle (every
// subject). url overrides each record's own Rekor URL. A failed check is
// returned in the result's Error; a log that cannot be reached as an
// *UnreachableError, one without a search index as an
// *IndexUnavailableError.
func VerifyOnline(ctx context.Context, recs []*Record, key *RekorKey, url string, operatorPEM []byte) (*OnlineResult, error) {
	return VerifyOnlineWith(ctx, recs, key, operatorPEM, OnlineOptions{URL: url})
}

// OnlineOptions say which log to ask and what to keep of it.
type OnlineOptions struct {
	// URL is the log asked, the one the pinned key belongs to (LogURL);
	// "" asks each record's own URL (tests only: a reader must never ask a
	// URL named by what is being verified).
	URL string
	// StateDir, when set, keeps the last checkpoint verified per log
	// (StateDir/checkpoints/<log id>): each run proves the log's current
	// tree consistent with it before trusting anything newer.
	StateDir string
	// Operators are more operator keys (PEM) to monitor beside
	// operatorPEM: the other keys of a register that rotated. An entry
	// any of them signed must be accounted for.
	Operators [][]byte
	// WalkLimit: a log whose tree is no larger is walked entry by entry,
	// so that the monitor does not rest on the search index (0: never).
	WalkLimit int64
}

// VerifyOnlineWith is VerifyOnline with the log's checkpoint kept between
// runs and, for a small log, the monitor checked by walking the log.
func VerifyOnlineWith(ctx context.Context, recs []*Record, key *RekorKey, operatorPEM []byte, o OnlineOptions) (*OnlineResult, error) {
	res := &OnlineResult{URL: o.URL}
	var size int64 = -1
	if o.URL != "" {
		c, err := newClient(o.URL)
		if err != nil {
			return res, &UnreachableError{URL: o.URL, Err: err}
		}
		sth, treeID, err := liveTreeHead(ctx, c, key, o.URL)
		if err != nil || sth == nil {
			if err == nil {
				res.Error = "the live log's signed tree head cannot be read or does not verify against the pinned key"
			}
			return res, err
		}
		res.TreeSize, size = int64(sth.Size), int64(sth.Size)
		if o.StateDir != "" {
			prev, msg, err := trustCheckpoint(ctx, c, key, o.StateDir, sth, treeID)
			if err != nil {
				return res, &UnreachableError{URL: o.URL, Err: err}
			}
			res.Previous = prev
			if msg != "" {
				res.Error = msg
				return res, nil
			}
		}
	}
	if err := verifyLive(ctx, recs, key, o.URL, res); err != nil || res.Error != "" {
		return res, err
	}
	if operatorPEM == nil {
		return res, nil
	}
	if res.URL == "" {
		res.URL = DefaultRekorURL
	}
	walk := int64(0)
	if size >= 0 && size <= o.WalkLimit {
		walk = size
	} else if size >= 0 {
		res.RestsOnIndex = fmt.Sprintf("the log's search index (which the log does not sign) listed the entries for the operator key; an entry it left out would not be seen (the log holds %d entries, more than the %d a walk reads)", size, o.WalkLimit)
	}
	m, err := monitor(ctx, res.URL, operatorKeys(operatorPEM, o.Operators), recs, key, walk)
	if err != nil {
		return res, err
	}
	res.Monitor = m
	if n := len(m.Unaccounted); n > 0 {
		lines := make([]string, n)
		for i, u := range m.Unaccounted {
			lines[i] = u.Describe()
		}
		res.Error = fmt.Sprintf("the log holds %d entr%s signed by the operator %s that this register or bundle does not account for "+
			"(a later seal cut from a bundle, a register rolled back or its seal rows deleted, or history rewritten and sealed again): %s",
			n, map[bool]string{true: "y", false: "ies"}[n == 1], m.keysWord(), strings.Join(lines, "; "))
	}
	if m.Walked && m.Unindexed > 0 {
		res.Error = joinErr(res.Error, fmt.Sprintf("the log's search index left out %d of the %d entries signed by the operator %s that walking the log found: the index (or a relay in front of the log) hides entries", m.Unindexed, m.Entries, m.keysWord()))
	}
	return res, nil
}

// operatorKeys is first then more, without repeats (by their PEM text).
func operatorKeys(first []byte, more [][]byte) [][]byte {
	seen := map[string]bool{}
	var out [][]byte
	for _, k := range append([][]byte{first}, more...) {
		if k != nil && !seen[string(k)] {
			seen[string(k)] = true
			out = append(out, k)
		}
	}
	return out
}

func joinErr(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// liveTreeHead fetches the log's current signed tree head and verifies it
// against the pinned key; nil when it does not verify.
func liveTreeHead(ctx context.Context, c *genclient.Rekor, key *RekorKey, url string) (*util.SignedCheckpoint, string, error) {
	info, err := c.Tlog.GetLogInfoContext(ctx, tlog.NewGetLogInfoParams())
	if err != nil {
		return nil, "", &UnreachableError{URL: url, Err: fmt.Errorf("fetching the log's tree head: %w", err)}
	}
	var sth util.SignedCheckpoint
	if info.Payload.SignedTreeHead == nil || sth.UnmarshalText([]byte(*info.Payload.SignedTreeHead)) != nil || !sth.Verify(key.verifier) {
		return nil, "", nil
	}
	treeID := ""
	if info.Payload.TreeID != nil {
		treeID = *info.Payload.TreeID
	}
	return &sth, treeID, nil
}

func verifyLive(ctx context.Context, recs []*Record, key *RekorKey, url string, res *OnlineResult) error {
	for _, r := range recs {
		if r.Status != StatusSealed {
			continue
		}
		u := url
		if u == "" {
			u = r.RekorURL
		}
		res.URL = u
		c, err := newClient(u)
		if err != nil {
			return &UnreachableError{URL: u, Err: err}
		}
		stored, err := ParseLogEntry([]byte(r.RekorEntry))
		if err != nil {
			res.Error = fmt.Sprintf("seal %d: %v", r.ID, err)
			return nil
		}
		_, live, err := fetchEntry(ctx, c, r.RekorUUID)
		var notFound *entries.GetLogEntryByUUIDNotFound
		if errors.As(err, &notFound) {
			res.Error = fmt.Sprintf("seal %d: entry %s is not in the live log", r.ID, r.RekorUUID)
			return nil
		}
		if err != nil {
			return &UnreachableError{URL: u, Err: fmt.Errorf("fetching seal %d's entry %s: %w", r.ID, r.RekorUUID, err)}
		}
		if live.Body != stored.Body || *live.LogIndex != *stored.LogIndex || *live.IntegratedTime != *stored.IntegratedTime {
			res.Error = fmt.Sprintf("seal %d: the live log's entry %s differs from the stored answer (body, log index or integrated time)", r.ID, r.RekorUUID)
			return nil
		}
		if err := VerifyLogEntry(ctx, &live, key); err != nil {
			res.Error = fmt.Sprintf("seal %d: live entry: %v", r.ID, err)
			return nil
		}
		info, err := c.Tlog.GetLogInfoContext(ctx, tlog.NewGetLogInfoParams())
		if err != nil {
			return &UnreachableError{URL: u, Err: fmt.Errorf("fetching the log's tree head: %w", err)}
		}
		var sth util.SignedCheckpoint
		if info.Payload.SignedTreeHead == nil || sth.UnmarshalText([]byte(*info.Payload.SignedTreeHead)) != nil {
			res.Error = "the live log's signed tree head cannot be read"
			return nil
		}
		if !sth.Verify(key.verifier) {
			res.Error = "the live log's signed tree head does not verify against the pinned key"
			return nil
		}
		res.TreeSize = int64(sth.Size)
		ip := stored.Verification.InclusionProof
		if ip != nil && ip.Checkpoint != nil {
			var old util.SignedCheckpoint
			if err := old.UnmarshalText([]byte(*ip.Checkpoint)); err != nil {
				res.Error = fmt.Sprintf("seal %d: stored checkpoint: %v", r.ID, err)
				return nil
			}
			// Another origin is another tree (a newer shard): no proof between them.
			if old.Origin == sth.Origin {
				treeID := ""
				if info.Payload.TreeID != nil {
					treeID = *info.Payload.TreeID
				}
				if err := verify.ProveConsistency(ctx, c, &old, &sth, treeID); err != nil {
					res.Error = fmt.Sprintf("seal %d: the live log is not consistent with the tree the seal was proven in (size %d): %v", r.ID, old.Size, err)
					return nil
				}
			}
		}
		res.Checked++
	}
	return nil
}
