package seal

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/sigstore/rekor/pkg/generated/models"
	"github.com/sigstore/rekor/pkg/util"
	"github.com/sigstore/rekor/pkg/verify"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"github.com/sigstore/sigstore/pkg/signature"
	"github.com/transparency-dev/merkle/rfc6962"
)

// publicGoodKey is the public-good Rekor log's key (rekor.sigstore.dev),
// pinned in the binary: offline verification is as strong as this pin.
//
//go:embed rekor-public-good.pub
var publicGoodKey []byte

// PublicGoodKeyPEM is the pinned public-good Rekor key.
func PublicGoodKeyPEM() []byte { return bytes.Clone(publicGoodKey) }

// RekorKey is a pinned Rekor log key.
type RekorKey struct {
	Pub      crypto.PublicKey
	LogID    string // hex sha256 of its DER
	verifier signature.Verifier
}

// ParseRekorKey reads a Rekor log public key (PEM).
func ParseRekorKey(pemBytes []byte) (*RekorKey, error) {
	pub, err := cryptoutils.UnmarshalPEMToPublicKey(pemBytes)
	if err != nil {
		return nil, fmt.Errorf("the Rekor public key: %w", err)
	}
	v, err := signature.LoadVerifier(pub, crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("the Rekor public key: %w", err)
	}
	return &RekorKey{Pub: pub, LogID: KeyID(pub), verifier: v}, nil
}

// LoadRekorKey reads the key at path, or the pinned public-good key when
// path is "".
func LoadRekorKey(path string) (*RekorKey, error) {
	if path == "" {
		return ParseRekorKey(publicGoodKey)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseRekorKey(b)
}

// ParseLogEntry decodes a stored Rekor answer (LogEntryAnon JSON).
func ParseLogEntry(raw []byte) (*models.LogEntryAnon, error) {
	var e models.LogEntryAnon
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("stored Rekor answer is not a log entry: %w", err)
	}
	if e.Body == nil || e.IntegratedTime == nil || e.LogID == nil || e.LogIndex == nil {
		return nil, fmt.Errorf("stored Rekor answer lacks body, integratedTime, logID or logIndex")
	}
	if e.Verification == nil || e.Verification.SignedEntryTimestamp == nil {
		return nil, fmt.Errorf("stored Rekor answer has no signed entry timestamp")
	}
	return &e, nil
}

// VerifyLogEntry checks a Rekor answer against the pinned log key with
// Rekor's own verify package (SET always; inclusion proof and checkpoint
// signature when present) and what that package leaves out: the log id is
// the pinned key's, the checkpoint's size is the proof's tree size. Each
// failure names the check.
func VerifyLogEntry(ctx context.Context, e *models.LogEntryAnon, key *RekorKey) error {
	if *e.LogID != key.LogID {
		return fmt.Errorf("the Rekor log id %s is not the pinned Rekor key's (%s)", *e.LogID, key.LogID)
	}
	if err := verify.VerifySignedEntryTimestamp(ctx, e, key.verifier); err != nil {
		return fmt.Errorf("the Rekor signed entry timestamp does not verify against the pinned key: %v", err)
	}
	ip := e.Verification.InclusionProof
	if ip == nil {
		return nil
	}
	if ip.Checkpoint == nil || ip.RootHash == nil || ip.TreeSize == nil || ip.LogIndex == nil {
		return fmt.Errorf("the Rekor inclusion proof is incomplete")
	}
	if err := verify.VerifyInclusion(ctx, e); err != nil {
		return fmt.Errorf("the Rekor inclusion proof does not verify against the pinned key: %v", err)
	}
	if err := verify.VerifyCheckpointSignature(e, key.verifier); err != nil {
		return fmt.Errorf("the Rekor checkpoint does not verify against the pinned key: %v", err)
	}
	var sc util.SignedCheckpoint
	if err := sc.UnmarshalText([]byte(*ip.Checkpoint)); err != nil {
		return fmt.Errorf("the Rekor checkpoint: %v", err)
	}
	if sc.Size != uint64(*ip.TreeSize) {
		return fmt.Errorf("the Rekor checkpoint is for tree size %d, the inclusion proof for %d", sc.Size, *ip.TreeSize)
	}
	return nil
}

