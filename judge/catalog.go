package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"
	"sync"
	"unicode/utf8"
)

// CatalogVersion names the shipped rule catalog. Bump it whenever a rule is
// added, removed or changes meaning; CatalogHash changes with any edit.
const CatalogVersion = "2026.11.3"

// Classes of rules.
const (
	ClassDiscardWork    = "discard-work"
	ClassDestroyFiles   = "destroy-files"
	ClassSecrets        = "secrets"
	ClassExfiltration   = "exfiltration"
	ClassRemoteCode     = "remote-code"
	ClassPrivilege      = "privilege"
	ClassOversight      = "oversight"
	ClassInfrastructure = "infrastructure"
	ClassDynamic        = "dynamic"
	ClassError          = "error"
	ClassCustom         = "custom" // operator rules from the configuration
)

// Severities, from most to least serious.
const (
	SevCritical = "critical"
	SevHigh     = "high"
	SevMedium   = "medium"
	SevLow      = "low"
)

// Rule is one entry of the catalog.
type Rule struct {
	ID          string  `json:"id"`
	Class       string  `json:"class"`
	Severity    string  `json:"severity"`
	Decision    Verdict `json:"-"`
	Reason      string  `json:"reason"`
	Alternative string  `json:"alternative"`
	// Catastrophic rules cannot be switched off by configuration.
	Catastrophic bool `json:"catastrophic"`
	// Prefix is set for operator rules: the command prefix they match.
	Prefix []string `json:"prefix,omitempty"`
}

// MarshalJSON writes the decision as text.
func (r Rule) MarshalJSON() ([]byte, error) {
	type plain Rule
	return json.Marshal(struct {
		plain
		Decision string `json:"decision"`
	}{plain(r), r.Decision.String()})
}

