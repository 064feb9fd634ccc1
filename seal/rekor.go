package seal

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/sigstore/rekor/pkg/client"
	genclient "github.com/sigstore/rekor/pkg/generated/client"
	"github.com/sigstore/rekor/pkg/generated/client/entries"
	"github.com/sigstore/rekor/pkg/generated/client/index"
	"github.com/sigstore/rekor/pkg/generated/models"
	"github.com/sigstore/rekor/pkg/types"
	_ "github.com/sigstore/rekor/pkg/types/hashedrekord/v0.0.1" // registers the kind, for leafUUID
	"github.com/transparency-dev/merkle/rfc6962"

	"github.com/sentinel-guard/sentinel/internal/version"
)

// DefaultRekorURL is the public-good Rekor v1 log.
const DefaultRekorURL = "https://rekor.sigstore.dev"

// DefaultTimeout bounds one Rekor round trip.
const DefaultTimeout = 30 * time.Second

// UploadError says Rekor was unreachable or refused the entry; the seal
// stays pending.
type UploadError struct {
	URL string
	Err error
}

func (e *UploadError) Error() string {
	return fmt.Sprintf("Rekor at %s did not accept the seal: %v", e.URL, e.Err)
}
func (e *UploadError) Unwrap() error { return e.Err }

func newClient(url string) (*genclient.Rekor, error) {
	return client.GetRekorClient(url,
		client.WithUserAgent("sentinel/"+version.Version),
		client.WithRetryCount(2),
		client.WithRetryWaitMin(200*time.Millisecond),
		client.WithRetryWaitMax(2*time.Second))
}

// proposedEntry is the hashedrekord v0.0.1 for a signed payload.
func proposedEntry(payload, sig []byte, pubPEM string) *models.Hashedrekord {
	sum := sha256.Sum256(payload)
	return &models.Hashedrekord{
		APIVersion: ptr("0.0.1"),
		Spec: models.HashedrekordV001Schema{
			Data: &models.HashedrekordV001SchemaData{Hash: &models.HashedrekordV001SchemaDataHash{
				Algorithm: ptr(models.HashedrekordV001SchemaDataHashAlgorithmSha256),
				Value:     ptr(hex.EncodeToString(sum[:])),
			}},
			Signature: &models.HashedrekordV001SchemaSignature{
				Content:   sig,
				PublicKey: &models.HashedrekordV001SchemaSignaturePublicKey{Content: []byte(pubPEM)},
			},
		},
	}
}

// upload sends the record's payload to Rekor and fills in its answer. A 409
// (the entry exists: an earlier upload whose answer was lost) is resolved by
// fetching the existing entry, never by signing again.
func upload(ctx context.Context, url string, r *Record) error {
	c, err := newClient(url)
	if err != nil {
		return &UploadError{URL: url, Err: err}
	}
	pe := proposedEntry([]byte(r.Checkpoint), r.Signature, r.PublicKey)
	params := entries.NewCreateLogEntryParams().WithProposedEntry(pe)
	resp, err := c.Entries.CreateLogEntryContext(ctx, params)
	var uuid string
	var entry models.LogEntryAnon
	var conflict *entries.CreateLogEntryConflict
	switch {
	case errors.As(err, &conflict):
		uuid, entry, err = resolveConflict(ctx, c, conflict, pe, r)
		if err != nil {
			return &UploadError{URL: url, Err: fmt.Errorf("entry exists (409) but fetching it failed: %w", err)}
		}
	case err != nil:
		return &UploadError{URL: url, Err: err}
	default:
		if len(resp.Payload) != 1 {
			return &UploadError{URL: url, Err: fmt.Errorf("answer holds %d entries, want 1", len(resp.Payload))}
		}
		for k, v := range resp.Payload {
			uuid, entry = k, v
		}
	}
	raw, err := json.Marshal(&entry)
	if err != nil {
		return &UploadError{URL: url, Err: err}
	}
	r.RekorURL, r.RekorUUID, r.RekorEntry = url, uuid, string(raw)
	return nil
}

