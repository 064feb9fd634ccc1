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
			return "s", "allow", wrote("/p/w.sh", judge.Allow) // the newer write wins
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
	if f, ok := m.Written("/p/z.sh"); !ok || f.Verdict != judge.Deny || f.Seq != 4 {
		t.Errorf("a denied write of stopped content: %+v %v, want it remembered (stricter only)", f, ok)
	}
	if f, ok := m.Written("/p/w.sh"); !ok || f.Verdict != judge.Allow || f.Seq != 6 {
		t.Errorf("w.sh: %+v %v, want the newest write (allow, #6)", f, ok)
	}
	if seq, ok := m.SecretRead(); !ok || seq != 2 {
		t.Errorf("secret read: %d %v", seq, ok)
	}
	if _, ok := m.UntrustedRead(); ok {
		t.Error("no call brought content from outside, yet the memory says one did")
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
	if late.Unavailable() == "" {
		t.Error("a memory out of time says it is available")
	}
	if m.Unavailable() != "" {
		t.Errorf("a fresh register is an empty memory, not an unavailable one: %q", m.Unavailable())
	}
}

// appendAll appends es to the register in dir, in order.
func appendAll(t *testing.T, dir string, es ...*register.Entry) {
	t.Helper()
	reg, err := register.Open(filepath.Join(dir, "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	for _, e := range es {
		if e.Rules == nil {
			e.Rules = []string{}
		}
		if err := reg.Append(e); err != nil {
			t.Fatal(err)
		}
	}
}

func decision(id, dec string, f *judge.Facts) *register.Entry {
	return &register.Entry{Kind: register.KindDecision, Tool: "Bash", Decision: dec, SessionID: "s", ToolUseID: id,
		Input: []byte(`{}`), Facts: Encode("s", f)}
}

func ran(id string) *register.Entry {
	return &register.Entry{Kind: register.KindOutcome, Label: register.LabelRan, SessionID: "s", ToolUseID: id}
}

// TestMemoryCountsWhatRan: an ask's facts count only once the harness
// recorded that it ran (PostToolUse); declined, they leave no trace.
func TestMemoryCountsWhatRan(t *testing.T) {
	secret := &judge.Facts{Secret: true}
	cases := []struct {
		name string
		es   []*register.Entry
		want bool
	}{
		{"secret read asked and declined", []*register.Entry{decision("t1", "ask", secret)}, false},
		{"secret read asked and approved", []*register.Entry{decision("t1", "ask", secret), ran("t1")}, true},
		{"secret read allowed", []*register.Entry{decision("t1", "allow", secret)}, true},
		{"secret read denied, even with an outcome", []*register.Entry{decision("t1", "deny", secret), ran("t1")}, false},
		{"an outcome before the decision is not its", []*register.Entry{ran("t1"), decision("t1", "ask", secret)}, false},
		{"another call's outcome", []*register.Entry{decision("t1", "ask", secret), ran("t2")}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			appendAll(t, dir, tc.es...)
			m := New(dir, "s", time.Now().Add(10*time.Second), time.Second)
			defer m.Close()
			if _, ok := m.SecretRead(); ok != tc.want {
				t.Errorf("secret read remembered %v, want %v", ok, tc.want)
			}
			if m.Unavailable() != "" {
				t.Errorf("unavailable: %s", m.Unavailable())
			}
			w := &judge.Facts{Written: []judge.WrittenFact{{Path: "/p/x.sh", Verdict: judge.Deny}}}
			var es []*register.Entry
			for _, e := range tc.es {
				c := *e
				if c.Facts != "" {
					c.Facts = Encode("s", w)
				}
				es = append(es, &c)
			}
			dir2 := t.TempDir()
			appendAll(t, dir2, es...)
			m2 := New(dir2, "s", time.Now().Add(10*time.Second), time.Second)
			defer m2.Close()
			// a written file's stopped content is remembered whether or not
			// the call ran (it may be there by another way): stricter only
			if f, ok := m2.Written("/p/x.sh"); !ok || f.Verdict != judge.Deny {
				t.Errorf("written file's stopped content remembered %v (%+v), want it remembered", ok, f)
			}
			// the same for content from outside (a WebFetch asked, then
			// declined, brought nothing in)
			es = es[:0]
			for _, e := range tc.es {
				c := *e
				if c.Facts != "" {
					c.Facts = Encode("s", &judge.Facts{Untrusted: true})
				}
				es = append(es, &c)
			}
			dir3 := t.TempDir()
			appendAll(t, dir3, es...)
			m3 := New(dir3, "s", time.Now().Add(10*time.Second), time.Second)
			defer m3.Close()
			if _, ok := m3.UntrustedRead(); ok != tc.want {
				t.Errorf("untrusted content remembered %v, want %v", ok, tc.want)
			}
			if _, ok := m3.SecretRead(); ok {
				t.Error("untrusted content read back as a secret read")
			}
		})
	}
}

