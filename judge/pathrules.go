package judge

import (
	"path/filepath"
	"strings"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleTruncateDotfile      = "TRUNCATE-DOTFILE"
	RuleDotfileWrite         = "DOTFILE-WRITE"
	RuleProtectedPathWrite   = "PROTECTED-PATH-WRITE"
	RuleSecretRead           = "SECRET-READ"
	RuleCredentialStoreWrite = "CREDENTIAL-STORE-WRITE"
	RuleSentinelTamper       = "SENTINEL-TAMPER"
	RuleClaudeSettingsEdit   = "CLAUDE-SETTINGS-EDIT"
	RuleSysFileWrite         = "SYS-FILE-WRITE"
)

var _ = rules(
	Rule{ID: RuleTruncateDotfile, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "truncating or overwriting a dotfile in the home directory",
		Alternative: "append with >> after review, or edit a copy",
		Matches:     "`> ~/.bashrc`, `truncate`, `cp`/`mv` onto a home dotfile",
		Fire:        []string{"> ~/.zshrc", "curl -o ~/.bashrc https://x.example/rc"},
		Pass:        []string{"cat ~/.zshrc", "> ./notes.txt"}},
	Rule{ID: RuleDotfileWrite, Class: ClassDestroyFiles, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "changing a shell or tool startup file in the home directory",
		Alternative: "show the operator the line to add instead",
		Matches:     "`>>`, `sed -i`, Write/Edit of a home dotfile; moving one away; an archive extracted into home or a home dot-directory (`tar -C`, `unzip -d`, or in the working directory there), whose members the archive names; a git pull, merge, checkout, hard reset into home, `~/.config`, `~/.local` (the repository names what lands); a dotfile manager applying its source over home (`stow -t ~`, `chezmoi apply`/`update`/`init --apply`, `yadm clone`/`checkout`/`pull`, `home-manager switch`, `rcup`: programs/dotfiles.go)",
		Fire: []string{"echo 'export X=1' >> ~/.bashrc", "git -C ~/.local pull -q https://x.example/r main", "cd ~ && git checkout -f main", "sed -i 's/a/b/' ~/.profile", "tar xf /tmp/x.tar -C ~/.config/fish/conf.d", "unzip /tmp/x.zip -d ~/.claude", "cd ~ && tar xzf /tmp/dl.tgz",
			"stow -t ~ dotfiles", "chezmoi apply --force", "yadm clone -f https://example.com/dotfiles", "home-manager switch -f ./home.nix"},
		Pass: []string{"echo 'export X=1' >> ./env.sh", "git -C ~/src/app pull", "git -C ~/.config/nvim pull", "grep PATH ~/.bashrc", "tar xf /tmp/x.tar -C ~/Downloads", "tar xf x.tar -C ./vendor", "cd ~ && unzip -l /tmp/x.zip",
			"stow -n -t ~ dotfiles", "chezmoi diff", "chezmoi apply --dry-run", "yadm status", "home-manager build"}},
	Rule{ID: RuleProtectedPathWrite, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "writing or deleting a path the operator protected",
		Alternative: "leave that path to the operator",
		Matches:     "write/delete under an operator `protected_paths` entry",
		Fire:        []string{"rm -rf /srv/data/x"},
		Pass:        []string{"ls /srv/data"}},
	Rule{ID: RuleSecretRead, Class: ClassSecrets, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "reading a credential store (keys, tokens, .env, browser profile, keychain)",
		Alternative: "use the credential through its tool (ssh-agent, aws cli) without reading it",
		Matches:     "reading a secret path (shell or Read/Grep/Glob): a credential store, a secret file by name, a tool's token file (`~/.m2/settings.xml`, `~/.databrickscfg`, `~/.kaggle/kaggle.json`, ...), a system store (Wi-Fi, VPN), what an orchestrator mounts (`/var/run/secrets/**`: a Kubernetes service account's token; `/run/secrets/*`: Docker and Compose secrets), a file below home outside the project and caches whose name or directory says credential, token, auth, secret, password or key (`~/keys/deploy_rsa`, `~/Downloads/prod.pem`); anywhere, a file by the shape of its name: its kind (`.tfvars`, `.ppk`, `.kdbx`, `.p8`, `.jks`, `.htpasswd`), an app's password file (`wp-config.php`, `local.settings.json`, `auth.json`, `cookies.txt`), a data file whose name says secret, password, credential, token (one), keypair or wallet (`client_secret.json`, `token.pickle`, `db_password.txt`), a deployment's settings (`appsettings.Production.json`), not code or documentation (`token.go`, `secrets.md`), not one about the concept (`password-policy.json`, `tokens.json`) or a template (`*.example`); a decrypter to its output (`gpg -d`, `age -d`, `sops -d`), a release's values (`helm get values`/`all`), a workload's resolved environment (`kubectl set env --list --resolve`); a recursive reader (`grep -r`, `rg`, `tar c`, `cp -r`, Grep with content) over a directory holding a store; `security find-*/dump-keychain`, `gpg --export-secret-*`, `printenv SECRET_NAME`; a credential printer (`gh auth token`, `aws ecr get-login-password`) unless its output goes only to its own service: piped to `docker login --password-stdin` of that service's registry, or in `$(...)` of a command whose every network host is that service's",
		Fire: []string{"cat .env", "cat ~/.ssh/id_rsa", `Read {"file_path":"/home/user/.aws/credentials"}`, "cat ~/.m2/settings-security.xml",
			"cat ~/keys/deploy_rsa", "cat ~/.config/tool/auth.json", "grep -r token ~/.config", "rg --hidden token ~", "cat /etc/NetworkManager/system-connections/home.nmconnection",
			"cat /var/run/secrets/kubernetes.io/serviceaccount/token", "cat /run/secrets/db_password",
			"aws ecr get-login-password | docker login -u AWS --password-stdin registry.example.com", "echo $(gh auth token)",
			"cat terraform.tfvars", "cat deploy.ppk", `Read {"file_path":"/home/user/proj/client_secret.json"}`, "cat ~/.config/solana/id.json",
			"gpg -d secrets.yaml.gpg", "helm get values prod-db --all", "kubectl set env deployment/web --list --resolve"},
		Pass: []string{"cat .env.example", "cat ~/.ssh/id_rsa.pub", "ls ~/.ssh", "ls /var/run/secrets", "cat /proc/self/status", "cat ~/.m2/toolchains.xml", "cat ~/src/app/auth/token.go",
			"grep -r TODO ~/.config/nvim", "grep -rl token ~/.config", "cat ~/Downloads/ca-bundle.pem", "rg TODO ~",
			"aws ecr get-login-password | docker login -u AWS --password-stdin 1234.dkr.ecr.us-east-1.amazonaws.com",
			`curl -H "Authorization: Bearer $(gh auth token)" https://api.github.com/user`,
			"cat terraform.tfvars.example", "cat deploy.pub", "cat client_config.json", "cat ~/.config/solana/cli/config.yml", "cat tokens.json",
			"gpg --verify release.tar.gz.sig", "helm list -A", "gcloud secrets list", "cat /var/run/secrets/kubernetes.io/serviceaccount/namespace"}},
	Rule{ID: RuleCredentialStoreWrite, Class: ClassSecrets, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "writing into a credential store (~/.ssh, authorized_keys, ~/.aws, ...)",
		Alternative: "show the operator the change to make",
		Matches:     "writing into `~/.ssh` (authorized_keys, config), `~/.aws`, `~/.kube`, ... (not chmod)",
		Fire:        []string{"cp mykey ~/.ssh/id_rsa", "echo key >> ~/.ssh/authorized_keys"},
		Pass:        []string{"chmod 600 ~/.ssh/id_rsa", "ssh-keygen -t ed25519 -f ./deploy_key"}},
	Rule{ID: RuleSentinelTamper, Class: ClassOversight, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "writing, deleting or reading the sentinel's own register, configuration, keys or binaries",
		Alternative: "the sentinel is the operator's; ask them",
		Matches:     "write/delete/chmod of sentinel's state, config, binaries; reading its keys; a write whose destination the program computes and can land there: an archive extracted into the directory of its binary or state (`tar -C`, `unzip -d`, `7z -o`, `cpio -D`), `find -exec WRITER … {}` whose tests can match its binary, `pyinstaller --distpath`, `patchelf` of it, a patch whose files are its; a mount over it",
		Fire: []string{`chmod -x ~/.local/bin/sentinel-hook`, `mv ~/.local/bin /tmp/b`, `chmod 000 ~/.config`, "rm -rf ~/.local/state/sentinel", "mv ~/.config/sentinel /tmp/x", "cp /bin/true $(command -v sentinel-hook)",
			"mount --bind /bin/true ~/.local/bin/sentinel-hook", "pyinstaller --onefile --distpath ~/.local/bin -n sentinel-hook t.py", "patchelf --set-interpreter /tmp/ld.so ~/.local/bin/sentinel-hook",
			`find / -name sentinel-hook -exec cp /bin/true {} \;`, "tar xf /tmp/t.tar -C ~/.local/state"},
		Pass: []string{`chmod -x ./script.sh`, `mv ~/.local/bin/mytool /tmp/`, "sentinel log", "sentinel verify", "cp /bin/true $(command -v mytool)",
			"patchelf --print-interpreter ~/.local/bin/sentinel-hook", "mount --bind /tmp/x ./mnt/data", "pyinstaller --onefile -n app main.py", `find / -name mytool -exec cp /bin/true {} \;`, "tar xf /tmp/t.tar -C ./vendor"}},
	Rule{ID: RuleClaudeSettingsEdit, Class: ClassOversight, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "editing Claude Code settings (hooks, permissions) from inside the session",
		Alternative: "propose the settings change to the operator",
		Matches:     "Write/Edit or any shell write/delete of Claude Code settings files (also `git checkout REF -- PATH`, `git restore [--source=REF] PATH`, `gawk -i inplace`); a write whose destination the program computes and can land there: an archive extracted into a project's `.claude` (`unzip -d`, `7z -o`, `tar -C`) or renamed into it (`tar --transform`), `find -exec WRITER … {}` whose `-name`/`-path` tests can match a settings file, a patch (`git apply`, `patch -p1 <`) that changes one, read bounded or remembered from the session; `claude config set|add|remove`; a mount over `.claude`",
		Fire: []string{"echo '{}' > .claude/settings.json", "git checkout stash@{0} -- .claude/settings.json", "gawk -i inplace '{print}' .claude/settings.json", `Write {"file_path":"/home/user/.claude/settings.json","content":"{}"}`, "unzip -o /tmp/cfg.zip -d .claude",
			"tar -xf /tmp/s.tar --transform 's,^stage/cc,.claude,'", "7z x /tmp/cfg.7z -o.claude -y", `find . -maxdepth 2 -name 'settings*.json' -path '*claude*' -exec cp /tmp/s.json {} \;`,
			"claude config set -g disableAllHooks true", "mount --bind /tmp/x .claude"},
		Pass: []string{"cat .claude/settings.json", "ls .claude", "git restore --staged .claude/settings.json", "awk '{print}' .claude/settings.json", "unzip -o fonts.zip -d assets/fonts", "tar -xf assets.tar --transform 's,^build/,public/,'",
			`find . -maxdepth 2 -name 'tsconfig*.json' -exec cp base.json {} \;`, "claude config get theme", "7z x assets.7z -oassets -y"}},
	Rule{ID: RuleSysFileWrite, Class: ClassPrivilege, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "writing a system file (/etc, /usr, /boot, ...)",
		Alternative: "ask the operator to make the change",
		Matches:     "writing under `/etc`, `/usr`, `/bin`, `/sbin`, `/lib*`, `/boot`, `/System`, `/Library`; the running kernel's settings under `/proc/sys` and `/sys` (destroy2.go)",
		Fire:        []string{"echo '127.0.0.1 example.com' >> /etc/hosts", "echo 1 > /proc/sys/kernel/sysrq"},
		Pass:        []string{"cat /etc/hosts", "echo '127.0.0.1 x' >> ./hosts"}},
)

