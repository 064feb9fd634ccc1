package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// CatalogVersion names the shipped rule catalog. Bump it whenever a rule is
// added, removed or changes meaning; CatalogHash changes with any edit.
const CatalogVersion = "2026.12.130"

// Classes of rules.
const (
	ClassDiscardWork    = "discard-work"
	ClassDestroyFiles   = "destroy-files"
	ClassSecrets        = "secrets"
	ClassExfiltration   = "exfiltration"
	ClassRemoteCode     = "remote-code"
	ClassPrivilege      = "privilege"
	ClassOversight      = "oversight"
	ClassInfrastructure = "infrastructure"
	ClassDynamic        = "dynamic"
	ClassError          = "error"
	ClassCustom         = "custom" // operator rules from the configuration
)

// Severities, from most to least serious.
const (
	SevCritical = "critical"
	SevHigh     = "high"
	SevMedium   = "medium"
	SevLow      = "low"
)

// Rule is one entry of the catalog.
type Rule struct {
	ID          string  `json:"id"`
	Class       string  `json:"class"`
	Severity    string  `json:"severity"`
	Decision    Verdict `json:"-"`
	Reason      string  `json:"reason"`
	Alternative string  `json:"alternative"`
	// Catastrophic rules cannot be switched off by configuration.
	Catastrophic bool `json:"catastrophic"`
	// Prefix is set for operator rules: the command prefix they match.
	Prefix []string `json:"prefix,omitempty"`

	// Matches says in a few words what the rule fires on (the docs' table).
	Matches string `json:"-"`
	// Fire are tool calls on which the rule must fire, Pass look-alikes on
	// which it must not; TestRuleExamples runs them all, attended and
	// unattended. A Bash command is written as it is; another tool as
	// "Tool {json input}" (Read {"file_path":"..."}).
	Fire, Pass []string `json:"-"`
}

// MarshalJSON writes the decision as text.
func (r Rule) MarshalJSON() ([]byte, error) {
	type plain Rule
	return json.Marshal(struct {
		plain
		Decision string `json:"decision"`
	}{plain(r), r.Decision.String()})
}

// The shipped rules are declared next to their matching code, one family
// per file (git.go, rm.go, pathrules.go, ...), each with its examples, by
// rules(...). The catalog is every registered rule, ordered by class (as
// classOrder lists them), then by id.
var registered []Rule

// rules registers a family's rules; it is called from package-level var
// declarations, so every family is registered before any function runs.
func rules(rs ...Rule) bool {
	registered = append(registered, rs...)
	return true
}

// classOrder is the order of classes in the catalog (and its docs).
var classOrder = []string{ClassDiscardWork, ClassDestroyFiles, ClassSecrets, ClassExfiltration,
	ClassRemoteCode, ClassPrivilege, ClassOversight, ClassInfrastructure, ClassDynamic, ClassError}

// catalogRules is the shipped catalog in its stable order, built once.
// The hook builds it on every call (the catalog hash), so the order is
// found on a permutation with each rule's class rank looked up once:
// sorting the rules themselves moved 200-byte values and looked the class
// up twice per comparison.
var catalogRules = sync.OnceValue(buildCatalog)

func buildCatalog() []Rule {
	rank := make(map[string]int, len(classOrder))
	for i, c := range classOrder {
		rank[c] = i
	}
	ranks := make([]int, len(registered))
	perm := make([]int, len(registered))
	for i, r := range registered {
		k, ok := rank[r.Class]
		if !ok {
			panic("judge: rule " + r.ID + " has an unknown class " + r.Class)
		}
		ranks[i], perm[i] = k, i
	}
	slices.SortStableFunc(perm, func(a, b int) int {
		if ranks[a] != ranks[b] {
			return ranks[a] - ranks[b]
		}
		return strings.Compare(registered[a].ID, registered[b].ID)
	})
	out := make([]Rule, len(perm))
	for i, p := range perm {
		out[i] = registered[p]
	}
	return out
}

var ruleIndex = sync.OnceValue(func() map[string]int {
	cat := catalogRules()
	m := make(map[string]int, len(cat))
	for i, r := range cat {
		if _, dup := m[r.ID]; dup {
			panic("judge: duplicate rule id " + r.ID)
		}
		m[r.ID] = i
	}
	return m
})

// Rules returns the shipped catalog in its stable order (a copy).
func Rules() []Rule {
	return append([]Rule(nil), catalogRules()...)
}

// ruleByID returns the shipped rule with that id.
func ruleByID(id string) (Rule, bool) {
	i, ok := ruleIndex()[id]
	if !ok {
		return Rule{}, false
	}
	return catalogRules()[i], true
}

// ClassOf returns the class of a rule id ("" when unknown). Operator rules
// from the configuration are class "custom".
func ClassOf(ruleID string) string {
	if r, ok := ruleByID(ruleID); ok {
		return r.Class
	}
	return ""
}

// Classes lists the classes in catalog order.
func Classes() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range catalogRules() {
		if !seen[r.Class] {
			seen[r.Class] = true
			out = append(out, r.Class)
		}
	}
	return out
}

// CatalogHash is CatalogHashFor(nil): the shipped catalog without operator
// configuration.
func CatalogHash() string { return CatalogHashFor(nil) }

