package main

import (
	"path/filepath"
	"testing"

	"github.com/sentinel-guard/sentinel/register"
)

// The journal's lock held while a journal line is pending (the next append
// must merge it): answered within the budget and recorded.
func TestAttackJournalLockHeld(t *testing.T) {
	a := newAttack(t)
	e := register.Entry{Kind: register.KindDecision, ToolUseID: "toolu_pending", Decision: "allow", Rules: []string{}}
	if err := register.Journal(a.state, &e); err != nil {
		t.Fatal(err)
	}
	holdLock(t, filepath.Join(a.state, "journal.lock"))
	a.call("toolu_journal_held", "rm -rf ~", "deny")
	a.recorded("toolu_journal_held")
}

// A FIFO where the journal would be: never opened for reading, never waited on.
func TestAttackJournalFIFO(t *testing.T) {
	a := newAttack(t)
	mkfifo(t, filepath.Join(a.state, register.JournalFile))
	a.call("toolu_journal_fifo", "rm -rf ~", "deny")
	if where, _ := a.recorded("toolu_journal_fifo"); where != "register" {
		t.Errorf("with a FIFO journal the call went to the %s", where)
	}
}