// Rule ids used by the code; the catalog below gives each its text.
const (
	RuleGitResetHard       = "GIT-RESET-HARD"
	RuleGitStashDrop       = "GIT-STASH-DROP"
	RuleGitCleanForce      = "GIT-CLEAN-FORCE"
	RuleGitCheckoutDiscard = "GIT-CHECKOUT-DISCARD"
	RuleGitRestore         = "GIT-RESTORE-WORKTREE"
	RuleGitSwitchDiscard   = "GIT-SWITCH-DISCARD"
	RuleGitPushForce       = "GIT-PUSH-FORCE"
	RuleGitBranchForceDel  = "GIT-BRANCH-FORCE-DELETE"
	RuleGitReflogExpire    = "GIT-REFLOG-EXPIRE"
	RuleGitFilterBranch    = "GIT-HISTORY-REWRITE"
	RuleGitUpdateRefDelete = "GIT-UPDATE-REF-DELETE"
	RuleGitWorktreeRemove  = "GIT-WORKTREE-REMOVE-FORCE"
	RuleGitReadTreeReset   = "GIT-READ-TREE-RESET"
	RuleRmGitDir           = "RM-GIT-DIR"

	RuleRmSystem         = "RM-SYSTEM"
	RuleRmHome           = "RM-HOME"
	RuleRmOutside        = "RM-OUTSIDE-PROJECT"
	RuleRmFileOutside    = "RM-FILE-OUTSIDE-PROJECT"
	RuleRmDynamic        = "RM-DYNAMIC-TARGET"
	RuleRmProjectRoot    = "RM-PROJECT-ROOT"
	RuleFindDelete       = "FIND-DELETE-OUTSIDE"
	RuleDiskDevice       = "DISK-DEVICE-WRITE"
	RuleMkfs             = "DISK-FORMAT"
	RuleShred            = "SHRED"
	RuleTruncateDotfile  = "TRUNCATE-DOTFILE"
	RuleDotfileWrite     = "DOTFILE-WRITE"
	RuleChmodRecursive   = "CHMOD-RECURSIVE-SYSTEM"
	RuleRsyncDeleteHome  = "RSYNC-DELETE-HOME"
	RuleProtectedPath    = "PROTECTED-PATH-WRITE"
	RuleSecretRead       = "SECRET-READ"
	RuleEnvDump          = "ENV-DUMP"
	RuleCredentialWrite  = "CREDENTIAL-STORE-WRITE"
	RuleExfil            = "EXFIL-SECRET-NETWORK"
	RuleHostNotAllowed   = "NETWORK-HOST-NOT-ALLOWED"
	RuleRemoteCodePipe   = "REMOTE-CODE-EXEC"
	RuleDecodeExec       = "DECODE-EXEC"
	RuleEvalDynamic      = "EVAL-DYNAMIC"
	RuleRemoteCodeFile   = "REMOTE-CODE-FILE"
	RuleRmRemote         = "RM-REMOTE"
	RuleSudo             = "PRIV-SUDO"
	RuleSudoers          = "PRIV-SUDOERS"
	RuleSetuid           = "PRIV-SETUID"
	RuleShutdown         = "SYS-SHUTDOWN"
	RuleKillAll          = "SYS-KILL-ALL"
	RuleServiceStop      = "SYS-SERVICE-STOP"
	RuleFirewallFlush    = "SYS-FIREWALL-FLUSH"
	RuleCrontabRemove    = "SYS-CRONTAB-REMOVE"
	RuleSystemWrite      = "SYS-FILE-WRITE"
	RuleSentinelTamper   = "SENTINEL-TAMPER"
	RuleClaudeSettings   = "CLAUDE-SETTINGS-EDIT"
	RuleGitHooksPath     = "GIT-HOOKS-PATH"
	RuleGitNoVerify      = "GIT-NO-VERIFY"
	RuleTerraformDestroy = "INFRA-TERRAFORM-DESTROY"
	RuleKubectlDelete    = "INFRA-KUBE-DELETE"
	RuleCloudDelete      = "INFRA-CLOUD-DELETE"
	RuleSQLDestructive   = "DATA-SQL-DESTRUCTIVE"
	RuleDBReset          = "DATA-DB-RESET"
	RuleDynamicCommand   = "DYNAMIC-COMMAND"
	RuleUnjudged         = "SENTINEL-UNJUDGED"
)

