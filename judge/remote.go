package judge

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleRmRemote = "RM-REMOTE"
)

var _ = rules(
	Rule{ID: RuleRmRemote, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "deleting files on another machine or in a container (ssh, docker exec, kubectl exec)",
		Alternative: "ask the operator; list what would go first",
		Matches:     "rm or `find -delete` on another machine or in a container (`ssh HOST '…'`, `docker exec`, `kubectl exec`) of a path that is not `/`, a system dir or file, a home (`~`, `/root`, `/home/NAME`, `/Users/NAME`) or its dotfiles (those keep RM-SYSTEM / RM-HOME / FIND-DELETE-OUTSIDE, deny) nor under `/tmp`-like scratch dirs (allowed); no project rules apply there. `docker run`/`podman run` keep the local rules (a bind mount `-v /:/host` makes container paths host paths)",
		Fire:        []string{"ssh host 'rm -rf /var/www/old'"},
		Pass:        []string{"ssh host 'rm -rf /tmp/build'", "ssh host ls /var/www"}},
)

// Deletions on another machine (ssh HOST 'rm ...', docker exec, kubectl
// exec): the project is a local notion, so "outside the project" says
// nothing there. What stays catastrophic anywhere is kept: /, system
// directories and files, home directories and their dotfiles.

// remoteDelete reports an execution judged with remote path rules. A
// container started with docker/podman run may bind-mount host paths
// (-v /:/host), so its paths keep the local rules.
func remoteDelete(e *parse.Exec) bool {
	return e.Remote && !strings.HasSuffix(e.Origin.Via, " run")
}

// homeLike matches a home directory on any machine: the user's, /root,
// /home/NAME, /Users/NAME.
func (j *judge) homeLike(p string) bool {
	if p == j.home || p == "/root" || p == "/var/root" {
		return true
	}
	d := filepath.Dir(p)
	return d == "/home" || d == "/Users"
}

// locateRemote classifies an absolute path on another machine: locSystem,
// locHome, locHomeDot, locInside (scratch space) or locOutside.
func (j *judge) locateRemote(p string) location {
	base, glob := globBase(p)
	if glob && slices.Contains(tempRoots, base) {
		return locInside // rm -rf /tmp/* in a container: its scratch space
	}
	switch {
	case systemDirs[base]:
		return locSystem
	case j.homeLike(base) || (glob && j.homeLike(filepath.Dir(base))):
		return locHome
	case j.homeLike(filepath.Dir(base)) && strings.HasPrefix(filepath.Base(base), "."):
		return locHomeDot
	}
	for _, t := range tempRoots {
		if strictlyUnder(base, t) {
			return locInside
		}
	}
	return locOutside
}

// rmRemote judges a static rm target p on another machine; tampered says
// a deny was already found for it (protected path, credential store).
func (j *judge) rmRemote(p string, strong, tampered bool, detail string) {
	switch j.locateRemote(p) {
	case locSystem:
		if strong {
			j.add(RuleRmSystem, detail)
			return
		}
	case locHome, locHomeDot:
		if strong {
			j.add(RuleRmHome, detail)
			return
		}
	case locInside:
		return // scratch space there as here
	case locOutside:
		if j.isSystemFile(p) {
			j.add(RuleRmSystem, detail) // rm -rf /usr/lib, rm /etc/passwd
			return
		}
	}
	if !tampered {
		j.add(RuleRmRemote, detail)
	}
}

// findRemote judges find -delete (or -exec rm) from root p on another
// machine.
func (j *judge) findRemote(p, detail string) {
	switch j.locateRemote(p) {
	case locSystem, locHome, locHomeDot:
		j.add(RuleFindDeleteOutside, detail)
	case locOutside:
		j.add(RuleRmRemote, detail)
	}
}