// Write kinds: what a command or tool does to a path.
type writeKind int

const (
	kindTruncate writeKind = iota // >, cp/mv onto, tee, dd of=, truncate
	kindAppend                    // >>, tee -a
	kindEdit                      // Edit tools, sed -i, <>: what is not changed is kept
	kindDelete                    // rm, unlink, shred, mv away
	kindChmod                     // chmod, chown, chattr
	kindEmpty                     // emptied whatever it held: : > F, truncate, cp /dev/null F, sed -i d F, Write of ""
	kindRewrite                   // the whole content replaced: the Write tool, cp/mv onto (an edit, but it destroys an existing file)
)

// Where a path lies, from the point of view of destruction.
type location int

const (
	locUnknown     location = iota // relative with unknown dir, or dynamic
	locInside                      // under the project or a temp dir
	locProjectRoot                 // the project directory itself
	locGitDir                      // the project's .git
	locHome                        // the home directory itself
	locHomeDot                     // a dotfile or dot-directory directly in home
	locSystem                      // / or a system directory itself
	locOutside                     // anything else
)

var systemDirs = map[string]bool{
	"/": true, "/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true,
	"/lib": true, "/lib32": true, "/lib64": true, "/libx32": true, "/media": true, "/mnt": true,
	"/opt": true, "/proc": true, "/root": true, "/run": true, "/sbin": true, "/snap": true,
	"/srv": true, "/sys": true, "/usr": true, "/var": true, "/tmp": true, "/var/tmp": true,
	"/usr/bin": true, "/usr/lib": true, "/usr/local": true, "/usr/sbin": true, "/usr/share": true,
	"/usr/local/bin": true, "/var/lib": true, "/var/log": true, "/etc/ssh": true,
	"/System": true, "/Library": true, "/Applications": true, "/Users": true, "/Volumes": true,
	"/private": true, "/private/etc": true, "/private/var": true, "/private/tmp": true, "/nix": true,
	"/nix/store": true,
}

