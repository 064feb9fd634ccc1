package outcome

import (
	"errors"

	"github.com/sentinel-guard/sentinel/internal/spill"
	"github.com/sentinel-guard/sentinel/transcript"
)

// Answers holds what the transcripts recorded about tool_use ids: the
// human's approval or rejection at the prompt, or the harness's rejection
// of a call nobody could answer. It holds 16-byte keys, never text, and a
// byte each; past spill.DefaultCap ids they are on disk (a temporary SQLite
// file): Close releases it.
type Answers struct {
	ids *spill.Map[transcript.Key, uint8]
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
func NewAnswers() *Answers {
	return &Answers{ids: spill.New[transcript.Key](spill.Byte), Calls: NewCalls()}
}

// answerCodes are the answers as the byte kept per id.
var answerCodes = []string{"", AnswerApproved, AnswerDeclined, AnswerUnanswered}

func answerCode(ans string) uint8 {
	for i, a := range answerCodes {
		if a == ans {
			return uint8(i)
		}
	}
	return 0
}

func (a *Answers) ofKey(k transcript.Key) string {
	if a == nil {
		return ""
	}
	if c, ok := a.ids.Get(k); ok && int(c) < len(answerCodes) {
		return answerCodes[c]
	}
	return ""
}

// Err is the first error of the answers' or calls' temporary file: an
// answer looked up after it is missing, so a result is not to be trusted.
func (a *Answers) Err() error {
	if a == nil {
		return nil
	}
	return errors.Join(a.ids.Err(), a.Calls.Err())
}

// Close releases the temporary files.
func (a *Answers) Close() error {
	if a == nil {
		return nil
	}
	return errors.Join(a.ids.Close(), a.Calls.Close())
}

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
	a.ids.Put(r.Key, answerCode(ans))
}

// Of returns the answer recorded for a tool_use id ("" none).
func (a *Answers) Of(id string) string {
	if a == nil || id == "" {
		return ""
	}
	return a.ofKey(transcript.KeyOf(id))
}

// Len is the number of ids with an answer.
func (a *Answers) Len() int { return int(a.ids.Len()) }

// ReadAnswers reads the transcripts under dirs through the shared reader
// (transcript.Read: same walk, limits and attribution as the census). A
// missing dir is an error; the caller decides whether that is fatal. With
// calls false the tool calls are not collected (Calls stays empty): only
// the unguarded join needs them. Close the answers when done.
func ReadAnswers(dirs []string, calls bool) (*Answers, *transcript.Sources, error) {
	a := NewAnswers()
	h := transcript.Handler{Result: func(_ string, r *transcript.Result) { a.Add(r) }}
	if calls {
		h.Call = func(_ string, c *transcript.Call) { a.Calls.Add(c) }
	}
	src, err := transcript.Read(dirs, transcript.Options{}, h)
	if src != nil {
		a.Files = src.Files
		a.Structured = src.StructuredResults
	}
	if err == nil {
		err = a.Err()
	}
	return a, src, err
}
