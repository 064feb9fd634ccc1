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
	// Budget is the most the look-up may take.
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

// Memory is judge.Memory over the register. It reads at most once, on the
// first question, within its budget.
type Memory struct {
	dbPath    string
	sessionID string
	budget    time.Duration

	once    sync.Once
	entries []register.SessionFact
	decoded []stored
	note    string
	read    bool
}

// New is the memory of session sessionID in the register in stateDir; the
// look-up may take at most Budget and never runs past deadline (minus a
// margin left for judging and appending).
func New(stateDir, sessionID string, deadline time.Time) *Memory {
	b := Budget
	if left := time.Until(deadline) / 4; left < b {
		b = left
	}
	return &Memory{dbPath: filepath.Join(stateDir, "register.db"), sessionID: sessionID, budget: b}
}

// Note says why the memory was not used ("" when it was read or never
// needed), for the entry's reason.
func (m *Memory) Note() string { return m.note }

// Read reports whether the register was read (the call needed memory).
func (m *Memory) Read() bool { return m.read }

func (m *Memory) load() {
	m.once.Do(func() {
		if m.sessionID == "" {
			return // no session, nothing to share
		}
		if m.budget <= 0 {
			m.note = "session memory not read: the hook's deadline is too near"
			return
		}
		type result struct {
			es  []register.SessionFact
			err error
		}
		done := make(chan result, 1)
		ctx, cancel := context.WithTimeout(context.Background(), m.budget)
		go func() {
			defer cancel()
			reg, err := register.OpenReadOnly(m.dbPath)
			if err != nil {
				done <- result{err: err}
				return
			}
			defer reg.Close()
			es, err := reg.SessionFacts(ctx, m.sessionID, Window)
			done <- result{es, err}
		}()
		timer := time.NewTimer(m.budget)
		defer timer.Stop()
		select {
		case r := <-done:
			if r.err != nil {
				if errors.Is(r.err, register.ErrNotExist) {
					return // a fresh register: nothing earlier to remember
				}
				m.note = fmt.Sprintf("session memory not read (%v): judged without it", r.err)
				return
			}
			m.read = true
			m.entries = r.es
			m.decoded = make([]stored, len(r.es))
			for i, e := range r.es {
				if e.Decision == judge.Deny.String() || json.Unmarshal([]byte(e.Facts), &m.decoded[i]) != nil {
					m.decoded[i] = stored{} // it did not run, or it is not ours to read
				}
			}
		case <-timer.C:
			m.note = fmt.Sprintf("session memory not read within %s: judged without it", m.budget)
		}
	})
}

// Written is the newest fact of the session about the file at p.
func (m *Memory) Written(p string) (judge.WrittenFact, bool) {
	m.load()
	key := pathKey(m.sessionID, p)
	for i, s := range m.decoded {
		for k := len(s.W) - 1; k >= 0; k-- {
			w := s.W[k]
			if w.P != key {
				continue
			}
			v, ok := judge.ParseVerdict(w.V)
			if !ok {
				v = judge.Ask // a fact we cannot read is not a pass
			}
			return judge.WrittenFact{Path: p, Verdict: v, Rules: w.R, Seq: m.entries[i].Seq}, true
		}
	}
	return judge.WrittenFact{}, false
}

// SecretRead reports the newest call of the session that read a secret.
func (m *Memory) SecretRead() (int64, bool) {
	m.load()
	for i, s := range m.decoded {
		if s.S {
			return m.entries[i].Seq, true
		}
	}
	return 0, false
}