// tempRoots hold scratch data: paths strictly below them count as inside.
var tempRoots = []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", "/dev/shm", "/var/folders"}

// scratch reports a temporary directory or a path below one, never the
// home directory or what is in it: a home under /tmp or /var/tmp (CI,
// containers, test machines) holds the operator's files all the same.
func (j *judge) scratch(p string) bool {
	if j.home != "" && under(p, j.home) {
		return false
	}
	for _, t := range tempRoots {
		if under(p, t) {
			return true
		}
	}
	return false
}

// systemWriteRoots are trees whose files belong to the system.
var systemWriteRoots = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/System", "/Library", "/private/etc"}

// under reports whether p is dir or below it.
func under(p, dir string) bool {
	if dir == "" || p == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	// no concatenation: this runs for every path against every root
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

// strictlyUnder reports whether p is below dir (not dir itself).
func strictlyUnder(p, dir string) bool {
	return p != dir && under(p, dir)
}

func (j *judge) expandHome(p string) string {
	if j.home == "" {
		return p
	}
	switch {
	case p == "~" || p == "$HOME" || p == "${HOME}":
		return j.home
	case strings.HasPrefix(p, "~/"):
		return j.home + p[1:]
	case strings.HasPrefix(p, "$HOME/"):
		return j.home + p[5:]
	case strings.HasPrefix(p, "${HOME}/"):
		return j.home + p[7:]
	}
	return p
}

// resolve makes p absolute against dir. ok is false when that is impossible
// (relative path with unknown dir, empty path).
func (j *judge) resolve(p, dir string) (string, bool) {
	p = j.expandHome(p)
	if p == "" {
		return "", false
	}
	if !strings.HasPrefix(p, "/") {
		if dir == "" {
			return "", false
		}
		p = dir + "/" + p
	}
	return filepath.Clean(p), true
}

// globBase cuts a path at the component holding its first glob
// character. A component that matches everything ("*", ".*") stands for the
// whole directory: "/etc/*" -> "/etc". A narrower pattern stands for some
// entries below it: "/tmp/x-*.log" -> "/tmp/*" (strictly under /tmp).
func globBase(p string) (string, bool) {
	i := strings.IndexAny(p, "*?[")
	if i < 0 {
		return p, false
	}
	k := strings.LastIndexByte(p[:i], '/')
	d := "/"
	if k > 0 {
		d = p[:k]
	}
	comp := p[k+1:]
	if e := strings.IndexByte(comp, '/'); e >= 0 {
		comp = comp[:e]
	}
	if comp == "*" || comp == ".*" || comp == "*.*" || comp == "{*,.*}" {
		return d, true
	}
	return strings.TrimSuffix(d, "/") + "/*", true
}

// locate classifies an absolute, cleaned path (possibly with a glob).
func (j *judge) locate(p string) location {
	base, glob := globBase(p)
	p = base
	if glob && p == j.home {
		return locHome
	}
	if glob {
		for _, t := range tempRoots {
			if p == t {
				return locInside // rm -rf /tmp/*: scratch space, emptied
			}
		}
	}
	if systemDirs[p] || winSystemDir(p) {
		return locSystem
	}
	if j.home != "" && p == j.home {
		return locHome
	}
	if j.project != "" && under(p, j.project) {
		switch {
		case p == j.project:
			return locProjectRoot
		case p == j.project+"/.git" || j.gitStore(p):
			return locGitDir
		}
		return locInside
	}
	// dotfiles before temp dirs: a home under /tmp (tests, CI) keeps them
	if j.home != "" && filepath.Dir(p) == j.home && strings.HasPrefix(filepath.Base(p), ".") {
		return locHomeDot
	}
	if j.home != "" && strictlyUnder(p, j.home) {
		return locOutside // a home under /tmp (tests, CI) is a home, not scratch
	}
	for _, t := range tempRoots {
		if strictlyUnder(p, t) {
			return locInside
		}
	}
	return locOutside
}

// isDevice reports block devices (disks, partitions), not /dev/null & co.
func isDevice(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	n := p[len("/dev/"):]
	for _, pre := range []string{"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "dm-", "md", "mapper/", "loop", "sr", "nbd"} {
		if strings.HasPrefix(n, pre) {
			return true
		}
	}
	return false
}

func (j *judge) isSentinelPath(p string) bool {
	for _, s := range j.sentinel {
		if under(p, s) {
			return true
		}
	}
	return false
}

// aboveSentinel reports a directory above one of the sentinel's own paths:
// moving, deleting or locking it (mv ~/.local/bin x, chmod 000 ~/.local)
// takes the guard's binary, state or configuration with it.
func (j *judge) aboveSentinel(p string) bool {
	for _, s := range j.sentinel {
		if strictlyUnder(s, p) {
			return true
		}
	}
	return false
}

func (j *judge) isSentinelKey(p string) bool {
	for _, d := range j.keyDirs {
		if under(p, d) && (strings.HasSuffix(p, ".key") || p == d) {
			return true
		}
	}
	return false
}

func isSudoers(p string) bool {
	return p == "/etc/sudoers" || under(p, "/etc/sudoers.d") || p == "/private/etc/sudoers"
}

// histories are read as secrets (tokens typed on a command line land
// there) but written as the dotfiles they are.
var histories = []string{".bash_history", ".zsh_history", ".python_history", ".psql_history", ".mysql_history",
	".node_repl_history", ".rediscli_history", ".sqlite_history", ".local/share/fish/fish_history"}

// sshPublic are files in ~/.ssh that hold no secret.
func sshPublic(base string) bool {
	return strings.HasSuffix(base, ".pub") || strings.HasPrefix(base, "known_hosts") ||
		base == "config" || base == "authorized_keys"
}

// isSecretPath reports credential stores and secret files.
func (j *judge) isSecretPath(p string) bool {
	base := filepath.Base(p)
	if secretFileName(base) || inSecretDir(p) {
		return true
	}
	switch base {
	case "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk":
		return true
	}
	if p == "/etc/shadow" || p == "/etc/gshadow" || p == "/etc/master.passwd" ||
		(strings.HasPrefix(p, "/etc/ssh/ssh_host_") && !strings.HasSuffix(p, ".pub")) {
		return true
	}
	if j.toolSecret(p) {
		return true // protected.go: a system store, a tool's token file, a file shaped like one
	}
	if rel, ok := otherHome(p, j.home); ok {
		// /home/alice/.aws/credentials, /root/.ssh/id_rsa: another user's
		// credential stores are secrets too
		for _, st := range credentialStores {
			if under(rel, st) {
				return !(st == ".ssh" && rel != st && sshPublic(base))
			}
		}
	}
	if j.home == "" {
		return false
	}
	rel, inHome := belowDir(p, j.home)
	for _, h := range histories {
		if inHome && rel == h {
			return true
		}
	}
	for _, d := range j.agentDirs {
		if strictlyUnder(p, d) && agentCredential(base) && filepath.Dir(p) == d {
			return true
		}
	}
	for _, st := range credentialStores {
		if !inHome || !under(rel, st) {
			continue
		}
		if st == ".ssh" && rel != st && sshPublic(base) {
			return false
		}
		return true
	}
	return false
}

// belowDir is the part of p after dir and a slash ("" and true for dir
// + "/"), without building dir + "/" + name for every name asked about:
// under(p, dir+"/"+s) is under(rest, s) for a name s.
func belowDir(p, dir string) (rest string, ok bool) {
	if len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir) {
		return p[len(dir)+1:], true
	}
	return "", false
}

