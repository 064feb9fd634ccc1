package census

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

const (
	sessA = "0b5e7c1a-1111-4aaa-8bbb-0123456789ab" // named by the routine's command line
	sessB = "0b5e7c1a-2222-4aaa-8bbb-0123456789ab" // another session at the same time
	sessC = "0b5e7c1a-3333-4aaa-8bbb-0123456789ab" // named by the JSON Lines witness
)

func at(day, h, m int) time.Time { return time.Date(2026, 11, day, h, m, 0, 0, time.UTC) }

func usec(t time.Time) string { return fmt.Sprint(t.UnixMicro()) }

// routineHistory writes a generated routine history: systemd's journal
// (user and system services, a timer, a cron job in the journal, a service
// still running at the end) on the 20th, cron's syslog lines on the 21st,
// JSON Lines on the 22nd and GitHub's gh run list on the 23rd. Every
// unit, description, command, user, host and workflow carries a canary.
func routineHistory(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var j bytes.Buffer
	rec := func(tm time.Time, f map[string]any) {
		f["__REALTIME_TIMESTAMP"] = usec(tm)
		f["__MONOTONIC_TIMESTAMP"] = "123456789"
		f["_HOSTNAME"] = "CNRYhost"
		f["_BOOT_ID"] = "a1b2c3"
		b, _ := json.Marshal(f)
		j.Write(b)
		j.WriteByte('\n')
	}
	user := func(tm time.Time, unit, id, msg string, extra ...string) {
		f := map[string]any{"USER_UNIT": unit, "MESSAGE": msg, "_UID": "1000", "_PID": "1234",
			"_SYSTEMD_UNIT": "user@1000.service", "_COMM": "systemd", "SYSLOG_IDENTIFIER": "systemd"}
		if id != "" {
			f["MESSAGE_ID"] = id
		}
		for i := 0; i+1 < len(extra); i += 2 {
			f[extra[i]] = extra[i+1]
		}
		rec(tm, f)
	}
	system := func(tm time.Time, unit, msg string) {
		rec(tm, map[string]any{"UNIT": unit, "MESSAGE": msg, "_PID": "1", "_COMM": "systemd", "SYSLOG_IDENTIFIER": "systemd"})
	}
	rec(at(20, 2, 59), map[string]any{"_SYSTEMD_UNIT": "sshd.service", "MESSAGE": "Accepted key for CNRYuser from CNRYhost", "_PID": "900"})
	user(at(20, 3, 0), "CNRYroutine.timer", msgUnitStarted, "Started CNRYroutine.timer - CNRY nightly.", "JOB_TYPE", "start", "JOB_RESULT", "done")
	user(at(20, 3, 1), "CNRYroutine.service", msgUnitStarting, "Starting CNRYroutine.service - CNRY nightly routine...", "JOB_TYPE", "start")
	rec(at(20, 3, 2), map[string]any{"_SYSTEMD_USER_UNIT": "CNRYroutine.service", "_UID": "1000", "_PID": "4321",
		"_CMDLINE": "claude -p --session-id " + sessA + " CNRYprompt /home/CNRYuser/CNRYrepo", "MESSAGE": []int{67, 78, 82, 89}})
	user(at(20, 3, 20), "CNRYroutine.service", msgUnitSuccess, "CNRYroutine.service: Deactivated successfully.")
	user(at(20, 3, 20).Add(500*time.Millisecond), "CNRYroutine.service", msgUnitStarted, "Finished CNRYroutine.service - CNRY nightly routine.", "JOB_TYPE", "start", "JOB_RESULT", "done")
	// A system service, text only (no MESSAGE_ID): Started … exited … Deactivated.
	system(at(20, 4, 0), "CNRYbackup.service", "Started CNRYbackup.service - CNRY backup.")
	system(at(20, 4, 30), "CNRYbackup.service", "CNRYbackup.service: Main process exited, code=exited, status=0/SUCCESS")
	system(at(20, 4, 30), "CNRYbackup.service", "CNRYbackup.service: Deactivated successfully.")
	// Still running when the journal was taken.
	user(at(20, 5, 0), "CNRYlate.service", msgUnitStarting, "Starting CNRYlate.service...", "JOB_TYPE", "start")
	// cron's lines in the journal.
	rec(at(20, 5, 10), map[string]any{"SYSLOG_IDENTIFIER": "CRON", "_PID": "777", "MESSAGE": "(CNRYuser) CMD (/home/CNRYuser/CNRYjob.sh)"})
	rec(at(20, 5, 15), map[string]any{"SYSLOG_IDENTIFIER": "CRON", "_PID": "777", "MESSAGE": "(CNRYuser) END (/home/CNRYuser/CNRYjob.sh)"})
	rec(at(20, 5, 30), map[string]any{"_SYSTEMD_UNIT": "sshd.service", "MESSAGE": "CNRY closed", "_PID": "900"})
	os.MkdirAll(filepath.Join(dir, "journal"), 0o755)
	os.WriteFile(filepath.Join(dir, "journal", "user.json"), j.Bytes(), 0o644)

	syslog := strings.Join([]string{
		"2026-11-21T00:00:01.000000+00:00 CNRYhost systemd[1]: Started CNRYsomething.",
		"2026-11-21T03:00:01.000000+00:00 CNRYhost CRON[100]: (CNRYuser) CMD (cd /srv/CNRYrepo && claude -p --resume " + sessA + " CNRYprompt)",
		"2026-11-21T03:00:01.000000+00:00 CNRYhost CRON[101]: (root) CMD (   test -x /usr/sbin/CNRYanacron)",
		"2026-11-21T03:00:02.000000+00:00 CNRYhost CRON[101]: (root) END (   test -x /usr/sbin/CNRYanacron)",
		"2026-11-21T03:30:00.000000+00:00 CNRYhost CRON[100]: (CNRYuser) END (cd /srv/CNRYrepo && claude -p --resume " + sessA + " CNRYprompt)",
		"2026-11-21T12:00:00.000000+00:00 CNRYhost CRON[200]: (CNRYuser) CMD (CNRYforever)",
		"2026-11-21T23:59:00.000000+00:00 CNRYhost kernel: CNRY last line",
	}, "\n") + "\n"
	os.WriteFile(filepath.Join(dir, "syslog"), []byte(syslog), 0o644)

	jsonl := `{"start":"2026-11-22T01:00:00Z","end":"2026-11-22T02:00:00Z","session_id":"` + sessC + `","name":"CNRYjsonl"}
{"start":"2026-11-22T04:00:00Z","end":"2026-11-22T04:10:00Z"}
{"start":"2026-11-22T06:00:00Z","end":"2026-11-22T06:01:00Z"}
`
	os.WriteFile(filepath.Join(dir, "runs.jsonl"), []byte(jsonl), 0o644)

	// gh run list --json conclusion,createdAt,startedAt,updatedAt,status,workflowName,event, as gh prints it.
	gh := `[{"conclusion":"","createdAt":"2026-11-23T10:00:00Z","event":"schedule","startedAt":"2026-11-23T10:00:03Z","status":"in_progress","updatedAt":"2026-11-23T10:05:00Z","workflowName":"CNRYworkflow"},` +
		`{"conclusion":"success","createdAt":"2026-11-23T03:00:00Z","event":"schedule","startedAt":"2026-11-23T03:00:04Z","status":"completed","updatedAt":"2026-11-23T03:40:00Z","workflowName":"CNRYworkflow"}]` + "\n"
	os.WriteFile(filepath.Join(dir, "gh.json"), []byte(gh), 0o644)
	return dir
}

