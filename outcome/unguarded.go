package outcome

import (
	"slices"
	"strings"
	"time"

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
// window) for the unguarded join: a 16-byte key and the call's place each.
type Calls struct {
	m map[transcript.Key]Unguarded
	// Before counts, after the join, the calls older than the register's
	// first entry (not candidates: nothing guarded them yet).
	Before int64
}

// NewCalls returns an empty collection.
func NewCalls() *Calls { return &Calls{m: map[transcript.Key]Unguarded{}} }

// Add notes one call the transcript reader found.
func (c *Calls) Add(tc *transcript.Call) {
	if c == nil || tc.Dup || !tc.InWindow {
		return
	}
	c.m[tc.Key] = Unguarded{Session: tc.Session, Time: tc.Time, Tool: tc.Name, ToolUseID: tc.ID}
}

// Len is the number of calls collected.
func (c *Calls) Len() int { return len(c.m) }

// Unguarded takes every id judged reports (the register's decision and
// error entries, the journal's lines) out of the calls at or after since
// (the register's first entry; zero: all) and returns the rest, oldest
// first. The collection is consumed.
func (c *Calls) Unguarded(since time.Time, judged ...func(func(id string) error) error) ([]Unguarded, error) {
	if !since.IsZero() {
		for k, u := range c.m {
			if !u.Time.IsZero() && u.Time.Before(since) {
				c.Before++
				delete(c.m, k)
			}
		}
	}
	for _, each := range judged {
		if each == nil {
			continue
		}
		err := each(func(id string) error {
			delete(c.m, transcript.KeyOf(id))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := make([]Unguarded, 0, len(c.m))
	for _, u := range c.m {
		out = append(out, u)
	}
	slices.SortFunc(out, func(a, b Unguarded) int {
		if d := a.Time.Compare(b.Time); d != 0 {
			return d
		}
		return strings.Compare(a.ToolUseID, b.ToolUseID)
	})
	return out, nil
}

// UnguardedSession sums one session's unguarded calls.
type UnguardedSession struct {
	Session string    `json:"session"`
	Calls   int       `json:"calls"`
	First   time.Time `json:"first"`
	Last    time.Time `json:"last"`
}

// BySession groups unguarded calls (oldest first) by session, the session
// with the newest call first.
func BySession(us []Unguarded) []UnguardedSession {
	idx := map[string]int{}
	var out []UnguardedSession
	for _, u := range us {
		i, ok := idx[u.Session]
		if !ok {
			i = len(out)
			idx[u.Session] = i
			out = append(out, UnguardedSession{Session: u.Session, First: u.Time})
		}
		s := &out[i]
		s.Calls++
		if u.Time.After(s.Last) {
			s.Last = u.Time
		}
	}
	slices.SortStableFunc(out, func(a, b UnguardedSession) int { return b.Last.Compare(a.Last) })
	return out
}

// UnguardedIn joins the calls with an open register and its fallback
// journal (by the register's own SQL; constant memory in its size).
func UnguardedIn(r *register.Register, calls *Calls) ([]Unguarded, error) {
	since, err := r.FirstTime()
	if err != nil {
		return nil, err
	}
	journal := func(fn func(string) error) error {
		return register.JournalIDs(r.Dir(), func(id string) { fn(id) })
	}
	return calls.Unguarded(since, r.JudgedIDs, journal)
}

// UnguardedFrom joins the calls with a register given as its entries in
// sequence order (tests, and the census over an entry stream).
func UnguardedFrom(each func(func(register.Entry) error) error, calls *Calls) ([]Unguarded, error) {
	var since time.Time
	var ids []string
	err := each(func(e register.Entry) error {
		if since.IsZero() {
			since = e.Time
		}
		if (e.Kind == register.KindDecision || e.Kind == register.KindError) && e.ToolUseID != "" {
			ids = append(ids, e.ToolUseID)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return calls.Unguarded(since, func(fn func(string) error) error {
		for _, id := range ids {
			fn(id)
		}
		return nil
	})
}
