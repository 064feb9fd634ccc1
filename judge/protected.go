package judge

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// What matters, named once (issue 19): the objects a call can reach whose
// disclosure or change is the harm. The rules of pathrules.go, persist.go,
// persistrun.go and the operand rule below ask these questions; what a
// program does to its operands (read, write, delete, run) comes from the
// program model. A call that reaches one of these with an effect not known
// to be harmless is stopped:
//
//   - secrets: credentialStores below, isSecretPath (keys, .env, histories),
//     the cloud metadata endpoints (metadataHost), the environment and the
//     CLI printers of the model (PrintsEnv, PrintsCredentials);
//   - the guard's and the agents' own files: the sentinel's (Env.Protected,
//     StateDir, ConfigDir), Claude Code's settings, hooks and binary (also
//     where CLAUDE_CONFIG_DIR moves them), other agents' hook and sandbox
//     files ($CODEX_HOME, any .codex/, .cursor/, .gemini/settings.json):
//     isAgentSettings;
//   - what runs later on its own: shell startup files (programs.StartupFile),
//     cron tables, persistencePath (service units, git hooks and config,
//     editor and REPL startup files, a command shim on the user's PATH);
//   - the home directory and its roots, the system, git history (roots.go,
//     rm.go, git.go), remote state (infra.go, infradata.go).

// credentialStores are credential stores under home (directories and
// files): reading them shows a credential, writing them plants one.
var credentialStores = []string{
	".ssh", ".aws", ".gnupg", ".kube", ".docker/config.json", ".netrc", ".git-credentials",
	".config/gh", ".config/hub", ".config/gcloud", ".azure", ".pgpass", ".my.cnf", ".npmrc",
	".pypirc", ".gem/credentials", ".cargo/credentials", ".cargo/credentials.toml",
	".terraform.d/credentials.tfrc.json", ".vault-token", ".password-store",
	".local/share/keyrings", "Library/Keychains", ".mozilla/firefox", ".config/google-chrome",
	".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge",
	"Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
	"Library/Application Support/BraveSoftware", "Library/Cookies",
	".s3cfg", ".boto", ".config/rclone", ".config/doctl", ".config/op", ".terraformrc", ".config/hcloud",
	// the agents' own logins: Claude Code's OAuth tokens, Codex's and
	// Gemini's API keys, Copilot's token
	".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json",
	".config/github-copilot", ".config/git/credentials",
	// tools' own logins and the rc files that carry passwords
	".config/openai", ".curlrc", ".wgetrc", ".config/Code/User/globalStorage/state.vscdb",
}

// secretFiles are secret files by name wherever they lie (a project's own
// keys, tokens, deploy credentials and infrastructure state); a backup
// copy of one (.netrc.bak, .env~) is one too (secretFileName).
var secretFiles = []string{
	".dev.vars", ".secrets", "secrets.json", "secrets.yml", "secrets.yaml", "secrets.toml",
	"credentials.json", "credentials.yml", "credentials.yaml", "service-account.json", "google-services.json",
	"terraform.tfstate", "master.key", ".netrc", ".git-credentials", ".pgpass", ".vault-token", "state.vscdb",
	".npmrc", ".pypirc", // a registry's auth token, wherever the rc file lies
}

// secretSuffixes end the names of key and state files: server.key,
// tls.key, cluster.tfstate, cert.p12, release.keystore; envSuffixes a
// deployment's environment file (prod.env, staging.env).
var secretSuffixes = []string{".key", ".tfstate", ".p12", ".pfx", ".keystore", ".jks", "-key.pem", "_key.pem", "privkey.pem"}
var envSuffixes = []string{"prod.env", "production.env", "staging.env", "stage.env", "live.env", "secret.env", "secrets.env", "private.env"}

// secretDirs are credential stores wherever they lie: a project or a
// container image may carry its own .aws/credentials or .kube/config.
var secretDirs = []string{".aws/credentials", ".kube/config", ".docker/config.json", ".gnupg", ".password-store", ".config/gh/hosts.yml"}