// witnessRegister writes unattended asks and denies at the times the
// history makes inside, outside and unchecked, and attended ones that the
// join must leave alone. want is where each must fall.
func witnessRegister(t *testing.T) (*register.Register, map[string]WitnessPlace) {
	t.Helper()
	reg, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	var seq int64
	want := map[string]WitnessPlace{"deny": {OutsideSeqs: []int64{}}, "ask": {OutsideSeqs: []int64{}}}
	add := func(decision string, tm time.Time, session, where string) {
		t.Helper()
		e := register.Entry{Kind: register.KindDecision, Decision: decision, Time: tm, SessionID: session,
			ToolUseID: fmt.Sprintf("toolu_w%d", seq), Tool: "Bash", Input: []byte(`{"command":"CNRYregcmd"}`), Rules: []string{}}
		if where == "attended" {
			e.Attended = true
		}
		if err := reg.Append(&e); err != nil {
			t.Fatal(err)
		}
		seq = e.Seq
		if where == "attended" {
			return
		}
		p := want[decision]
		p.add(where, e.Seq)
		want[decision] = p
	}
	// The journal, the 20th (02:59 to 05:30).
	add("deny", at(20, 3, 10), sessA, witInside)   // the routine's own session
	add("deny", at(20, 3, 10), sessB, witOutside)  // another session: not the routine's run
	add("ask", at(20, 3, 10), "", witInside)       // no session: time alone
	add("ask", at(20, 4, 15), sessB, witInside)    // the backup service (names no session)
	add("deny", at(20, 4, 45), sessA, witOutside)  // between runs
	add("deny", at(20, 5, 12), sessA, witInside)   // the late service, and cron in the journal
	add("deny", at(20, 5, 29), sessA, witInside)   // the late service, live at the journal's end
	add("deny", at(20, 2, 0), sessA, witUnchecked) // before the journal; no other file covers it
	add("deny", at(20, 4, 45), sessA, "attended")  // attended: not joined
	add("deny", at(20, 12, 0), "", witUnchecked)   // after every file of the 20th
	// cron's syslog, the 21st.
	add("deny", at(21, 3, 15), sessA, witInside)    // the job with --resume sessA
	add("ask", at(21, 3, 15), sessB, witOutside)    // another session; the root job ended at 03:00:02
	add("deny", at(21, 6, 0), sessA, witOutside)    // no job
	add("deny", at(21, 13, 0), sessA, witUnchecked) // after a CMD with no END
	// JSON Lines, the 22nd.
	add("deny", at(22, 1, 30), sessC, witInside)
	add("deny", at(22, 1, 30), sessA, witOutside)
	add("ask", at(22, 4, 5), sessA, witInside)
	add("deny", at(22, 5, 0), sessA, witOutside)
	// GitHub, the 23rd.
	add("deny", at(23, 3, 30), sessA, witInside)
	add("ask", at(23, 6, 0), "", witOutside)
	add("deny", at(23, 10, 2), "", witInside)     // the run in progress, live to its last update
	add("deny", at(23, 10, 30), "", witUnchecked) // after the gh record's last time
	add("allow", at(23, 3, 30), "", "attended")
	return reg, want
}

