package outcome

import (
	"github.com/sentinel-guard/sentinel/transcript"
)

// Answers holds what the transcripts recorded about tool_use ids: the
// human's approval or rejection at the prompt, or the harness's rejection
// of a call nobody could answer. It holds 16-byte keys, never text.
type Answers struct {
	ids map[transcript.Key]string
	// Files is the number of transcript files read; 0 means the answers
	// could not be seen at all.
	Files int
	// Structured counts results with the harness's permissionDecision
	// record: only those show an approval at the prompt.
	Structured int64
	// Calls are the tool calls read, for the unguarded join.
	Calls *Calls
}

// NewAnswers returns an empty set.
func NewAnswers() *Answers { return &Answers{ids: map[transcript.Key]string{}, Calls: NewCalls()} }

// Add records what one judged result says (the census feeds its own pass
// through here, so that both commands read a transcript the same way).
func (a *Answers) Add(r *transcript.Result) {
	var ans string
	switch {
	case r.Answer == transcript.AnswerApproved:
		ans = AnswerApproved
	case r.Stopper == transcript.StopUser:
		ans = AnswerDeclined
	case r.Stopper == transcript.StopHook && r.Unanswered, r.Stopper == transcript.StopNoHuman:
		ans = AnswerUnanswered
	default:
		return
	}
	a.ids[r.Key] = ans
}

// Of returns the answer recorded for a tool_use id ("" none).
func (a *Answers) Of(id string) string {
	if a == nil || id == "" {
		return ""
	}
	return a.ids[transcript.KeyOf(id)]
}

// Len is the number of ids with an answer.
func (a *Answers) Len() int { return len(a.ids) }

// ReadAnswers reads the transcripts under dirs through the shared reader
// (transcript.Read: same walk, limits and attribution as the census). A
// missing dir is an error; the caller decides whether that is fatal.
func ReadAnswers(dirs []string) (*Answers, *transcript.Sources, error) {
	a := NewAnswers()
	src, err := transcript.Read(dirs, transcript.Options{}, transcript.Handler{
		Result: func(_ string, r *transcript.Result) { a.Add(r) },
		Call:   func(_ string, c *transcript.Call) { a.Calls.Add(c) },
	})
	if src != nil {
		a.Files = src.Files
		a.Structured = src.StructuredResults
	}
	return a, src, err
}
