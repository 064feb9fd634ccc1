package judge

import (
	"path/filepath"
	"strings"
)

// Write kinds: what a command or tool does to a path.
type writeKind int

const (
	kindTruncate writeKind = iota // >, cp/mv onto, tee, dd of=, truncate
	kindAppend                    // >>, tee -a
	kindEdit                      // Write/Edit tools, sed -i, <>
	kindDelete                    // rm, unlink, shred, mv away
	kindChmod                     // chmod, chown, chattr
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
	if systemDirs[p] {
		return locSystem
	}
	if j.home != "" && p == j.home {
		return locHome
	}
	if j.project != "" && under(p, j.project) {
		switch {
		case p == j.project:
			return locProjectRoot
		case p == j.project+"/.git":
			return locGitDir
		}
		return locInside
	}
	// dotfiles before temp dirs: a home under /tmp (tests, CI) keeps them
	if j.home != "" && filepath.Dir(p) == j.home && strings.HasPrefix(filepath.Base(p), ".") {
		return locHomeDot
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

func (j *judge) isSentinelKey(p string) bool {
	for _, d := range j.keyDirs {
		if under(p, d) && (strings.HasSuffix(p, ".key") || p == d) {
			return true
		}
	}
	return false
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
	case base == ".claude" || p == "/etc/claude-code" || base == "ClaudeCode":
		// the directory itself (rm -rf .claude, mv .claude ...)
		return true
	}
	return false
}

func isSudoers(p string) bool {
	return p == "/etc/sudoers" || under(p, "/etc/sudoers.d") || p == "/private/etc/sudoers"
}

// credential stores under home (directories and files).
var credentialStores = []string{
	".ssh", ".aws", ".gnupg", ".kube", ".docker/config.json", ".netrc", ".git-credentials",
	".config/gh", ".config/hub", ".config/gcloud", ".azure", ".pgpass", ".my.cnf", ".npmrc",
	".pypirc", ".gem/credentials", ".cargo/credentials", ".cargo/credentials.toml",
	".terraform.d/credentials.tfrc.json", ".vault-token", ".password-store",
	".local/share/keyrings", "Library/Keychains", ".mozilla/firefox", ".config/google-chrome",
	".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge",
	"Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
	"Library/Application Support/BraveSoftware", "Library/Cookies",
}

// sshPublic are files in ~/.ssh that hold no secret.
func sshPublic(base string) bool {
	return strings.HasSuffix(base, ".pub") || strings.HasPrefix(base, "known_hosts") ||
		base == "config" || base == "authorized_keys"
}

// isSecretPath reports credential stores and secret files.
func (j *judge) isSecretPath(p string) bool {
	base := filepath.Base(p)
	if isEnvFile(base) {
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
	if j.home == "" {
		return false
	}
	for i, root := range j.credentialRoots() {
		if !under(p, root) {
			continue
		}
		if credentialStores[i] == ".ssh" && p != root && sshPublic(base) {
			return false
		}
		return true
	}
	return false
}

// credentialRoots are the credential stores under this home, built once
// per decision.
func (j *judge) credentialRoots() []string {
	if j.credRoots == nil {
		j.credRoots = make([]string, len(credentialStores))
		for i, s := range credentialStores {
			j.credRoots[i] = j.home + "/" + s
		}
	}
	return j.credRoots
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
	for _, root := range j.credentialRoots() {
		if under(p, root) {
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

func (j *judge) writeAbs(p string, kind writeKind, detail string) {
	base, _ := globBase(p)
	switch {
	case j.isSentinelPath(base) || j.isSentinelPath(p):
		j.add(RuleSentinelTamper, detail)
		return
	case isClaudeSettings(p):
		j.add(RuleClaudeSettings, detail)
		return
	case isSudoers(base):
		j.add(RuleSudoers, detail)
		return
	case j.isProtected(base):
		j.add(RuleProtectedPath, detail)
		return
	}
	if kind == kindChmod {
		// chmod 600 ~/.ssh/id_rsa is routine; only system files matter.
		if j.isSystemFile(base) {
			j.add(RuleSystemWrite, detail)
		}
		return
	}
	if j.isCredentialStore(base) {
		j.add(RuleCredentialWrite, detail)
		return
	}
	if isDevice(p) {
		if kind != kindDelete {
			j.add(RuleDiskDevice, detail)
		}
		return
	}
	if j.locate(p) == locHomeDot {
		if kind == kindTruncate {
			j.add(RuleTruncateDotfile, detail)
		} else {
			j.add(RuleDotfileWrite, detail)
		}
		return
	}
	if kind != kindDelete && j.isSystemFile(base) {
		j.add(RuleSystemWrite, detail)
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

// readAbs reports whether the read was of a secret.
func (j *judge) readAbs(p, detail string) bool {
	base, glob := globBase(p)
	if j.isSentinelKey(p) || (glob && j.isSentinelKey(base)) {
		j.add(RuleSentinelTamper, detail)
		return true
	}
	if j.isSecretPath(p) || (glob && j.isSecretPath(base)) {
		j.add(RuleSecretRead, detail)
		if j.secretRead == "" {
			j.secretRead = detail
		}
		return true
	}
	return false
}
