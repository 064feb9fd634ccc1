package outcome

import (
	"encoding/binary"
	"slices"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/internal/spill"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/transcript"
)

// An unguarded call is a tool call a transcript shows that the hook never
// judged: no decision or error entry in the register has its tool_use_id,
// and no line of the fallback journal does. The session ran without the
// hook (disableAllHooks, the hook removed from the settings, a settings
// file replaced, a stopped or replaced binary that Claude Code timed out),
// so whatever the agent did there was not guarded; it cannot be prevented
// afterwards, but it is seen.
//
// Bounds: only calls at or after the register's first entry count (before
// it there was no guard to go round); a call Claude Code refused before
// any hook ran (a malformed input) counts too, so the count is an upper
// bound on the calls that ran unguarded. A transcript that was not read
// shows nothing: the count is then null, never 0.

// Unguarded is one unguarded call: where and when, never what.
type Unguarded struct {
	Session   string    `json:"session"`
	Time      time.Time `json:"time"`
	Tool      string    `json:"tool"`
	ToolUseID string    `json:"tool_use_id"`
}

// Calls collects the transcripts' tool calls (first sightings, in the
// window) for the unguarded join: a 16-byte key and the call's place each;
// past spill.DefaultCap calls they are on disk (a temporary SQLite file), so
// memory does not grow with the transcripts.
type Calls struct {
	m *spill.Map[transcript.Key, Unguarded]
	// Before counts, after the join, the calls older than the register's
	// first entry (not candidates: nothing guarded them yet).
	Before int64
}

// NewCalls returns an empty collection.
func NewCalls() *Calls { return &Calls{m: spill.New[transcript.Key](unguardedCodec)} }

// unguardedCodec: the time, then the three strings, each after its length.
var unguardedCodec = spill.Codec[Unguarded]{
	Enc: func(u Unguarded) []byte {
		b := binary.AppendVarint(nil, u.Time.UnixNano())
		if u.Time.IsZero() {
			b = binary.AppendVarint(nil, 0)
			b = append(b, 0)
		} else {
			b = append(b, 1)
		}
		for _, s := range []string{u.Session, u.Tool, u.ToolUseID} {
			b = binary.AppendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		}
		return b
	},
	Dec: func(b []byte) Unguarded {
		var u Unguarded
		ns, n := binary.Varint(b)
		if n <= 0 || n >= len(b) {
			return u
		}
		if b[n] == 1 {
			u.Time = time.Unix(0, ns).UTC()
		}
		b = b[n+1:]
		for _, p := range []*string{&u.Session, &u.Tool, &u.ToolUseID} {
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return u
			}
			*p = string(b[n : n+int(l)])
			b = b[n+int(l):]
		}
		return u
	},
}

// Has says whether a call with key k was collected (and not yet judged).
func (c *Calls) Has(k transcript.Key) bool { return c != nil && c.m.Has(k) }

// Err is the first error of the temporary file.
func (c *Calls) Err() error {
	if c == nil {
		return nil
	}
	return c.m.Err()
}

// Close releases the temporary file.
func (c *Calls) Close() error {
	if c == nil {
		return nil
	}
	return c.m.Close()
}

// Add notes one call the transcript reader found.
func (c *Calls) Add(tc *transcript.Call) {
	if c == nil || tc.Dup || !tc.InWindow {
		return
	}
	c.m.Put(tc.Key, Unguarded{Session: tc.Session, Time: tc.Time, Tool: tc.Name, ToolUseID: tc.ID})
}

// Len is the number of calls collected.
func (c *Calls) Len() int { return int(c.m.Len()) }

// each takes every id judged reports (the register's decision and error
// entries, the journal's lines) out of the calls and hands fn the rest at
// or after since (the register's first entry; zero: all), in no order; the
// older ones are counted in Before. The collection is consumed.
func (c *Calls) each(since time.Time, judged []func(func(id string) error) error, fn func(Unguarded)) error {
	for _, each := range judged {
		if each == nil {
			continue
		}
		err := each(func(id string) error {
			c.m.Delete(transcript.KeyOf(id))
			return nil
		})
		if err != nil {
			return err
		}
	}
	return c.m.Each(func(_ transcript.Key, u Unguarded) error {
		if !since.IsZero() && !u.Time.IsZero() && u.Time.Before(since) {
			c.Before++
		} else {
			fn(u)
		}
		return nil
	})
}

// Unguarded is each's rest as a list, oldest first (a small join: doctor's
// recent files, tests; UnguardedSessions keeps only the sessions).
func (c *Calls) Unguarded(since time.Time, judged ...func(func(id string) error) error) ([]Unguarded, error) {
	var out []Unguarded
	if err := c.each(since, judged, func(u Unguarded) { out = append(out, u) }); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Unguarded) int {
		if d := a.Time.Compare(b.Time); d != 0 {
			return d
		}
		return strings.Compare(a.ToolUseID, b.ToolUseID)
	})
	return out, nil
}

