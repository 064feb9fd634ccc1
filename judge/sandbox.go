package judge

// Claude Code's Bash tool takes a dangerouslyDisableSandbox parameter: with
// it set, the command runs on the host, outside the bubblewrap sandbox that
// `sentinel install --harden` turns on (unless allowUnsandboxedCommands is
// false, which an agent-writable project file can undo). No command text
// shows it, so the rule reads the tool input itself.

const RuleSandboxEscape = "SANDBOX-ESCAPE"

var _ = rules(
	Rule{ID: RuleSandboxEscape, Class: ClassOversight, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "the Bash call asks to run outside Claude Code's sandbox (dangerouslyDisableSandbox)",
		Alternative: "run the command inside the sandbox; if it needs more, the operator widens the sandbox settings",
		Matches:     "a Bash call whose tool input sets `dangerouslyDisableSandbox` to anything but false (true, \"true\", 1, ...), whatever the command",
		Fire: []string{
			`Bash {"command":"ls","dangerouslyDisableSandbox":true}`,
			`Bash {"command":"echo hi > /tmp/x","dangerouslyDisableSandbox":"true"}`,
			`Bash {"command":"true","dangerouslyDisableSandbox":1}`,
		},
		Pass: []string{
			`Bash {"command":"ls","dangerouslyDisableSandbox":false}`,
			`Bash {"command":"ls","dangerouslyDisableSandbox":null}`,
			`Bash {"command":"echo dangerouslyDisableSandbox: true"}`,
		}},
)

// sandboxEscape reads the Bash tool input's dangerouslyDisableSandbox:
// absent, null and false keep the sandbox; any other value is taken as a
// request to leave it (Claude Code may coerce a string or number).
func (j *judge) sandboxEscape(obj map[string]any) {
	v, ok := obj["dangerouslyDisableSandbox"]
	if !ok || v == nil || v == false {
		return
	}
	j.add(RuleSandboxEscape, "dangerouslyDisableSandbox: true")
}