// catalog is the shipped rule set, in a stable order (by class, then id as
// written here). Reasons are one line; alternatives say what to do instead.
var catalog = []Rule{
	// discard-work: ask, so a human sees it attended and unattended denies.
	{RuleGitResetHard, ClassDiscardWork, SevHigh, Ask, "git reset --hard discards uncommitted changes in the worktree and index", "commit or `git stash` first, or use `git reset --keep`", false, nil},
	{RuleGitStashDrop, ClassDiscardWork, SevHigh, Ask, "git stash drop/clear deletes stashed work", "leave the stash in place; `git stash list` to inspect it", false, nil},
	{RuleGitCleanForce, ClassDiscardWork, SevHigh, Ask, "git clean -f deletes untracked files that git cannot restore", "run `git clean -n` to see what would go, then remove paths explicitly", false, nil},
	{RuleGitCheckoutDiscard, ClassDiscardWork, SevHigh, Ask, "git checkout of paths (or -f) overwrites uncommitted changes", "`git stash` first, or `git diff` to see what would be lost", false, nil},
	{RuleGitRestore, ClassDiscardWork, SevHigh, Ask, "git restore of the worktree overwrites uncommitted changes", "`git restore --staged` only unstages; `git stash` keeps the changes", false, nil},
	{RuleGitSwitchDiscard, ClassDiscardWork, SevHigh, Ask, "git switch -f/--discard-changes throws away local changes", "commit or stash, then switch without --discard-changes", false, nil},
	{RuleGitPushForce, ClassDiscardWork, SevHigh, Ask, "force push, mirror push or remote ref deletion rewrites shared history", "`git push --force-with-lease`, or push a new branch", false, nil},
	{RuleGitBranchForceDel, ClassDiscardWork, SevMedium, Ask, "git branch -D deletes a branch even when it is not merged", "`git branch -d` refuses to delete unmerged work", false, nil},
	{RuleGitReflogExpire, ClassDiscardWork, SevHigh, Ask, "expiring the reflog or pruning now removes the last way back to lost commits", "leave reflog and gc to their defaults", false, nil},
	{RuleGitFilterBranch, ClassDiscardWork, SevHigh, Ask, "filter-branch/filter-repo rewrites the whole history", "work on a fresh clone and review before pushing", false, nil},
	{RuleGitUpdateRefDelete, ClassDiscardWork, SevMedium, Ask, "git update-ref -d deletes a ref without any safety check", "`git branch -d` / `git tag -d` with review", false, nil},
	{RuleGitWorktreeRemove, ClassDiscardWork, SevMedium, Ask, "git worktree remove --force deletes a worktree with uncommitted changes", "commit in that worktree first, or remove it without --force", false, nil},
	{RuleGitReadTreeReset, ClassDiscardWork, SevMedium, Ask, "git read-tree --reset overwrites the index (and with -u the worktree)", "`git stash` first", false, nil},
	{RuleRmGitDir, ClassDiscardWork, SevHigh, Ask, "deleting a .git directory destroys the repository's history", "keep .git; remove only the files you mean to", false, nil},

	// destroy-files
	{RuleRmSystem, ClassDestroyFiles, SevCritical, Deny, "rm of /, a system directory or a system file (recursive, forced, or in /etc, /usr, /bin, /boot ...)", "delete the specific project paths you mean, by name", true, nil},
	{RuleRmHome, ClassDestroyFiles, SevCritical, Deny, "recursive or forced rm of the home directory or its dotfiles", "delete the specific project paths you mean, by name", true, nil},
	{RuleRmOutside, ClassDestroyFiles, SevHigh, Deny, "recursive or forced rm of a path outside the project", "work inside the project or a temp dir; ask the operator to remove it", false, nil},
	{RuleRmFileOutside, ClassDestroyFiles, SevMedium, Ask, "deleting a file outside the project", "leave files outside the project to the operator", false, nil},
	{RuleRmRemote, ClassDestroyFiles, SevHigh, Ask, "deleting files on another machine or in a container (ssh, docker exec, kubectl exec)", "ask the operator; list what would go first", false, nil},
	{RuleRmDynamic, ClassDestroyFiles, SevMedium, Ask, "recursive or forced rm of a path that is only known at run time", "spell the path out, or check the variable is set and inside the project", false, nil},
	{RuleRmProjectRoot, ClassDestroyFiles, SevHigh, Ask, "recursive rm of the whole project directory", "delete the build outputs by name (build/, dist/, node_modules/)", false, nil},
	{RuleFindDelete, ClassDestroyFiles, SevHigh, Deny, "find -delete/-exec rm starting outside the project, at / or in home", "run find inside the project, first without -delete", false, nil},
	{RuleDiskDevice, ClassDestroyFiles, SevCritical, Deny, "writing directly to a block device destroys the file system on it", "write to a file, not a device", true, nil},
	{RuleMkfs, ClassDestroyFiles, SevCritical, Deny, "formatting or wiping a file system", "leave disk management to the operator", true, nil},
	{RuleShred, ClassDestroyFiles, SevHigh, Deny, "shred overwrites files so they can never be recovered", "`rm` the file inside the project if it must go", false, nil},
	{RuleTruncateDotfile, ClassDestroyFiles, SevHigh, Deny, "truncating or overwriting a dotfile in the home directory", "append with >> after review, or edit a copy", false, nil},
	{RuleDotfileWrite, ClassDestroyFiles, SevMedium, Ask, "changing a shell or tool startup file in the home directory", "show the operator the line to add instead", false, nil},
	{RuleChmodRecursive, ClassDestroyFiles, SevCritical, Deny, "recursive chmod/chown of /, a system directory or the home directory", "change the permissions of the project paths you mean", true, nil},
	{RuleRsyncDeleteHome, ClassDestroyFiles, SevHigh, Deny, "rsync --delete into the home directory or a system directory", "sync into a new directory, or drop --delete", false, nil},
	{RuleProtectedPath, ClassDestroyFiles, SevHigh, Deny, "writing or deleting a path the operator protected", "leave that path to the operator", false, nil},

	// secrets
	{RuleSecretRead, ClassSecrets, SevHigh, Ask, "reading a credential store (keys, tokens, .env, browser profile, keychain)", "use the credential through its tool (ssh-agent, aws cli) without reading it", false, nil},
	{RuleEnvDump, ClassSecrets, SevMedium, Ask, "dumping the whole environment, which holds tokens", "print the one variable you need: `printenv NAME`", false, nil},
	{RuleCredentialWrite, ClassSecrets, SevHigh, Deny, "writing into a credential store (~/.ssh, authorized_keys, ~/.aws, ...)", "show the operator the change to make", false, nil},

	// exfiltration
	{RuleExfil, ClassExfiltration, SevCritical, Deny, "a secret is read and a network send happens in the same command", "never send credentials; use the service's own authenticated tool", true, nil},
	{RuleHostNotAllowed, ClassExfiltration, SevMedium, Ask, "network access to a host not on the operator's allowed list", "use an allowed host, or ask the operator to add it", false, nil},

	// remote-code
	{RuleRemoteCodePipe, ClassRemoteCode, SevCritical, Deny, "downloaded code is run directly (curl | sh, bash <(curl ...))", "download to a file, read it, then run it", true, nil},
	{RuleDecodeExec, ClassRemoteCode, SevCritical, Deny, "decoded (obfuscated) text is run as code", "decode to a file and read it before running anything", true, nil},
	{RuleEvalDynamic, ClassRemoteCode, SevMedium, Ask, "code that is only known at run time is executed (eval, sh -c of a variable)", "run the command directly, spelled out", false, nil},
	{RuleRemoteCodeFile, ClassRemoteCode, SevCritical, Deny, "a file downloaded or decoded earlier in the same command is then run (curl -o x.sh URL && sh x.sh)", "download in one command, read the file, then run it in a separate command", true, nil},

	// privilege and system
	{RuleSudo, ClassPrivilege, SevMedium, Ask, "running a command as root (sudo, doas, su)", "ask the operator to run it, or avoid needing root", false, nil},
	{RuleSudoers, ClassPrivilege, SevCritical, Deny, "changing sudoers grants permanent root access", "leave sudoers to the operator", true, nil},
	{RuleSetuid, ClassPrivilege, SevCritical, Deny, "setting the setuid/setgid bit makes a program run with its owner's rights", "use normal permissions", true, nil},
	{RuleShutdown, ClassPrivilege, SevHigh, Deny, "shutting down or rebooting the machine", "leave power management to the operator", false, nil},
	{RuleKillAll, ClassPrivilege, SevHigh, Deny, "killing every process the user can reach", "kill the specific process id", false, nil},
	{RuleServiceStop, ClassPrivilege, SevMedium, Ask, "stopping, disabling or masking a system service", "ask the operator", false, nil},
	{RuleFirewallFlush, ClassPrivilege, SevCritical, Deny, "flushing or disabling the firewall", "change one specific rule with the operator's consent", true, nil},
	{RuleCrontabRemove, ClassPrivilege, SevHigh, Deny, "crontab -r deletes every scheduled job of the user", "`crontab -l` to inspect; edit single entries", false, nil},
	{RuleSystemWrite, ClassPrivilege, SevMedium, Ask, "writing a system file (/etc, /usr, /boot, ...)", "ask the operator to make the change", false, nil},

	// oversight
	{RuleSentinelTamper, ClassOversight, SevCritical, Deny, "writing, deleting or reading the sentinel's own register, configuration, keys or binaries", "the sentinel is the operator's; ask them", true, nil},
	{RuleClaudeSettings, ClassOversight, SevCritical, Deny, "editing Claude Code settings (hooks, permissions) from inside the session", "propose the settings change to the operator", true, nil},
	{RuleGitHooksPath, ClassOversight, SevHigh, Ask, "changing core.hooksPath bypasses the repository's hooks", "leave hooks configured as they are", false, nil},
	{RuleGitNoVerify, ClassOversight, SevMedium, Ask, "--no-verify skips the commit/push hooks (tests, linters, secret scans)", "fix what the hook reports, then commit normally", false, nil},

	// infrastructure and data
	{RuleTerraformDestroy, ClassInfrastructure, SevCritical, Deny, "destroying infrastructure (terraform/tofu/pulumi destroy)", "plan the change and let the operator apply it", false, nil},
	{RuleKubectlDelete, ClassInfrastructure, SevHigh, Ask, "deleting cluster resources (kubectl delete, helm uninstall)", "ask the operator; scale down or use a dry run first", false, nil},
	{RuleCloudDelete, ClassInfrastructure, SevHigh, Ask, "deleting or terminating cloud resources", "ask the operator; use a dry run first", false, nil},
	{RuleSQLDestructive, ClassInfrastructure, SevCritical, Deny, "DROP, TRUNCATE or an unbounded DELETE/UPDATE sent to a database", "back up first; add a WHERE clause; let the operator run it", false, nil},
	{RuleDBReset, ClassInfrastructure, SevHigh, Ask, "dropping or resetting a database through an ORM or admin tool", "ask the operator; migrate instead of reset", false, nil},

	// dynamic
	{RuleDynamicCommand, ClassDynamic, SevMedium, Ask, "the command name is only known at run time", "spell the command out", false, nil},

	// error
	{RuleUnjudged, ClassError, SevHigh, Ask, "the call could not be judged", "simplify the command, or split it", false, nil},
}

