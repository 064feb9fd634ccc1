package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

const (
	// Window is how many of the session's newest entries with facts are read.
	Window = 256
	// Budget is the most the look-ups of one call may take together.
	Budget = 20 * time.Millisecond
)

// stored is Facts as the entry keeps them.
type stored struct {
	W []storedWrite `json:"w,omitempty"`
	S bool          `json:"s,omitempty"`
}

type storedWrite struct {
	P string   `json:"p"` // pathKey
	V string   `json:"v"` // the verdict as text
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
	s := stored{S: f.Secret}
	for _, w := range f.Written {
		s.W = append(s.W, storedWrite{P: pathKey(sessionID, w.Path), V: w.Verdict.String(), R: w.Rules})
	}
	b, err := json.Marshal(s)
	if err != nil {
		return ""
	}
	return string(b)
}

// Memory is judge.Memory over the register. The register is opened
// read-only on the first question; every question is one bounded query
// (the window, the needle tested by SQLite), and all of them together stay
// within the budget. After a question that did not finish in time, or
// failed, the memory answers nothing more.
type Memory struct {
	dbPath    string
	sessionID string
	until     time.Time // the budget's end, set by the first question
	budget    time.Duration

	mu   sync.Mutex
	reg  *register.Register
	dead bool
	note string
	read bool
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

// Read reports whether the register was read (the call needed memory).
func (m *Memory) Read() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.read
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
		m.dead, m.note = true, fmt.Sprintf("session memory not read within %s: judged without it", m.budget)
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
			if reg, err = register.OpenReadOnly(m.dbPath); err != nil {
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
			m.dead, m.note = true, fmt.Sprintf("session memory not read (%v): judged without it", r.err)
		default:
			m.read = true
			return r.es
		}
	case <-timer.C:
		m.dead, m.note = true, fmt.Sprintf("session memory not read within %s: judged without it", m.budget)
	}
	return nil
}

// Close closes the register if a question opened it.
func (m *Memory) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.reg != nil && !m.dead {
		m.reg.Close()
	}
	m.reg = nil
}

// Written is the newest fact of the session about the file at p.
func (m *Memory) Written(p string) (judge.WrittenFact, bool) {
	key := pathKey(m.sessionID, p)
	for _, e := range m.ask(key) {
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
			return judge.WrittenFact{Path: p, Verdict: v, Rules: w.R, Seq: e.Seq}, true
		}
	}
	return judge.WrittenFact{}, false
}

// SecretRead reports the newest call of the session that read a secret.
func (m *Memory) SecretRead() (int64, bool) {
	for _, e := range m.ask(secretNeedle) {
		var s stored
		if json.Unmarshal([]byte(e.Facts), &s) == nil && s.S {
			return e.Seq, true
		}
	}
	return 0, false
}
