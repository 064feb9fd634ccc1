package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

const (
	// Window is how many of the session's newest entries with facts are read.
	Window = 256
	// Budget is the most the look-ups of one call may take together.
	Budget = 250 * time.Millisecond
)

// stored is Facts as the entry keeps them.
type stored struct {
	W []storedWrite `json:"w,omitempty"`
	S bool          `json:"s,omitempty"`
	// U: the call brought content from outside (judge.Facts.Untrusted).
	U bool `json:"u,omitempty"`
	// K and T are an outcome entry's: the prints of what a secret read
	// returned (judge.SecretPrint: digests, never the text) and their salt.
	K []string `json:"k,omitempty"`
	T string   `json:"t,omitempty"`
}

// printNeedle is what an outcome entry's facts hold when they keep prints.
const printNeedle = `"k":[`

// EncodePrints is the Facts field of the outcome entry of a call that
// read a secret: the prints of what it returned ("" for none).
func EncodePrints(p *judge.SecretPrint) string {
	if p == nil || len(p.Prints) == 0 {
		return ""
	}
	b, err := json.Marshal(stored{K: p.Prints, T: p.Salt})
	if err != nil {
		return ""
	}
	return string(b)
}

// printsIn are the prints among rows (newest first). An outcome entry says
// its call ran; the post hook keeps prints only for a call that read a
// secret.
func printsIn(rows []register.SessionFact) []judge.SecretPrint {
	var out []judge.SecretPrint
	for _, e := range rows {
		var s stored
		if json.Unmarshal([]byte(e.Facts), &s) == nil && len(s.K) > 0 && s.T != "" {
			out = append(out, judge.SecretPrint{Seq: e.Seq, Salt: s.T, Prints: s.K})
		}
	}
	return out
}

type storedWrite struct {
	P string   `json:"p"`           // pathKey
	V string   `json:"v"`           // the verdict as text
	I string   `json:"i,omitempty"` // as a data store's input, when not allow
	R []string `json:"r,omitempty"`
}

// secretNeedle is what an entry's facts hold when its call read a secret.
const secretNeedle = `"s":true`

// pathKey is what an entry keeps of a written file's path: a digest keyed
// by the session, so that an entry published in a bundle does not name
// the project's files, and the same path in another session does not match.
func pathKey(sessionID, p string) string {
	h := sha256.New()
	h.Write([]byte("sentinel/session/path\n"))
	h.Write([]byte(sessionID))
	h.Write([]byte{0})
	h.Write([]byte(path.Clean(p)))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Encode is the Facts field of an entry for facts f of a call in session
// sessionID ("" when there is nothing to keep).
func Encode(sessionID string, f *judge.Facts) string {
	if f.Empty() || sessionID == "" {
		return ""
	}
	s := stored{S: f.Secret, U: f.Untrusted}
	for _, w := range f.Written {
		sw := storedWrite{P: pathKey(sessionID, w.Path), V: w.Verdict.String(), R: w.Rules}
		if w.Input > judge.Allow {
			sw.I = w.Input.String()
		}
		s.W = append(s.W, sw)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return ""
	}
	return string(b)
}

// counts reports whether an entry's facts are part of the session: the
// call is known to have run. An allow ran (as far as sentinel can know);
// an ask ran only when the harness recorded it (PostToolUse: an outcome
// entry for its tool_use_id after it); an ask declined at the prompt or
// rejected headless left no outcome, and a deny never ran.
func counts(f register.SessionFact) bool {
	return f.Decision == "allow" || (f.Decision != "deny" && f.Ran)
}

// writtenIn is the session's fact about the file with key among rows
// (newest first). The newest fact of the chain's own (not journaled)
// entries that ran speaks; journaled facts newer than it can only make it
// stricter, so a forged journal line cannot shadow the real fact. So can
// the facts of calls that did not run (denied, or asked and declined):
// content the agent tried to put in a file that would be stopped may be
// there by another way (a retry, another tool), and the later call that
// runs the file is judged as if it were; a harmless fact of such a call
// says nothing.
func writtenIn(rows []register.SessionFact, key, p string) (judge.WrittenFact, bool) {
	var out judge.WrittenFact
	found := false
	for _, e := range rows {
		ran := counts(e)
		if !ran && !strings.Contains(e.Facts, `"v":"ask"`) && !strings.Contains(e.Facts, `"v":"deny"`) &&
			!strings.Contains(e.Facts, `"i":"`) {
			continue // nothing stricter to say
		}
		var s stored
		if json.Unmarshal([]byte(e.Facts), &s) != nil {
			continue // not ours to read
		}
		for k := len(s.W) - 1; k >= 0; k-- {
			w := s.W[k]
			if w.P != key {
				continue
			}
			v, ok := judge.ParseVerdict(w.V)
			if !ok {
				v = judge.Ask // a fact we cannot read is not a pass
			}
			in := judge.Allow
			if w.I != "" {
				if in, ok = judge.ParseVerdict(w.I); !ok {
					in = judge.Ask
				}
			}
			if !ran && v == judge.Allow && in == judge.Allow {
				break // a harmless fact of a call that did not run: not this file's state
			}
			if !found || v > out.Verdict || in > out.Input {
				out = judge.WrittenFact{Path: p, Verdict: max(v, out.Verdict), Input: max(in, out.Input), Rules: w.R, Seq: e.Seq}
			}
			found = true
			break
		}
		if found && ran && !e.Journaled {
			return out, true
		}
	}
	return out, found
}

// untrustedNeedle is what an entry's facts hold when its call brought
// content from outside.
const untrustedNeedle = `"u":true`

// untrustedIn is the newest entry among rows (newest first) whose call
// brought content from outside and ran.
func untrustedIn(rows []register.SessionFact) (int64, bool) {
	return newestIn(rows, func(s stored) bool { return s.U })
}

// secretIn is the newest entry among rows (newest first) whose call read
// a secret and ran.
func secretIn(rows []register.SessionFact) (int64, bool) {
	return newestIn(rows, func(s stored) bool { return s.S })
}

// newestIn is the newest entry among rows (newest first) that ran and
// whose facts have the flag.
func newestIn(rows []register.SessionFact, flag func(stored) bool) (int64, bool) {
	for _, e := range rows {
		var s stored
		if counts(e) && json.Unmarshal([]byte(e.Facts), &s) == nil && flag(s) {
			return e.Seq, true
		}
	}
	return 0, false
}

// Memory is judge.Memory over the register. The register is opened
// read-only on the first question, its schema and journal checked; every
// question is one bounded query (the window, the needle tested by SQLite),
// and all of them together stay within the budget. After a question that
// did not finish in time, or failed, the memory answers nothing more and
// says why (Unavailable): a memory that cannot answer is not an empty one.
type Memory struct {
	dbPath    string
	sessionID string
	until     time.Time // the budget's end, set by the first question
	budget    time.Duration

	mu      sync.Mutex
	reg     *register.Register
	dead    bool
	note    string
	unavail string
	read    bool
}

// New is the memory of session sessionID in the register in stateDir; the
// look-ups may take at most budget together (Budget when 0) and never run
// past a quarter of the time left before deadline.
func New(stateDir, sessionID string, deadline time.Time, budget time.Duration) *Memory {
	b := budget
	if b <= 0 {
		b = Budget
	}
	if left := time.Until(deadline) / 4; left < b {
		b = left
	}
	return &Memory{dbPath: filepath.Join(stateDir, "register.db"), sessionID: sessionID, budget: b}
}

// Note says why the memory was not used ("" when it was read or never
// needed), for the entry's reason.
func (m *Memory) Note() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.note
}

