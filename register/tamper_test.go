package register

import (
	"io"
	"strings"
	"testing"
)

// tamper builds a 10-entry register, lets the attacker run SQL on it (with
// the append-only triggers dropped, as an attacker would) and returns what
// Verify says.
func tamper(t *testing.T, sql ...string) Report {
	t.Helper()
	r := openTemp(t)
	appendN(t, r, 10)
	if rep := r.Verify(); !rep.OK() {
		t.Fatalf("clean register does not verify: %v", rep)
	}
	for _, s := range append([]string{`DROP TRIGGER entries_no_update`, `DROP TRIGGER entries_no_delete`}, sql...) {
		if _, err := r.DB().Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return r.Verify()
}

func TestTamperEveryField(t *testing.T) {
	content := map[string]string{
		"kind":            `kind = 'grade'`,
		"time_us":         `time_us = time_us + 1`,
		"session_id":      `session_id = 'other'`,
		"tool_use_id":     `tool_use_id = 'toolu_x'`,
		"cwd":             `cwd = '/elsewhere'`,
		"tool":            `tool = 'Read'`,
		"decision":        `decision = 'ask'`,
		"rules":           `rules = '["fs.rm-rf-root"]'`,
		"reason":          `reason = 'fine'`,
		"attended":        `attended = 1 - attended`,
		"permission_mode": `permission_mode = 'bypassPermissions'`,
		"catalog_version": `catalog_version = '0'`,
		"catalog_hash":    `catalog_hash = 'x'`,
		"version":         `version = '9'`,
		"ref":             `ref = 3`,
		"label":           `label = 'true'`,
		"prev_hash":       `prev_hash = hash`,
		"hash":            `hash = prev_hash`,
	}
	for field, set := range content {
		t.Run(field, func(t *testing.T) {
			rep := tamper(t, `UPDATE entries SET `+set+` WHERE seq = 4`)
			wantProblem(t, rep, 4, ProblemContent, "entry 4: hash does not match its content")
			if rep.Entries != 3 {
				t.Errorf("entries good before = %d", rep.Entries)
			}
		})
	}
	for field, set := range map[string]string{
		"input":      `input = CAST('{"command":"rm -rf /"}' AS BLOB)`,
		"salt":       `salt = zeroblob(32)`,
		"commitment": `commitment = '00'`,
	} {
		t.Run(field, func(t *testing.T) {
			rep := tamper(t, `UPDATE entries SET `+set+` WHERE seq = 7`)
			wantProblem(t, rep, 7, ProblemCommitment, "entry 7: commitment does not match its input")
		})
	}
}

func TestTamperStructure(t *testing.T) {
	t.Run("delete", func(t *testing.T) {
		rep := tamper(t, `DELETE FROM entries WHERE seq = 5`)
		wantProblem(t, rep, 5, ProblemSequence, "entry 6 follows entry 4: entry 5 is missing")
	})
	t.Run("delete-first", func(t *testing.T) {
		rep := tamper(t, `DELETE FROM entries WHERE seq <= 2`)
		wantProblem(t, rep, 1, ProblemSequence, "the chain starts at entry 3: entries 1..2 are missing")
	})
	t.Run("renumber", func(t *testing.T) {
		rep := tamper(t, `UPDATE entries SET seq = 100 WHERE seq = 3`)
		wantProblem(t, rep, 3, ProblemSequence, "entry 4 follows entry 2: entry 3 is missing")
	})
	t.Run("swap", func(t *testing.T) {
		cols := []string{"kind", "time_us", "session_id", "tool_use_id", "cwd", "tool", "input", "salt", "commitment",
			"decision", "rules", "reason", "attended", "permission_mode", "catalog_version", "catalog_hash",
			"version", "ref", "label", "prev_hash", "hash"}
		var set []string
		for _, c := range cols {
			set = append(set, c+" = (SELECT "+c+" FROM entries AS o WHERE o.seq = 5 - entries.seq + 2)")
		}
		rep := tamper(t, `UPDATE entries SET `+strings.Join(set, ", ")+` WHERE seq IN (2, 3)`)
		wantProblem(t, rep, 2, ProblemContent, "entry 2: hash does not match its content")
	})
	t.Run("truncate", func(t *testing.T) {
		rep := tamper(t, `DELETE FROM entries WHERE seq > 7`)
		wantProblem(t, rep, 8, ProblemSequence, "the register ends at entry 7 but entry 10 was written: entries 8..10 are missing (truncated)")
	})
	t.Run("undecodable", func(t *testing.T) {
		rep := tamper(t, `UPDATE entries SET rules = '{not json' WHERE seq = 6`)
		if rep.Problem == nil || rep.Problem.Kind != ProblemDecode || rep.Problem.Seq != 6 {
			t.Fatalf("got %v", rep)
		}
	})
}

// TestTamperRehashed: an attacker who edits an entry and recomputes its hash
// breaks the link to the next one.
func TestTamperRehashed(t *testing.T) {
	r := openTemp(t)
	appendN(t, r, 10)
	e, err := r.Get(5)
	if err != nil {
		t.Fatal(err)
	}
	e.Decision, e.Reason = "allow", "nothing to see"
	e.Hash = EntryHash(e)
	r.DB().Exec(`DROP TRIGGER entries_no_update`)
	if _, err := r.DB().Exec(`UPDATE entries SET decision = ?, reason = ?, hash = ? WHERE seq = 5`, e.Decision, e.Reason, e.Hash); err != nil {
		t.Fatal(err)
	}
	wantProblem(t, r.Verify(), 6, ProblemLink, "entry 6: previous hash does not match entry 5")
}

func TestTriggersRefuseEdits(t *testing.T) {
	r := openTemp(t)
	appendN(t, r, 2)
	for _, s := range []string{`UPDATE entries SET reason = 'x' WHERE seq = 1`, `DELETE FROM entries WHERE seq = 2`} {
		if _, err := r.DB().Exec(s); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v", s, err)
		}
	}
}

func TestVerifyChainPosition(t *testing.T) {
	r := openTemp(t)
	es := appendN(t, r, 3)
	stream := []*Entry{es[0], es[1], es[1]}
	i := 0
	rep := VerifyChain(func() (*Entry, error) {
		if i == len(stream) {
			return nil, io.EOF
		}
		i++
		return stream[i-1], nil
	})
	wantProblem(t, rep, 3, ProblemSequence, "the entry at position 3 has sequence number 2")
	// A first entry that does not start at genesis.
	bad := *es[0]
	bad.PrevHash = es[2].Hash
	bad.Hash = EntryHash(&bad)
	rep = VerifyChain(func() (*Entry, error) {
		if i == 0 {
			return nil, io.EOF
		}
		i = 0
		return &bad, nil
	})
	wantProblem(t, rep, 1, ProblemLink, "entry 1: previous hash is not the genesis hash")
}

func wantProblem(t *testing.T, rep Report, seq int64, kind, msg string) {
	t.Helper()
	if rep.Problem == nil {
		t.Fatalf("tampering not detected: %v", rep)
	}
	if rep.Problem.Seq != seq || rep.Problem.Kind != kind || rep.Problem.Msg != msg {
		t.Errorf("got %+v\nwant seq %d kind %s msg %q", *rep.Problem, seq, kind, msg)
	}
}
