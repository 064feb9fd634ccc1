package seal

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// CheckpointHeader is the first line of a register checkpoint. It separates
// the domain: a signature over these bytes cannot be replayed as a signature
// over anything else sentinel signs (see ArtifactHeader).
const CheckpointHeader = "sentinel register checkpoint v1"

// ArtifactHeader is the first line of a signed artifact statement (a census
// or a protocol file sealed by its hash).
const ArtifactHeader = "sentinel artifact v1"

// NoPrev is the prev field of the first seal.
const NoPrev = "-"

// Checkpoint is what a seal commits to. Its text form (Marshal) is the exact
// signed payload; its sha256 is the hashedrekord data hash.
//
//	sentinel register checkpoint v1
//	register <register id>
//	size <entries covered>
//	root <hex RFC 6962 root over the entry hashes>
//	head <hex hash of entry <size>>
//	prev <Rekor UUID of the previous seal, or ->
//	time <RFC 3339 UTC>
type Checkpoint struct {
	RegisterID string
	Size       uint64
	Root       []byte
	Head       string
	Prev       string
	Time       time.Time
}

// Marshal returns the checkpoint text.
func (c *Checkpoint) Marshal() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\nregister %s\nsize %d\nroot %s\nhead %s\nprev %s\ntime %s\n",
		CheckpointHeader, c.RegisterID, c.Size, hex.EncodeToString(c.Root), c.Head, c.Prev,
		c.Time.UTC().Format(time.RFC3339))
	return b.Bytes()
}

// ParseCheckpoint reads checkpoint text, strictly: the same bytes must come
// back from Marshal, so there is one text per checkpoint.
func ParseCheckpoint(text []byte) (*Checkpoint, error) {
	lines := strings.Split(string(text), "\n")
	if len(lines) != 8 || lines[7] != "" {
		return nil, fmt.Errorf("checkpoint: want 7 newline-terminated lines, got %d", len(lines)-1)
	}
	if lines[0] != CheckpointHeader {
		return nil, fmt.Errorf("checkpoint: first line %q is not %q", lines[0], CheckpointHeader)
	}
	field := func(i int, key string) (string, error) {
		v, ok := strings.CutPrefix(lines[i], key+" ")
		if !ok || v == "" {
			return "", fmt.Errorf("checkpoint: line %d: want %q", i+1, key+" ...")
		}
		return v, nil
	}
	var c Checkpoint
	var err error
	var s string
	if c.RegisterID, err = field(1, "register"); err != nil {
		return nil, err
	}
	if s, err = field(2, "size"); err != nil {
		return nil, err
	}
	if c.Size, err = strconv.ParseUint(s, 10, 64); err != nil {
		return nil, fmt.Errorf("checkpoint: size: %w", err)
	}
	if s, err = field(3, "root"); err != nil {
		return nil, err
	}
	if c.Root, err = hex.DecodeString(s); err != nil || len(c.Root) != sha256.Size {
		return nil, fmt.Errorf("checkpoint: root %q is not 32 bytes of hex", s)
	}
	if c.Head, err = field(4, "head"); err != nil {
		return nil, err
	}
	if c.Prev, err = field(5, "prev"); err != nil {
		return nil, err
	}
	if s, err = field(6, "time"); err != nil {
		return nil, err
	}
	if c.Time, err = time.Parse(time.RFC3339, s); err != nil {
		return nil, fmt.Errorf("checkpoint: time: %w", err)
	}
	if !bytes.Equal(c.Marshal(), text) {
		return nil, fmt.Errorf("checkpoint: not in canonical form")
	}
	return &c, nil
}

// ArtifactStatement is the signed payload that seals an artifact by hash:
//
//	sentinel artifact v1
//	kind <kind>
//	sha256 <hex>
//	time <RFC 3339 UTC>
func ArtifactStatement(kind, sha256hex string, t time.Time) ([]byte, error) {
	if kind == "" || strings.ContainsAny(kind, " \n\r") {
		return nil, fmt.Errorf("artifact kind %q: want one word", kind)
	}
	if b, err := hex.DecodeString(sha256hex); err != nil || len(b) != sha256.Size {
		return nil, fmt.Errorf("artifact hash %q is not a hex sha256", sha256hex)
	}
	return fmt.Appendf(nil, "%s\nkind %s\nsha256 %s\ntime %s\n", ArtifactHeader, kind,
		strings.ToLower(sha256hex), t.UTC().Format(time.RFC3339)), nil
}

// Sign signs payload with key: ECDSA P-256 over sha256(payload), ASN.1.
// This is exactly what Rekor checks for a hashedrekord with a sha256 hash.
func Sign(key *ecdsa.PrivateKey, payload []byte) ([]byte, error) {
	sum := sha256.Sum256(payload)
	return ecdsa.SignASN1(rand.Reader, key, sum[:])
}

// VerifySignature checks an ASN.1 ECDSA signature over sha256(payload).
func VerifySignature(pub *ecdsa.PublicKey, payload, sig []byte) bool {
	sum := sha256.Sum256(payload)
	return ecdsa.VerifyASN1(pub, sum[:], sig)
}