// CatalogHashFor is the sha256 (hex) of the canonical serialisation of the
// catalog (version and every rule as JSON, in order) followed by the
// effective configuration (Config.canonical). Every decision records it, so
// replay can tell which rule set decided.
func CatalogHashFor(cfg *Config) string {
	if cfg == nil || cfg.empty() {
		return shippedHash()
	}
	h := sha256.New()
	writeCatalog(h, catalogRules())
	h.Write([]byte("config\n"))
	h.Write(cfg.canonical())
	return hex.EncodeToString(h.Sum(nil))
}

// writeCatalog writes the catalog's canonical serialisation to h (the
// version, then each rule's JSON on a line) through one small buffer: the
// hook hashes it once per call and keeps no copy, so the ~40 KB are never
// held (a fresh buffer of that size cost page faults on every call).
func writeCatalog(h hash.Hash, rules []Rule) {
	var buf [4 << 10]byte
	b := append(buf[:0], "sentinel-catalog\n"+CatalogVersion+"\n"...)
	for _, r := range rules {
		b = append(appendRuleJSON(b, r), '\n')
		if len(b) >= len(buf)/2 {
			h.Write(b)
			b = buf[:0]
		}
	}
	h.Write(b)
}

// appendRuleJSON appends exactly what json.Marshal(r) gives (TestRuleJSON
// checks every rule), without reflection: encoding the catalog through
// encoding/json cost about 12% of a hook process's CPU, every call.
func appendRuleJSON(b []byte, r Rule) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, r.ID)
	b = append(b, `,"class":`...)
	b = appendJSONString(b, r.Class)
	b = append(b, `,"severity":`...)
	b = appendJSONString(b, r.Severity)
	b = append(b, `,"reason":`...)
	b = appendJSONString(b, r.Reason)
	b = append(b, `,"alternative":`...)
	b = appendJSONString(b, r.Alternative)
	b = append(b, `,"catastrophic":`...)
	b = strconv.AppendBool(b, r.Catastrophic)
	if len(r.Prefix) > 0 {
		b = append(b, `,"prefix":[`...)
		for i, p := range r.Prefix {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, p)
		}
		b = append(b, ']')
	}
	b = append(b, `,"decision":`...)
	b = appendJSONString(b, r.Decision.String())
	return append(b, '}')
}

// jsonPlain marks the bytes appendJSONString copies as they are.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' && c != 0xE2
	}
	return t
}()

// appendJSONString appends s as encoding/json writes it (HTML characters
// escaped); control characters, invalid UTF-8 and U+2028/U+2029 (whose
// UTF-8 starts with 0xE2) go through json.Marshal itself.
func appendJSONString(b []byte, s string) []byte {
	start := len(b)
	b = append(b, '"')
	last := 0 // s[last:i] is still to be copied
	i := plainPrefix(s)
	ascii := true // then s is valid UTF-8 without looking again
	for ; i < len(s); i++ {
		c := s[i]
		ascii = ascii && c < utf8.RuneSelf
		if jsonPlain[c] {
			continue
		}
		b = append(b, s[last:i]...)
		last = i + 1
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '<', '>', '&':
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
		default:
			j, _ := json.Marshal(s)
			return append(b[:start], j...)
		}
	}
	b = append(b, s[last:]...)
	if !ascii && !utf8.Valid(b[start:]) {
		j, _ := json.Marshal(s)
		return append(b[:start], j...)
	}
	return append(b, '"')
}

// plainPrefix is how many leading bytes of s, in whole words of 8, are
// printable ASCII with nothing encoding/json escapes: the catalog's text
// is almost all such, and the hook serialises it on every call.
func plainPrefix(s string) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	zero := func(x uint64) uint64 { return (x - ones) & ^x & high } // nonzero iff a byte of x is 0
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if x&high != 0 || (x-ones*0x20)&^x&high != 0 || // a byte >= 0x80, or < 0x20
			zero(x^(ones*'"'))|zero(x^(ones*'\\'))|zero(x^(ones*'<'))|zero(x^(ones*'>'))|zero(x^(ones*'&')) != 0 {
			break
		}
	}
	return i
}

// shippedHash is the hash of the shipped catalog without configuration.
var shippedHash = sync.OnceValue(func() string {
	h := sha256.New()
	writeCatalog(h, catalogRules())
	return hex.EncodeToString(h.Sum(nil))
})

// hitFor builds a hit from a rule, with detail.
func hitFor(r Rule, detail string) Hit {
	return Hit{
		RuleID:      r.ID,
		Class:       r.Class,
		Severity:    r.Severity,
		Verdict:     r.Decision,
		Decision:    r.Decision.String(),
		Reason:      r.Reason,
		Alternative: r.Alternative,
		Detail:      detail,
	}
}

// sevRank orders severities: a larger rank is more serious.
func sevRank(s string) int {
	switch s {
	case SevCritical:
		return 4
	case SevHigh:
		return 3
	case SevMedium:
		return 2
	case SevLow:
		return 1
	}
	return 0
}

// sortHits orders hits strictest first (verdict, then severity, so that
// the reason the model and the human see is the most severe rule's:
// unattended, rm -rf ~/x is told RM-HOME, not DOTFILE-WRITE), keeping the
// original order among equals, and removes exact duplicates (same rule and
// detail).
func sortHits(hs []Hit) []Hit {
	seen := make(map[string]bool, len(hs))
	out := hs[:0]
	for _, h := range hs {
		k := h.RuleID + "\x00" + h.Detail
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, h)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Verdict != out[j].Verdict {
			return out[i].Verdict > out[j].Verdict
		}
		return sevRank(out[i].Severity) > sevRank(out[j].Severity)
	})
	return out
}