// TestWitnessJoin: a generated routine history against a real register;
// every unattended deny and ask lands exactly where the history puts it,
// the outside ones are listed, and nothing of the witness is written.
func TestWitnessJoin(t *testing.T) {
	dir := routineHistory(t)
	reg, want := witnessRegister(t)
	r, out := run(t, Options{Witness: []string{dir}, Register: outcome.Entries(reg), Open: reg})
	w := r.Witness
	if w == nil || w.Unattended == nil {
		t.Fatalf("witness = %+v", w)
	}
	if got := map[string]WitnessPlace{"deny": w.Unattended.Deny, "ask": w.Unattended.Ask}; !reflect.DeepEqual(got, want) {
		t.Errorf("joined:\n got %+v\nwant %+v", got, want)
	}
	if k := []string{WitnessCron, WitnessGitHub, WitnessJSONL, WitnessSystemd}; !reflect.DeepEqual(w.Kinds, k) {
		t.Errorf("kinds = %v, want %v", w.Kinds, k)
	}
	// Runs: routine, backup, late, cron in the journal (the timer is not a
	// run); two cron jobs and one open; three JSON Lines; two GitHub runs.
	if w.Runs != 4+3+3+2 {
		t.Errorf("runs = %d", w.Runs)
	}
	if w.Covers.Since == nil || *w.Covers.Since != "2026-11-20T02:59:00Z" || *w.Covers.Until != "2026-11-23T10:05:00Z" {
		t.Errorf("covers = %+v", w.Covers)
	}
	var page bytes.Buffer
	if err := r.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"stops.json": out, "page": page.Bytes()} {
		if m := regexp.MustCompile(`(?i)cnry\w*|` + sessA + `|` + sessC).Find(b); m != nil {
			t.Errorf("%s carries %q from the witness or the register", name, m)
		}
		for _, leak := range []string{"service", "timer", "/home", "/srv", "claude -p", "root"} {
			if bytes.Contains(b, []byte(leak)) {
				t.Errorf("%s carries %q", name, leak)
			}
		}
	}
	if !bytes.Contains(page.Bytes(), []byte("outside any recorded run")) {
		t.Error("the page does not show the entries outside any run")
	}

	// The same join, as protocol check computes it.
	wit, err := ReadWitness([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	j, err := JoinWitness(wit, outcome.Entries(reg), time.Time{}, time.Time{})
	if err != nil || !reflect.DeepEqual(*j, *w.Unattended) {
		t.Errorf("JoinWitness = %+v %v", j, err)
	}
}

func TestWitnessWithoutRegister(t *testing.T) {
	r, _ := run(t, Options{Witness: []string{routineHistory(t)}, TranscriptDirs: []string{formsDir}})
	if r.Witness == nil || r.Witness.Unattended != nil {
		t.Fatalf("witness = %+v", r.Witness)
	}
	found := false
	for _, n := range r.NotMeasured {
		found = found || n.Key == "witness.unattended"
	}
	if !found {
		t.Error("witness.unattended is not named in not_measured")
	}
	r, _ = run(t, Options{TranscriptDirs: []string{formsDir}})
	if r.Witness != nil {
		t.Error("witness must be null without --witness")
	}
}

func TestWitnessFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	// Traditional syslog has no year: the year of the file's modification,
	// unless that puts the line after it (a December line in a file
	// modified in January is last year's).
	p := write("old-syslog", "Dec 31 23:00:01 h CRON[5]: (u) CMD (x)\nDec 31 23:30:00 h CRON[5]: (u) END (x)\nJan  1 00:10:00 h kernel: y\n")
	jan := time.Date(2027, 1, 1, 1, 0, 0, 0, time.Local)
	os.Chtimes(p, jan, jan)
	w, err := ReadWitness([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	f := w.files[0]
	if len(f.runs) != 1 || f.runs[0].start.Year() != 2026 || f.last.In(time.Local).Year() != 2027 || f.runs[0].openEnd {
		t.Errorf("runs = %+v, last %v", f.runs, f.last)
	}
	if got := w.place(time.Date(2026, 12, 31, 23, 15, 0, 0, time.Local), ""); got != witInside {
		t.Errorf("inside the cron job: %s", got)
	}

	for name, body := range map[string]string{
		"text":  "hello\nworld\n",
		"json":  `{"name":"x"}` + "\n",
		"start": `{"start":"yesterday"}` + "\n",
		"end":   `{"start":"2026-11-22T01:00:00Z","end":"2026-11-21T01:00:00Z"}` + "\n",
		"gh":    `[{"createdAt":"soon"}]`,
	} {
		if _, err := ReadWitness([]string{write("bad-"+name, body)}); err == nil {
			t.Errorf("%s: a file that is no witness must be an error", name)
		}
	}
	if _, err := ReadWitness([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing witness must be an error")
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := mkfifo(fifo); err == nil {
		done := make(chan error, 1)
		go func() { _, err := ReadWitness([]string{fifo}); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Error("a FIFO as the witness must be refused")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("reading a FIFO witness blocked")
		}
	}
	// A long line is counted and skipped; pretty-printed gh run view objects.
	long := write("long.jsonl", `{"start":"2026-11-22T01:00:00Z","pad":"`+strings.Repeat("x", MaxWitnessLine)+`"}`+"\n"+`{"start":"2026-11-22T03:00:00Z","end":"2026-11-22T04:00:00Z"}`+"\n")
	pretty := write("view.json", "{\n  \"conclusion\": \"success\",\n  \"createdAt\": \"2026-11-23T03:00:00Z\",\n  \"status\": \"completed\",\n  \"updatedAt\": \"2026-11-23T03:10:00Z\"\n}\n")
	w, err = ReadWitness([]string{long, pretty})
	if err != nil {
		t.Fatal(err)
	}
	if w.unreadable != 1 || len(w.files) != 2 || len(w.files[0].runs) != 1 || len(w.files[1].runs) != 1 || w.files[1].runs[0].openEnd {
		t.Errorf("unreadable %d, files %+v", w.unreadable, w.files)
	}
}

func FuzzWitness(f *testing.F) {
	f.Add([]byte(`{"__REALTIME_TIMESTAMP":"1763607600000000","USER_UNIT":"a.service","MESSAGE":"Starting a.service..."}` + "\n"))
	f.Add([]byte("2026-11-21T03:00:01+00:00 h CRON[100]: (u) CMD (claude -p --resume 0b5e7c1a-1111-4aaa-8bbb-0123456789ab)\n"))
	f.Add([]byte(`[{"conclusion":"","createdAt":"2026-11-23T10:00:00Z","status":"in_progress","updatedAt":"2026-11-23T10:05:00Z"}]`))
	f.Add([]byte(`{"start":"2026-11-22T01:00:00Z","end":"2026-11-22T02:00:00Z","session_id":"s"}`))
	p := filepath.Join(f.TempDir(), "w")
	f.Fuzz(func(t *testing.T, b []byte) {
		os.WriteFile(p, b, 0o644)
		w, err := ReadWitness([]string{p})
		if err != nil {
			return
		}
		for _, tm := range []time.Time{at(20, 3, 0), at(22, 1, 30), {}} {
			switch w.place(tm, "s") {
			case witInside, witOutside, witUnchecked:
			default:
				t.Fatal("place gave no answer")
			}
		}
	})
}

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o600) }