// UnguardedSessions is Unguarded summed per session as it streams: the
// number of calls and BySession's list, in memory that grows with the
// sessions, not the calls.
func (c *Calls) UnguardedSessions(since time.Time, judged ...func(func(id string) error) error) (int, []UnguardedSession, error) {
	n := 0
	g := newSessionGroups()
	err := c.each(since, judged, func(u Unguarded) { n++; g.add(u) })
	if err != nil {
		return 0, nil, err
	}
	return n, g.sorted(), c.Err()
}

// UnguardedSession sums one session's unguarded calls.
type UnguardedSession struct {
	Session string    `json:"session"`
	Calls   int       `json:"calls"`
	First   time.Time `json:"first"`
	Last    time.Time `json:"last"`
}

// BySession groups unguarded calls by session, the session with the
// newest call first.
func BySession(us []Unguarded) []UnguardedSession {
	g := newSessionGroups()
	for _, u := range us {
		g.add(u)
	}
	return g.sorted()
}

type sessionGroups struct {
	idx map[string]int
	out []UnguardedSession
}

func newSessionGroups() *sessionGroups { return &sessionGroups{idx: map[string]int{}} }

func (g *sessionGroups) add(u Unguarded) {
	i, ok := g.idx[u.Session]
	if !ok {
		i = len(g.out)
		g.idx[u.Session] = i
		g.out = append(g.out, UnguardedSession{Session: u.Session, First: u.Time, Last: u.Time})
	}
	s := &g.out[i]
	s.Calls++
	if u.Time.Before(s.First) {
		s.First = u.Time
	}
	if u.Time.After(s.Last) {
		s.Last = u.Time
	}
}

// sorted: the newest call first; a tie by session id, so that the order
// does not depend on the order the calls came in.
func (g *sessionGroups) sorted() []UnguardedSession {
	slices.SortStableFunc(g.out, func(a, b UnguardedSession) int {
		if d := b.Last.Compare(a.Last); d != 0 {
			return d
		}
		return strings.Compare(a.Session, b.Session)
	})
	return g.out
}

// UnguardedIn joins the calls with an open register and its fallback
// journal (by the register's own SQL; constant memory in its size).
func UnguardedIn(r *register.Register, calls *Calls) ([]Unguarded, error) {
	since, judged, err := judgedIn(r)
	if err != nil {
		return nil, err
	}
	return calls.Unguarded(since, judged...)
}

// UnguardedSessionsIn is UnguardedIn summed per session (Calls.UnguardedSessions).
func UnguardedSessionsIn(r *register.Register, calls *Calls) (int, []UnguardedSession, error) {
	since, judged, err := judgedIn(r)
	if err != nil {
		return 0, nil, err
	}
	return calls.UnguardedSessions(since, judged...)
}

func judgedIn(r *register.Register) (time.Time, []func(func(string) error) error, error) {
	since, err := r.FirstTime()
	if err != nil {
		return since, nil, err
	}
	journal := func(fn func(string) error) error {
		return register.JournalIDs(r.Dir(), func(id string) { fn(id) })
	}
	return since, []func(func(string) error) error{r.JudgedIDs, journal}, nil
}

// UnguardedFrom joins the calls with a register given as its entries in
// sequence order (tests, and the census over an entry stream).
func UnguardedFrom(each func(func(register.Entry) error) error, calls *Calls) ([]Unguarded, error) {
	since, err := judgedFrom(each, calls)
	if err != nil {
		return nil, err
	}
	return calls.Unguarded(since)
}

// UnguardedSessionsFrom is UnguardedFrom summed per session.
func UnguardedSessionsFrom(each func(func(register.Entry) error) error, calls *Calls) (int, []UnguardedSession, error) {
	since, err := judgedFrom(each, calls)
	if err != nil {
		return 0, nil, err
	}
	return calls.UnguardedSessions(since)
}

// judgedFrom takes the stream's judged ids out of the calls as they come
// and returns the time of its first entry.
func judgedFrom(each func(func(register.Entry) error) error, calls *Calls) (time.Time, error) {
	var since time.Time
	first := true
	err := each(func(e register.Entry) error {
		if first {
			since, first = e.Time, false
		}
		if (e.Kind == register.KindDecision || e.Kind == register.KindError) && e.ToolUseID != "" {
			calls.m.Delete(transcript.KeyOf(e.ToolUseID))
		}
		return nil
	})
	return since, err
}
