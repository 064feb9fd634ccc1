package programs

import "strings"

// Coding agents started by the agent. An agent with its approvals switched
// off runs whatever its model decides, without the human this session may
// have: the command line is the one place that says so.

// Unsupervised reports an agent CLI told to skip its approvals or sandbox:
// claude --dangerously-skip-permissions or --permission-mode
// bypassPermissions, codex --dangerously-bypass-approvals-and-sandbox or
// --yolo, gemini --yolo/-y or --approval-mode yolo, aider --yes-always,
// cursor-agent --force, amp --dangerously-allow-all, goose with
// GOOSE_MODE=auto is not seen here (an environment setting).
func Unsupervised(name string, args []string) bool {
	val := func(opt string) (string, bool) {
		for i, a := range args {
			if v, ok := strings.CutPrefix(a, opt+"="); ok {
				return v, true
			}
			if a == opt && i+1 < len(args) {
				return args[i+1], true
			}
		}
		return "", false
	}
	switch name {
	case "claude":
		if hasWord(args, "--dangerously-skip-permissions", "--allow-dangerously-skip-permissions") {
			return true
		}
		m, ok := val("--permission-mode")
		if ok && m == "bypassPermissions" {
			return true
		}
		// --allowedTools Bash or Bash(*): every shell command pre-approved
		for _, opt := range []string{"--allowedTools", "--allowed-tools"} {
			if v, ok := val(opt); ok && unlimitedBash(v) {
				return true
			}
		}
		return false
	case "codex":
		if hasWord(args, "--dangerously-bypass-approvals-and-sandbox", "--yolo") {
			return true
		}
		// --sandbox danger-full-access: no sandbox around what it runs
		m, ok := val("--sandbox")
		if !ok {
			m, ok = val("-s")
		}
		return ok && m == "danger-full-access" || hasWord(args, "sandbox_mode=danger-full-access", `sandbox_mode="danger-full-access"`)
	case "gemini":
		if hasWord(args, "--yolo", "-y") {
			return true
		}
		m, ok := val("--approval-mode")
		return ok && m == "yolo"
	case "qwen":
		// qwen-code is gemini-cli's fork, with its options.
		if hasWord(args, "--yolo", "-y") {
			return true
		}
		m, ok := val("--approval-mode")
		return ok && m == "yolo"
	case "aider":
		// aider's options are argparse's: any unique prefix of
		// --yes-always is it (--yes, --yes-a).
		for _, a := range args {
			if len(a) >= 5 && strings.HasPrefix("--yes-always", a) {
				return true
			}
		}
		return false
	case "crush":
		return hasWord(args, "--yolo", "-y")
	case "copilot":
		return hasWord(args, "--allow-all-tools", "--allow-all")
	case "cursor-agent":
		return hasWord(args, "--force", "-f")
	case "amp":
		return hasWord(args, "--dangerously-allow-all")
	case "opencode":
		return hasWord(args, "--dangerously-skip-permissions")
	case "q", "kiro-cli":
		// Amazon Q Developer's chat (and its successor kiro-cli)
		return hasWord(args, "--trust-all-tools")
	case "goose":
		// goose's default mode is auto: goose run executes every tool
		// call its model makes without asking (GOOSE_MODE=approve asks;
		// the environment is not seen here)
		return len(args) > 0 && args[0] == "run"
	}
	return false
}

// unlimitedBash reports a claude tool list (comma or space separated)
// that approves every shell command: Bash, Bash(*), Bash(:*).
func unlimitedBash(list string) bool {
	for _, t := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		switch strings.Trim(t, `"'`) {
		case "Bash", "Bash(*)", "Bash(:*)", "Bash(**)":
			return true
		}
	}
	return false
}

// HistoryOff reports a shell builtin or setting that stops the shell
// history from recording or clears it: history -c, unset HISTFILE,
// HISTFILE=/dev/null, HISTSIZE=0, set +o history.
func HistoryOff(name string, args []string) bool {
	switch name {
	case "history":
		return hasWord(args, "-c") || len(args) > 1 && args[0] == "-w" && args[1] == "/dev/null"
	case "unset":
		return hasWord(args, "HISTFILE")
	case "set":
		return len(args) > 1 && args[0] == "+o" && args[1] == "history"
	}
	return false
}

// HistoryAssign reports an assignment that switches the history off.
func HistoryAssign(name, value string) bool {
	switch name {
	case "HISTFILE":
		return value == "/dev/null" || value == ""
	case "HISTSIZE", "HISTFILESIZE", "SAVEHIST":
		return value == "0"
	}
	return false
}

// LogWipe reports a log tool told to delete logs: journalctl
// --vacuum-time/--vacuum-size/--vacuum-files/--rotate, logrotate -f.
func LogWipe(name string, args []string) bool {
	if name != "journalctl" {
		return false
	}
	for _, a := range args {
		if strings.HasPrefix(a, "--vacuum-") || a == "--rotate" {
			return true
		}
	}
	return false
}

