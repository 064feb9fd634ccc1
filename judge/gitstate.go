package judge

import (
	"os"
	"path"
	"strings"

	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Git state set earlier (issue 19, family 2). Git reads its settings on
// every command: an alias defined in one call (`git config alias.sync
// 'reset --hard origin/main'`, or written into .git/config or
// ~/.gitconfig) runs in a later call as `git sync`, and a setting that
// runs code (core.fsmonitor, core.pager, filter drivers, ...) runs at any
// later git command. Such state is judged where it is written (as today)
// and again where git uses it:
//   - the session's memory keeps, for each alias defined, the verdict of
//     what it expands to (key gitAliasKey), and for settings that run code
//     the strictest verdict they got (gitSettingsKey; hooksPath apart,
//     gitHooksKey, recalled only by commands that run hooks);
//   - the repository's own .git/config (and the user's global files, for
//     aliases) is read at decision time when it is small and regular, so a
//     file changed by means the memory cannot see is judged by what it holds.
// The keys are not paths: no file the agent writes is named like them.

const (
	gitSettingsKey = "git:settings"
	gitHooksKey    = "git:hooks"
	gitAliasKey    = "git:alias."
	// maxGitConfigBytes bounds a config file read at decision time.
	maxGitConfigBytes = 64 << 10
	// maxGitRepoWalk bounds the directories walked up to find .git.
	maxGitRepoWalk = 32
)

// gitSettings are the settings an invocation gives git besides its config
// files: -c KEY=VALUE and --config-env (GitSplit), clone -c (written into
// the new repository and read by its checkout), GIT_CONFIG_PARAMETERS and
// GIT_CONFIG_COUNT/KEY_n/VALUE_n in its environment.
func gitSettings(e *parse.Exec, sub string, rest, cfg []string) []string {
	out := append(append([]string(nil), cfg...), programs.GitSubSettings(sub, rest)...)
	for _, a := range e.Assigns {
		switch {
		case a.Name == "GIT_CONFIG_PARAMETERS" && a.Value.Static:
			out = append(out, programs.GitConfigParameters(a.Value.Value)...)
		case strings.HasPrefix(a.Name, "GIT_CONFIG_KEY_"):
			n := strings.TrimPrefix(a.Name, "GIT_CONFIG_KEY_")
			for _, b := range e.Assigns {
				if b.Name == "GIT_CONFIG_VALUE_"+n {
					out = append(out, a.Value.Value+"="+b.Value.Value)
				}
			}
		}
	}
	return out
}

// verdictOf is the decision hits would give, with up to maxFactRules ids.
func verdictOf(hits []Hit) (Verdict, []string) {
	d := finish(append([]Hit(nil), hits...), false)
	var ids []string
	for _, id := range d.RuleIDs() {
		if len(ids) < maxFactRules && !contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return d.Verdict, ids
}

// noteGitState keeps a fact of git state written by this call (only the
// call itself leaves facts, never a script judged for one).
func (j *judge) noteGitState(key string, v Verdict, rules []string) {
	s := j.sessionState()
	if s.depth > 0 {
		return
	}
	s.facts.Written = append(s.facts.Written, WrittenFact{Path: key, Verdict: v, Rules: rules})
}

// noteGitSetting keeps the fact for a setting written to a config file
// whose judging added hits[from:] (the alias's expansion, the command a
// setting runs). An alias is kept whatever its verdict (a later benign
// definition replaces a harmful one, as git's does); other settings only
// when they were flagged, since they add up.
func (j *judge) noteGitSetting(key string, from int) {
	v, rules := verdictOf(j.hits[from:])
	k := strings.ToLower(key)
	switch {
	case strings.HasPrefix(k, "alias."):
		j.noteGitState(gitAliasKey+k[len("alias."):], v, rules)
	case v == Allow:
	case k == "core.hookspath":
		j.noteGitState(gitHooksKey, v, rules)
	default:
		j.noteGitState(gitSettingsKey, v, rules)
	}
}

// gitConfigFile reports a file git reads settings from (programs'
// GitConfigPath, and the XDG one under this machine's config home).
func (j *judge) gitConfigFile(p string) bool {
	if programs.GitConfigPath(p) {
		return true
	}
	return j.env.ConfigDir != "" && p == path.Join(path.Dir(j.env.ConfigDir), "git", "config")
}

// noteGitConfig judges the text written to a git config file p as git
// will read it: each alias as what it runs, each setting that runs code as
// that code (GIT-CONFIG-CODE), core.hooksPath (GIT-HOOKS-PATH); the hits
// are this call's (the write is judged), and each leaves its fact.
func (j *judge) noteGitConfig(p, text string) {
	detail := "write " + p
	e := &parse.Exec{Dir: path.Dir(p)}
	if !gitSectionFirst(text) {
		// text appended to the file (>>, tee -a) continues its last section
		if b, err := safefile.ReadFile(p, maxGitConfigBytes); err == nil && !j.env.NoFiles {
			text = string(b) + "\n" + text
		}
	}
	for _, s := range programs.GitConfigParse(text) {
		from := len(j.hits)
		j.gitSettingWritten(e, s.Key, s.Value, detail)
		j.noteGitSetting(s.Key, from)
	}
}

// gitSectionFirst reports text whose first setting follows a section
// header (or that holds none).
func gitSectionFirst(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		return l[0] == '['
	}
	return true
}

// gitSettingWritten judges one setting written to a config file (by a
// file write or by git config KEY VALUE).
func (j *judge) gitSettingWritten(e *parse.Exec, key, value, detail string) {
	switch {
	case isHooksPathKey(key):
		j.add(RuleGitHooksPath, detail)
	case len(key) > 6 && strings.EqualFold(key[:6], "alias."):
		j.judgeAliasDefinition(e, key, value, detail)
	default:
		j.gitSettingCode(execution{e: e, detail: detail}, key, value)
	}
}

// recallGitState adds what git itself will use at this invocation from
// state set earlier: settings that run code (from the session's memory,
// and the repository's config on disk), the alias sub names when it is
// not one of git's own commands.
func (j *judge) recallGitState(x execution, sub string, rest []string) {
	if sub == "" && len(rest) == 0 && len(x.args) > 0 && (x.args[0] == "--version" || x.args[0] == "--help") {
		return
	}
	if j.sessionState().depth == 0 && j.env.Memory != nil {
		j.recallGitFact(gitSettingsKey, x.detail+": git's settings")
		if gitRunsHooks(sub) {
			j.recallGitFact(gitHooksKey, x.detail+": git's core.hooksPath")
			j.recallHooks(x, sub)
		}
	}
	repo, files := j.gitConfigFiles(x)
	if repo != "" {
		j.gitConfigOnDisk(x, repo)
	}
	if sub == "" || programs.GitBuiltin(sub) {
		return
	}
	name := strings.ToLower(sub)
	if _, ok := j.gitAliases[name]; ok {
		return // defined in this command: gitAlias follows it
	}
	if j.sessionState().depth == 0 && j.env.Memory != nil {
		if f, ok := j.env.Memory.Written(gitAliasKey + name); ok {
			j.used("memory: git alias " + name + " defined in entry #" + itoa(f.Seq) + ": " + f.Verdict.String() + rulesNote(f.Rules))
			j.writtenRun("git "+sub+" (an alias defined earlier)", f)
			return
		}
	}
	for _, p := range files {
		value, found := "", false
		for _, s := range j.readGitConfig(p) {
			if s.Key == "alias."+name {
				value, found = s.Value, true // the file's last definition wins
			}
		}
		if found {
			j.used("git alias " + name + " from " + p)
			j.expandGitAlias(x.e, x.args, sub, value, rest, x.detail+" (alias "+name+" in "+p+")")
			return
		}
	}
}

// recallHooks adds what the session wrote into the hooks the subcommand
// runs (.git/hooks/post-checkout before git checkout, pre-push before git
// push): the hook runs as the command's own code.
func (j *judge) recallHooks(x execution, sub string) {
	g := j.gitDirOf(x)
	if g == "" && j.project != "" {
		g = j.project + "/.git"
	}
	if g == "" {
		return
	}
	dirs := []string{g + "/hooks/"}
	if j.project != "" {
		// the hooks a project keeps in its tree, where core.hooksPath
		// points (husky sets it to .husky/_, whose scripts run .husky/HOOK)
		dirs = append(dirs, j.project+"/.husky/", j.project+"/.githooks/")
	}
	for _, h := range programs.GitHooksRun(sub) {
		for _, d := range dirs {
			p := path.Clean(d + h)
			if f, ok := j.env.Memory.Written(p); ok && f.Verdict != Allow {
				j.used("memory: " + p + " written in entry #" + itoa(f.Seq) + ": " + f.Verdict.String() + rulesNote(f.Rules))
				j.writtenRun(p+" (the hook git "+sub+" runs)", f)
				return
			}
		}
	}
}

// recallGitFact adds the session's fact under key, when it says the state
// written would be stopped.
func (j *judge) recallGitFact(key, what string) {
	if j.gitRecalled[key] {
		return // once per call, however many git commands it runs
	}
	if j.gitRecalled == nil {
		j.gitRecalled = map[string]bool{}
	}
	j.gitRecalled[key] = true
	f, ok := j.env.Memory.Written(key)
	if !ok {
		// A memory that cannot answer does not make every git command ask:
		// what the repository's config holds is read from disk at each one
		// (gitConfigOnDisk), whoever wrote it.
		return
	}
	if f.Verdict == Allow {
		return
	}
	j.used("memory: " + what + " written in entry #" + itoa(f.Seq) + ": " + f.Verdict.String() + rulesNote(f.Rules))
	j.writtenRun(what+" (set earlier in this session)", f)
}

// gitRunsHooks: subcommands that run the repository's hooks.
func gitRunsHooks(sub string) bool {
	switch sub {
	case "commit", "merge", "push", "am", "rebase", "checkout", "switch", "pull", "cherry-pick", "revert",
		"clone", "worktree", "gc", "maintenance", "apply", "receive-pack", "send-email", "hook":
		return true
	}
	return false
}

// gitConfigFiles are the config files git would read for x, in the order
// their settings win: the repository's (<repo>/.git/config found from the
// execution's directory, or -C, --git-dir, GIT_DIR; also returned as
// repo), then ~/.gitconfig and the XDG file. None when files are not to be
// read.
func (j *judge) gitConfigFiles(x execution) (repo string, out []string) {
	if j.env.NoFiles {
		return "", nil
	}
	if g := j.gitDirOf(x); g != "" {
		// a worktree's settings are its repository's (commondir names it)
		if b, err := safefile.ReadFile(g+"/commondir", 4096); err == nil {
			c := strings.TrimSpace(string(b))
			if !path.IsAbs(c) {
				c = path.Join(g, c)
			}
			g = path.Clean(c)
		}
		repo = g + "/config"
		out = append(out, repo)
	}
	if j.home != "" {
		out = append(out, j.home+"/.gitconfig")
	}
	if j.env.ConfigDir != "" {
		out = append(out, path.Join(path.Dir(j.env.ConfigDir), "git", "config"))
	}
	return repo, out
}

// gitDirOf is the repository directory git would use for x ("" unknown or
// none): --git-dir or GIT_DIR, else the nearest .git above the directory
// -C leads to; a .git file (worktrees, submodules) names it.
func (j *judge) gitDirOf(x execution) string {
	dir, gitDir := programs.GitPlace(x.args)
	for _, a := range x.e.Assigns {
		if a.Name == "GIT_DIR" && gitDir == "" {
			if !a.Value.Static {
				return ""
			}
			gitDir = a.Value.Value
		}
	}
	base := x.e.Dir
	if base == "" {
		base = j.cwd
	}
	if dir != "" {
		d, ok := j.resolve(dir, base)
		if !ok {
			return ""
		}
		base = d
	}
	if gitDir != "" {
		g, _ := j.resolve(gitDir, base)
		return g
	}
	if base == "" || !path.IsAbs(base) {
		return ""
	}
	for d, n := path.Clean(base), 0; n < maxGitRepoWalk; d, n = path.Dir(d), n+1 {
		g := path.Join(d, ".git")
		fi, err := os.Lstat(g)
		switch {
		case err != nil:
		case fi.IsDir():
			return g
		case fi.Mode().IsRegular():
			// a .git file (worktrees, submodules): "gitdir: PATH"
			b, err := safefile.ReadFile(g, 4096)
			v, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if err != nil || !ok {
				return ""
			}
			if v = strings.TrimSpace(v); !path.IsAbs(v) {
				v = path.Join(d, v)
			}
			return path.Clean(v)
		default:
			return "" // a symlink or stranger: git may follow it, the judge does not
		}
		if d == "/" || d == j.home {
			break // a repository at home or above is the user's, read as global
		}
	}
	return ""
}

// readGitConfig reads a config file at decision time: regular, bounded,
// never a FIFO or device (safefile); nothing when it cannot be read.
func (j *judge) readGitConfig(p string) []programs.GitSetting {
	if j.env.NoFiles {
		return nil
	}
	b, err := safefile.ReadFile(p, maxGitConfigBytes)
	if err != nil {
		return nil
	}
	return programs.GitConfigParse(string(b))
}

// gitConfigOnDisk judges the settings of the repository's config that run
// code as the commands they are (every rule), without asking for the kind
// of command (a watchman fsmonitor hook by path, git-lfs's filters): the
// repository's own setup is not this session's doing unless the memory
// says so.
func (j *judge) gitConfigOnDisk(x execution, p string) {
	for _, s := range j.readGitConfig(p) {
		k := s.Key
		if !programs.GitCodeKey(k) || k == "core.hookspath" || strings.HasPrefix(k, "alias.") || strings.HasPrefix(k, "include") {
			continue
		}
		if strings.HasPrefix(k, "credential.") && !strings.HasPrefix(s.Value, "!") && !strings.Contains(s.Value, "/") {
			continue
		}
		j.used("git setting " + k + " from " + p)
		j.judgeGitCode(x, strings.TrimPrefix(s.Value, "!"))
	}
}
