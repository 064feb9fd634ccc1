package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// The traces an operator reads afterwards: system logs, the journal, the
// shell's history. An agent that clears them (truncate -s0 /var/log/auth.log,
// journalctl --vacuum-time=1s, history -c, unset HISTFILE) leaves the
// operator less to check its work by; sentinel's own register is guarded
// apart (SENTINEL-TAMPER). And an agent started with its approvals off
// (claude --dangerously-skip-permissions, codex --yolo) runs what its model
// decides with no human, whatever this session's mode is.

// Rules of this file.
const (
	RuleOversightTraces   = "OVERSIGHT-TRACES"
	RuleAgentUnsupervised = "AGENT-UNSUPERVISED"
)

var _ = rules(
	Rule{ID: RuleOversightTraces, Class: ClassOversight, Severity: SevMedium, Decision: Ask,
		Reason:      "clears or switches off logs or the shell history the operator checks afterwards",
		Alternative: "leave logs and history alone; ask the operator to rotate them",
		Matches:     "writes, truncation or deletion under `/var/log/`, `journalctl --vacuum-*`/`--rotate`, `history -c`, `unset HISTFILE`, `HISTFILE=/dev/null`, `HISTSIZE=0`, `set +o history`",
		Fire:        []string{"truncate -s0 /var/log/auth.log", "journalctl --vacuum-time=1s", "history -c", "unset HISTFILE", "export HISTFILE=/dev/null; ./deploy.sh", "rm -f /var/log/syslog*", ": > /var/log/nginx/access.log"},
		Pass:        []string{"tail -n 50 /var/log/syslog", "journalctl -u app --since today", "history | tail", "echo $HISTFILE", "export HISTSIZE=10000", "rm -f logs/app.log"}},
	Rule{ID: RuleAgentUnsupervised, Class: ClassOversight, Severity: SevHigh, Decision: Ask,
		Reason:      "starts a coding agent with its approvals or sandbox switched off: it runs what its model decides, with no human",
		Alternative: "run the agent in its default mode, or ask the operator",
		Matches:     "`claude --dangerously-skip-permissions` or `--permission-mode bypassPermissions`, `codex --dangerously-bypass-approvals-and-sandbox`/`--yolo`, `gemini --yolo`/`--approval-mode yolo`, `aider --yes-always` (or a prefix, `--yes`), `qwen --yolo`, `crush --yolo`, `copilot --allow-all-tools`, `cursor-agent --force`, `amp --dangerously-allow-all`, `codex --sandbox danger-full-access`, `claude --allowedTools Bash` (or `Bash(*)`: every command approved), `opencode --dangerously-skip-permissions`, `q chat --trust-all-tools`, `goose run` (its default mode approves everything), also started by a package runner (`npx @anthropic-ai/claude-code --dangerously-skip-permissions`)",
		Fire: []string{`claude --dangerously-skip-permissions -p "fix the tests"`, "claude -p --permission-mode bypassPermissions 'deploy'", "codex exec --yolo 'clean up'", "gemini --yolo -p 'x'", "aider --yes-always --message 'refactor'",
			"aider --yes --message 'refactor'", "qwen --yolo -p 'x'", "npx -y @anthropic-ai/claude-code --dangerously-skip-permissions -p x",
			"codex exec --sandbox danger-full-access 'x'", "claude -p x --allowedTools 'Bash(*)'", "opencode run --dangerously-skip-permissions x", "q chat --trust-all-tools x", "goose run -t x"},
		Pass: []string{`claude -p "summarise the diff"`, "claude --permission-mode plan", "codex exec 'explain main.go'", "aider --help", "gemini -p 'x'",
			"qwen -p 'x'", "npx -y @anthropic-ai/claude-code -p x", "npx yes --yolo",
			"codex exec -s read-only 'x'", "claude -p x --allowedTools 'Bash(git diff:*)' Read", "opencode run x", "q chat x", "goose session list"}},
)

var _ = onExec(func(j *judge, x execution) {
	name := x.e.Name
	if an, aa := programs.AgentCall(name, x.args); programs.Unsupervised(an, aa) {
		j.add(RuleAgentUnsupervised, x.detail)
	}
	if programs.HistoryOff(name, x.args) || programs.LogWipe(name, x.args) {
		j.add(RuleOversightTraces, x.detail)
		return
	}
	if name == "export" || name == "declare" || name == "typeset" || name == "readonly" {
		for _, a := range x.args {
			if k, v, ok := strings.Cut(a, "="); ok && programs.HistoryAssign(k, v) {
				j.add(RuleOversightTraces, x.detail)
				return
			}
		}
	}
	for _, a := range x.e.Assigns {
		if a.Value.Static && programs.HistoryAssign(a.Name, a.Value.Value) {
			j.add(RuleOversightTraces, x.detail)
			return
		}
	}
})

// traceFile reports the system logs: writing, truncating or deleting them
// clears what the operator reads afterwards.
func traceFile(p string) bool {
	return strings.HasPrefix(p, "/var/log/") || p == "/var/log"
}
