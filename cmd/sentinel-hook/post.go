package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/internal/version"
	"github.com/sentinel-guard/sentinel/register"
)

// postCall is the part of a PostToolUse payload that is kept. The payload
// also carries tool_response (the tool's output): it is deliberately not
// decoded and never stored.
type postCall struct {
	SessionID      string `json:"session_id"`
	Cwd            string `json:"cwd"`
	PermissionMode string `json:"permission_mode"`
	ToolName       string `json:"tool_name"`
	ToolUseID      string `json:"tool_use_id"`
}

// runPost records that a call ran. It never blocks: it prints nothing on
// stdout and the caller exits 0; problems go to stderr and, where possible,
// into the register as an error entry (or the journal).
func runPost(stdin io.Reader, stderr io.Writer) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "sentinel-hook post: internal error: %v\n", v)
		}
	}()
	var c postCall
	e := register.Entry{Kind: register.KindOutcome, Label: "ran", Rules: []string{}, Version: version.Version}
	data, err := readPayload(stdin)
	if err == nil {
		if err = json.Unmarshal(data, &c); err != nil {
			err = fmt.Errorf("PostToolUse payload is not valid JSON: %v", err)
		} else if c.ToolUseID == "" {
			err = fmt.Errorf("PostToolUse payload has no tool_use_id")
		}
	}
	e.SessionID, e.ToolUseID, e.Cwd, e.Tool, e.PermissionMode = c.SessionID, c.ToolUseID, c.Cwd, c.ToolName, c.PermissionMode
	if err != nil {
		fmt.Fprintln(stderr, "sentinel-hook post:", err)
		e.Kind, e.Label, e.Reason = register.KindError, "", "outcome not recorded: "+err.Error()
		e.Rules = []string{errorRule}
	}
	if aerr := appendEntry(&e); aerr != nil {
		fmt.Fprintln(stderr, "sentinel-hook post: register:", aerr)
		dir, derr := paths.StateDir()
		if derr == nil {
			derr = register.JournalWhy(dir, &e, aerr)
		}
		if derr != nil {
			fmt.Fprintln(stderr, "sentinel-hook post: journal:", derr)
			fmt.Fprintln(stderr, "sentinel-hook post: this outcome could not be registered")
		}
	}
}
