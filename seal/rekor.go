package seal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/sigstore/rekor/pkg/client"
	genclient "github.com/sigstore/rekor/pkg/generated/client"
	"github.com/sigstore/rekor/pkg/generated/client/entries"
	"github.com/sigstore/rekor/pkg/generated/models"

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
	params := entries.NewCreateLogEntryParams().
		WithProposedEntry(proposedEntry([]byte(r.Checkpoint), r.Signature, r.PublicKey))
	resp, err := c.Entries.CreateLogEntryContext(ctx, params)
	var uuid string
	var entry models.LogEntryAnon
	var conflict *entries.CreateLogEntryConflict
	switch {
	case errors.As(err, &conflict):
		uuid = path.Base(conflict.Location.String())
		uuid, entry, err = fetchEntry(ctx, c, uuid)
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
