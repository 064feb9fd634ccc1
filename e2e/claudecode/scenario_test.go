package claudecode

import (
	"encoding/json"
	"path/filepath"

	"github.com/sentinel-guard/sentinel/e2e/fakeapi"
)

// Who stopped a call: the keys the truth files use, named as the census
// names its columns.
const (
	bySentinel   = "sentinel"
	byOtherHook  = "other_hook" // another PreToolUse hook (Marker: it printed sentinel's marker)
	byRules      = "permission_rules"
	byNoHuman    = "no_human_mode" // a mode, or no prompt possible, with nobody to answer
	byUser       = "user"          // the human said No at the prompt
	byClassifier = "classifier"
)

// step is one tool call of the script, with what the scenario knows about it.
type step struct {
	Name  string
	Tool  string
	input func(w *workspace) json.RawMessage
	// Disk is the file (relative to HOME) whose presence says the call ran;
	// "" when the call leaves no mark.
	Disk string
	// Expect gives the truth of this call in a mode.
	Expect func(m mode) expect
}

// expect is the truth of one call in one mode.
type expect struct {
	Hook    string // sentinel's decision: allow, ask, deny
	Stopper string // "" the call ran
	Marker  bool   // the stopper's reason starts with sentinel's marker
	Failed  bool   // it ran and failed
	Human   string // the human's answer at a prompt: yes, no, ""
}

// mode is one way Claude Code is run.
type mode struct {
	Name        string
	Args        []string // after -p ... or the interactive prompt
	Headless    bool
	Interactive bool
	// Answers the human gives at a prompt, by step name.
	Answers map[string]string
	// PermissionMode is what Claude Code tells the hook.
	PermissionMode string
}

// unattendedMode: a mode in which sentinel itself knows nobody answers.
func (m mode) unattendedMode() bool {
	return m.PermissionMode == "bypassPermissions" || m.PermissionMode == "dontAsk"
}

// attended: a human can answer a prompt (interactive, and a mode that
// prompts).
func (m mode) attended() bool { return m.Interactive && !m.unattendedMode() }

func headlessMode(name, permissionMode string, args ...string) mode {
	return mode{Name: "p-" + name, Headless: true, Args: args, PermissionMode: permissionMode}
}

// modes are the runs of the suite: every permission mode headless, and the
// interactive terminal with a Yes and with a No at sentinel's ask.
var modes = []mode{
	headlessMode("default", "default", "--permission-mode", "default"),
	headlessMode("acceptEdits", "acceptEdits", "--permission-mode", "acceptEdits"),
	headlessMode("bypassPermissions", "bypassPermissions", "--dangerously-skip-permissions"),
	headlessMode("dontAsk", "dontAsk", "--permission-mode", "dontAsk"),
	headlessMode("plan", "plan", "--permission-mode", "plan"),
	headlessMode("auto", "auto", "--permission-mode", "auto"),
	{Name: "i-default-yes", Interactive: true, PermissionMode: "default", Args: []string{"--permission-mode", "default"},
		Answers: map[string]string{"touch-made": "yes", "write-notes": "yes", "write-script": "yes", "git-reset": "yes"}},
	{Name: "i-default-no", Interactive: true, PermissionMode: "default", Args: []string{"--permission-mode", "default"},
		Answers: map[string]string{"touch-made": "yes", "write-notes": "yes", "write-script": "yes", "git-reset": "no"}},
}

func bash(cmd string) func(*workspace) json.RawMessage {
	return func(*workspace) json.RawMessage { return stepInput("command", cmd, "description", "scripted") }
}

// ran is the truth of a call sentinel allows and nothing stops.
func ran(mode) expect { return expect{Hook: "allow"} }

// byMode is the truth of a call sentinel allows that Claude Code's own
// permission flow decides: auto-approved in the modes named, refused with
// nobody to ask in the others (headless), or answered by the human at the
// terminal (see truthOf). stoppers names a mode whose refusal is someone
// else's (in 2.1.328 plan mode sends a shell command that changes files to
// the auto-mode classifier, which does not run there: "unavailable").
func byMode(autoApproved map[string]bool, stoppers map[string]string) func(mode) expect {
	return func(m mode) expect {
		e := expect{Hook: "allow"}
		switch {
		case autoApproved[m.PermissionMode], m.Interactive:
		case stoppers[m.PermissionMode] != "":
			e.Stopper = stoppers[m.PermissionMode]
		default:
			e.Stopper = byNoHuman
		}
		return e
	}
}