// toolCredentials are the configuration files (or directories) of tools
// that keep a login token or password in them, below home: read, they show
// it. Writing them is the tool's own business (a Maven mirror, a Gradle
// JVM option), judged as the dotfile or persistence point it may be.
var toolCredentials = []string{
	// build tools and package registries
	".m2/settings.xml", ".m2/settings-security.xml", ".gradle/gradle.properties", ".yarnrc.yml", ".yarnrc",
	".config/composer/auth.json", ".composer/auth.json", ".bundle/config", ".nuget/NuGet/NuGet.Config",
	".config/NuGet/NuGet.Config", ".jfrog", ".config/jfrog",
	// data, hosting and cloud platforms
	".databrickscfg", ".dbt/profiles.yml", ".snowsql/config", ".snowflake", ".wrangler/config", ".config/.wrangler",
	".config/configstore/firebase-tools.json", ".local/share/com.vercel.cli", "Library/Application Support/com.vercel.cli",
	".fly/config.yml", ".config/ngrok", ".ngrok2", "Library/Application Support/ngrok", ".cache/huggingface/token",
	".cache/huggingface/stored_tokens", ".huggingface/token", ".kaggle/kaggle.json", ".config/kaggle/kaggle.json",
	".config/stripe", ".circleci/cli.yml", ".sentryclirc", ".config/helm/repositories.yaml", ".config/glab-cli",
	".config/netlify/config.json", ".netlify/config.json", ".railway/config.json", ".supabase/access-token",
	".oci", ".pulumi/credentials.json", ".aliyun/config.json", ".config/openstack/clouds.yaml", ".config/linode-cli",
	".config/scw/config.yaml", ".cloudflared", ".config/heroku", ".local/share/heroku/config.json",
	".config/containers/auth.json", ".config/tailscale", ".config/1Password", ".config/Bitwarden CLI",
	// mail and network logins
	".msmtprc", ".mbsyncrc", ".fetchmailrc", ".authinfo", ".authinfo.gpg", ".config/aerc/accounts.conf",
	".smbcredentials", ".thunderbird", "Library/Thunderbird", ".local/share/evolution/mail",
	// a shell history kept in a database (atuin): what was typed, tokens among it
	".local/share/atuin/history.db",
	// object stores' and package indexes' clients (an index URL carries its password)
	".mc/config.json", ".mcli/config.json", ".config/pip/pip.conf", ".pip/pip.conf", ".bunfig.toml", ".config/pnpm/rc",
	".cf/config.json", ".ibmcloud/config.json", ".bluemix/config.json", ".twilio-cli", ".config/configstore",
	".subversion/auth", ".config/filezilla", ".filezilla", ".lftp", ".config/Slack/Cookies", ".config/vultr-cli.yaml",
	// wallets: a chain's keypair, an Ethereum key store, a Bitcoin wallet
	".config/solana/id.json", ".ethereum/keystore", ".foundry/keystores", ".bitcoin/wallet.dat", ".bitcoin/wallets",
	".electrum/wallets", ".near-credentials", ".sui/sui_config/sui.keystore", ".aptos/config.yaml",
}

// systemCredentials are the system's stores of network and service
// passwords: Wi-Fi and VPN keys, PPP and IPsec secrets, TLS private keys.
var systemCredentials = []string{
	"/etc/wpa_supplicant", "/etc/NetworkManager/system-connections", "/var/lib/iwd", "/etc/ppp/chap-secrets",
	"/etc/ppp/pap-secrets", "/etc/ipsec.secrets", "/etc/ssl/private", "/etc/letsencrypt/archive", "/etc/letsencrypt/keys",
	// what an orchestrator mounts into the container the agent may run in:
	// a Kubernetes service account's token, Docker and Compose secrets
	"/var/run/secrets", "/run/secrets",
	// every variable of the process, the API keys among them
	"/proc/self/environ", "/proc/thread-self/environ",
}

// secretWords in a file's name say it holds a credential (deploy_rsa,
// vault_pass.txt, hf_token, prod-server.pem is judged by its suffix);
// secretDirWords in a directory's name say everything in it does
// (~/keys/, ~/secrets/).
var (
	secretWords = []string{"token", "tokens", "secret", "secrets", "password", "passwords", "passwd", "pass", "passphrase", "creds", "credential", "credentials", "apikey", "privkey", "rsa", "dsa", "ecdsa", "ed25519", "auth", "authinfo", "oauth", "key", "keys",
		"keypair", "wallet", "mnemonic", "cookies"}
	secretDirWords = []string{"keys", "secrets", "credentials", "creds", "tokens", "passwords", "private"}
	// secretSubwords say it inside a longer word (smbcredentials, mypassword)
	secretSubwords = []string{"credential", "password", "passwd", "secret", "apikey", "privkey"}
	// publicWords name a certificate, not a key (ca.pem, fullchain.pem)
	publicWords = []string{"cert", "certs", "certificate", "crt", "ca", "chain", "fullchain", "bundle", "root", "cacert", "rootca"}
	// notSecretExts are code, documentation and markup: a program or a page
	// about tokens (token.go, auth.md) holds none
	notSecretExts = []string{".go", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".py", ".pyc", ".rb", ".rs", ".java", ".kt", ".c", ".h",
		".cc", ".cpp", ".hpp", ".cs", ".php", ".swift", ".sh", ".bash", ".zsh", ".fish", ".lua", ".vim", ".el", ".elc", ".md", ".rst",
		".html", ".css", ".scss", ".svg", ".png", ".jpg", ".gif", ".ico", ".map", ".d", ".o", ".so", ".pub", ".lock", ".log"}
)

