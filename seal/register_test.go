package seal_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
	"github.com/sentinel-guard/sentinel/seal/rekortest"
)

// sealedRegister makes a real register of 10 entries sealed at 6 and 8 in a
// test Rekor; it returns the register path.
func sealedRegister(t *testing.T, e *env) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "register.db")
	reg, err := register.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	add := func(n int) {
		for i := range n {
			err := reg.Append(&register.Entry{Kind: register.KindDecision, SessionID: "s1", Tool: "Bash",
				Input: fmt.Appendf(nil, `{"command":"echo %d"}`, i), Decision: "allow", Reason: "no objection"})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	ctx := context.Background()
	opts := seal.Options{RekorURL: e.log.URL, Key: e.key}
	add(6)
	if _, err := seal.SealRegister(ctx, reg.DB(), seal.RegisterSource(reg), opts); err != nil {
		t.Fatal(err)
	}
	add(2)
	if _, err := seal.SealRegister(ctx, reg.DB(), seal.RegisterSource(reg), opts); err != nil {
		t.Fatal(err)
	}
	add(2)
	return path
}

// tampered copies the register and runs SQL on the copy.
func tampered(t *testing.T, src string, stmts ...string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "register.db")
	if err := os.WriteFile(dst, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", dst)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// An attacker drops the append-only triggers first.
	for _, s := range append([]string{`DROP TRIGGER entries_no_update`, `DROP TRIGGER entries_no_delete`}, stmts...) {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return dst
}

func verifyPath(t *testing.T, e *env, path string, operator *seal.RekorKey) *seal.Report {
	t.Helper()
	reg, err := register.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	rk := e.rkey
	if operator != nil {
		rk = operator
	}
	rep, err := seal.VerifyRegister(context.Background(), reg, seal.VerifyOptions{Operator: &e.key.PublicKey, Rekor: rk, AllowUnsealed: true})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestVerifyRealRegister(t *testing.T) {
	e := newEnv(t)
	path := sealedRegister(t, e)
	rep := verifyPath(t, e, path, nil)
	if !rep.OK || rep.Entries != 10 || rep.Sealed != 8 || rep.Unsealed != 2 || len(rep.Seals) != 2 {
		t.Fatalf("report: %+v", rep)
	}
	var b strings.Builder
	rep.WriteText(&b)
	for _, want := range []string{"chain: 10 entries, chain intact", "seal 2: entries 7..8, Rekor log index 1: verified",
		"unsealed: 2 (entries 9..10, not verified by any seal)", "OK with --allow-unsealed: 2 unsealed entries accepted unproven",
		"operator key: SHA256:", "rekor log id: " + e.rkey.LogID} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestVerifyRegisterTampered(t *testing.T) {
	e := newEnv(t)
	path := sealedRegister(t, e)
	// The columns that make up an entry besides seq, for swapping.
	cols := []string{"kind", "time_us", "session_id", "tool_use_id", "cwd", "tool", "input", "salt", "commitment",
		"decision", "rules", "reason", "attended", "permission_mode", "catalog_version", "catalog_hash", "version",
		"ref", "label", "prev_hash", "hash"}
	var swap []string
	for _, c := range cols {
		swap = append(swap, fmt.Sprintf("%s = (SELECT %s FROM entries WHERE seq = CASE WHEN e.seq = 2 THEN 3 ELSE 2 END)", c, c))
	}
	otherLog := rekortest.New()
	defer otherLog.Close()
	otherKey, _ := seal.ParseRekorKey(otherLog.PublicKeyPEM())
	cases := []struct {
		name  string
		sql   []string
		rekor *seal.RekorKey
		want  string
	}{
		{"byte changed", []string{`UPDATE entries SET reason = 'no objectioN' WHERE seq = 4`},
			nil, "entry 4: hash does not match its content"},
		{"byte changed in unsealed tail", []string{`UPDATE entries SET tool = 'Bas' WHERE seq = 10`},
			nil, "entry 10: hash does not match its content"},
		{"entry deleted", []string{`DELETE FROM entries WHERE seq = 3`},
			nil, "entry 4 follows entry 2: entry 3 is missing"},
		{"entries swapped", []string{`CREATE TABLE e AS SELECT * FROM entries WHERE seq IN (2, 3)`,
			`UPDATE entries SET ` + strings.Join(swap, ", ") + ` WHERE seq IN (2, 3)`},
			nil, "entry 2: hash does not match its content"},
		{"truncated after a seal", []string{`DELETE FROM entries WHERE seq > 7`},
			nil, "seal 2: covers 8 entries but only 7 are present: entries were removed after sealing"},
		{"truncated unsealed tail", []string{`DELETE FROM entries WHERE seq > 8`},
			nil, "the register ends at entry 8 but entry 10 was written"},
		{"stored Rekor answer edited", []string{`UPDATE seals SET rekor_entry = replace(rekor_entry, '"integratedTime":', '"integratedTime":1') WHERE id = 2`},
			nil, "seal 2: the Rekor signed entry timestamp does not verify against the pinned key"},
		{"different Rekor key", nil, otherKey, "seal 1: the Rekor log id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := path
			if tc.sql != nil {
				// The swap needs the original rows while it rewrites them.
				stmts := tc.sql
				if strings.Contains(stmts[len(stmts)-1], "CASE WHEN e.seq") {
					stmts[1] = strings.ReplaceAll(stmts[1], "FROM entries WHERE seq = CASE WHEN e.seq = 2 THEN 3 ELSE 2 END", "FROM e WHERE e.seq = CASE WHEN entries.seq = 2 THEN 3 ELSE 2 END")
				}
				p = tampered(t, path, stmts...)
			}
			rep := verifyPath(t, e, p, tc.rekor)
			if rep.OK || !strings.HasPrefix(rep.Failure, tc.want) {
				t.Fatalf("failure %q, want %q...", rep.Failure, tc.want)
			}
		})
	}
	t.Run("different operator key", func(t *testing.T) {
		reg, _ := register.OpenReadOnly(path)
		defer reg.Close()
		other := newKey(t)
		rep, _ := seal.VerifyRegister(context.Background(), reg, seal.VerifyOptions{Operator: &other.PublicKey, Rekor: e.rkey})
		if want := "the operator key " + seal.Fingerprint(&other.PublicKey) + " is not one of the register's keys"; rep.OK || !strings.HasPrefix(rep.Failure, want) || !strings.HasSuffix(rep.Failure, "a different operator") {
			t.Fatalf("failure %q, want %q", rep.Failure, want)
		}
	})
}

func TestChainOnlyRegister(t *testing.T) {
	path := filepath.Join(t.TempDir(), "register.db")
	reg, err := register.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := reg.Append(&register.Entry{Kind: register.KindDecision, Time: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	rk, _ := seal.LoadRekorKey("")
	rep, err := seal.VerifyRegister(context.Background(), reg, seal.VerifyOptions{Rekor: rk})
	if err != nil || rep.OK || !strings.HasPrefix(rep.Failure, "no verified seal: none of the 3 entries is sealed") {
		t.Fatalf("an unsealed register must not verify: %+v %v", rep, err)
	}
	rep, err = seal.VerifyRegister(context.Background(), reg, seal.VerifyOptions{Rekor: rk, AllowUnsealed: true})
	if err != nil || !rep.OK || rep.Unsealed != 3 || !strings.HasPrefix(rep.Proved, "nothing about the entries' origin") {
		t.Fatalf("%+v %v", rep, err)
	}
	var b strings.Builder
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "3 entries, chain intact; all 3 unsealed") {
		t.Fatal(b.String())
	}
}
