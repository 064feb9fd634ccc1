package seal

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sigstore/rekor/pkg/generated/client/entries"
)

// LogURL is the log a verifier asks: the URL the pinned log key belongs to,
// never one named by what is being verified (a bundle's rekor_url can point
// at a relay that drops entries). The built-in public-good key belongs to
// DefaultRekorURL; any other key needs the reader's own URL.
func LogURL(key *RekorKey, url string) (string, error) {
	if url != "" {
		return url, nil
	}
	if key.PublicGood() {
		return DefaultRekorURL, nil
	}
	return "", fmt.Errorf("the pinned Rekor key (log id %s) is not the public-good log's: name the log it belongs to with --rekor-url", key.LogID)
}

// ErrNotInLog says the log has no entry with the UUID asked for.
var ErrNotInLog = errors.New("no such entry in the log")

// FetchArtifactSeal asks the log at url for the entry uuid and checks that
// it seals statement: the entry verifies against the pinned log key
// (VerifyLogEntry), is a hashedrekord of exactly sha256(statement) whose
// signature verifies with the key it names (VerifyBody), and that key is
// the operator's: operator when set, else the one whose fingerprint is
// fingerprint (with neither, whoever signed it: the caller says that
// nothing was pinned). It returns the record as verify would keep it, and the
// operator key. An unreachable log is an *UnreachableError.
func FetchArtifactSeal(ctx context.Context, url, uuid string, statement []byte, operator *ecdsa.PublicKey, fingerprint string, key *RekorKey) (*Record, *ecdsa.PublicKey, error) {
	c, err := newClient(url)
	if err != nil {
		return nil, nil, &UnreachableError{URL: url, Err: err}
	}
	_, e, err := fetchEntry(ctx, c, uuid)
	var notFound *entries.GetLogEntryByUUIDNotFound
	if errors.As(err, &notFound) {
		return nil, nil, fmt.Errorf("entry %s: %w at %s", uuid, ErrNotInLog, url)
	}
	if err != nil {
		return nil, nil, &UnreachableError{URL: url, Err: err}
	}
	if e.Body == nil || e.IntegratedTime == nil || e.LogID == nil || e.LogIndex == nil || e.Verification == nil {
		return nil, nil, fmt.Errorf("entry %s: the log's answer lacks body, times or verification", uuid)
	}
	if err := VerifyLogEntry(ctx, &e, key); err != nil {
		return nil, nil, fmt.Errorf("entry %s: %w", uuid, err)
	}
	body, err := BodyBytes(&e)
	if err != nil {
		return nil, nil, err
	}
	var hr hashedRekordBody
	if err := json.Unmarshal(body, &hr); err != nil {
		return nil, nil, fmt.Errorf("entry %s: body is not JSON: %v", uuid, err)
	}
	signer, err := ParsePublicKey(hr.Spec.Signature.PublicKey.Content)
	if err != nil {
		return nil, nil, fmt.Errorf("entry %s: its public key: %v", uuid, err)
	}
	switch {
	case operator != nil && !operator.Equal(signer):
		return nil, nil, fmt.Errorf("entry %s is signed by key %s, not the pinned operator key %s: a different operator", uuid, Fingerprint(signer), Fingerprint(operator))
	case operator == nil && fingerprint != "" && Fingerprint(signer) != fingerprint:
		return nil, nil, fmt.Errorf("entry %s is signed by key %s, not the pinned operator fingerprint %s: a different operator", uuid, Fingerprint(signer), fingerprint)
	}
	if err := VerifyBody(&e, uuid, statement, signer); err != nil {
		return nil, nil, fmt.Errorf("entry %s does not seal this statement: %w", uuid, err)
	}
	raw, err := json.Marshal(&e)
	if err != nil {
		return nil, nil, err
	}
	rec := &Record{Kind: KindRekorV1, Subject: SubjectArtifact, Checkpoint: string(statement),
		Signature: hr.Spec.Signature.Content, PublicKey: string(hr.Spec.Signature.PublicKey.Content),
		Status: StatusSealed, RekorURL: url, RekorUUID: uuid, RekorEntry: string(raw)}
	return rec, signer, nil
}

// PublicGood reports whether k is the built-in public-good log's key: a
// log's integrated times rest on whoever runs it, and only this one is run
// by neither the operator nor the reader.
func (k *RekorKey) PublicGood() bool {
	pg, err := ParseRekorKey(publicGoodKey)
	return err == nil && k != nil && pg.LogID == k.LogID
}