// agents are the coding agents' command names.
var agents = map[string]bool{"claude": true, "codex": true, "gemini": true, "aider": true, "cursor-agent": true,
	"amp": true, "goose": true, "opencode": true, "copilot": true, "qwen": true, "crush": true}

// agentPackages are the npm packages whose command is an agent (by the
// last part of the name, as PackageRun gives it: @anthropic-ai/claude-code
// is claude-code): npx, bunx, pnpm dlx and npm exec of one start the agent.
var agentPackages = map[string]string{
	"claude-code": "claude", "codex": "codex", "gemini-cli": "gemini", "qwen-code": "qwen",
	"copilot": "copilot", "amp": "amp", "opencode-ai": "opencode", "crush": "crush",
}

// AgentCall is the agent a package runner starts (npx -y
// @anthropic-ai/claude-code@latest -p x is claude -p x), else name and
// args unchanged.
func AgentCall(name string, args []string) (string, []string) {
	tool, rest := PackageRun(name, args)
	if tool == name {
		return name, args
	}
	if a, ok := agentPackages[tool]; ok {
		return a, rest
	}
	return tool, rest
}

// IsAgent reports a coding agent's command name.
func IsAgent(name string) bool { return agents[name] }

// HooksOff reports a coding agent started with settings that switch its
// hooks or permission checks off for the run: claude --settings with
// disableAllHooks, hooks or permissions in inline JSON (or any settings
// file: it replaces what the operator set), --setting-sources that leave
// out the user's settings (where the hook is installed); codex -c
// hooks/approval/sandbox overrides and --ignore-user-config,
// --dangerously-bypass-hook-trust, --disable hooks.
func HooksOff(name string, args []string) bool {
	switch name {
	case "claude":
		for i, a := range args {
			v, ok := strings.CutPrefix(a, "--settings=")
			if !ok && a == "--settings" && i+1 < len(args) {
				v, ok = args[i+1], true
			}
			if ok && strings.HasPrefix(strings.TrimSpace(v), "{") && SettingsHooksOff(v) {
				return true // a file's text is judge's to read (SettingsFile)
			}
			s, ok := strings.CutPrefix(a, "--setting-sources=")
			if !ok && a == "--setting-sources" && i+1 < len(args) {
				s, ok = args[i+1], true
			}
			if ok && !strings.Contains(s, "user") {
				return true
			}
		}
	case "codex":
		if hasWord(args, "--ignore-user-config", "--dangerously-bypass-hook-trust") {
			return true
		}
		for i, a := range args {
			if (a == "-c" || a == "--config") && i+1 < len(args) {
				k := strings.ToLower(args[i+1])
				if strings.HasPrefix(k, "hooks") || strings.HasPrefix(k, "features.hooks") ||
					strings.Contains(k, "approval_policy=\"never\"") || strings.Contains(k, "approval_policy=never") ||
					strings.Contains(k, "sandbox_mode=\"danger-full-access\"") || strings.Contains(k, "sandbox_mode=danger-full-access") {
					return true
				}
			}
			if a == "--disable" && i+1 < len(args) && args[i+1] == "hooks" {
				return true
			}
		}
	}
	return false
}

// ConfigWrite reports an agent's own command that writes its settings
// file: claude config set|add|remove (hooks, permissions and
// disableAllHooks among the keys); config get and list only read.
func ConfigWrite(name string, args []string) bool {
	if name != "claude" {
		return false
	}
	o := Operands(args)
	return len(o) >= 2 && o[0] == "config" && (o[1] == "set" || o[1] == "add" || o[1] == "remove" || o[1] == "rm")
}

// AgentHomeVar is the variable that moves an agent's configuration (its
// settings and hooks) elsewhere: an agent started with another one loads
// none of the operator's hooks.
func AgentHomeVar(name string) string {
	switch name {
	case "claude":
		return "CLAUDE_CONFIG_DIR"
	case "codex":
		return "CODEX_HOME"
	}
	return ""
}

// SettingsHooksOff reports Claude Code settings text that switches hooks
// or permission checks off, or replaces them.
func SettingsHooksOff(v string) bool {
	return strings.Contains(v, "disableAllHooks") || strings.Contains(v, "\"hooks\"") ||
		strings.Contains(v, "permissions") || strings.Contains(v, "defaultMode")
}

// SettingsFile is the file claude --settings names ("" for inline JSON
// or none).
func SettingsFile(name string, args []string) string {
	if name != "claude" {
		return ""
	}
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--settings=")
		if !ok && a == "--settings" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if ok && !strings.HasPrefix(strings.TrimSpace(v), "{") {
			return v
		}
	}
	return ""
}