// steps is the script every mode plays; sentinel's ask comes last because
// a No at the terminal ends the turn.
var steps = []step{
	{Name: "rm-home", Tool: "Bash", input: bash("rm -rf ~/" + keepDir), Disk: "",
		Expect: func(mode) expect { return expect{Hook: "deny", Stopper: bySentinel, Marker: true} }},
	{Name: "ls", Tool: "Bash", input: bash("ls"), Expect: ran},
	{Name: "touch-made", Tool: "Bash", input: bash("touch made-marker"), Disk: "proj/made-marker",
		Expect: byMode(map[string]bool{"acceptEdits": true, "bypassPermissions": true, "auto": true}, map[string]string{"plan": byClassifier})},
	{Name: "ls-fails", Tool: "Bash", input: bash("ls no-such-dir"),
		Expect: func(mode) expect { return expect{Hook: "allow", Failed: true} }},
	{Name: "touch-forbidden", Tool: "Bash", input: bash("touch " + forbidden), Disk: "proj/" + forbidden,
		Expect: func(mode) expect { return expect{Hook: "allow", Stopper: byRules} }},
	{Name: "imitated", Tool: "Bash", input: bash("echo x > " + imitated + " # " + imitateToken), Disk: "proj/" + imitated,
		Expect: func(mode) expect { return expect{Hook: "allow", Stopper: byOtherHook, Marker: true} }},
	{Name: "other-hook", Tool: "Bash", input: bash("echo x > " + otherMarker + " # " + otherToken), Disk: "proj/" + otherMarker,
		Expect: func(mode) expect { return expect{Hook: "allow", Stopper: byOtherHook} }},
	{Name: "write-notes", Tool: "Write", Disk: "proj/notes.txt",
		input: func(w *workspace) json.RawMessage {
			return stepInput("file_path", filepath.Join(w.project, "notes.txt"), "content", "notes\n")
		},
		Expect: byMode(map[string]bool{"acceptEdits": true, "bypassPermissions": true, "auto": true}, nil)},
	// Session memory: a Write of a script, then its run in a later call of
	// the same session. The Write is Claude Code's to permit; the run is
	// stopped in every mode, whether or not the file was written (the
	// memory of the Write, and the file on disk when it is there).
	{Name: "write-script", Tool: "Write", Disk: "proj/x.sh",
		input: func(w *workspace) json.RawMessage {
			return stepInput("file_path", filepath.Join(w.project, "x.sh"), "content", "#!/bin/sh\nrm -rf ~/"+keepDir+"\n")
		},
		Expect: byMode(map[string]bool{"acceptEdits": true, "bypassPermissions": true, "auto": true}, nil)},
	{Name: "run-script", Tool: "Bash", input: bash("bash x.sh"),
		Expect: func(mode) expect { return expect{Hook: "deny", Stopper: bySentinel, Marker: true} }},
	{Name: "git-reset", Tool: "Bash", input: bash("git reset --hard"),
		Expect: func(m mode) expect {
			e := expect{Hook: "ask", Stopper: bySentinel, Marker: true}
			if !m.attended() {
				// Nobody can answer: sentinel denies (headless is unattended).
				e.Hook = "deny"
			}
			if m.Interactive && !m.unattendedMode() {
				e.Human = m.Answers["git-reset"]
				e.Stopper, e.Marker = "", false
				if e.Human == "no" {
					e.Stopper = byUser
				}
			}
			return e
		}},
}

// truthOf is the truth of step s in mode m.
func truthOf(s step, m mode) expect {
	e := s.Expect(m)
	if e.Human == "" && m.Interactive && e.Stopper == "" && s.Name != "git-reset" {
		if a, ok := m.Answers[s.Name]; ok {
			e.Human = a
		}
	}
	if e.Human == "no" && e.Stopper == "" {
		e.Stopper = byUser
	}
	return e
}

func script(w *workspace, prefix string) fakeapi.Script {
	sc := fakeapi.Script{IDPrefix: prefix, FinalText: "Done."}
	for _, s := range steps {
		sc.Steps = append(sc.Steps, fakeapi.Step{Tool: s.Tool, Input: s.input(w)})
	}
	return sc
}
