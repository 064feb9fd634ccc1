package seal

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"testing"

	"github.com/sentinel-guard/sentinel/seal/rekortest"
)

// TestSearchBySignature: the last way resolveConflict finds an existing
// entry, a search of the log's index by the checkpoint's hash, keeps only
// the entry that carries this seal's signature.
func TestSearchBySignature(t *testing.T) {
	log := rekortest.New()
	defer log.Close()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pub, err := PublicKeyPEM(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte("sentinel checkpoint test\n")
	sum := sha256.Sum256(payload)
	sig, _ := ecdsa.SignASN1(rand.Reader, key, sum[:])
	r := &Record{Checkpoint: string(payload), Signature: sig, PublicKey: string(pub)}
	ctx := context.Background()
	if err := upload(ctx, log.URL, r); err != nil {
		t.Fatal(err)
	}
	c, _ := newClient(log.URL)
	uuid, _, err := searchBySignature(ctx, c, payload, sig)
	if err != nil || uuid != r.RekorUUID {
		t.Fatalf("search = %q, %v; want %q", uuid, err, r.RekorUUID)
	}
	other, _ := ecdsa.SignASN1(rand.Reader, key, sum[:]) // same payload, another signature
	if _, _, err := searchBySignature(ctx, c, payload, other); err == nil {
		t.Fatal("an entry with another signature was taken for this seal's")
	}
	leaf, err := leafUUID(ctx, proposedEntry(payload, sig, string(pub)))
	if err != nil || leafPart(r.RekorUUID) != leaf {
		t.Fatalf("computed UUID %s, %v; the log's %s", leaf, err, r.RekorUUID)
	}
}