var ruleIndex = func() map[string]int {
	m := make(map[string]int, len(catalog))
	for i, r := range catalog {
		if _, dup := m[r.ID]; dup {
			panic("hook: duplicate rule id " + r.ID)
		}
		m[r.ID] = i
	}
	return m
}()

// Rules returns the shipped catalog in its stable order (a copy).
func Rules() []Rule {
	out := make([]Rule, len(catalog))
	copy(out, catalog)
	return out
}

// ruleByID returns the shipped rule with that id.
func ruleByID(id string) (Rule, bool) {
	i, ok := ruleIndex[id]
	if !ok {
		return Rule{}, false
	}
	return catalog[i], true
}

// ClassOf returns the class of a rule id ("" when unknown). Operator rules
// from the configuration are class "custom".
func ClassOf(ruleID string) string {
	if r, ok := ruleByID(ruleID); ok {
		return r.Class
	}
	return ""
}

// Classes lists the classes in catalog order.
func Classes() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range catalog {
		if !seen[r.Class] {
			seen[r.Class] = true
			out = append(out, r.Class)
		}
	}
	return out
}

// CatalogHash is CatalogHashFor(nil): the shipped catalog without operator
// configuration.
func CatalogHash() string { return CatalogHashFor(nil) }

// CatalogHashFor is the sha256 (hex) of the canonical serialisation of the
// catalog (version and every rule as JSON, in order) followed by the
// effective configuration (Config.canonical). Every decision records it, so
// replay can tell which rule set decided.
func CatalogHashFor(cfg *Config) string {
	if cfg == nil || cfg.empty() {
		return shippedHash()
	}
	h := sha256.New()
	h.Write(catalogBytes())
	h.Write([]byte("config\n"))
	h.Write(cfg.canonical())
	return hex.EncodeToString(h.Sum(nil))
}