// TestMemoryForgedJournal: a journal line (anyone can write one) whose
// facts say a file is harmless does not shadow the chain's fact; one that
// says it is harmful still counts.
func TestMemoryForgedJournal(t *testing.T) {
	for _, tc := range []struct {
		name    string
		journal judge.Verdict
		want    judge.Verdict
	}{{"forged allow", judge.Allow, judge.Ask}, {"journaled deny", judge.Deny, judge.Deny}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			appendAll(t, dir, decision("t1", "allow", wrote("/p/x.sh", judge.Ask)))
			if err := register.Journal(dir, decision("t2", "allow", wrote("/p/x.sh", tc.journal))); err != nil {
				t.Fatal(err)
			}
			appendAll(t, dir, decision("t3", "allow", nil)) // merges the line into the chain
			m := New(dir, "s", time.Now().Add(10*time.Second), time.Second)
			defer m.Close()
			f, ok := m.Written("/p/x.sh")
			if !ok || f.Verdict != tc.want {
				t.Errorf("x.sh: %+v %v, want %s", f, ok, tc.want)
			}
		})
	}
	// Written from the chain anew after the journaled line: the chain speaks.
	dir := t.TempDir()
	appendAll(t, dir, decision("t1", "allow", wrote("/p/x.sh", judge.Deny)))
	register.Journal(dir, decision("t2", "allow", wrote("/p/x.sh", judge.Deny)))
	appendAll(t, dir, decision("t3", "allow", wrote("/p/x.sh", judge.Allow)))
	m := New(dir, "s", time.Now().Add(10*time.Second), time.Second)
	defer m.Close()
	if f, ok := m.Written("/p/x.sh"); !ok || f.Verdict != judge.Allow {
		t.Errorf("rewritten after the journaled line: %+v %v", f, ok)
	}
}

// TestMemoryTampered: what an allowed one-liner can do to the register
// makes memory unavailable, never empty: the facts index dropped, a
// trigger added, journal lines left unmerged because the write lock is
// held.
func TestMemoryTampered(t *testing.T) {
	edits := map[string]func(t *testing.T, dir string){
		"facts index dropped": func(t *testing.T, dir string) { execSQL(t, dir, `DROP INDEX entries_session_facts`) },
		"facts index replaced by an empty one": func(t *testing.T, dir string) {
			execSQL(t, dir, `DROP INDEX entries_session_facts; CREATE INDEX entries_session_facts ON entries(session_id, seq) WHERE facts = 'none'`)
		},
		"tool_use_id index dropped": func(t *testing.T, dir string) { execSQL(t, dir, `DROP INDEX entries_tool_use_id`) },
		"a trigger added": func(t *testing.T, dir string) {
			execSQL(t, dir, `CREATE TRIGGER t AFTER INSERT ON entries BEGIN SELECT 1; END`)
		},
		"journal not merged (lock held)": func(t *testing.T, dir string) {
			if err := register.Journal(dir, decision("t9", "allow", wrote("/p/x.sh", judge.Deny))); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			appendAll(t, dir, decision("t1", "allow", wrote("/p/x.sh", judge.Deny)))
			edit(t, dir)
			m := New(dir, "s", time.Now().Add(10*time.Second), time.Second)
			defer m.Close()
			if _, ok := m.Written("/p/x.sh"); ok || m.Unavailable() == "" {
				t.Errorf("answered %v, unavailable %q", ok, m.Unavailable())
			}
			if _, ok := m.SecretRead(); ok {
				t.Error("a dead memory answered")
			}
		})
	}
}

func execSQL(t *testing.T, dir, q string) {
	t.Helper()
	reg, err := register.Open(filepath.Join(dir, "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if _, err := reg.DB().Exec(q); err != nil {
		t.Fatal(err)
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
	// a data file's verdict as a data store's input is kept and read back
	dir := t.TempDir()
	fill(t, dir, 1, func(int) (string, string, *judge.Facts) {
		return "s", "allow", &judge.Facts{Written: []judge.WrittenFact{{Path: "/p/drop.sql", Input: judge.Deny}}}
	})
	m := New(dir, "s", time.Now().Add(10*time.Second), time.Second)
	defer m.Close()
	if f, ok := m.Written("/p/drop.sql"); !ok || f.Input != judge.Deny || f.Verdict != judge.Allow {
		t.Errorf("drop.sql read back as %+v %v, want input deny", f, ok)
	}
}

// TestMemoryUnrunStricterOnly: the facts of a call that did not run count
// only when they are stricter: a denied rewrite with harmless content does
// not clear what an earlier write left, an asked and declined harmless
// write leaves nothing, a declined write of stopped content is kept.
func TestMemoryUnrunStricterOnly(t *testing.T) {
	dir := t.TempDir()
	fill(t, dir, 4, func(i int) (string, string, *judge.Facts) {
		switch i {
		case 0:
			return "s", "allow", wrote("/p/a.sh", judge.Deny)
		case 1:
			return "s", "deny", wrote("/p/a.sh", judge.Allow)
		case 2:
			return "s", "ask", wrote("/p/b.sh", judge.Allow)
		default:
			return "s", "ask", wrote("/p/c.sh", judge.Ask)
		}
	})
	m := New(dir, "s", time.Now().Add(10*time.Second), time.Second)
	defer m.Close()
	if f, ok := m.Written("/p/a.sh"); !ok || f.Verdict != judge.Deny || f.Seq != 1 {
		t.Errorf("a.sh: %+v %v, want the earlier write's deny (#1)", f, ok)
	}
	if f, ok := m.Written("/p/b.sh"); ok {
		t.Errorf("b.sh: a declined harmless write is remembered: %+v", f)
	}
	if f, ok := m.Written("/p/c.sh"); !ok || f.Verdict != judge.Ask {
		t.Errorf("c.sh: %+v %v, want the declined write's ask", f, ok)
	}
}
