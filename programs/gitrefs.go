package programs

import "strings"

// git's ways to rewrite refs besides push -f (blind attack class 5): the
// refspec grammar (+ forces, an empty source deletes), the settings that
// make a plain push force or mirror (remote.NAME.push, remote.NAME.mirror),
// branch -M/-C onto a branch that exists, fetch into local branches, and
// update-ref's --stdin commands. judge/gitrefs.go says what they do to the
// history; how they are spelled is here.

// Refspec is one refspec as git reads it: [+]SRC[:DST].
type Refspec struct {
	Src, Dst string
	Force    bool // a leading +: the update need not be a fast-forward
	HasDst   bool
}

// ParseRefspec splits a refspec. "+main", ":old" (delete old), "a:b".
func ParseRefspec(s string) Refspec {
	r := Refspec{}
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		r.Force, s = true, rest
	}
	r.Src, r.Dst, r.HasDst = strings.Cut(s, ":")
	return r
}

// Deletes reports a refspec that deletes its destination (":old").
func (r Refspec) Deletes() bool { return r.HasDst && r.Src == "" && r.Dst != "" }

// GitPushSetting reports a setting of git config that changes what a
// plain `git push` to remote does by force: remote.NAME.push with a
// forced or deleting refspec, remote.NAME.mirror true (push --mirror:
// every ref forced, those the local side lacks deleted). Keys as git
// reads them: the section and name in any case. push.default=mirror
// forces a push to any remote (remote "").
func GitPushSetting(key, value string) (remote string, forces bool) {
	k := strings.ToLower(key)
	if k == "push.default" {
		// not a value git accepts today; a version that takes it mirrors
		return "", strings.EqualFold(strings.TrimSpace(value), "mirror")
	}
	if !strings.HasPrefix(k, "remote.") {
		return "", false
	}
	dot := strings.LastIndexByte(k, '.')
	if dot <= len("remote.") {
		return "", false
	}
	remote = key[len("remote."):dot]
	switch k[dot+1:] {
	case "push":
		r := ParseRefspec(strings.TrimSpace(value))
		return remote, r.Force || r.Deletes()
	case "mirror":
		switch strings.ToLower(strings.TrimSpace(value)) {
		case "", "true", "yes", "on", "1":
			return remote, true
		}
	}
	return remote, false
}

// GitBranchOnto is the branch that git branch -M/-C (or -m/-c with
// --force) overwrites: the last operand, the new name ("" when none).
func GitBranchOnto(rest []string) string {
	o := GitOpts("branch", rest)
	force := o.Short['M'] || o.Short['C'] || (o.Has('m', "move") || o.Has('c', "copy")) && o.Has('f', "force")
	if !force || len(o.Pos) == 0 || len(o.Pos) > 2 {
		return ""
	}
	return o.Pos[len(o.Pos)-1]
}

// GitFetchRefspecs are the refspecs of git fetch (or pull) after the
// repository, each forced when --force is given.
func GitFetchRefspecs(sub string, rest []string) []Refspec {
	o := GitOpts(sub, rest)
	if len(o.Pos) < 2 {
		return nil
	}
	force := o.Has('f', "force")
	var out []Refspec
	for _, s := range o.Pos[1:] {
		r := ParseRefspec(s)
		r.Force = r.Force || force
		out = append(out, r)
	}
	return out
}

// LocalBranch is the branch a fetch destination writes ("refs/heads/X"
// or a bare name, which git puts under refs/heads), "" for remote-tracking
// refs, tags and others.
func LocalBranch(dst string) string {
	if b, ok := strings.CutPrefix(dst, "refs/heads/"); ok {
		return b
	}
	if strings.HasPrefix(dst, "refs/") || dst == "" {
		return ""
	}
	return dst
}

// RefCommand is one line of git update-ref --stdin: "delete REF [OLD]",
// "update REF NEW [OLD]", "create REF NEW", "verify REF [OLD]", "start",
// "prepare", "commit", "abort"; -z input is not read.
type RefCommand struct {
	Verb, Ref, New string
}

// GitUpdateRefStdin reports update-ref reading its commands from stdin.
func GitUpdateRefStdin(rest []string) bool { return GitOpts("update-ref", rest).Has(0, "stdin") }

// ParseRefCommands reads update-ref --stdin's command text.
func ParseRefCommands(text string) []RefCommand {
	var out []RefCommand
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		c := RefCommand{Verb: f[0]}
		if len(f) > 1 {
			c.Ref = f[1]
		}
		if len(f) > 2 {
			c.New = f[2]
		}
		out = append(out, c)
	}
	return out
}

// RefFormatVerb is the update-ref command a for-each-ref format writes
// ("delete %(refname)" prints delete lines; ":%(refname:short)" prints
// deleting refspecs): the format's first word, "" when none.
func RefFormatVerb(sub string, rest []string) string {
	if sub != "for-each-ref" && sub != "branch" && sub != "tag" {
		return ""
	}
	f := GitOpts(sub, rest).Value(0, "format")
	switch {
	case strings.HasPrefix(f, ":"):
		return ":"
	case strings.HasPrefix(f, "+"):
		return "+"
	}
	if w := strings.Fields(f); len(w) > 0 {
		return w[0]
	}
	return ""
}

