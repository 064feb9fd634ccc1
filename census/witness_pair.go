package census

import (
	"github.com/sentinel-guard/sentinel/internal/spill"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/transcript"
)

// Two witnesses of the sentinel's stops: the harness's transcript (a hook
// stop carrying the sentinel's marker) and the register (an ask or deny for
// that call). Where one holds a stop the other does not, the page and
// stops.json show it as its own count instead of leaving it in a footnote.

// Disagreement counts the sentinel stops the two witnesses do not share,
// in the window. Null unless both a transcript and a register were read.
type Disagreement struct {
	// Total = TranscriptOnly + RegisterOnly.
	Total *int64 `json:"total"`
	// TranscriptOnly: hook stops with the sentinel's marker that the
	// register does not hold (the same calls as stops.unconfirmed_marker).
	TranscriptOnly *int64 `json:"transcript_only"`
	// RegisterOnly: the register's denies and unattended asks whose call
	// is in the transcripts read, where the harness recorded no hook stop
	// for it (the call ran, something else stopped it, or its result was
	// lost).
	RegisterOnly *int64 `json:"register_only"`
	// RegisterUnseen: the register's denies and unattended asks whose
	// call is in no transcript read (in the window): they cannot be
	// compared (another machine's transcripts, a session not read).
	RegisterUnseen *int64 `json:"register_unseen"`
}

// witnessPair tells a register stop the transcript contradicts (it holds
// the call but no hook stop for it) from one it never saw, by the calls in
// the window the census collected for the unguarded join (outcome.Calls:
// first sightings in the window, as this needs; read before that join
// consumes them).
type witnessPair struct {
	registerOnly   int64
	registerUnseen int64
}

// register compares one register entry in the window with the
// transcripts: a deny, or an ask nobody could answer, is a stop the
// harness should show as a hook's.
func (p *witnessPair) register(e *register.Entry, hooks *spill.Map[transcript.Key, hookStop], calls *outcome.Calls) {
	if !(e.Decision == "deny" || (e.Decision == "ask" && !e.Attended)) {
		return
	}
	if e.ToolUseID == "" {
		p.registerUnseen++
		return
	}
	k := transcript.KeyOf(e.ToolUseID)
	if hooks.Has(k) {
		return // the transcript holds a hook stop for this call
	}
	if calls.Has(k) {
		p.registerOnly++
	} else {
		p.registerUnseen++
	}
}

func (p *witnessPair) fill(r *Report, transcriptOnly int64) {
	if r.Sources.Transcripts != "read" || r.Register == nil {
		return
	}
	r.Stops.Disagreement = &Disagreement{Total: i64(transcriptOnly + p.registerOnly),
		TranscriptOnly: i64(transcriptOnly), RegisterOnly: i64(p.registerOnly), RegisterUnseen: i64(p.registerUnseen)}
}

func v0(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