// catalogBytes is the catalog's canonical serialisation, built once per
// process (the hook records the hash on every call).
var catalogBytes = sync.OnceValue(func() []byte {
	b := make([]byte, 0, 32<<10) // the catalog is about 14 KB: one allocation
	b = append(b, "sentinel-catalog\n"+CatalogVersion+"\n"...)
	for _, r := range catalog {
		b = append(appendRuleJSON(b, r), '\n')
	}
	return b
})

// appendRuleJSON appends exactly what json.Marshal(r) gives (TestRuleJSON
// checks every rule), without reflection: encoding the catalog through
// encoding/json cost about 12% of a hook process's CPU, every call.
func appendRuleJSON(b []byte, r Rule) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, r.ID)
	b = append(b, `,"class":`...)
	b = appendJSONString(b, r.Class)
	b = append(b, `,"severity":`...)
	b = appendJSONString(b, r.Severity)
	b = append(b, `,"reason":`...)
	b = appendJSONString(b, r.Reason)
	b = append(b, `,"alternative":`...)
	b = appendJSONString(b, r.Alternative)
	b = append(b, `,"catastrophic":`...)
	b = strconv.AppendBool(b, r.Catastrophic)
	if len(r.Prefix) > 0 {
		b = append(b, `,"prefix":[`...)
		for i, p := range r.Prefix {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, p)
		}
		b = append(b, ']')
	}
	b = append(b, `,"decision":`...)
	b = appendJSONString(b, r.Decision.String())
	return append(b, '}')
}

