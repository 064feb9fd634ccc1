package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Codex CLI's transcripts ("rollouts", ../shared/docs/codex.md §2): one
// JSON object a line, {"timestamp","ordinal","type","payload"}. The first
// record is a session_meta whose payload names the session; a tool call is
// a response_item whose payload is a function_call (exec_command,
// write_stdin, ...: {name, arguments, call_id}) or a custom_tool_call
// (apply_patch: {name, input, call_id}); its result is a response_item
// function_call_output or custom_tool_call_output ({call_id, output}).
// The call_id is what Codex hands a hook as tool_use_id, so the register
// joins on it as it does on Claude Code's tool_use ids.
//
// What Codex records about who stopped a call is one fixed text: a
// PreToolUse hook's block becomes the output "Command blocked by PreToolUse
// hook: <reason>. Command: <command>" (0.169.0). Nothing else in a rollout
// says a call was refused: codex exec never prompts (approval "never"), and
// a sandbox refusal is the command's own failure. The columns that need
// more (permission rules, the classifier, the human at a prompt) are not
// measured for Codex (docs/census.md).

// CodexDir is $CODEX_HOME/sessions, else ~/.codex/sessions.
func CodexDir(home string) string {
	if d := os.Getenv("CODEX_HOME"); d != "" {
		return filepath.Join(d, "sessions")
	}
	return filepath.Join(home, ".codex", "sessions")
}

// IsCodexRollout reports whether p is named as Codex names its transcripts
// (sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl). Claude Code names
// its own <session>.jsonl and agent-<id>.jsonl.
func IsCodexRollout(p string) bool {
	b := filepath.Base(p)
	return strings.HasPrefix(b, "rollout-") && strings.HasSuffix(b, ".jsonl")
}

// TxtCodexHookBlock is the fixed start of what Codex tells the model when a
// PreToolUse hook blocked the call.
const TxtCodexHookBlock = "Command blocked by PreToolUse hook: "

// codexScan is a rollout's state while it is read.
type codexScan struct {
	on      bool   // the file is a Codex rollout
	session string // from session_meta
}

// codexRecord reads only the fields needed from one rollout line.
type codexRecord struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		SessionID string          `json:"session_id"`
		Name      string          `json:"name"`
		CallID    string          `json:"call_id"`
		Output    json.RawMessage `json:"output"`
	} `json:"payload"`
}

var (
	patCodexMeta   = []byte(`"session_meta"`)
	patCodexCall   = []byte(`"function_call`)    // function_call, function_call_output
	patCodexCustom = []byte(`"custom_tool_call`) // custom_tool_call, custom_tool_call_output
)

// handleCodexLine counts one rollout record and keeps its calls and results.
func (fs *fileScan) handleCodexLine(line []byte, off int64, size int) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if !bytes.Contains(line, patCodexMeta) && !bytes.Contains(line, patCodexCall) && !bytes.Contains(line, patCodexCustom) {
		if line[0] == '{' && json.Valid(line) {
			fs.src.Records++
		} else {
			fs.src.UnreadableLines++
		}
		return
	}
	var rec codexRecord
	if line[0] != '{' || json.Unmarshal(line, &rec) != nil {
		fs.src.UnreadableLines++
		return
	}
	fs.src.Records++
	p := &rec.Payload
	if rec.Type == "session_meta" {
		if fs.cx.session == "" {
			fs.cx.session = p.ID
			if fs.cx.session == "" {
				fs.cx.session = p.SessionID
			}
		}
		return
	}
	if rec.Type != "response_item" || p.CallID == "" {
		return
	}
	t, inWindow := fs.when(rec.Timestamp)
	switch p.Type {
	case "function_call", "custom_tool_call":
		fs.events = append(fs.events, event{key: KeyOf(p.CallID), id: p.CallID, session: fs.cx.session, name: p.Name,
			inWindow: inWindow, t: t, off: off, size: size})
	case "function_call_output", "custom_tool_call_output":
		ev := event{result: true, key: KeyOf(p.CallID), id: p.CallID, session: fs.cx.session, inWindow: inWindow, t: t}
		ev.in = resultIn{codex: true}
		if text, ok := codexOutputText(p.Output); ok && strings.HasPrefix(text, TxtCodexHookBlock) {
			ev.in.snip = newSnippet(text)
		}
		fs.events = append(fs.events, ev)
	}
}

// codexOutputText is a tool output's text: a string (what 0.169.0 writes
// for every shell and patch result, blocks included), or the first text of
// a content list (read as Claude Code's).
func codexOutputText(raw json.RawMessage) (string, bool) {
	return contentText(raw)
}

// codexVerdict is who stopped a Codex call: only a PreToolUse hook's block
// is recorded. Codex never shows a hook's question to anyone, so a hook
// stop is also nobody's answer (Unanswered); the register says whether it
// was an ask.
func codexVerdict(in *resultIn) Verdict {
	s := in.snip
	if !in.textOK || !s.hasPrefix(TxtCodexHookBlock) {
		return Verdict{Codex: true}
	}
	rest := strings.TrimPrefix(s.head, TxtCodexHookBlock)
	return Verdict{Stopper: StopHook, Marker: strings.HasPrefix(rest, Marker), Unanswered: true, Codex: true}
}