// secretShape reports a file below home (rel: its path below it), outside
// the project, the caches and installed code, whose name or directory says
// it holds a credential: ~/keys/deploy_rsa, ~/Downloads/prod-server.pem,
// ~/.ansible/vault_pass.txt, ~/.config/containers/auth.json, a tool's
// token file. A file of code or documentation (token.go, auth.md) and a
// public key or certificate (id_rsa.pub, ca.pem) are not.
func secretShape(rel string) bool {
	if rel == "" || strings.ContainsAny(rel, "*?[") {
		return false
	}
	for _, d := range []string{"node_modules/", "site-packages/", "dist-packages/", ".git/", "vendor/", "share/doc/", "go/pkg/", "src/", "man/"} {
		if strings.HasPrefix(rel, d) || strings.Contains(rel, "/"+d) {
			return false // installed code and its documentation
		}
	}
	parts := strings.Split(strings.ToLower(rel), "/")
	base := parts[len(parts)-1]
	for _, x := range notSecretExts {
		if strings.HasSuffix(base, x) {
			return false
		}
	}
	if strings.HasPrefix(base, "readme") || strings.HasPrefix(base, "license") || strings.HasPrefix(base, "changelog") {
		return false // documentation next to the keys
	}
	words := strings.FieldsFunc(base, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	if contains(words, "pub") || contains(words, "public") {
		return false // the public half of a key pair
	}
	for _, w := range words {
		if contains(secretWords, w) {
			return true
		}
		for _, s := range secretSubwords {
			if strings.Contains(w, s) {
				return true
			}
		}
	}
	if strings.HasSuffix(base, ".pem") {
		for _, w := range words {
			if contains(publicWords, w) {
				return false // ca.pem, fullchain.pem, cert.pem: certificates
			}
		}
		return true // a private key by its kind (prod-server.pem)
	}
	if strings.HasSuffix(base, ".ovpn") {
		return true // a VPN profile with its key inline (a password vault is encrypted: its CLI is the printer)
	}
	for _, d := range parts[:len(parts)-1] {
		if contains(secretDirWords, strings.TrimPrefix(d, ".")) {
			return true
		}
	}
	return false
}

// toolSecret reports a secret by what holds it rather than by its name
// alone: a system store (systemCredentials), a tool's token file below
// this or another user's home (toolCredentials), or, below home outside
// the project and the caches, a file shaped like one (secretShape).
func (j *judge) toolSecret(p string) bool {
	for _, s := range systemCredentials {
		if under(p, s) {
			// a service account's namespace and the cluster's CA
			// certificate are mounted next to its token and hold no secret
			return !strings.Contains(p, "/serviceaccount/") || filepath.Base(p) != "namespace" && filepath.Base(p) != "ca.crt"
		}
	}
	rel := j.relHome(p)
	if rel == "" {
		other, ok := otherHome(p, j.home)
		if !ok {
			// $XDG_RUNTIME_DIR: podman's and skopeo's login (/run/user/1000/containers/auth.json)
			if rest, ok := strings.CutPrefix(p, "/run/user/"); ok {
				_, below, _ := strings.Cut(rest, "/")
				return secretShape(below)
			}
			return false
		}
		rel = other
	}
	for _, s := range toolCredentials {
		if under(rel, s) {
			return true
		}
	}
	if j.project != "" && under(p, j.project) || j.cache(p) {
		return false // the project's files by name (secretFiles); caches hold downloads
	}
	return secretShape(rel)
}

// holdsSecret reports a directory below home (or home itself) that holds
// a credential store or a tool's token file: a reader of the whole tree
// (grep -r, tar, cp -r of ~/.config) reads them.
// A reader that skips hidden entries (rg, ag) reaches a store only
// through no hidden directory below p.
func (j *judge) holdsSecret(p string, skipHidden bool) bool {
	if j.home == "" || !under(p, j.home) {
		return false
	}
	// home+"/"+s is strictly below p (home or a directory below it) when p
	// is home or s is strictly below p's part below home: asked without
	// building home+"/"+s for every name (it runs for every path)
	rel, below := belowDir(p, j.home)
	for _, list := range [...][]string{credentialStores, toolCredentials, histories} {
		for _, s := range list {
			var way string // the part of home+"/"+s after p
			switch {
			case p == j.home:
				way = "/" + s
			case below && strictlyUnder(s, rel):
				way = s[len(rel):]
			default:
				continue
			}
			if skipHidden && (strings.Contains(way, "/.") || !j.env.NoFiles && !exists(j.home+"/"+s)) {
				continue // hidden on the way; a macOS store not on this machine
			}
			return true
		}
	}
	return false
}

// exists reports a path on disk (not followed).
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// backupSuffixes are what editors and people add to a copy.
var backupSuffixes = []string{".bak", ".backup", ".old", ".orig", ".save", ".copy", "~"}

// secretFileName reports a secret file by its base name.
func secretFileName(base string) bool {
	for _, b := range backupSuffixes {
		if s, ok := strings.CutSuffix(base, b); ok && s != "" {
			base = s
			break
		}
	}
	if isEnvFile(base) {
		return true
	}
	for _, f := range secretFiles {
		if base == f {
			return true
		}
	}
	lower := strings.ToLower(base)
	for _, t := range []string{"example", "sample", "template", "dist", "test", "dummy", "fake", "mock"} {
		if strings.HasPrefix(lower, t) || strings.Contains(lower, "."+t+".") {
			return false // example.env, test.key, app.sample.key: fixtures
		}
	}
	for _, list := range [...][]string{secretSuffixes, envSuffixes} {
		for _, suf := range list {
			if strings.HasSuffix(lower, suf) && (len(lower) > len(suf) || suf[0] != '.') {
				return true
			}
		}
	}
	return secretNameShape(base, lower)
}

// inSecretDir reports a path inside a credential store wherever it lies.
func inSecretDir(p string) bool {
	for _, d := range secretDirs {
		// p ends in /d or holds /d/, without building either per path
		for i := strings.Index(p, d); i >= 0; {
			end := i + len(d)
			if i > 0 && p[i-1] == '/' && (end == len(p) || p[end] == '/') {
				return true
			}
			k := strings.Index(p[i+1:], d)
			if k < 0 {
				break
			}
			i += 1 + k
		}
	}
	return false
}

// agentCredential: a credential file an agent keeps in its configuration
// directory wherever that is (CLAUDE_CONFIG_DIR, CODEX_HOME).
func agentCredential(base string) bool {
	return base == ".credentials.json" || base == "auth.json" || base == "oauth_creds.json"
}

// isClaudeSettings matches Claude Code settings files in any location.
func isClaudeSettings(p string) bool {
	base := filepath.Base(p)
	dir := filepath.Base(filepath.Dir(p))
	switch {
	case base == "managed-settings.json" || base == "managed-mcp.json":
		return true
	case dir == ".claude" && (base == "settings.json" || base == "settings.local.json"):
		return true
	case base == ".claude" || p == "/etc/claude-code" || base == "ClaudeCode" || base == ".claude.json":
		// the directory itself (rm -rf .claude, mv .claude ...); the
		// user's state file holds MCP servers and each project's allowed tools
		return true
	case strings.Contains(p, "/.claude/hooks/") || strings.HasSuffix(p, "/.claude/hooks"):
		return true // the hooks' own scripts
	case strings.Contains(p, "/@anthropic-ai/claude-code"), strings.Contains(p, "/.claude/local/"),
		strings.Contains(p, "/.local/share/claude/"), strings.HasSuffix(p, "/.local/bin/claude"):
		return true // the binary the hooks are wired into
	}
	return false
}

// isAgentSettings matches Claude Code's settings, hooks and binary, the
// directories CLAUDE_CONFIG_DIR and CODEX_HOME name (Env.AgentDirs), and
// other agents' hook and sandbox files: any .codex/ directory (its
// config.toml decides sandbox and approvals, hooks.json its hooks; see
// docs/codex.md), .cursor/ (hooks.json, cli.json, mcp.json; not its rules),
// .gemini/settings.json.
func (j *judge) isAgentSettings(p string) bool {
	if isClaudeSettings(p) {
		return true
	}
	for _, d := range j.agentDirs {
		if under(p, d) && !(p != d && agentCredential(filepath.Base(p))) {
			return true
		}
	}
	for _, seg := range []string{"/.codex", "/.cursor"} {
		i := strings.Index(p, seg)
		if i < 0 {
			continue
		}
		rest := p[i+len(seg):]
		if rest != "" && rest[0] != '/' {
			continue // .codexrc, .cursorignore
		}
		if seg == "/.cursor" && (strings.HasPrefix(rest, "/rules/") || rest == "/rules") {
			continue // project rules for Cursor's model: ordinary project text
		}
		if seg == "/.codex" && rest == "/auth.json" {
			continue // a credential: the secret rules speak
		}
		return true
	}
	return strings.HasSuffix(p, "/.gemini/settings.json")
}

// metadataHost reports a cloud instance-metadata endpoint: it hands the
// machine's cloud credentials to whoever asks from inside.
func metadataHost(h string) bool {
	h = strings.Trim(strings.ToLower(h), "[]")
	switch h {
	case "169.254.169.254", "metadata.google.internal", "metadata.goog", "metadata", "100.100.100.200",
		"169.254.170.2", "fd00:ec2::254", "instance-data", "instance-data.ec2.internal", "metadata.azure.internal":
		return true
	}
	// the same addresses spelled another way: 2852039166, 0xa9fea9fe,
	// ::ffff:a9fe:a9fe, 169.254.169.254.nip.io (programs/addr.go)
	if v, ok := programs.SpelledIPv4(h); ok {
		switch v {
		case 169<<24 | 254<<16 | 169<<8 | 254, 100<<24 | 100<<16 | 100<<8 | 200, 169<<24 | 254<<16 | 170<<8 | 2:
			return true
		}
	}
	return false
}

// userBinDirs are the directories on a user's PATH that the user writes:
// a file there named like a program shadows that program.
var userBinDirs = []string{".local/bin", "bin"}

// userBin reports one of the user's own PATH directories (~/.local/bin,
// ~/bin): any file there may shadow a program.
func (j *judge) userBin(d string) bool {
	for _, b := range userBinDirs {
		if j.home != "" && d == j.home+"/"+b {
			return true
		}
	}
	return false
}

// pathShim reports a file written onto the user's PATH (~/.local/bin,
// ~/bin, a toolchain's bin directory: programs.ToolchainBin) under the name of a
// program of the model, and whether that program is one whose shim steals
// or hides (sudo and other privilege programs, shells, git, ssh, agents,
// the guard itself: a fake sudo collects the password).
func (j *judge) pathShim(p string) (shim, grave bool) {
	if j.home == "" {
		return false, false
	}
	dir, base := filepath.Dir(p), filepath.Base(p)
	if !j.userBin(dir) && !programs.ToolchainBin(j.relHome(dir)) {
		return false, false
	}
	prog := programs.Lookup(base)
	if prog == nil {
		return false, false
	}
	grave = prog.Kind.Any(programs.Privilege|programs.Shell) || prog.Name == "git" || prog.Name == "ssh" ||
		programs.IsAgent(base) || prog.Name == "sentinel"
	return true, grave
}

// persistencePath reports whether writing p installs something that runs
// later or on its own.
func (j *judge) persistencePath(p string) bool {
	base := filepath.Base(p)
	switch {
	case strings.Contains(p, "/.git/hooks/") && !strings.HasSuffix(base, ".sample"),
		strings.Contains(p, "/.git/modules/") && strings.Contains(p, "/hooks/") && !strings.HasSuffix(base, ".sample"):
		return true // a submodule's hooks run in it as the project's do in it
	case strings.HasSuffix(p, "/.git/info/attributes"):
		return true // filter=, diff= drivers git runs for the paths it names
	case strings.HasSuffix(p, "/.git/config") || strings.Contains(p, "/.git/modules/") && base == "config":
		return true // core.fsmonitor, core.pager, alias.x=!cmd: code at the next git command
	case base == ".mcp.json" || base == ".envrc" || mcpServersFile(p, base):
		return true
	case base == "extensions.xml" && strings.HasSuffix(filepath.Dir(p), "/.mvn"):
		return true // Maven loads these build extensions into every build, from wherever they are published
	case projectAutoRun(p, base):
		return true
	case (strings.Contains(p, "/site-packages/") || strings.Contains(p, "/dist-packages/")) &&
		(strings.HasSuffix(base, ".pth") || base == "sitecustomize.py" || base == "usercustomize.py"):
		return true
	case strings.HasPrefix(p, "/etc/cron") || strings.HasPrefix(p, "/var/spool/cron") ||
		strings.HasPrefix(p, "/etc/systemd/") || strings.HasPrefix(p, "/lib/systemd/") ||
		strings.HasPrefix(p, "/Library/LaunchAgents/") || strings.HasPrefix(p, "/Library/LaunchDaemons/") ||
		strings.HasPrefix(p, "/etc/xdg/autostart/") || p == "/etc/rc.local" || strings.HasPrefix(p, "/etc/profile.d/") ||
		p == "/etc/gitconfig":
		return true
	}
	if programs.LoadedCode(p, j.relHome(p)) {
		return true // node_modules, site-packages, ~/.m2/repository: loaded at the next import or build
	}
	if j.home == "" || !under(p, j.home) {
		return false
	}
	if shim, _ := j.pathShim(p); shim {
		return true
	}
	rel := strings.TrimPrefix(p, j.home+"/")
	for _, pre := range persistUnderHome {
		if strings.HasPrefix(rel, pre) {
			return true
		}
	}
	return false
}

// mcpServersFile reports another client's file of MCP servers, each a
// command it starts: VS Code's and other editors' mcp.json, Claude
// Desktop's, Windsurf's and Cline's (Claude Code's .mcp.json is named
// above, Cursor's is agent settings).
func mcpServersFile(p, base string) bool {
	switch base {
	case "claude_desktop_config.json", "mcp_config.json", "cline_mcp_settings.json", "mcp_settings.json":
		return true
	case "mcp.json":
		d := filepath.Base(filepath.Dir(p))
		return d == ".vscode" || d == ".roo" || d == ".amazonq" || d == "settings" && filepath.Base(filepath.Dir(filepath.Dir(p))) == ".kiro"
	}
	return false
}

// persistUnderHome are the persistence points below home (prefixes of the
// path below it): services and autostart, fish's startup, git's XDG
// configuration (aliases, hooksPath, fsmonitor run code), IPython's
// startup and configuration, vim's and neovim's, PowerShell's profile,
// systemd's user environment, direnv's rc.
var persistUnderHome = []string{
	".config/systemd/user/", ".config/autostart/", "Library/LaunchAgents/", ".config/fish/config.fish",
	".config/fish/conf.d/", ".config/fish/functions/", ".local/share/systemd/user/",
	".config/git/config", ".config/git/attributes",
	".ipython/profile_", ".config/ipython/", ".jupyter/jupyter_", ".config/nvim/", ".vim/plugin/", ".vim/autoload/",
	".config/powershell/", "Documents/PowerShell/", "Documents/WindowsPowerShell/", ".config/environment.d/", ".config/direnv/", ".config/zsh/",
	".local/share/nvim/site/plugin/",
	// sourced drop-in directories and zsh's every-shell file
	".profile.d/", ".bashrc.d/", ".zshrc.d/", ".zshenv", ".config/bash/",
	// version managers' shims: every python, ruby or node the user runs
	".pyenv/shims/", ".rbenv/shims/", ".asdf/shims/", ".nodenv/shims/", ".local/share/mise/shims/",
	".volta/bin/",
	// desktop entries: what the menu, a file association or a terminal
	// shortcut starts (a copy over org.gnome.Terminal.desktop runs at the next click)
	".local/share/applications/",
	// Windows' per-user Startup folder: what it holds runs at every logon
	"AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/",
	// toolchain configuration that names a program to run (runner,
	// rustc-wrapper, a pip index or build backend, a Maven or Gradle init)
	".cargo/config", ".config/pip/", ".pip/pip.conf", ".m2/settings.xml", ".gradle/init.d/",
	".gradle/init.gradle", ".config/yarn/", ".yarnrc",
	// editors' init files
	".emacs", ".emacs.el", ".emacs.d/init.el", ".emacs.d/early-init.el", ".config/emacs/", ".vimrc",
	".gvimrc", ".exrc",
}

// configUnderHome are the persistence points below home that programs
// read as configuration (toolchain settings, editors' init files): what decides a write of known content to
// one of them is what it makes run (contentDecides), not the path.
var configUnderHome = []string{
	".config/pip/", ".pip/pip.conf", ".cargo/config", ".m2/settings.xml", ".config/yarn/", ".yarnrc",
	".config/nvim/", ".vim/plugin/", ".vim/autoload/", ".local/share/nvim/site/plugin/",
	".emacs", ".emacs.el", ".emacs.d/init.el", ".emacs.d/early-init.el", ".config/emacs/", ".vimrc", ".gvimrc", ".exrc",
	".local/share/applications/",
}

// contentDecides reports a persistence path whose write of known content
// is judged by that content: configuration programs read (configUnderHome,
// a .pth of site-packages, a virtual environment's activate script, VS
// Code tasks, a dev container). Startup scripts (IPython's, sitecustomize),
// git hooks, services, autostart, cron, shims and MCP servers ask whatever
// they hold.
func (j *judge) contentDecides(p string) bool {
	base := filepath.Base(p)
	switch {
	case strings.Contains(p, "/site-packages/") || strings.Contains(p, "/dist-packages/"):
		return base != "sitecustomize.py" && base != "usercustomize.py" // they run at every start: startup scripts
	case strings.HasPrefix(base, "activate") && (strings.HasSuffix(filepath.Dir(p), "/.venv/bin") || strings.HasSuffix(filepath.Dir(p), "/venv/bin")):
		return true
	case commandFile(p):
		return true
	}
	if shim, _ := j.pathShim(p); shim {
		return false
	}
	if programs.LoadedCode(p, j.relHome(p)) && !projectAutoRun(p, base) {
		return true // the code it holds is what runs at the next import or build (node_modules/.bin/jest is a shim)
	}
	rel := j.relHome(p)
	return rel != "" && !(j.project != "" && under(p, j.project)) && slices.ContainsFunc(configUnderHome, func(pre string) bool {
		return strings.HasPrefix(rel, pre)
	})
}

// configPlace reports a file a program reads as configuration that may
// name commands to run: below home outside the project (~/.config/**,
// ~/.local/share/**, a dot-directory, a toolchain's bin directory;
// programs.HomeConfig), caches and the guard's own state aside, or one of
// the project's (programs.ProjectConfig: .cargo/config.toml, .npmrc,
// .yarnrc.yml, .pnpmfile.cjs, .husky/*, lefthook, mise), its auto-run
// files (projectAutoRun) and CI files. Its content decides: commands that would be
// stopped make the write stop.
func (j *judge) configPlace(p string) bool {
	if j.project != "" && strictlyUnder(p, j.project) {
		return programs.ProjectConfig(p[len(j.project)+1:]) || projectAutoRun(p, filepath.Base(p)) ||
			j.laterRun(p) == laterCI // a CI file runs its steps at the next push
	}
	rel := j.relHome(p)
	return rel != "" && programs.HomeConfig(rel) && !j.cache(p) && !j.isSentinelPath(p)
}

// projectAutoRun reports a file below any directory that runs code
// without being asked: an environment's executables (every python or jest
// the project's tools start), an editor's tasks run when the folder opens,
// a dev container's lifecycle commands, IDE run configurations.
func projectAutoRun(p, base string) bool {
	for _, d := range []string{"/.venv/bin/", "/venv/bin/", "/node_modules/.bin/", "/.idea/runConfigurations/"} {
		if strings.Contains(p, d) {
			return true
		}
	}
	return commandFile(p)
}

// Rules of this file: their text, examples and matching code are one unit.
const (
	RulePathShim      = "PATH-SHIM"
	RuleAgentHooksOff = "AGENT-HOOKS-OFF"
)

var _ = onExec(func(j *judge, x execution) {
	name, args := programs.AgentCall(x.e.Name, x.args) // npx @anthropic-ai/claude-code ... is claude
	if programs.HooksOff(name, args) || j.agentHomeMoved(x.e, name) || j.settingsFileHooksOff(x.e, name, args) {
		j.add(RuleAgentHooksOff, x.detail)
	}
	if programs.ConfigWrite(x.e.Name, x.args) {
		j.add(RuleClaudeSettingsEdit, x.detail) // claude config set -g disableAllHooks true writes the settings file
	}
})

// agentHomeMoved reports an agent started with its configuration
// directory moved (CLAUDE_CONFIG_DIR=/tmp/c claude) somewhere that is not
// the operator's (Env.AgentDirs, ~/.claude, ~/.codex): the hooks are not
// there. A HOME moved elsewhere with no such variable moves the directory
// with it (HOME=/tmp/h claude, export HOME=...; claude).
func (j *judge) agentHomeMoved(e *parse.Exec, name string) bool {
	v := programs.AgentHomeVar(name)
	if v == "" {
		return false
	}
	if _, set := assigned(e)(v); !set {
		for k := len(e.Assigns) - 1; k >= 0; k-- {
			a := e.Assigns[k]
			if a.Name != "HOME" {
				continue
			}
			d, ok := j.resolve(a.Value.Value, e.Dir)
			return !a.Value.Static || !ok || j.home == "" || filepath.Clean(d) != j.home
		}
		return false
	}
	for k := len(e.Assigns) - 1; k >= 0; k-- {
		a := e.Assigns[k]
		if a.Name != v {
			continue
		}
		d, ok := j.resolve(a.Value.Value, e.Dir)
		if !a.Value.Static || !ok {
			return true
		}
		if j.home != "" && (d == j.home+"/.claude" || d == j.home+"/.codex") {
			return false
		}
		for _, ad := range j.agentDirs {
			if d == ad {
				return false
			}
		}
		return true
	}
	return false
}

var _ = rules(
	Rule{ID: RulePathShim, Class: ClassOversight, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "putting a program named like sudo, a shell, git, ssh, an agent or the guard on the user's PATH: every later call of that name runs it instead",
		Alternative: "install the tool under its own name, or ask the operator",
		Matches:     "a write (redirect, tee, cp/mv/ln/install, Write/Edit) of `~/.local/bin/NAME`, `~/bin/NAME` or NAME in a toolchain's bin directory on PATH (`~/.cargo/bin`, `~/go/bin`, `~/.npm-global/bin`, `~/.bun/bin`, `~/.deno/bin`, `~/.nvm/versions/node/*/bin`, ...) where NAME is a privilege program (`sudo`, `su`, `doas`), a shell, `git`, `ssh`, a coding agent or the sentinel; other known program names are PERSISTENCE-INSTALL (ask)",
		Fire: []string{"printf '#!/bin/sh\\n' > ~/.local/bin/sudo", "cp ./wrap.sh ~/bin/git", `Write {"file_path":"/home/user/.local/bin/bash","content":"#!/bin/sh\n"}`,
			"cp /tmp/.x/git ~/go/bin/git", `Write {"file_path":"/home/user/.cargo/bin/ssh","content":"#!/bin/sh\nexec /usr/bin/ssh \"$@\"\n"}`},
		Pass: []string{"cp ./mytool ~/.local/bin/mytool", "cat ~/.local/bin/sudo", "ls ~/.local/bin", "cp target/release/mytool ~/.cargo/bin/mytool",
			"cargo install ripgrep"}},
	Rule{ID: RuleAgentHooksOff, Class: ClassOversight, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "starts a coding agent with settings that switch its hooks or permission checks off: the guard would not see what it runs",
		Alternative: "run the agent with the operator's settings",
		Matches:     "`claude --settings` of a file, or whose JSON holds `disableAllHooks`, `hooks` or `permissions`; `CLAUDE_CONFIG_DIR`/`CODEX_HOME` set to a directory not the operator's for the agent, or `HOME` moved with neither set (the agent's settings and hooks move with it); the same for an agent started by a package runner (`npx @anthropic-ai/claude-code`, `bunx @openai/codex`); `--setting-sources` without `user`; `codex --ignore-user-config`, `--dangerously-bypass-hook-trust`, `--disable hooks`, `-c hooks…`/`approval_policy=never`/`sandbox_mode=danger-full-access`",
		Fire: []string{`claude --settings '{"disableAllHooks": true}' -p hi`, "claude --setting-sources project -p x", "codex exec --ignore-user-config 'x'",
			"claude --settings ./s.json -p hi", "CLAUDE_CONFIG_DIR=/tmp/c claude -p x", "CODEX_HOME=/tmp/c codex exec x",
			"HOME=/tmp/h claude -p hi", "export HOME=/tmp/h; codex exec x", `npx -y @anthropic-ai/claude-code --settings '{"disableAllHooks": true}' -p x`},
		Pass: []string{`claude --settings '{"model": "opus"}' -p hi`, "claude -p 'summarise'", "codex exec 'explain'",
			"CLAUDE_CONFIG_DIR=~/.claude claude -p x", "CODEX_HOME=~/.codex codex exec x", "HOME=/tmp/h make test",
			"HOME=/tmp/h CLAUDE_CONFIG_DIR=~/.claude claude -p x", "npx -y @anthropic-ai/claude-code -p 'summarise'"}},
)

// protectedOperands judges the operands of a program whose effect on them
// is not known: a program the model does not know (a vendor CLI, a tool
// the agent built) or an editor told to edit non-interactively. An operand
// that reaches an agent's settings, a persistence point or a credential
// store is judged as the write it may be; the secret rules already read
// every program's operands as reads. Known viewers and everyday tools are
// in the model and never come here.
func (j *judge) protectedOperands(e *parse.Exec, detail string) {
	if e.Synthetic || e.Remote || e.InFile != "" || len(e.Argv) < 2 {
		return
	}
	a0 := e.Argv[0].Value
	if strings.Contains(a0, "/") && !strings.HasPrefix(a0, "/usr/") && !strings.HasPrefix(a0, "/bin/") {
		return // ./x.sh: its text is judged (scriptfile.go)
	}
	p := programs.Lookup(e.Name)
	if p != nil && !p.EditsOperands {
		return
	}
	if p != nil && p.ReadOnly != nil && p.ReadOnly(wordValues(e.Argv[1:])) {
		return // vim -R, emacs --batch without -f save
	}
	for _, w := range e.Argv[1:] {
		if !w.Static {
			continue
		}
		for _, c := range pathCandidates(w.Value) {
			abs, ok := j.resolve(c, e.Dir)
			if !ok || !strings.Contains(c, "/") && !strings.HasPrefix(c, ".") {
				continue // a bare word is a name more often than a file
			}
			if j.reachesProtected(abs) || j.isCredentialStore(abs) {
				j.writeAbs(abs, kindEdit, detail)
				break
			}
		}
	}
}

// relHome is p below home, "" when it is not under home.
func (j *judge) relHome(p string) string {
	if j.home == "" || !strictlyUnder(p, j.home) {
		return ""
	}
	return p[len(j.home)+1:]
}

// Regenerable home content, decided here once (blind attack 2, false
// flags 1): what a tool rebuilds, downloads or reinstalls on its own.
// Deleting it loses nothing the operator made, so it is not the
// destruction of a home file or dot-directory (rm.go, destroy.go,
// roots.go ask this); the guard's own files and credential stores are
// judged before (writeLex), and ~, ~/Documents, ~/.ssh, ~/.gnupg never
// are regenerable. A root counts with what is below it; ~/.m2/settings.xml
// and ~/.npmrc (credentials) are not below any root.
var regenerableRoots = []string{
	// caches by name and by the XDG and macOS conventions
	".cache", "Library/Caches", ".npm", ".yarn/cache", ".pnpm-store", ".local/share/pnpm/store",
	".m2/repository", ".gradle/caches", ".gradle/wrapper/dists", ".ivy2/cache", ".sbt/boot",
	".cargo/registry", ".cargo/git", "go/pkg/mod", ".bun/install/cache", ".deno", ".nuget/packages",
	".composer/cache", ".cpanm", ".node-gyp", ".electron-gyp", ".cocoapods/repos",
	// toolchain versions a version manager installs again
	".nvm/versions", ".pyenv/versions", ".rbenv/versions", ".rustup/toolchains", ".sdkman/candidates",
	".local/share/fnm/node-versions", ".volta/tools/image", ".local/share/mise/installs", ".asdf/installs",
	// virtual environments, rebuilt from the project's lock file
	".local/share/virtualenvs", ".virtualenvs", ".local/share/pypoetry/virtualenvs",
	// editors' remote servers, fetched again at the next connection
	".vscode-server/bin", ".cursor-server/bin",
}

// regenerableFiles are state files directly in home that their program
// writes again (a prefix: .zcompdump-host-5.9); shell histories are
// traces and not here.
var regenerableFiles = []string{".zcompdump", ".viminfo", ".lesshst", ".wget-hsts", ".xsession-errors"}

// fetchedSuffixes are installers and images in ~/Downloads: a copy of
// something fetched, fetched again at need (not ~/Downloads itself, not
// everything in it).
var fetchedSuffixes = []string{".dmg", ".pkg", ".iso", ".deb", ".rpm", ".msi", ".exe", ".appimage", ".tar.gz", ".tgz", ".zip", ".whl"}

// cache reports regenerable home content at p (a glob counts when every
// path it can match is regenerable: ~/.cache/*, ~/.zcompdump*).
func (j *judge) cache(p string) bool {
	if j.home == "" || !strictlyUnder(p, j.home) {
		return false
	}
	dir, name := filepath.Dir(p), filepath.Base(p)
	glob := strings.ContainsAny(p, "*?[")
	if glob {
		k := strings.IndexAny(p, "*?[")
		s := strings.LastIndexByte(p[:k], '/')
		dir, name = p[:s], p[s+1:k] // name: the literal start of the pattern
	}
	target := p
	if glob {
		target = dir
	}
	for _, c := range regenerableRoots {
		if under(target, j.home+"/"+c) {
			return true
		}
	}
	if dir == j.home {
		for _, f := range regenerableFiles {
			if name == f || strings.HasPrefix(name, f) && (glob || strings.ContainsAny(name[len(f):len(f)+1], "-.")) {
				return true
			}
		}
	}
	if !glob && dir == j.home+"/Downloads" {
		lower := strings.ToLower(name)
		for _, s := range fetchedSuffixes {
			if strings.HasSuffix(lower, s) && len(lower) > len(s) {
				return true
			}
		}
	}
	return false
}

// inertInStore reports a write in a credential store that plants no
// credential: host keys appended to known_hosts (ssh-keyscan >>, what ssh
// itself does on first contact), or a backup copy no tool reads
// (cp ~/.ssh/config ~/.ssh/config.bak).
func inertInStore(p string, kind writeKind) bool {
	base := filepath.Base(p)
	if kind == kindAppend && (base == "known_hosts" || base == "known_hosts2") {
		return true
	}
	if kind == kindDelete || kind == kindEmpty {
		return false
	}
	for _, b := range backupSuffixes {
		if s, ok := strings.CutSuffix(base, b); ok && s != "" && !strings.ContainsAny(base, "*?[") {
			return true
		}
	}
	return false
}

// settingsFileHooksOff reads the file claude --settings names (bounded):
// one that cannot be read, or whose text switches hooks off, is hooks off.
func (j *judge) settingsFileHooksOff(e *parse.Exec, name string, args []string) bool {
	f := programs.SettingsFile(name, args)
	if f == "" {
		return false
	}
	p, ok := j.resolve(f, e.Dir)
	if !ok || j.env.NoFiles {
		return true
	}
	// safefile: the agent can put a FIFO or a device there (os.Open of a
	// FIFO with no writer blocks the hook); too large reads as hooks off.
	b, err := safefile.ReadFile(p, 64<<10)
	return err != nil || programs.SettingsHooksOff(string(b))
}