// otherHome splits a path in another user's home directory (/home/NAME,
// /Users/NAME, /root, /var/root) into the part below it.
func otherHome(p, home string) (string, bool) {
	if home != "" && under(p, home) {
		return "", false
	}
	for _, r := range []string{"/root/", "/var/root/"} {
		if rest, ok := strings.CutPrefix(p, r); ok {
			return rest, true
		}
	}
	for _, r := range []string{"/home/", "/Users/"} {
		if rest, ok := strings.CutPrefix(p, r); ok {
			if _, below, ok := strings.Cut(rest, "/"); ok {
				return below, true
			}
		}
	}
	return "", false
}

// isEnvFile matches .env, .env.local, .env.production, not the templates.
func isEnvFile(base string) bool {
	if base == ".env" {
		return true
	}
	if !strings.HasPrefix(base, ".env.") {
		return false
	}
	switch strings.ToLower(base[len(".env."):]) {
	case "example", "sample", "template", "dist", "defaults", "default", "schema", "tpl", "example.local":
		return false
	}
	return true
}

// isCredentialStoreWrite: writing into these plants keys or tokens.
func (j *judge) isCredentialStore(p string) bool {
	if j.home == "" {
		return false
	}
	rel, ok := belowDir(p, j.home)
	for _, st := range credentialStores {
		if ok && under(rel, st) {
			return true
		}
	}
	return false
}

