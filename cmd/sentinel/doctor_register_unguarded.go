package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/transcript"
)

// doctorUnguardedShown is how many sessions with unguarded calls doctor
// names (newest first); the rest are counted.
const doctorUnguardedShown = 5

// doctorUnguardedDays bounds what doctor reads: transcript files modified in
// the last 30 days (and since the register began). Doctor is a health
// check that must stay quick on years of transcripts; outcomes and the
// census count every unguarded call of their window.
const doctorUnguardedDays = 30

// checkUnguarded: every tool call in the Claude Code transcripts since the
// register began has a decision in the register or the journal. A call
// without one ran without the hook (disableAllHooks in a settings file, the
// hook removed, stopped or replaced): it could not be prevented, but it is
// named here with its session and time. Only transcript files modified
// since the register's first entry are read.
func checkUnguarded(rep *doctorReport) {
	const name = "unguarded calls"
	path, err := paths.RegisterPath()
	if err != nil {
		return
	}
	reg, err := register.OpenReadOnly(path)
	if err != nil {
		return // the register checks say why
	}
	defer reg.Close()
	since, err := reg.FirstTime()
	if err != nil || since.IsZero() {
		return
	}
	dir := transcript.DefaultDir(paths.Home())
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		rep.add(name, doctorWarn, fmt.Sprintf("no Claude Code transcripts at %s: a session run without the hook cannot be seen", dir),
			"set CLAUDE_CONFIG_DIR if Claude Code keeps its files elsewhere")
		return
	}
	from := time.Now().Add(-doctorUnguardedDays * 24 * time.Hour)
	if since.After(from) {
		from = since
	}
	calls := outcome.NewCalls()
	defer calls.Close()
	src, err := transcript.Read([]string{dir}, transcript.Options{ModifiedSince: from},
		transcript.Handler{Call: func(_ string, c *transcript.Call) { calls.Add(c) }})
	if err != nil {
		rep.add(name, doctorWarn, fmt.Sprintf("the transcripts could not be read: %v", err), "")
		return
	}
	n := calls.Len()
	us, err := outcome.UnguardedIn(reg, calls)
	if err != nil {
		rep.add(name, doctorWarn, fmt.Sprintf("the register could not be joined with the transcripts: %v", err), "")
		return
	}
	if len(us) == 0 {
		rep.add(name, doctorOK, fmt.Sprintf("every tool call in the %d transcript file(s) under %s modified since %s (the register began %s; at most %d days back) has a decision in the register or the journal (%d calls)",
			src.Files, dir, from.UTC().Format(time.RFC3339), since.UTC().Format(time.RFC3339), doctorUnguardedDays, n-int(calls.Before)), "")
		return
	}
	sessions := outcome.BySession(us)
	var parts []string
	for i, s := range sessions {
		if i == doctorUnguardedShown {
			parts = append(parts, fmt.Sprintf("and %d more session(s)", len(sessions)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("session %s: %d call(s) from %s to %s", s.Session, s.Calls,
			s.First.UTC().Format(time.RFC3339), s.Last.UTC().Format(time.RFC3339)))
	}
	rep.add(name, doctorFail, fmt.Sprintf("%d tool call(s) in the transcripts have no decision in the register or the journal: they ran without the hook (%s)",
		len(us), strings.Join(parts, "; ")),
		"read those sessions' transcripts for what they did; find what switched the hook off (disableAllHooks, a settings file replaced, the hook removed or stopped): sentinel outcomes --json lists them")
}
