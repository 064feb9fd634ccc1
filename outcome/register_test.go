package outcome

import (
	"fmt"
	"github.com/sentinel-guard/sentinel/internal/spill"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/transcript"
)

// genRegister writes a real register of n entries with every case the join
// must get right: outcomes after, long after and before their decision, an
// id decided twice (a journal merge), twice-run outcomes, outcomes of no
// decision, decisions without a tool_use_id, errors, failed runs, grades.
// Ids come from a small pool so that collisions are common.
func genRegister(t testing.TB, n int, seed uint64) (*register.Register, time.Time) {
	t.Helper()
	r, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	rng := rand.New(rand.NewPCG(seed, 7))
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	decisions := []string{"allow", "allow", "allow", "ask", "deny", ""}
	err = register.BulkLoad(r, n, func(i int) *register.Entry {
		// Times step by 1.5 µs so windows fall between and on entries.
		e := &register.Entry{Time: start.Add(time.Duration(i) * 1500 * time.Nanosecond), Tool: "Bash",
			Input: []byte(`{"command":"true"}`), Rules: []string{}, CatalogVersion: "t", Version: "t"}
		id := ""
		if rng.IntN(20) != 0 {
			id = fmt.Sprintf("toolu_%d", rng.IntN(n/3+1))
		}
		e.ToolUseID = id
		switch p := rng.IntN(100); {
		case p < 45:
			e.Kind = register.KindOutcome
			e.Label = LabelRan
			if rng.IntN(4) == 0 {
				e.Label = LabelFailed
			}
		case p < 50:
			e.Kind, e.Ref, e.Label, e.ToolUseID = register.KindGrade, int64(rng.IntN(i+1)+1), "true", ""
		default:
			e.Kind = register.KindDecision
			if rng.IntN(10) == 0 {
				e.Kind = register.KindError
			}
			e.Decision = decisions[rng.IntN(len(decisions))]
			if e.Decision == "ask" || e.Decision == "deny" {
				e.Rules = []string{"R1", fmt.Sprintf("R%d", rng.IntN(3))}
			}
			e.Attended = rng.IntN(2) == 0
		}
		return e
	})
	if err != nil {
		t.Fatal(err)
	}
	return r, start
}

// TestJoinRegisterSameAsStream: the SQL join gives exactly what the Go
// stream join gives, for every option and for windows that cut through
// entries, with and without transcript answers.
func TestJoinRegisterSameAsStream(t *testing.T) {
	r, start := genRegister(t, 6000, 1)
	ans := NewAnswers()
	ans.Files, ans.Structured = 1, 2
	for i := 0; i < 2000; i += 3 {
		ans.ids.Put(transcript.KeyOf(fmt.Sprintf("toolu_%d", i)), answerCode([]string{AnswerApproved, AnswerDeclined, AnswerUnanswered}[i%3]))
	}
	windows := [][2]time.Time{{}, {start.Add(1500 * time.Microsecond), start.Add(6 * time.Millisecond)},
		{start.Add(3001 * time.Nanosecond), {}}, {{}, start.Add(4499999 * time.Nanosecond)}}
	for _, a := range []*Answers{nil, ans} {
		for _, w := range windows {
			for _, o := range []Options{{}, {All: true}, {NoResults: true}} {
				o.Since, o.Until = w[0], w[1]
				want, wsum, err := JoinWith(Entries(r), a, o)
				if err != nil {
					t.Fatal(err)
				}
				var got []Result
				gsum, err := JoinRegister(r, a, o, func(res *Result) error { got = append(got, *res); return nil })
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("answers %v, %+v", a != nil, o)
				if !reflect.DeepEqual(gsum, wsum) {
					t.Errorf("%s: summary\n got %+v\nwant %+v", name, gsum, wsum)
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d results, want %d", name, len(got), len(want))
				}
				for i := range want {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Fatalf("%s: result %d\n got %#v\nwant %#v", name, i, got[i], want[i])
					}
				}
				if wsum.Orphans == 0 || wsum.Denies.Breached == 0 || wsum.Allows.NotRun == 0 {
					t.Errorf("%s: the register lacks a case: %+v", name, wsum)
				}
			}
			want, err := Summarize(Entries(r), a, w[0], w[1])
			if err != nil {
				t.Fatal(err)
			}
			got, err := SummarizeRegister(r, a, w[0], w[1])
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Summarize, answers %v, window %v:\n got %+v\nwant %+v", a != nil, w, got, want)
			}
		}
	}
}

// TestSpilled: the answers, the join and the SQLite join over maps on disk
// from their second entry (internal/spill) give what they give in memory.
func TestSpilled(t *testing.T) {
	spilled := spill.OnDisk(t)
	t.Run("answers", TestReadAnswers)
	t.Run("join", TestJoin)
	t.Run("register", TestJoinRegisterSameAsStream)
	if !spilled() {
		t.Error("no map moved to disk: the disk path was not tested")
	}
}