// hashedRekordBody is the part of a hashedrekord v0.0.1 body we check.
type hashedRekordBody struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Spec       struct {
		Data struct {
			Hash struct {
				Algorithm string `json:"algorithm"`
				Value     string `json:"value"`
			} `json:"hash"`
		} `json:"data"`
		Signature struct {
			Content   []byte `json:"content"`
			PublicKey struct {
				Content []byte `json:"content"`
			} `json:"publicKey"`
		} `json:"signature"`
	} `json:"spec"`
}

// BodyBytes is the decoded entry body (the canonical leaf).
func BodyBytes(e *models.LogEntryAnon) ([]byte, error) {
	s, ok := e.Body.(string)
	if !ok {
		return nil, fmt.Errorf("the Rekor entry body is %T, want base64 text", e.Body)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("the Rekor entry body is not base64: %v", err)
	}
	return b, nil
}

// VerifyBody checks what Rekor's verify package does not: the entry is a
// hashedrekord v0.0.1 of exactly sha256(payload), signed by exactly the
// operator key, and the signature in it verifies over the payload; and
// uuid (64 or 80 hex) names this body's leaf.
func VerifyBody(e *models.LogEntryAnon, uuid string, payload []byte, operator *ecdsa.PublicKey) error {
	body, err := BodyBytes(e)
	if err != nil {
		return err
	}
	var hr hashedRekordBody
	if err := json.Unmarshal(body, &hr); err != nil {
		return fmt.Errorf("the Rekor entry body is not JSON: %v", err)
	}
	if hr.Kind != "hashedrekord" || hr.APIVersion != "0.0.1" {
		return fmt.Errorf("the Rekor entry is %s %s, want hashedrekord 0.0.1", hr.Kind, hr.APIVersion)
	}
	sum := sha256.Sum256(payload)
	if hr.Spec.Data.Hash.Algorithm != "sha256" || !strings.EqualFold(hr.Spec.Data.Hash.Value, hex.EncodeToString(sum[:])) {
		return fmt.Errorf("the Rekor entry records hash %s:%s, not the checkpoint's sha256:%x",
			hr.Spec.Data.Hash.Algorithm, hr.Spec.Data.Hash.Value, sum)
	}
	pub, err := ParsePublicKey(hr.Spec.Signature.PublicKey.Content)
	if err != nil {
		return fmt.Errorf("the Rekor entry's public key: %v", err)
	}
	if !pub.Equal(operator) {
		return fmt.Errorf("the Rekor entry is signed by key %s, not the operator key %s", Fingerprint(pub), Fingerprint(operator))
	}
	if !VerifySignature(operator, payload, hr.Spec.Signature.Content) {
		return fmt.Errorf("the Rekor entry's signature does not verify over the checkpoint")
	}
	if uuid != "" {
		leaf := hex.EncodeToString(rfc6962.DefaultHasher.HashLeaf(body))
		if !strings.EqualFold(leafPart(uuid), leaf) {
			return fmt.Errorf("the Rekor UUID %s does not name this entry (leaf hash %s)", uuid, leaf)
		}
	}
	return nil
}

// VerifyRecord checks one seal record on its own (no entries needed): the
// operator signature over the payload, and Rekor's answer (pinned key, body
// bound to the payload and operator key). A pending record fails: it proves
// nothing yet.
func VerifyRecord(ctx context.Context, r *Record, operator *ecdsa.PublicKey, key *RekorKey) error {
	if !VerifySignature(operator, []byte(r.Checkpoint), r.Signature) {
		return fmt.Errorf("checkpoint signature does not verify with the operator key %s", Fingerprint(operator))
	}
	if r.Status != StatusSealed {
		return fmt.Errorf("not sealed in Rekor (status %s)", r.Status)
	}
	e, err := ParseLogEntry([]byte(r.RekorEntry))
	if err != nil {
		return err
	}
	if err := VerifyLogEntry(ctx, e, key); err != nil {
		return err
	}
	return VerifyBody(e, r.RekorUUID, []byte(r.Checkpoint), operator)
}

// VerifyArtifact checks an artifact seal: the record verifies (VerifyRecord)
// and its statement names kind and the hash sha256hex.
func VerifyArtifact(ctx context.Context, r *Record, kind, sha256hex string, operator *ecdsa.PublicKey, key *RekorKey) error {
	st, err := ParseArtifactStatement(r.Checkpoint)
	if err != nil || st.Kind != kind || !strings.EqualFold(st.SHA256, sha256hex) {
		return fmt.Errorf("the sealed statement is not for %s with sha256 %s", kind, sha256hex)
	}
	return VerifyRecord(ctx, r, operator, key)
}
