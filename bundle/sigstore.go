package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	protorekor "github.com/sigstore/protobuf-specs/gen/pb-go/rekor/v1"
	prototrust "github.com/sigstore/protobuf-specs/gen/pb-go/trustroot/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/sentinel-guard/sentinel/seal"
)

// SigstoreMediaType is the Sigstore bundle version the seals are exported as.
const SigstoreMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json"

// SigstoreBundle is one sealed record (a register checkpoint or an artifact
// statement) as a Sigstore bundle v0.3, built from protobuf-specs' own
// types and marshalled by protojson: a message signature (sha256 of the
// signed text and the operator's signature over it), the operator key named
// by its hint (its fingerprint), and Rekor's entry with its inclusion
// promise (SET) and inclusion proof. Any Sigstore verifier checks it
// against the signed text and the operator's public key, e.g.
//
//	cosign verify-blob --new-bundle-format --bundle seal-1.sigstore.json --key operator.pub seal-1.txt
func SigstoreBundle(r *seal.Record) ([]byte, error) {
	e, err := r.Entry()
	if err != nil {
		return nil, err
	}
	body, err := seal.BodyBytes(e)
	if err != nil {
		return nil, err
	}
	logID, err := hex.DecodeString(*e.LogID)
	if err != nil {
		return nil, fmt.Errorf("log id: %v", err)
	}
	tle := &protorekor.TransparencyLogEntry{
		LogIndex:          *e.LogIndex,
		LogId:             &protocommon.LogId{KeyId: logID},
		KindVersion:       &protorekor.KindVersion{Kind: "hashedrekord", Version: "0.0.1"},
		IntegratedTime:    *e.IntegratedTime,
		InclusionPromise:  &protorekor.InclusionPromise{SignedEntryTimestamp: e.Verification.SignedEntryTimestamp},
		CanonicalizedBody: body,
	}
	ip := e.Verification.InclusionProof
	if ip == nil || ip.LogIndex == nil || ip.RootHash == nil || ip.TreeSize == nil || ip.Checkpoint == nil {
		return nil, fmt.Errorf("seal %d: Rekor's answer has no inclusion proof, which a v0.3 bundle needs", r.ID)
	}
	root, err := hex.DecodeString(*ip.RootHash)
	if err != nil {
		return nil, fmt.Errorf("inclusion proof root: %v", err)
	}
	proof := &protorekor.InclusionProof{LogIndex: *ip.LogIndex, RootHash: root, TreeSize: *ip.TreeSize,
		Checkpoint: &protorekor.Checkpoint{Envelope: *ip.Checkpoint}}
	for _, h := range ip.Hashes {
		b, err := hex.DecodeString(h)
		if err != nil {
			return nil, fmt.Errorf("inclusion proof hash: %v", err)
		}
		proof.Hashes = append(proof.Hashes, b)
	}
	tle.InclusionProof = proof
	hint := ""
	if pub, err := seal.ParsePublicKey([]byte(r.PublicKey)); err == nil {
		hint = seal.Fingerprint(pub)
	}
	sum := sha256.Sum256([]byte(r.Checkpoint))
	b := &protobundle.Bundle{
		MediaType: SigstoreMediaType,
		VerificationMaterial: &protobundle.VerificationMaterial{
			Content:     &protobundle.VerificationMaterial_PublicKey{PublicKey: &protocommon.PublicKeyIdentifier{Hint: hint}},
			TlogEntries: []*protorekor.TransparencyLogEntry{tle},
		},
		Content: &protobundle.Bundle_MessageSignature{MessageSignature: &protocommon.MessageSignature{
			MessageDigest: &protocommon.HashOutput{Algorithm: protocommon.HashAlgorithm_SHA2_256, Digest: sum[:]},
			Signature:     r.Signature,
		}},
	}
	return protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(b)
}

// TrustedRoot is a Sigstore trusted root naming one Rekor log (its key and
// URL), for a verifier of seals made in a private log (cosign
// --trusted-root); the public-good log's comes from Sigstore's TUF root.
// since is when the key started to be used (the first seal's time).
func TrustedRoot(key *seal.RekorKey, url string, since time.Time) ([]byte, error) {
	der, err := seal.PublicKeyDER(key.Pub)
	if err != nil {
		return nil, err
	}
	id, err := hex.DecodeString(key.LogID)
	if err != nil {
		return nil, err
	}
	tr := &prototrust.TrustedRoot{
		MediaType: "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
		Tlogs: []*prototrust.TransparencyLogInstance{{
			BaseUrl:       url,
			HashAlgorithm: protocommon.HashAlgorithm_SHA2_256,
			PublicKey: &protocommon.PublicKey{RawBytes: der, KeyDetails: protocommon.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256,
				ValidFor: &protocommon.TimeRange{Start: timestamppb.New(since)}},
			LogId: &protocommon.LogId{KeyId: id},
		}},
	}
	return protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(tr)
}
