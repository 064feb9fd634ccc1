package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/census"
	"github.com/sentinel-guard/sentinel/protocol"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
	"github.com/sentinel-guard/sentinel/seal/rekortest"
)

// fleetRegister writes a real register of n decisions (a mix of verdicts,
// attendance, rules, grades and outcomes that differs with n), seals it in
// the log with key (and, when protoSum is set, that protocol file), and
// exports a bundle with every field (no inputs).
func fleetRegister(t *testing.T, dir, name string, n int, key *ecdsa.PrivateKey, log *rekortest.Log, outcomes bool, protoSum string) (db, bundlePath string) {
	t.Helper()
	// Each machine's register in its own directory (its anchor beside it).
	os.MkdirAll(filepath.Join(dir, name), 0o755)
	db = filepath.Join(dir, name, "register.db")
	reg, err := register.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	base := time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC)
	verdicts := []string{"deny", "ask", "allow", "deny", "allow", "ask", "allow"}
	rules := [][]string{{"git-push-force"}, {"git-reset-hard"}, {}, {"rm-home"}, {}, {"curl-pipe-sh"}, {}}
	ran := false
	for i := range n {
		d := verdicts[(i+n)%len(verdicts)]
		e := register.Entry{Kind: register.KindDecision, Tool: "Bash", Decision: d, Rules: rules[(i+n)%len(rules)],
			Attended: (i+n)%3 != 0, Time: base.Add(time.Duration(i*(n+1)) * time.Hour),
			ToolUseID: fmt.Sprintf("toolu_%s_%d", name, i), SessionID: "sess-" + name,
			Input: fmt.Appendf(nil, `{"command":"echo %s %d"}`, name, i)}
		if err := reg.Append(&e); err != nil {
			t.Fatal(err)
		}
		if d != "allow" && i%2 == 0 {
			label := []string{"true", "false", "unclear"}[i%3]
			if err := reg.Append(&register.Entry{Kind: register.KindGrade, Ref: e.Seq, Label: label, Time: e.Time.Add(time.Minute)}); err != nil {
				t.Fatal(err)
			}
		}
		if outcomes && d == "deny" && (i%4 == 3 || !ran) {
			ran = true
			if err := reg.Append(&register.Entry{Kind: register.KindOutcome, ToolUseID: e.ToolUseID, Label: "ran", Time: e.Time.Add(time.Second)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := seal.SealRegister(context.Background(), reg.DB(), seal.RegisterSource(reg), seal.Options{RekorURL: log.URL, Key: key}); err != nil {
		t.Fatal(err)
	}
	if protoSum != "" {
		if _, err := seal.SealArtifact(context.Background(), reg.DB(), seal.Options{RekorURL: log.URL, Key: key}, protocolArtifactKind, protoSum); err != nil {
			t.Fatal(err)
		}
	}
	pub, _ := seal.PublicKeyPEM(&key.PublicKey)
	none, _ := bundle.ParseSelection("none")
	all, _ := bundle.ParseSelection("all")
	var buf bytes.Buffer
	if _, err := bundle.Write(&buf, reg, pub, bundle.Disclosure{Input: none, Fields: all}, time.Now()); err != nil {
		t.Fatal(err)
	}
	bundlePath = filepath.Join(dir, name+".bundle.json")
	os.WriteFile(bundlePath, buf.Bytes(), 0o644)
	return db, bundlePath
}

func readReport(t *testing.T, path string) *census.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := census.Validate(b); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var r census.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// sumRegister adds register counts (grades and by-class too).
func sumRegister(a, b *census.RegisterCounts) *census.RegisterCounts {
	s := &census.RegisterCounts{Decisions: a.Decisions + b.Decisions, Allow: a.Allow + b.Allow, Errors: a.Errors + b.Errors,
		Ask:             census.Attendance{Attended: a.Ask.Attended + b.Ask.Attended, Unattended: a.Ask.Unattended + b.Ask.Unattended},
		Deny:            census.Attendance{Attended: a.Deny.Attended + b.Deny.Attended, Unattended: a.Deny.Unattended + b.Deny.Unattended},
		ByClass:         map[string]*census.ClassFlags{},
		Grades:          &census.Grades{},
		SelfConcordance: census.SelfConcordance{Definition: a.SelfConcordance.Definition}}
	for _, r := range []*census.RegisterCounts{a, b} {
		for k, v := range r.ByClass {
			c := s.ByClass[k]
			if c == nil {
				c = &census.ClassFlags{}
				s.ByClass[k] = c
			}
			c.Ask.Attended += v.Ask.Attended
			c.Ask.Unattended += v.Ask.Unattended
			c.Deny.Attended += v.Deny.Attended
			c.Deny.Unattended += v.Deny.Unattended
		}
		if r.Grades != nil {
			s.Grades.True += r.Grades.True
			s.Grades.False += r.Grades.False
			s.Grades.Unclear += r.Grades.Unclear
		}
	}
	if n := s.Grades.True + s.Grades.False; n > 0 {
		v := float64(s.Grades.True) / float64(n)
		s.SelfConcordance.Value = &v
	}
	return s
}

func sumCell(a, b *int64) *int64 {
	if a == nil || b == nil {
		return nil
	}
	v := *a + *b
	return &v
}

// TestCensusFleet: three registers sealed by two keys into a Rekor log;
// the census over the three bundles is, per source and in total, the sum
// of the three single censuses; over the three registers the same; a
// bundle that does not verify, or sealed by a key not pinned, is refused.
func TestCensusFleet(t *testing.T) {
	proto, err := filepath.Abs("../../testdata/protocol/fleet.toml")
	if err != nil {
		t.Fatal(err)
	}
	protoSum, err := fileSHA256(proto)
	if err != nil {
		t.Fatal(err)
	}
	dir := isolate(t)
	log := rekortest.New()
	t.Cleanup(log.Close)
	rk := filepath.Join(dir, "rekor.pub")
	os.WriteFile(rk, log.PublicKeyPEM(), 0o644)
	keyA, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	keyB, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pubs := map[*ecdsa.PrivateKey]string{}
	for name, k := range map[string]*ecdsa.PrivateKey{"a": keyA, "b": keyB} {
		pem, _ := seal.PublicKeyPEM(&k.PublicKey)
		p := filepath.Join(dir, "operator-"+name+".pub")
		os.WriteFile(p, pem, 0o644)
		pubs[k] = p
	}
	fp := func(k *ecdsa.PrivateKey) string { return "@" + seal.Fingerprint(&k.PublicKey) }
	var dbs, bundles, pinnedDBs, pinned []string // pinned: PATH@SHA256:<hex>, each source's own key
	for _, src := range []struct {
		name     string
		n        int
		key      *ecdsa.PrivateKey
		protocol string // only ci-box holds the protocol file's seal
	}{{"laptop", 9, keyA, ""}, {"ci-box", 14, keyA, protoSum}, {"desk", 6, keyB, ""}} {
		db, b := fleetRegister(t, dir, src.name, src.n, src.key, log, true, src.protocol)
		dbs, bundles = append(dbs, db), append(bundles, b)
		pinnedDBs, pinned = append(pinnedDBs, db+fp(src.key)), append(pinned, b+fp(src.key))
	}
	pin := []string{"--rekor-key", rk}
	census1 := func(out string, args ...string) *census.Report {
		t.Helper()
		r := runCLI(append(append([]string{"census", "--out", out}, args...), pin...)...)
		if r.exit != 0 {
			t.Fatalf("census %v: exit %d\n%s\n%s", args, r.exit, r.stdout, r.stderr)
		}
		return readReport(t, out)
	}
	var singles []*census.Report
	for i, b := range pinned {
		singles = append(singles, census1(fmt.Sprintf("one-%d.json", i), "--bundle", b))
	}
	fleet := census1("fleet.json", "--bundle", pinned[0], "--bundle", pinned[1], "--bundle", pinned[2], "--html", "fleet.html")
	fl := fleet.Fleet
	if fl == nil || len(fl.Sources) != 3 || fl.Keys != 2 {
		t.Fatalf("fleet = %+v", fl)
	}
	total := singles[0].Register
	for i, s := range singles {
		row := fl.Sources[i]
		if !reflect.DeepEqual(row.Register, s.Register) {
			t.Errorf("source %d: row %+v, single census %+v", i, row.Register, s.Register)
		}
		if !reflect.DeepEqual(row.Outcomes, s.Outcomes) {
			t.Errorf("source %d: outcomes %+v, single %+v", i, row.Outcomes, s.Outcomes)
		}
		if s.Fleet == nil || s.Fleet.Sources[0].Source != row.Source || row.KeyFrom != "pinned" || row.Sealed != row.Entries || row.Unsealed != 0 {
			t.Errorf("source %d: %+v", i, row)
		}
		if i > 0 {
			total = sumRegister(total, s.Register)
		}
	}
	if fl.Sources[0].KeyFingerprint != fl.Sources[1].KeyFingerprint || fl.Sources[0].KeyFingerprint == fl.Sources[2].KeyFingerprint {
		t.Errorf("key fingerprints: %+v", fl.Sources)
	}
	if !reflect.DeepEqual(fleet.Register, total) {
		t.Errorf("fleet total %+v\nwant the sum %+v", fleet.Register, total)
	}
	oa, ob, oc := singles[0].Outcomes, singles[1].Outcomes, singles[2].Outcomes
	if h := sumCell(sumCell(oa.Denies.Held, ob.Denies.Held), oc.Denies.Held); h == nil || !reflect.DeepEqual(fleet.Outcomes.Denies.Held, h) ||
		!reflect.DeepEqual(fleet.Outcomes.Denies.Breached, sumCell(sumCell(oa.Denies.Breached, ob.Denies.Breached), oc.Denies.Breached)) ||
		!reflect.DeepEqual(fleet.Outcomes.Asks.Total, sumCell(sumCell(oa.Asks.Total, ob.Asks.Total), oc.Asks.Total)) {
		t.Errorf("fleet outcomes %+v, singles %+v %+v %+v", fleet.Outcomes, oa, ob, oc)
	}
	if fleet.Register.Deny.Attended+fleet.Register.Deny.Unattended == 0 || fleet.Register.Grades == nil || *fleet.Outcomes.Denies.Breached == 0 {
		t.Errorf("the fleet must hold denies, grades and a breach to be a test: %+v", fleet.Register)
	}
	// No host name, path or register name is written.
	for _, f := range []string{"fleet.json", "fleet.html"} {
		raw, _ := os.ReadFile(f)
		for _, leak := range []string{"laptop", "ci-box", "desk", dir, "sess-", "toolu_"} {
			if bytes.Contains(raw, []byte(leak)) {
				t.Errorf("%s carries %q", f, leak)
			}
		}
		if !bytes.Contains(raw, []byte(fl.Sources[2].Source)) || !bytes.Contains(raw, []byte(fl.Sources[2].KeyFingerprint)) {
			t.Errorf("%s does not name the sources by id and key", f)
		}
	}

	// A source without outcome entries cannot say what its denies became:
	// the total's cells are null, never the other sources' sum.
	_, bare := fleetRegister(t, dir, "bare", 8, keyB, log, false, "")
	if r := census1("bare.json", "--bundle", pinned[0], "--bundle", bare+fp(keyB)); r.Outcomes.Denies.Held != nil || r.Outcomes.Denies.Breached != nil ||
		r.Register.Deny.Attended+r.Register.Deny.Unattended == 0 {
		t.Errorf("with a source that cannot measure outcomes: %+v", r.Outcomes.Denies)
	}

	// The registers themselves: the same census.
	regs := census1("regs.json", "--register", pinnedDBs[0], "--register", pinnedDBs[1], "--register", pinnedDBs[2])
	if !reflect.DeepEqual(regs.Register, fleet.Register) || !reflect.DeepEqual(regs.Outcomes, fleet.Outcomes) {
		t.Errorf("over registers %+v, over bundles %+v", regs.Register, fleet.Register)
	}
	for i := range 3 {
		if regs.Fleet.Sources[i].Source != fl.Sources[i].Source {
			t.Errorf("source %d: the register and its bundle have different ids", i)
		}
	}

	// Refused: a bundle changed after it was sealed; a key not pinned; the
	// same source twice.
	b, _ := os.ReadFile(bundles[1])
	forged := bytes.Replace(b, []byte(`"decision":"deny"`), []byte(`"decision":"allow"`), 1)
	if bytes.Equal(forged, b) {
		t.Fatal("no deny to forge in the bundle")
	}
	os.WriteFile("forged.json", forged, 0o644)
	for name, args := range map[string][]string{
		"forged":          append([]string{"census", "--out", "x.json", "--bundle", pinned[0], "--bundle", "forged.json"}, pin...),
		"another key":     {"census", "--out", "x.json", "--rekor-key", rk, "--operator-key", pubs[keyA], "--bundle", bundles[0], "--bundle", bundles[2]},
		"another key, db": {"census", "--out", "x.json", "--rekor-key", rk, "--register", dbs[0] + fp(keyB), "--register", pinnedDBs[2]},
		"twice":           append([]string{"census", "--out", "x.json", "--bundle", pinned[0], "--register", pinnedDBs[0]}, pin...),
		"other log":       {"census", "--out", "x.json", "--bundle", pinned[0], "--bundle", pinned[2]},
	} {
		r := runCLI(args...)
		if r.exit == 0 {
			t.Errorf("%s: the census was written", name)
		}
		if _, err := os.Stat("x.json"); err == nil {
			t.Errorf("%s: x.json was written", name)
		}
		t.Logf("%s: exit %d: %s", name, r.exit, strings.TrimSpace(r.stderr))
	}
	if r := runCLI(append([]string{"census", "--out", "x.json", "--bundle", "forged.json"}, pin...)...); r.exit != exitFailure || !strings.Contains(r.stderr, "does not verify") {
		t.Errorf("forged: exit %d, %s", r.exit, r.stderr)
	}
	// Not pinned: counted against each source's own key, written, reported,
	// and the exit says so.
	r := runCLI(append([]string{"census", "--out", "loose.json", "--bundle", bundles[0], "--bundle", pinned[2]}, pin...)...)
	if r.exit != exitNotPinned || !strings.Contains(r.stderr, "NOT PINNED") {
		t.Errorf("unpinned: exit %d, %s", r.exit, r.stderr)
	}
	if loose := readReport(t, "loose.json"); loose.Fleet.Sources[0].KeyFrom != "bundle" || loose.Fleet.Sources[1].KeyFrom != "pinned" ||
		!reflect.DeepEqual(loose.Fleet.Sources[0].Register, singles[0].Register) {
		t.Errorf("unpinned rows: %+v", loose.Fleet.Sources)
	}

	checkFleetReading(t, proto, pin, fleet, pinned, pinnedDBs, bundles)
}

// fleetReading is what TestCensusFleet reads of protocol check --json.
type fleetReading struct {
	Results []struct {
		ID            string `json:"id"`
		Status        string `json:"status"`
		Preregistered bool   `json:"preregistered"`
		Measured      struct {
			Value  *float64 `json:"value"`
			Reason string   `json:"reason"`
		} `json:"measured"`
	} `json:"results"`
	Fleet *struct {
		Sources []struct {
			Source  string `json:"source"`
			KeyFrom string `json:"key_from"`
		} `json:"sources"`
		Keys int `json:"keys"`
	} `json:"fleet"`
	Held             int `json:"held"`
	NotMeasurable    int `json:"not_measurable"`
	NotPreregistered int `json:"not_preregistered"`
}

func (r *fleetReading) result(id string) (status string, value *float64, reason string, prereg bool) {
	for _, x := range r.Results {
		if x.ID == id {
			return x.Status, x.Measured.Value, x.Measured.Reason, x.Preregistered
		}
	}
	return "", nil, "", false
}

// checkFleetReading: protocol check over the fleet of TestCensusFleet reads
// the same verified sources: each register-side prediction is measured on
// the fleet's totals (the census's), one that any source alone cannot
// measure is not_measurable, the file's seal is found in the source that
// holds it, and a forged, doubled or unpinned source is refused as census
// refuses it.
func checkFleetReading(t *testing.T, proto string, pin []string, fleet *census.Report, pinned, pinnedDBs, bundles []string) {
	t.Helper()
	check := func(want int, args ...string) *fleetReading {
		t.Helper()
		r := runCLI(append(append([]string{"protocol", "check", proto, "--at", "today", "--json"}, args...), pin...)...)
		if r.exit != want {
			t.Fatalf("protocol check %v: exit %d, want %d\n%s\n%s", args, r.exit, want, r.stdout, r.stderr)
		}
		var rd fleetReading
		if err := json.Unmarshal([]byte(r.stdout), &rd); err != nil {
			t.Fatalf("protocol check %v: %v\n%s", args, err, r.stdout)
		}
		return &rd
	}
	all := check(0, "--bundle", pinned[0], "--bundle", pinned[1], "--bundle", pinned[2])
	if all.Fleet == nil || len(all.Fleet.Sources) != 3 || all.Fleet.Keys != 2 {
		t.Fatalf("fleet = %+v", all.Fleet)
	}
	for i, s := range all.Fleet.Sources {
		if s.Source != fleet.Fleet.Sources[i].Source || s.KeyFrom != "pinned" {
			t.Errorf("source %d: %+v, census %+v", i, s, fleet.Fleet.Sources[i])
		}
	}
	reg := fleet.Register
	flags := reg.Ask.Attended + reg.Ask.Unattended + reg.Deny.Attended + reg.Deny.Unattended
	want := map[string]float64{
		"concordance":      *reg.SelfConcordance.Value,
		"flag-rate":        100 * float64(flags) / float64(reg.Decisions),
		"unattended-flags": float64(reg.Ask.Unattended+reg.Deny.Unattended) / float64(flags),
	}
	for id, w := range want {
		status, v, reason, prereg := all.result(id)
		if status != protocol.Held || v == nil || math.Abs(*v-w) > 1e-9 || !prereg {
			t.Errorf("%s: %s %v (%s), want held at the fleet total %v, pre-registered (%v)", id, status, v, reason, w, prereg)
		}
	}
	if status, v, reason, _ := all.result("harness"); status != protocol.NotMeasurable || v != nil || !strings.Contains(reason, "over a fleet") {
		t.Errorf("harness over a fleet: %s %v %q", status, v, reason)
	}
	// unattended_share_of_true_denials: measurable on ci-box alone, not on
	// a source without a deny graded true; then not over the fleet either.
	var cannot []string
	for i, b := range pinned {
		exit := exitFailure // held, but not pre-registered: only ci-box holds the seal
		if i == 1 {
			exit = 0
		}
		status, v, _, _ := check(exit, "--bundle", b).result("unattended-true-denials")
		if status == protocol.NotMeasurable {
			cannot = append(cannot, all.Fleet.Sources[i].Source)
		} else if v == nil {
			t.Errorf("source %d: %s without a value", i, status)
		}
	}
	if len(cannot) == 0 || len(cannot) == len(pinned) {
		t.Fatalf("the fixture must have sources that can and cannot measure true denials: %v cannot", cannot)
	}
	if status, v, reason, _ := all.result("unattended-true-denials"); status != protocol.NotMeasurable || v != nil || !strings.Contains(reason, "source "+cannot[0]+" cannot measure it") {
		t.Errorf("true denials over a fleet with %v unable: %s %v %q", cannot, status, v, reason)
	}
	if all.Held != 3 || all.NotMeasurable != 2 {
		t.Errorf("held %d, not measurable %d", all.Held, all.NotMeasurable)
	}
	// The registers themselves read the same.
	regs := check(0, "--register", pinnedDBs[0], "--register", pinnedDBs[1], "--register", pinnedDBs[2])
	if !reflect.DeepEqual(regs.Results, all.Results) {
		t.Errorf("over registers %+v\nover bundles %+v", regs.Results, all.Results)
	}
	// Without ci-box no source holds the file's seal: nothing held.
	if r := check(exitFailure, "--bundle", pinned[0], "--bundle", pinned[2]); r.Held != 0 || r.NotPreregistered == 0 {
		t.Errorf("without the sealed source: held %d, not pre-registered %d", r.Held, r.NotPreregistered)
	}

	// Refused as census refuses: a forged source, the same source twice, a
	// key other than the pinned; a source held only against its own key is
	// read, reported, and exits 6.
	for name, c := range map[string]struct {
		exit int
		why  string
		args []string
	}{
		"forged":      {exitFailure, "forged.json does not verify, so nothing of it is read", []string{"--bundle", pinned[0], "--bundle", "forged.json"}},
		"twice":       {exitUsage, "the same register is given twice", []string{"--bundle", pinned[1], "--register", pinnedDBs[1]}},
		"another key": {exitFailure, "does not verify", []string{"--bundle", pinned[0], "--bundle", bundles[2] + "@" + seal.Fingerprint(mustKey(t, bundles[0]))}},
		"stops":       {exitUsage, "no --stops or --witness", []string{"--bundle", pinned[0], "--bundle", pinned[2], "--stops", "fleet.json"}},
	} {
		r := runCLI(append(append([]string{"protocol", "check", proto, "--at", "today"}, c.args...), pin...)...)
		t.Logf("protocol check, %s: exit %d: %s", name, r.exit, strings.TrimSpace(r.stderr))
		if r.exit != c.exit || !strings.Contains(r.stderr, c.why) || strings.Contains(r.stdout, "held") {
			t.Errorf("%s: exit %d (want %d), stderr %q, stdout %q", name, r.exit, c.exit, r.stderr, r.stdout)
		}
	}
	r := runCLI(append([]string{"protocol", "check", proto, "--at", "today", "--bundle", bundles[0], "--bundle", pinned[1]}, pin...)...)
	if r.exit != exitNotPinned || !strings.Contains(r.stderr, "NOT PINNED") || !strings.Contains(r.stdout, "held 3") {
		t.Errorf("unpinned: exit %d\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	t.Logf("unpinned fleet reading (exit %d):\n%s%s", r.exit, r.stdout, r.stderr)
}

// mustKey is the operator key a bundle names.
func mustKey(t *testing.T, path string) *ecdsa.PublicKey {
	t.Helper()
	b, err := bundle.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	k, err := seal.ParsePublicKey([]byte(b.OperatorKey))
	if err != nil {
		t.Fatal(err)
	}
	return k
}
