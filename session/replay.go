package session

import (
	"container/list"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

// Replay is the session memory rebuilt from a register as replay streams
// it (issue 19): entry by entry, in sequence order, so that a replayed
// decision is judged with the memory the hook had, and replay stays a pure
// function of the register. It holds what the hook's look-up would read:
// per session the newest Window entries with facts, and for each whether
// an outcome entry for its tool_use_id came after it. The same rules weigh
// them (counts, writtenIn, secretIn).
//
// Over a local register (NewReplayIndexed) it holds at most MaxRows rows:
// past that the least recently used sessions are dropped, and a session
// that comes back is read again from the register's session index as it
// stood before the replayed entry (the hook's own look-up), so memory stays
// flat however many sessions the register holds and the answers do not
// change. Over a bundle, which has no index, it keeps every window.
type Replay struct {
	sessions map[string]*window
	byUse    map[string][]*replayRow // tool_use_id -> rows in a window
	lru      list.List               // of *window, most recent first
	rows     int                     // rows held over all windows
	index    *register.Register
	err      error // the first failed read of the index
}

// MaxRows bounds the rows an indexed replay memory holds: 64 full windows,
// about 2.5 MiB of facts. At 1<<16 the rows were most of replay's heap at
// 10M entries (issue 22: peak RSS under 64 MiB); a session that falls out
// is read again from the index, which costs time, not answers.
var MaxRows = 1 << 14

type window struct {
	session string
	rows    []*replayRow // oldest first, at most Window
	elem    *list.Element
}

type replayRow struct {
	register.SessionFact
	session, toolUseID string
}

// NewReplay is an empty replay memory that keeps every session's window.
func NewReplay() *Replay {
	return &Replay{sessions: map[string]*window{}, byUse: map[string][]*replayRow{}}
}

// NewReplayIndexed is a replay memory that may drop windows and read them
// again from reg, which must be the register replay streams.
func NewReplayIndexed(reg *register.Register) *Replay {
	r := NewReplay()
	r.index = reg
	return r
}

// Err is the first read of the index that failed (the replay of the call
// would then not be the hook's): replay stops with it.
func (r *Replay) Err() error { return r.err }

// window is the session's window as of entry seq (the entries before it),
// read from the index when it is not held.
func (r *Replay) window(session string, seq int64) *window {
	w := r.sessions[session]
	if w != nil {
		if r.index != nil {
			r.lru.MoveToFront(w.elem)
		}
		return w
	}
	w = &window{session: session}
	r.sessions[session] = w
	if r.index == nil {
		return w
	}
	w.elem = r.lru.PushFront(w)
	facts, err := r.index.SessionWindow(context.Background(), session, Window, seq)
	if err != nil && r.err == nil {
		r.err = fmt.Errorf("session memory before entry %d: %w", seq, err)
	}
	for i := len(facts) - 1; i >= 0; i-- { // newest first
		r.push(w, &replayRow{SessionFact: facts[i].SessionFact, session: session, toolUseID: facts[i].ToolUseID})
	}
	return w
}

// push appends row to w, dropping what falls out of the window and, for
// an indexed memory, the least recently used other windows past MaxRows.
func (r *Replay) push(w *window, row *replayRow) {
	w.rows = append(w.rows, row)
	r.rows++
	if row.toolUseID != "" {
		r.byUse[row.toolUseID] = append(r.byUse[row.toolUseID], row)
	}
	if len(w.rows) > Window {
		r.forget(w.rows[0])
		w.rows = w.rows[1:]
	}
	for r.index != nil && r.rows > MaxRows {
		old := r.lru.Back().Value.(*window)
		if old == w {
			break
		}
		r.lru.Remove(old.elem)
		delete(r.sessions, old.session)
		for _, x := range old.rows {
			r.forget(x)
		}
	}
}

// forget drops row from the tool_use_id index.
func (r *Replay) forget(row *replayRow) {
	r.rows--
	if row.toolUseID == "" {
		return
	}
	us := slices.DeleteFunc(r.byUse[row.toolUseID], func(x *replayRow) bool { return x == row })
	if len(us) == 0 {
		delete(r.byUse, row.toolUseID)
	} else {
		r.byUse[row.toolUseID] = us
	}
}

// Add takes an entry into the memory, after the entry itself was
// re-decided (its own facts are not its memory).
func (r *Replay) Add(e *register.Entry) {
	if e.Kind == register.KindOutcome && e.ToolUseID != "" {
		for _, row := range r.byUse[e.ToolUseID] {
			if row.Seq < e.Seq {
				row.Ran = true
			}
		}
	}
	if e.Facts == "" || e.SessionID == "" {
		return
	}
	w := r.window(e.SessionID, e.Seq)
	r.push(w, &replayRow{SessionFact: register.SessionFact{Seq: e.Seq, Decision: decisionName(e.Decision), Facts: strings.Clone(e.Facts),
		Journaled: strings.Contains(e.Reason, register.JournaledMark)}, session: w.session, toolUseID: strings.Clone(e.ToolUseID)})
}

// For is the memory the entry's call is judged with: its session's facts
// before it. When the hook recorded that memory was unavailable for the
// call (SESSION-MEMORY-UNAVAILABLE among its rules), it is unavailable
// again: that was the machine's state then, like attendance.
func (r *Replay) For(e *register.Entry) *ReplayMemory {
	m := &ReplayMemory{r: r, session: e.SessionID, seq: e.Seq}
	if slices.Contains(e.Rules, judge.RuleSessionMemoryUnavailable) {
		m.unavail = "unavailable when the call was recorded"
	}
	return m
}

// ReplayMemory is judge.Memory for one replayed call.
type ReplayMemory struct {
	r       *Replay
	session string
	seq     int64
	unavail string
	asked   bool
}

// Asked reports whether the call asked its memory (its decision then
// depends on the session, not only on the call).
func (m *ReplayMemory) Asked() bool { return m.asked }

// rows are the session's rows whose facts contain needle, newest first.
func (m *ReplayMemory) rows(needle string) []register.SessionFact {
	m.asked = true
	if m.unavail != "" || m.session == "" {
		return nil
	}
	rows := m.r.window(m.session, m.seq).rows
	var out []register.SessionFact
	for i := len(rows) - 1; i >= 0; i-- {
		if strings.Contains(rows[i].Facts, needle) { // denies too: writtenIn keeps their stricter facts
			out = append(out, rows[i].SessionFact)
		}
	}
	return out
}

// Written is the session's fact about the file at p.
func (m *ReplayMemory) Written(p string) (judge.WrittenFact, bool) {
	key := pathKey(m.session, p)
	return writtenIn(m.rows(key), key, p)
}

// SecretRead reports the newest call of the session that read a secret.
func (m *ReplayMemory) SecretRead() (int64, bool) { return secretIn(m.rows(secretNeedle)) }

// UntrustedRead reports the newest call of the session that brought
// content from outside.
func (m *ReplayMemory) UntrustedRead() (int64, bool) { return untrustedIn(m.rows(untrustedNeedle)) }

// SecretPrints are the prints of what the session's secret reads returned.
func (m *ReplayMemory) SecretPrints() []judge.SecretPrint { return printsIn(m.rows(printNeedle)) }

// Unavailable says why the memory cannot answer.
func (m *ReplayMemory) Unavailable() string { return m.unavail }

// decisionName is d without the streamed row's memory behind it, and
// without an allocation for the three names a row holds.
func decisionName(d string) string {
	switch d {
	case "allow":
		return "allow"
	case "ask":
		return "ask"
	case "deny":
		return "deny"
	}
	return strings.Clone(d)
}
