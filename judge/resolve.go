package judge

import (
	"os"
	"path/filepath"
	"strings"
)

// Resolving names as the shell would (issue 19 class 11): a glob is
// matched against the names that matter in its directory, and against the
// directory's entries on disk (bounded, not in replay), so `cat .en?` is a
// read of .env; a file named like a key in a directory not known (cd
// "$DIR" && cat id_rsa) is still a key.

// maxGlobEntries bounds the entries of one directory a glob is matched
// against, and maxGlobDirs the directories listed per decision.
const (
	maxGlobEntries = 512
	maxGlobDirs    = 8
	maxGlobPaths   = 256
)

// secretCandidates are names a glob may hit in any directory: the
// secret files by name and the common environment files.
var secretCandidates = append([]string{".env", ".env.local", ".env.production", ".env.prod", ".env.development",
	".env.staging", ".env.test", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".bash_history", ".zsh_history"}, secretFiles...)

// globSecret reports a glob that matches a secret: each component with a
// glob is matched against the names that matter there (the secret files
// by name; under home, the credential stores) and the directory's entries
// on disk, at most maxGlobPaths paths in all.
func (j *judge) globSecret(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	comps := strings.Split(p[1:], "/")
	n := 0
	var walk func(dir string, rest []string) bool
	walk = func(dir string, rest []string) bool {
		if n++; n > maxGlobPaths {
			return false
		}
		if len(rest) == 0 {
			return j.isSecretPath(dir)
		}
		c := rest[0]
		if !strings.ContainsAny(c, "*?[") {
			return walk(filepath.Join(dir, c), rest[1:])
		}
		cands := secretCandidates
		if c == "*" || c == ".*" || c == "**" {
			cands = nil // everything: only what is there counts
		}
		if dir == j.home && cands != nil {
			for _, st := range credentialStores {
				first, _, _ := strings.Cut(st, "/")
				cands = append(cands[:len(cands):len(cands)], first)
			}
		}
		try := func(name string, listed bool) bool {
			if strings.HasPrefix(name, ".") && !strings.HasPrefix(c, ".") {
				return false // the shell's * and ? never match a leading dot
			}
			if !listed && strings.HasPrefix(c, "*") {
				return false // *.json, **: a name of the lists only when it is there
			}
			ok, err := filepath.Match(c, name)
			return err == nil && ok && walk(filepath.Join(dir, name), rest[1:])
		}
		for _, name := range cands {
			if try(name, false) {
				return true
			}
		}
		for _, name := range j.dirEntries(dir) {
			if try(name, true) {
				return true
			}
		}
		return false
	}
	return walk("/", comps)
}

// dirEntries lists a directory's names, bounded; none in replay
// (Env.NoFiles) or past the per-decision budget.
func (j *judge) dirEntries(dir string) []string {
	if j.env.NoFiles || j.globDirs >= maxGlobDirs {
		return nil
	}
	j.globDirs++
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return nil // a link, a FIFO, a device: not listed
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(maxGlobEntries)
	return names
}

// secretByName reports a word naming a secret file by its name alone, for
// a directory that is not known.
func secretByName(w string) bool {
	if w == "" || strings.HasPrefix(w, "-") || strings.ContainsAny(w, "$`=@<") {
		return false
	}
	base := filepath.Base(w)
	switch base {
	case "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk":
		return true
	}
	return secretFileName(base) || inSecretDir("/"+w)
}
