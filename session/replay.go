package session

import (
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
type Replay struct {
	sessions map[string][]*replayRow // oldest first, at most Window
	byUse    map[string][]*replayRow // tool_use_id -> rows in a window
}

type replayRow struct {
	register.SessionFact
	session, toolUseID string
}

// NewReplay is an empty replay memory.
func NewReplay() *Replay {
	return &Replay{sessions: map[string][]*replayRow{}, byUse: map[string][]*replayRow{}}
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
	row := &replayRow{SessionFact: register.SessionFact{Seq: e.Seq, Decision: strings.Clone(e.Decision), Facts: strings.Clone(e.Facts),
		Journaled: strings.Contains(e.Reason, register.JournaledMark)}, session: strings.Clone(e.SessionID), toolUseID: strings.Clone(e.ToolUseID)}
	rows := append(r.sessions[row.session], row)
	if len(rows) > Window {
		old := rows[0]
		rows = rows[1:]
		if old.toolUseID != "" {
			us := slices.DeleteFunc(r.byUse[old.toolUseID], func(x *replayRow) bool { return x == old })
			if len(us) == 0 {
				delete(r.byUse, old.toolUseID)
			} else {
				r.byUse[old.toolUseID] = us
			}
		}
	}
	r.sessions[row.session] = rows
	if row.toolUseID != "" {
		r.byUse[row.toolUseID] = append(r.byUse[row.toolUseID], row)
	}
}

// For is the memory the entry's call is judged with: its session's facts
// before it. When the hook recorded that memory was unavailable for the
// call (SESSION-MEMORY-UNAVAILABLE among its rules), it is unavailable
// again: that was the machine's state then, like attendance.
func (r *Replay) For(e *register.Entry) *ReplayMemory {
	m := &ReplayMemory{r: r, session: e.SessionID}
	if slices.Contains(e.Rules, judge.RuleSessionMemoryUnavailable) {
		m.unavail = "unavailable when the call was recorded"
	}
	return m
}

// ReplayMemory is judge.Memory for one replayed call.
type ReplayMemory struct {
	r       *Replay
	session string
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
	rows := m.r.sessions[m.session]
	var out []register.SessionFact
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].Decision != "deny" && strings.Contains(rows[i].Facts, needle) {
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