// Unavailable says why the memory cannot answer ("" when it can).
func (m *Memory) Unavailable() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.unavail
}

// Read reports whether the register was read (the call needed memory).
func (m *Memory) Read() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.read
}

// fail makes the memory unavailable for the rest of the call.
func (m *Memory) fail(why string) {
	m.dead, m.unavail = true, why
	m.note = "session memory unavailable (" + why + ")"
}

// ask returns the session's entries whose facts contain needle, newest
// first, or nothing when the memory cannot answer in time.
func (m *Memory) ask(needle string) []register.SessionFact {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dead || m.sessionID == "" {
		return nil
	}
	if m.until.IsZero() {
		m.until = time.Now().Add(m.budget)
	}
	left := time.Until(m.until)
	if left <= 0 {
		m.fail(fmt.Sprintf("not read within %s", m.budget))
		return nil
	}
	type result struct {
		reg *register.Register
		es  []register.SessionFact
		err error
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithTimeout(context.Background(), left)
	reg := m.reg
	go func() {
		defer cancel()
		var err error
		if reg == nil {
			if reg, err = openChecked(ctx, m.dbPath); err != nil {
				done <- result{err: err}
				return
			}
		}
		es, err := reg.SessionFacts(ctx, m.sessionID, Window, needle)
		done <- result{reg, es, err}
	}()
	timer := time.NewTimer(left)
	defer timer.Stop()
	select {
	case r := <-done:
		m.reg = r.reg
		switch {
		case errors.Is(r.err, register.ErrNotExist):
			m.dead = true // a fresh register: nothing earlier to remember
		case r.err != nil:
			m.fail(r.err.Error())
		default:
			m.read = true
			return r.es
		}
	case <-timer.C:
		m.fail(fmt.Sprintf("not read within %s", m.budget))
	}
	return nil
}

// openChecked opens the register read-only for the memory and checks what
// an allowed one-liner could have done to it: a schema the migrations did
// not create (the facts index dropped, a trigger added), or journal lines
// not merged into the chain yet (the register's write lock held, so the
// session's newest facts are not in it).
func openChecked(ctx context.Context, dbPath string) (*register.Register, error) {
	reg, err := register.OpenReadOnly(dbPath)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*register.Register, error) {
		reg.Close()
		return nil, err
	}
	if p, err := reg.SchemaProblem(ctx); err != nil {
		return fail(fmt.Errorf("the register's schema could not be read: %w", err))
	} else if p != "" {
		return fail(errors.New(p))
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(dbPath), register.JournalFile)); err == nil {
		n, err := reg.JournalPending()
		if err != nil {
			return fail(fmt.Errorf("the fallback journal could not be read: %w", err))
		}
		if n > 0 {
			return fail(fmt.Errorf("%d fallback-journal lines are not merged into the register yet (its write lock was held)", n))
		}
	}
	return reg, nil
}

// Close closes the register if a question opened it.
func (m *Memory) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.reg != nil {
		m.reg.Close()
	}
	m.reg = nil
}

// Written is the session's fact about the file at p.
func (m *Memory) Written(p string) (judge.WrittenFact, bool) {
	key := pathKey(m.sessionID, p)
	return writtenIn(m.ask(key), key, p)
}

// SecretRead reports the newest call of the session that read a secret.
func (m *Memory) SecretRead() (int64, bool) {
	return secretIn(m.ask(secretNeedle))
}

// UntrustedRead reports the newest call of the session that brought
// content from outside (WebFetch, WebSearch, an MCP tool).
func (m *Memory) UntrustedRead() (int64, bool) { return untrustedIn(m.ask(untrustedNeedle)) }

// SecretPrints are the prints of what the session's secret reads returned.
func (m *Memory) SecretPrints() []judge.SecretPrint { return printsIn(m.ask(printNeedle)) }