// resolveConflict finds the existing entry a 409 refers to, without
// trusting the Location header to be there: real Rekor sends it, but a
// proxy may drop it, and without it a seal whose answer was lost would
// stay pending for ever. In order: the header; the UUID in the 409's
// message; the UUID computed as Rekor computes it (the RFC 6962 leaf hash
// of the canonicalised entry, which is the proposed entry we sent); and
// last a search of the log's index by the checkpoint's hash, keeping the
// entry that carries exactly our signature. Whatever is found is checked
// afterwards like any answer (VerifyRecord binds it to this checkpoint and
// key), so a wrong guess fails verification instead of sealing.
func resolveConflict(ctx context.Context, c *genclient.Rekor, conflict *entries.CreateLogEntryConflict, pe *models.Hashedrekord, r *Record) (string, models.LogEntryAnon, error) {
	var tried []string
	if loc := conflict.Location.String(); loc != "" {
		tried = append(tried, path.Base(loc))
	}
	if conflict.Payload != nil {
		if m := uuidInMessage.FindString(conflict.Payload.Message); m != "" {
			tried = append(tried, m)
		}
	}
	if leaf, err := leafUUID(ctx, pe); err == nil {
		tried = append(tried, leaf)
	}
	var lastErr error
	for _, id := range tried {
		uuid, entry, err := fetchEntry(ctx, c, id)
		if err == nil {
			return uuid, entry, nil
		}
		lastErr = err
	}
	uuid, entry, err := searchBySignature(ctx, c, []byte(r.Checkpoint), r.Signature)
	if err != nil && lastErr != nil {
		err = fmt.Errorf("%w; by UUID: %v", err, lastErr)
	}
	return uuid, entry, err
}

var uuidInMessage = regexp.MustCompile(`\b(?:[0-9a-f]{16})?[0-9a-f]{64}\b`)

// leafUUID is the entry UUID Rekor gives a proposed entry: the RFC 6962
// leaf hash of its canonical form (64 hex; the log accepts it without the
// tree id prefix).
func leafUUID(ctx context.Context, pe models.ProposedEntry) (string, error) {
	ei, err := types.CreateVersionedEntry(pe)
	if err != nil {
		return "", err
	}
	leaf, err := types.CanonicalizeEntry(ctx, ei)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(rfc6962.DefaultHasher.HashLeaf(leaf)), nil
}

// searchBySignature asks the log's index for the entries of the payload's
// hash and returns the one whose body carries sig.
func searchBySignature(ctx context.Context, c *genclient.Rekor, payload, sig []byte) (string, models.LogEntryAnon, error) {
	sum := sha256.Sum256(payload)
	q := &models.SearchIndex{Hash: "sha256:" + hex.EncodeToString(sum[:])}
	resp, err := c.Index.SearchIndexContext(ctx, index.NewSearchIndexParams().WithQuery(q))
	if err != nil {
		return "", models.LogEntryAnon{}, fmt.Errorf("searching the log by hash: %w", err)
	}
	for _, id := range resp.Payload {
		uuid, entry, err := fetchEntry(ctx, c, id)
		if err != nil {
			continue
		}
		if body, ok := entry.Body.(string); ok && bodyHasSignature(body, sig) {
			return uuid, entry, nil
		}
	}
	return "", models.LogEntryAnon{}, fmt.Errorf("no entry in the log's index for sha256 %x carries this seal's signature", sum)
}

// bodyHasSignature reports whether a hashedrekord body (base64 JSON) holds sig.
func bodyHasSignature(body string, sig []byte) bool {
	raw, err := base64.StdEncoding.DecodeString(body)
	if err != nil {
		return false
	}
	var hr models.Hashedrekord
	if err := json.Unmarshal(raw, &hr); err != nil {
		return false
	}
	spec, ok := hr.Spec.(map[string]any)
	if !ok {
		return false
	}
	s, _ := spec["signature"].(map[string]any)
	content, _ := s["content"].(string)
	return content == base64.StdEncoding.EncodeToString(sig)
}

func fetchEntry(ctx context.Context, c *genclient.Rekor, uuid string) (string, models.LogEntryAnon, error) {
	resp, err := c.Entries.GetLogEntryByUUIDContext(ctx, entries.NewGetLogEntryByUUIDParams().WithEntryUUID(uuid))
	if err != nil {
		return "", models.LogEntryAnon{}, err
	}
	for k, v := range resp.Payload {
		if strings.HasSuffix(k, leafPart(uuid)) {
			return k, v, nil
		}
	}
	return "", models.LogEntryAnon{}, fmt.Errorf("log answered without entry %s", uuid)
}

// leafPart is the 64-hex leaf hash of a 64- or 80-hex entry UUID (the
// longer form is prefixed by 16 hex of tree id).
func leafPart(uuid string) string {
	if len(uuid) == 80 {
		return uuid[16:]
	}
	return uuid
}

func ptr[T any](v T) *T { return &v }
