package seal

import (
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	genclient "github.com/sigstore/rekor/pkg/generated/client"
	"github.com/sigstore/rekor/pkg/generated/client/entries"
	"github.com/sigstore/rekor/pkg/generated/client/index"
	"github.com/sigstore/rekor/pkg/generated/models"
)

// LogEntryRef is one entry the log holds for the operator key.
type LogEntryRef struct {
	UUID           string `json:"uuid"`
	LogIndex       int64  `json:"log_index"`
	IntegratedTime int64  `json:"integrated_time"`
	DataHash       string `json:"data_hash"` // sha256 hex of the signed payload
	// Seal is the id of the seal record that accounts for this entry; 0
	// when none does.
	Seal int64 `json:"seal,omitempty"`
}

// MonitorResult is what the log's search index says about the operator key.
type MonitorResult struct {
	Entries     int           `json:"entries"`     // entries the log holds for the key
	Unaccounted []LogEntryRef `json:"unaccounted"` // entries no seal record explains
	// Walked: every entry of the log was read (a small log), so Entries
	// does not rest on the search index; Unindexed counts those the index
	// did not list.
	Walked    bool `json:"walked"`
	Unindexed int  `json:"unindexed"`
	// Keys is how many operator keys were searched for: more than one
	// when the register rotated (each old key is watched too).
	Keys int `json:"keys"`
}

// keysWord names what was searched for, for messages.
func (m *MonitorResult) keysWord() string {
	if m.Keys > 1 {
		return fmt.Sprintf("keys (the %d keys of the register's rotations)", m.Keys)
	}
	return "key"
}

// IndexUnavailableError says the log answered but has no usable search index.
type IndexUnavailableError struct {
	URL string
	Err error
}

func (e *IndexUnavailableError) Error() string {
	return fmt.Sprintf("the log at %s cannot be searched by public key (its search index is off or failing): %v", e.URL, e.Err)
}
func (e *IndexUnavailableError) Unwrap() error { return e.Err }

// Monitor asks the log's search index for every entry signed by the
// operator key (what `rekor-cli search --public-key` does), fetches each,
// verifies it against the pinned log key and checks that one of recs (the
// register's or bundle's seals of every subject, pending ones included: an
// upload whose answer was lost is still accounted for) signed exactly that
// payload. An entry nothing accounts for is a checkpoint or statement the
// operator key signed that this register or bundle does not hold: a later
// seal cut from a bundle, a register rolled back to before a seal, seal rows
// deleted, or history rewritten and sealed again. One operator key seals one
// register (and its artifacts); see docs/sealing.md.
//
// The index is eventually consistent on rekor-server (written after the
// entry is integrated), so a seal made seconds ago may not be listed yet;
// seals the records hold are fetched by UUID by VerifyOnline regardless.
func Monitor(ctx context.Context, url string, operatorPEM []byte, recs []*Record, key *RekorKey) (*MonitorResult, error) {
	return monitor(ctx, url, [][]byte{operatorPEM}, recs, key, 0)
}