// jsonPlain marks the bytes appendJSONString copies as they are.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' && c != 0xE2
	}
	return t
}()

// appendJSONString appends s as encoding/json writes it (HTML characters
// escaped); control characters, invalid UTF-8 and U+2028/U+2029 (whose
// UTF-8 starts with 0xE2) go through json.Marshal itself.
func appendJSONString(b []byte, s string) []byte {
	start := len(b)
	b = append(b, '"')
	last := 0 // s[last:i] is still to be copied
	for i := 0; i < len(s); i++ {
		c := s[i]
		if jsonPlain[c] {
			continue
		}
		b = append(b, s[last:i]...)
		last = i + 1
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '<', '>', '&':
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
		default:
			j, _ := json.Marshal(s)
			return append(b[:start], j...)
		}
	}
	b = append(b, s[last:]...)
	if !utf8.Valid(b[start:]) {
		j, _ := json.Marshal(s)
		return append(b[:start], j...)
	}
	return append(b, '"')
}

// shippedHash is the hash of the shipped catalog without configuration.
var shippedHash = sync.OnceValue(func() string {
	sum := sha256.Sum256(catalogBytes())
	return hex.EncodeToString(sum[:])
})

// hitFor builds a hit from a rule, with detail.
func hitFor(r Rule, detail string) Hit {
	return Hit{
		RuleID:      r.ID,
		Class:       r.Class,
		Severity:    r.Severity,
		Verdict:     r.Decision,
		Decision:    r.Decision.String(),
		Reason:      r.Reason,
		Alternative: r.Alternative,
		Detail:      detail,
	}
}

// sevRank orders severities: a larger rank is more serious.
func sevRank(s string) int {
	switch s {
	case SevCritical:
		return 4
	case SevHigh:
		return 3
	case SevMedium:
		return 2
	case SevLow:
		return 1
	}
	return 0
}

// sortHits orders hits strictest first (verdict, then severity, so that
// the reason the model and the human see is the most severe rule's:
// unattended, rm -rf ~/x is told RM-HOME, not DOTFILE-WRITE), keeping the
// original order among equals, and removes exact duplicates (same rule and
// detail).
func sortHits(hs []Hit) []Hit {
	seen := make(map[string]bool, len(hs))
	out := hs[:0]
	for _, h := range hs {
		k := h.RuleID + "\x00" + h.Detail
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, h)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Verdict != out[j].Verdict {
			return out[i].Verdict > out[j].Verdict
		}
		return sevRank(out[i].Severity) > sevRank(out[j].Severity)
	})
	return out
}
