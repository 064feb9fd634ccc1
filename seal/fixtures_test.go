package seal_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-guard/sentinel/seal"
)

// The fixtures are real entries of the public-good log (see
// testdata/rekor/README.md); the pinned key must accept them as they are
// and reject any edit.

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "rekor", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPinnedKeyIsThePublicGoodKey(t *testing.T) {
	if string(seal.PublicGoodKeyPEM()) != string(fixture(t, "rekor-public-good.pub")) {
		t.Fatal("embedded key differs from testdata/rekor/rekor-public-good.pub")
	}
	k, err := seal.LoadRekorKey("")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(k.LogID, "c0d23d6a") || !strings.HasSuffix(k.LogID, "801d") {
		t.Fatalf("log id %s", k.LogID)
	}
}

func TestRealEntriesVerify(t *testing.T) {
	key, _ := seal.LoadRekorKey("")
	ctx := context.Background()
	for _, name := range []string{"hashedrekord-set-only.entry.json", "dsse-inclusion-proof.entry.json"} {
		e, err := seal.ParseLogEntry(fixture(t, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := seal.VerifyLogEntry(ctx, e, key); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// The sealed artifact's hash is the hashedrekord's data hash.
	e, _ := seal.ParseLogEntry(fixture(t, "hashedrekord-set-only.entry.json"))
	body, err := seal.BodyBytes(e)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(fixture(t, "hashedrekord-set-only.artifact.json"))
	if !strings.Contains(string(body), `"value":"`+hex.EncodeToString(sum[:])+`"`) {
		t.Fatalf("artifact sha256 %x not in the body", sum)
	}
}

// TestRealEntriesTampered changes each field of each real entry in turn.
func TestRealEntriesTampered(t *testing.T) {
	key, _ := seal.LoadRekorKey("")
	ctx := context.Background()
	type edit struct {
		name string
		fn   func(m map[string]any)
	}
	verif := func(m map[string]any) map[string]any { return m["verification"].(map[string]any) }
	ip := func(m map[string]any) map[string]any { return verif(m)["inclusionProof"].(map[string]any) }
	flipB64 := func(s string) string {
		b, _ := base64.StdEncoding.DecodeString(s)
		b[len(b)/2] ^= 1
		return base64.StdEncoding.EncodeToString(b)
	}
	common := []edit{
		{"nothing", func(map[string]any) {}}, // control: the round trip alone changes nothing
		{"body", func(m map[string]any) { m["body"] = flipB64(m["body"].(string)) }},
		{"integratedTime", func(m map[string]any) { m["integratedTime"] = m["integratedTime"].(float64) + 1 }},
		{"logIndex", func(m map[string]any) { m["logIndex"] = m["logIndex"].(float64) + 1 }},
		{"logID", func(m map[string]any) { m["logID"] = strings.Repeat("0", 64) }},
		{"signedEntryTimestamp", func(m map[string]any) {
			verif(m)["signedEntryTimestamp"] = flipB64(verif(m)["signedEntryTimestamp"].(string))
		}},
	}
	proof := []edit{
		{"inclusionProof.hashes", func(m map[string]any) {
			h := ip(m)["hashes"].([]any)
			h[0] = strings.Repeat("0", 64)
		}},
		{"inclusionProof.rootHash", func(m map[string]any) { ip(m)["rootHash"] = strings.Repeat("0", 64) }},
		{"inclusionProof.logIndex", func(m map[string]any) { ip(m)["logIndex"] = ip(m)["logIndex"].(float64) + 1 }},
		{"inclusionProof.treeSize", func(m map[string]any) { ip(m)["treeSize"] = ip(m)["treeSize"].(float64) + 1 }},
		{"inclusionProof.checkpoint", func(m map[string]any) {
			ip(m)["checkpoint"] = strings.Replace(ip(m)["checkpoint"].(string), "\n", "x\n", 1)
		}},
	}
	for file, edits := range map[string][]edit{
		"hashedrekord-set-only.entry.json": common,
		"dsse-inclusion-proof.entry.json":  append(common, proof...),
	} {
		for _, ed := range edits {
			var m map[string]any
			if err := json.Unmarshal(fixture(t, file), &m); err != nil {
				t.Fatal(err)
			}
			ed.fn(m)
			raw, _ := json.Marshal(m)
			e, err := seal.ParseLogEntry(raw)
			if err != nil {
				continue // rejected while decoding: fine
			}
			err = seal.VerifyLogEntry(ctx, e, key)
			if ed.name == "nothing" && err != nil {
				t.Errorf("%s re-encoded without a change: %v", file, err)
			} else if ed.name != "nothing" && err == nil {
				t.Errorf("%s with %s changed: accepted", file, ed.name)
			}
		}
	}
}
