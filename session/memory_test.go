package session

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

// fill appends entries to a real register in dir: gen says each one's
// session, decision and facts.
func fill(t *testing.T, dir string, n int, gen func(i int) (string, string, *judge.Facts)) {
	t.Helper()
	reg, err := register.Open(filepath.Join(dir, "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	for i := 0; i < n; i++ {
		sid, dec, f := gen(i)
		e := &register.Entry{Kind: register.KindDecision, Tool: "Write", Decision: dec, Rules: []string{},
			SessionID: sid, Input: []byte(`{}`), Facts: Encode(sid, f)}
		if err := reg.Append(e); err != nil {
			t.Fatal(err)
		}
	}
}

func wrote(p string, v judge.Verdict) *judge.Facts {
	return &judge.Facts{Written: []judge.WrittenFact{{Path: p, Verdict: v, Rules: []string{"R"}}}}
}

// The look-ups get a second here: these tests are about what the memory
// says; TestMemoryUnavailable is about running out of time.
func TestMemory(t *testing.T) {
	dir := t.TempDir()
	fill(t, dir, 8, func(i int) (string, string, *judge.Facts) {
		switch i {
		case 0:
			return "s", "allow", wrote("/p/x.sh", judge.Deny)
		case 1:
			return "s", "allow", &judge.Facts{Secret: true}
		case 2:
			return "other", "allow", wrote("/p/y.sh", judge.Deny)
		case 3:
			return "s", "deny", wrote("/p/z.sh", judge.Deny) // denied: it did not run
		case 4:
			return "s", "allow", wrote("/p/w.sh", judge.Deny)
		case 5:
			return "s", "ask", wrote("/p/w.sh", judge.Allow) // the newer write wins
		default:
			return "s", "allow", nil
		}
	})
	m := New(dir, "s", time.Now().Add(10*time.Second), time.Second)
	defer m.Close()
	if f, ok := m.Written("/p/x.sh"); !ok || f.Verdict != judge.Deny || f.Seq != 1 || f.Rules[0] != "R" {
		t.Errorf("x.sh: %+v %v", f, ok)
	}
	if f, ok := m.Written("/p/./x.sh"); !ok || f.Seq != 1 {
		t.Errorf("paths are compared cleaned: %+v %v", f, ok)
	}
	if _, ok := m.Written("/p/y.sh"); ok {
		t.Error("another session's write is remembered")
	}
	if _, ok := m.Written("/p/z.sh"); ok {
		t.Error("a denied write is remembered")
	}
	if f, ok := m.Written("/p/w.sh"); !ok || f.Verdict != judge.Allow || f.Seq != 6 {
		t.Errorf("w.sh: %+v %v, want the newest write (allow, #6)", f, ok)
	}
	if seq, ok := m.SecretRead(); !ok || seq != 2 {
		t.Errorf("secret read: %d %v", seq, ok)
	}
	if !m.Read() || m.Note() != "" {
		t.Errorf("read %v note %q", m.Read(), m.Note())
	}
	o := New(dir, "other", time.Now().Add(10*time.Second), time.Second)
	defer o.Close()
	if _, ok := o.SecretRead(); ok {
		t.Error("another session's secret read is remembered")
	}
}

// TestMemoryWindow: only the session's newest Window entries with facts
// are read, however many the register holds.
func TestMemoryWindow(t *testing.T) {
	dir := t.TempDir()
	fill(t, dir, Window+1, func(i int) (string, string, *judge.Facts) {
		return "s", "allow", wrote(fmt.Sprintf("/p/f%d.sh", i), judge.Deny)
	})
	m := New(dir, "s", time.Now().Add(10*time.Second), time.Second)
	defer m.Close()
	if _, ok := m.Written("/p/f0.sh"); ok {
		t.Error("the oldest entry, outside the window, is remembered")
	}
	if f, ok := m.Written("/p/f1.sh"); !ok || f.Seq != 2 {
		t.Errorf("the oldest entry in the window: %+v %v", f, ok)
	}
}

// TestMemoryUnavailable: no register, an unreadable one, or no time left:
// nothing is remembered, and the note says why (none for a fresh register).
func TestMemoryUnavailable(t *testing.T) {
	m := New(t.TempDir(), "s", time.Now().Add(10*time.Second), time.Second)
	if _, ok := m.Written("/p/x.sh"); ok || m.Note() != "" {
		t.Errorf("fresh register: note %q", m.Note())
	}
	dir := t.TempDir()
	fill(t, dir, 1, func(int) (string, string, *judge.Facts) { return "s", "allow", wrote("/p/x.sh", judge.Deny) })
	late := New(dir, "s", time.Now(), time.Second) // the deadline is now: no budget
	if _, ok := late.Written("/p/x.sh"); ok || !strings.Contains(late.Note(), "not read within") {
		t.Errorf("no budget: note %q", late.Note())
	}
	if _, ok := late.SecretRead(); ok {
		t.Error("a dead memory answered")
	}
}

func TestEncode(t *testing.T) {
	if Encode("s", nil) != "" || Encode("", wrote("/p/x", judge.Deny)) != "" {
		t.Error("nothing to keep must encode as empty")
	}
	e := Encode("s", &judge.Facts{Secret: true, Written: []judge.WrittenFact{{Path: "/home/u/secret-project/x.sh", Verdict: judge.Ask}}})
	if strings.Contains(e, "secret-project") || !strings.Contains(e, `"v":"ask"`) || !strings.Contains(e, secretNeedle) {
		t.Errorf("encoded %s", e)
	}
}