// monitor is Monitor over every key of ops (the keys of a register that
// rotated); with walk > 0 it also reads log entries 0..walk-1 by index and
// adds every one signed by one of them, so that what it finds does not
// rest on the (unsigned) search index.
func monitor(ctx context.Context, url string, ops [][]byte, recs []*Record, key *RekorKey, walk int64) (*MonitorResult, error) {
	c, err := newClient(url)
	if err != nil {
		return nil, &UnreachableError{URL: url, Err: err}
	}
	byHash := map[string]*Record{}
	for _, r := range recs {
		sum := sha256.Sum256([]byte(r.Checkpoint))
		byHash[hex.EncodeToString(sum[:])] = r
	}
	var uuids []string
	listedOnce := map[string]bool{}
	for _, op := range ops {
		q := &models.SearchIndex{PublicKey: &models.SearchIndexPublicKey{Format: ptr(models.SearchIndexPublicKeyFormatX509), Content: op}}
		resp, err := c.Index.SearchIndexContext(ctx, index.NewSearchIndexParams().WithQuery(q))
		if err != nil {
			var def *index.SearchIndexDefault
			if errors.As(err, &def) {
				return nil, &IndexUnavailableError{URL: url, Err: err}
			}
			return nil, &UnreachableError{URL: url, Err: fmt.Errorf("searching the index: %w", err)}
		}
		for _, u := range resp.Payload {
			if l := leafPart(strings.ToLower(u)); !listedOnce[l] {
				listedOnce[l] = true
				uuids = append(uuids, u)
			}
		}
	}
	res := &MonitorResult{Unaccounted: []LogEntryRef{}, Keys: len(ops)}
	if walk > 0 {
		found, err := walkLog(ctx, c, url, ops, walk)
		if err != nil {
			return nil, err
		}
		listed := map[string]bool{}
		for _, u := range uuids {
			listed[leafPart(strings.ToLower(u))] = true
		}
		for _, u := range found {
			if !listed[leafPart(u)] {
				res.Unindexed++
				uuids = append(uuids, u)
			}
		}
		res.Walked = true
	}
	sort.Strings(uuids)
	for _, u := range uuids {
		id, e, err := fetchEntry(ctx, c, u)
		if err != nil {
			return nil, &UnreachableError{URL: url, Err: fmt.Errorf("fetching entry %s listed by the index: %w", u, err)}
		}
		if err := VerifyLogEntry(ctx, &e, key); err != nil {
			return nil, fmt.Errorf("entry %s listed for the operator key: %v", id, err)
		}
		ref, err := entryRef(id, &e)
		if err != nil {
			return nil, fmt.Errorf("entry %s listed for the operator key: %v", id, err)
		}
		res.Entries++
		if r := byHash[ref.DataHash]; r != nil {
			ref.Seal = r.ID
			continue
		}
		res.Unaccounted = append(res.Unaccounted, ref)
	}
	sort.Slice(res.Unaccounted, func(i, j int) bool { return res.Unaccounted[i].LogIndex < res.Unaccounted[j].LogIndex })
	return res, nil
}

// entryRef reads the data hash out of a hashedrekord entry.
func entryRef(id string, e *models.LogEntryAnon) (LogEntryRef, error) {
	body, err := BodyBytes(e)
	if err != nil {
		return LogEntryRef{}, err
	}
	var hr hashedRekordBody
	if err := json.Unmarshal(body, &hr); err != nil {
		return LogEntryRef{}, fmt.Errorf("body is not JSON: %v", err)
	}
	if hr.Kind != "hashedrekord" || hr.Spec.Data.Hash.Algorithm != "sha256" {
		return LogEntryRef{}, fmt.Errorf("is a %s entry, not a sha256 hashedrekord: sentinel never signs one", hr.Kind)
	}
	return LogEntryRef{UUID: id, LogIndex: *e.LogIndex, IntegratedTime: *e.IntegratedTime,
		DataHash: strings.ToLower(hr.Spec.Data.Hash.Value)}, nil
}

// Describe is one line for a person.
func (r LogEntryRef) Describe() string {
	return fmt.Sprintf("log index %d (entry %s, integrated %s, payload sha256 %s)", r.LogIndex, r.UUID,
		time.Unix(r.IntegratedTime, 0).UTC().Format(time.RFC3339), r.DataHash)
}

// walkLog reads log entries 0..n-1 by index and returns the ids of those
// whose body names one of the operator keys.
func walkLog(ctx context.Context, c *genclient.Rekor, url string, operatorPEMs [][]byte, n int64) ([]string, error) {
	var keys []*ecdsa.PublicKey
	for _, p := range operatorPEMs {
		op, err := ParsePublicKey(p)
		if err != nil {
			return nil, err
		}
		keys = append(keys, op)
	}
	var out []string
	for i := int64(0); i < n; i++ {
		resp, err := c.Entries.GetLogEntryByIndexContext(ctx, entries.NewGetLogEntryByIndexParams().WithLogIndex(i))
		if err != nil {
			return nil, &UnreachableError{URL: url, Err: fmt.Errorf("walking the log, entry %d: %w", i, err)}
		}
		for id, e := range resp.Payload {
			body, err := BodyBytes(&e)
			if err != nil {
				continue
			}
			var hr hashedRekordBody
			if json.Unmarshal(body, &hr) != nil || hr.Kind != "hashedrekord" {
				continue
			}
			if pub, err := ParsePublicKey(hr.Spec.Signature.PublicKey.Content); err == nil && slices.ContainsFunc(keys, func(k *ecdsa.PublicKey) bool { return pub.Equal(k) }) {
				out = append(out, strings.ToLower(id))
			}
		}
	}
	return out, nil
}