func (j *judge) isProtected(p string) bool {
	if j.cfg == nil {
		return false
	}
	for _, q := range j.cfg.ProtectedPaths {
		if r, ok := j.resolve(q, j.project); ok && under(p, r) {
			return true
		}
	}
	return false
}

// writePath judges a write of kind to path p (already resolved or raw from
// a tool). It covers the oversight, credential, sudoers, device, dotfile and
// system rules; rm's own rules live in the shell judge.
func (j *judge) writePath(raw string, kind writeKind, detail string) {
	p, ok := j.resolve(raw, j.cwd)
	if !ok {
		return
	}
	j.writeAbs(p, kind, detail)
}

// writeAbs judges a write of kind to the absolute, clean path p: as
// written, and where it leads through links (links.go). A delete or move
// acts on a link itself, not on what it leads to.
func (j *judge) writeAbs(p string, kind writeKind, detail string) {
	j.writeLex(p, kind, detail)
	if f := j.foldHome(p); f != "" {
		j.writeLex(f, kind, detail+" (as "+f+" on a case-insensitive file system)")
	}
	if r := j.viaLinks(p, kind != kindDelete, detail); r != "" {
		j.writeLex(r, kind, detail+" (through a link: "+r+")")
	}
}

// writeLex judges a write of kind to p as it is named.
func (j *judge) writeLex(p string, kind writeKind, detail string) {
	base, _ := globBase(p)
	if (kind == kindEmpty || kind == kindTruncate) && j.gitStore(p) {
		j.add(RuleRmGitDir, detail) // : > .git/HEAD
	} else if kind == kindRewrite && j.gitRefFile(p) {
		j.add(RuleGitRefMove, detail) // a Write of .git/refs/heads/main: the branch moved anywhere
	}
	if j.destroysHomeFile(p, kind) {
		j.add(RuleHomeFileDestroy, detail) // and on: the guard's and the dotfile rules may speak too
	}
	if kind == kindEmpty {
		kind = kindTruncate
	}
	switch {
	case j.isSentinelPath(base) || j.isSentinelPath(p):
		j.add(RuleSentinelTamper, detail)
		return
	case (kind == kindDelete || kind == kindChmod) && j.aboveSentinel(base) && j.locate(base) != locHome && j.locate(base) != locSystem:
		// (the home and system rules speak for rm -rf ~ and rm -rf /)
		j.add(RuleSentinelTamper, detail)
		return
	case j.isAgentSettings(p):
		j.add(RuleClaudeSettingsEdit, detail)
		return
	case isSudoers(base):
		j.add(RulePrivSudoers, detail)
		return
	case j.isProtected(base):
		j.add(RuleProtectedPathWrite, detail)
		return
	}
	if kind != kindChmod && traceFile(base) {
		j.add(RuleOversightTraces, detail) // and on
	}
	if kind != kindDelete && kind != kindChmod {
		j.untrustedPersist(p, detail) // untrusted.go
	}
	if kind != kindDelete && kind != kindChmod && j.persistencePath(p) {
		if _, grave := j.pathShim(p); grave {
			j.add(RulePathShim, detail)
			return
		}
		j.add(RulePersistenceInstall, detail) // and on: a stricter rule may apply too
		if _, known := j.writtenNow[p]; known && j.contentDecides(p) {
			j.contentAsk(p) // withdrawn when what it holds runs nothing stopped (persistrun.go)
		}
	}
	if kind == kindChmod {
		// chmod 600 ~/.ssh/id_rsa is routine; only system files matter.
		if j.isSystemFile(base) {
			j.add(RuleSysFileWrite, detail)
		}
		return
	}
	if j.isCredentialStore(base) {
		if inertInStore(base, kind) {
			return
		}
		j.add(RuleCredentialStoreWrite, detail)
		return
	}
	if j.kernelTrigger(p, kind, detail) {
		return // destroy2.go
	}
	if isDevice(p) {
		if kind != kindDelete {
			j.add(RuleDiskDeviceWrite, detail)
		}
		return
	}
	if j.locate(p) == locHomeDot {
		if kind == kindDelete && j.cache(p) {
			return // rm -rf ~/.npm: rebuilt on demand (protected.go)
		}
		if kind == kindTruncate {
			j.add(RuleTruncateDotfile, detail)
		} else {
			j.add(RuleDotfileWrite, detail)
		}
		return
	}
	if kind != kindDelete && j.isSystemFile(base) {
		j.add(RuleSysFileWrite, detail)
	}
}

