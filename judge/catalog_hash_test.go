package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
)

// TestRuleJSON: the hand-written rule encoding that feeds the catalog hash
// gives exactly json.Marshal's bytes, for every shipped rule and for rules
// with characters encoding/json escapes.
func TestRuleJSON(t *testing.T) {
	rules := Rules()
	rules = append(rules,
		Rule{ID: "X-1", Class: ClassCustom, Severity: SevLow, Decision: Deny, Reason: "a \"quoted\" <b>&amp;</b>\n\ttab \\ back", Alternative: "é ü \u2028 \x7f \xff", Prefix: []string{"rm", "-rf", "<x>"}},
		Rule{ID: "X-2", Decision: Ask, Catastrophic: true, Prefix: []string{}},
	)
	for _, r := range rules {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendRuleJSON(nil, r); string(got) != string(want) {
			t.Errorf("rule %s:\n got %s\nwant %s", r.ID, got, want)
		}
	}
}

// TestCatalogHashStable: the cached hash is the sha256 of the catalog
// serialised with encoding/json, as CatalogHashFor always defined it, and a
// configuration that changes decisions changes it.
func TestCatalogHashStable(t *testing.T) {
	h := sha256.New()
	h.Write([]byte("sentinel-catalog\n" + CatalogVersion + "\n"))
	for _, r := range Rules() {
		b, _ := json.Marshal(r)
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	want := hex.EncodeToString(h.Sum(nil))
	if got := CatalogHash(); got != want {
		t.Fatalf("CatalogHash() = %s, want %s", got, want)
	}
	if got := CatalogHashFor(&Config{}); got != want {
		t.Errorf("an empty configuration changed the hash: %s", got)
	}
	cfg, err := ParseConfig("t", "protected_paths = [\"/srv\"]\n", true)
	if err != nil {
		t.Fatal(err)
	}
	h.Write([]byte("config\n"))
	h.Write(cfg.canonical())
	if got, want := CatalogHashFor(cfg), hex.EncodeToString(h.Sum(nil)); got != want {
		t.Errorf("CatalogHashFor(cfg) = %s, want %s", got, want)
	}
}

// TestCatalogOrder: the catalog is ordered by class (classOrder), then by
// rule id, as the hash has always serialised it.
func TestCatalogOrder(t *testing.T) {
	rank := map[string]int{}
	for i, c := range classOrder {
		rank[c] = i
	}
	rs := Rules()
	if len(rs) != len(registered) {
		t.Fatalf("%d rules in the catalog, %d registered", len(rs), len(registered))
	}
	for i := 1; i < len(rs); i++ {
		a, b := rs[i-1], rs[i]
		if rank[a.Class] > rank[b.Class] || rank[a.Class] == rank[b.Class] && a.ID >= b.ID {
			t.Fatalf("rule %d (%s %s) before rule %d (%s %s)", i-1, a.Class, a.ID, i, b.Class, b.ID)
		}
	}
}

// BenchmarkCatalogHash (and its parts) is what the hook pays once per call, and
// BenchmarkDecideTypical never shows (it is cached after the first
// decision): ordering the catalog and hashing its serialisation.
func BenchmarkCatalogHash(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h := sha256.New()
		writeCatalog(h, buildCatalog())
		h.Sum(nil)
	}
}

func BenchmarkCatalogHashParts(b *testing.B) {
	rs := catalogRules()
	b.Run("order", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			buildCatalog()
		}
	})
	b.Run("json", func(b *testing.B) {
		var buf []byte
		for i := 0; i < b.N; i++ {
			buf = buf[:0]
			for _, r := range rs {
				buf = appendRuleJSON(buf, r)
			}
		}
		b.SetBytes(int64(len(buf)))
	})
}