// GitWorkTree is the work tree an invocation writes files into, when the
// command line names one: --work-tree DIR (or =DIR) for the subcommands
// that check files out, and the path of git worktree add
// ("" when none is named; git then uses the repository's).
func GitWorkTree(args []string) string {
	_, _, wt := gitGlobals(args)
	sub, rest, _ := GitSplit(args)
	switch sub {
	case "worktree":
		if len(rest) > 0 && rest[0] == "add" {
			if p := GitOpts("worktree", rest[1:]).Pos; len(p) > 0 {
				return p[0]
			}
		}
		return ""
	case "checkout", "switch", "restore", "reset", "checkout-index", "read-tree", "merge", "pull", "stash", "rebase", "cherry-pick", "revert", "am", "apply":
		return wt
	}
	return ""
}

// GitRemoteURLSet is the remote whose URL an invocation changes and the
// new URL: git remote set-url [--push] [--add] NAME URL [OLD], git config
// remote.NAME.url / pushurl URL; old is the URL set-url is told it
// replaces (""). git remote add makes a new one: not this.
func GitRemoteURLSet(sub string, rest []string) (name, url, old string, ok bool) {
	switch sub {
	case "remote":
		o := Parse(rest, Spec{})
		if len(o.Pos) >= 3 && o.Pos[0] == "set-url" && !o.Has(0, "delete") {
			if len(o.Pos) > 3 {
				old = o.Pos[3] // set-url NAME NEW OLD: OLD is the URL it replaces
			}
			return o.Pos[1], o.Pos[2], old, true
		}
	case "config":
		key, value, set := GitConfigSet(rest)
		k := strings.ToLower(key)
		if !set || !strings.HasPrefix(k, "remote.") {
			return "", "", "", false
		}
		dot := strings.LastIndexByte(k, '.')
		if dot > len("remote.") && (k[dot+1:] == "url" || k[dot+1:] == "pushurl") {
			return key[len("remote."):dot], value, "", true
		}
	}
	return "", "", "", false
}

// RepoOwner is the host and owner a remote URL names ("github.com/acme"
// for https://github.com/acme/app.git, git@github.com:acme/app.git,
// ssh://git@github.com/acme/app), "" for a local path or a URL it cannot
// read.
func RepoOwner(url string) string {
	u := strings.TrimSpace(url)
	if strings.HasPrefix(strings.ToLower(u), "file://") {
		return "" // a path on this machine
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	} else if at, colon := strings.IndexByte(u, '@'), strings.IndexByte(u, ':'); colon > 0 && (at < 0 || at < colon) && !strings.HasPrefix(u, "/") && !strings.HasPrefix(u, ".") {
		u = u[:colon] + "/" + u[colon+1:] // scp-like: [user@]host:owner/repo
	} else {
		return "" // a path on this machine
	}
	if at := strings.IndexByte(u, '@'); at >= 0 && at < strings.IndexByte(u+"/", '/') {
		u = u[at+1:] // user@ or user:token@
	}
	parts := strings.Split(strings.Trim(u, "/"), "/")
	if len(parts) < 2 || parts[0] == "" {
		return ""
	}
	host, _, _ := strings.Cut(parts[0], ":") // a port
	return strings.ToLower(host + "/" + parts[1])
}

// GitLFSRewrites reports git lfs migrate import/export, which rewrites
// the history of the current branch (--everything: of every ref); info
// and --dry-run only read it.
func GitLFSRewrites(rest []string) bool {
	o := Parse(rest, S("I", "include", "exclude", "include-ref", "exclude-ref", "above", "object-map"))
	p := o.Pos
	return len(p) >= 2 && p[0] == "migrate" && (p[1] == "import" || p[1] == "export") && !o.Has(0, "dry-run", "no-rewrite")
}

// GitDropsHistory reports git subcommands besides filter-branch and lfs
// migrate that rewrite or drop history (the verb, "" when none): replace
// of an object (every later log, checkout and push of refs/replace sees
// another history), fast-import --force (branches moved wherever the
// stream says, commits dropped from them), lfs prune --force or with
// --when-unverified=continue (local LFS objects deleted that the remote
// may lack).
func GitDropsHistory(sub string, rest []string) string {
	switch sub {
	case "replace":
		o := GitOpts(sub, rest)
		if o.Has('d', "delete") || o.Has('l', "list") {
			return ""
		}
		if len(o.Pos) >= 2 || o.Has(0, "edit", "graft", "convert-graft-file") {
			return "replace"
		}
	case "fast-import":
		if has(rest, "--force") {
			return "fast-import --force"
		}
	case "lfs":
		o := Parse(rest, S("", "when-unverified", "recent", "verify-remote"))
		if len(o.Pos) > 0 && o.Pos[0] == "prune" && !o.Has('d', "dry-run") &&
			(o.Has('f', "force") || o.Value(0, "when-unverified") == "continue") {
			return "lfs prune"
		}
	}
	return ""
}

// BFGRewrites reports a run of the BFG Repo-Cleaner (bfg, java -jar
// bfg*.jar) that rewrites the repository's history: any run but its help
// and version.
func BFGRewrites(name string, args []string) bool {
	if name == "java" {
		if len(args) < 2 || args[0] != "-jar" {
			return false
		}
		jar := args[1][strings.LastIndexByte(args[1], '/')+1:]
		if !strings.HasPrefix(strings.ToLower(jar), "bfg") {
			return false
		}
		args = args[2:]
	} else if name != "bfg" {
		return false
	}
	for _, a := range args {
		switch a {
		case "-h", "--help", "--version":
			return false
		}
	}
	return len(args) > 0
}

// GitCleanUnforced reports a setting that lets git clean delete without
// -f: clean.requireForce false.
func GitCleanUnforced(key, value string) bool {
	if !strings.EqualFold(key, "clean.requireForce") {
		return false
	}
	switch strings.ToLower(strings.Trim(value, `"' `)) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}