func (j *judge) isSystemFile(p string) bool {
	for _, r := range systemWriteRoots {
		if under(p, r) {
			return true
		}
	}
	return false
}

// readPath judges a read of a path given by a tool.
func (j *judge) readPath(raw, detail string) {
	p, ok := j.resolve(raw, j.cwd)
	if !ok {
		return
	}
	j.readAbs(p, detail)
}

// readAbs reports whether the read was of a secret: p as written, or
// where it leads through links (links.go).
func (j *judge) readAbs(p, detail string) bool {
	if j.readLex(p, detail) {
		return true
	}
	if f := j.foldHome(p); f != "" && j.readLex(f, detail+" (as "+f+" on a case-insensitive file system)") {
		return true
	}
	if r := j.viaLinks(p, true, detail); r != "" {
		return j.readLex(r, detail+" (through a link: "+r+")")
	}
	return false
}

// readLex reports whether reading p, as it is named, reads a secret.
func (j *judge) readLex(p, detail string) bool {
	base, glob := globBase(p)
	if j.isSentinelKey(p) || (glob && j.isSentinelKey(base)) {
		j.add(RuleSentinelTamper, detail)
		return true
	}
	if j.isSecretPath(p) || (glob && (j.isSecretPath(base) || j.globSecret(p))) {
		j.secretReadHit(detail) // a glob: cat .en? (resolve.go)
		return true
	}
	return false
}

// foldHome is p below home with its dot-directory's name in lower case
// (~/.SSH/authorized_keys is ~/.ssh/authorized_keys), "" when that is p
// itself. The file systems of macOS and Windows ignore case by default,
// and the home's stores and dotfiles are all named in lower case, so a
// name that differs from one only in case is judged as that one too (on
// a case-sensitive file system it is a file nobody keeps).
func (j *judge) foldHome(p string) string {
	if j.home == "" || len(p) <= len(j.home)+2 || p[len(j.home)] != '/' || !strings.HasPrefix(p, j.home) || p[len(j.home)+1] != '.' {
		return ""
	}
	rest := p[len(j.home)+1:]
	first, tail, _ := strings.Cut(rest, "/")
	low := strings.ToLower(first)
	if low == first {
		return ""
	}
	if tail != "" {
		return j.home + "/" + low + "/" + tail
	}
	return j.home + "/" + low
}
