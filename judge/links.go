package judge

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Paths are judged where the kernel takes them: a symlink or a bind mount
// in the project that leads to ~/.claude/settings.json, the sentinel's
// state or ~/.ssh makes `Write cfg.json`, `: > st/register.db` or
// `rm -rf h/Documents` a write, truncation or deletion of what it leads
// to. Every judged path is matched as written and, when it runs through
// links, as resolved: the links already on disk (lstat'ed component by
// component, nothing opened: internal/safefile.Resolve) and the links the
// command itself makes before it (ln, cp -s, mount --bind). Making a link
// to a protected place is itself judged as reaching it.

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleLinkUnresolved = "LINK-UNRESOLVED"
)

var _ = rules(
	Rule{ID: RuleLinkUnresolved, Class: ClassDynamic, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "a path runs through symlinks that cannot be followed to their end (a loop, more than 40 links, or over the call's budget): where it leads is unknown",
		Alternative: "name the file by its real path",
		Matches:     "a written, deleted or read path whose links loop or exceed the kernel's 40 hops or the decision's lookup budget",
		Fire:        []string{"ln -sfn l2 l1 && ln -sfn l1 l2 && echo x > l1/f"},
		Pass:        []string{"ln -sfn build/app app && echo x > app", "echo x > l1/f"}},
)

var _ = onExec(func(j *judge, x execution) { j.links(x.e, x.args, x.detail) })

// linkLstats bounds the lookups of one decision: a command with thousands
// of paths gets LINK-UNRESOLVED, never a late answer. A count, not a
// clock: the same call gets the same decision on a loaded machine (the
// hook's own deadline bounds a file system that hangs).
const linkLstats = 2048

// linkState is one decision's view of links: those the command makes,
// the lookups done, and the budget left.
type linkState struct {
	made    map[string]string // link path -> what it leads to (absolute, clean)
	dirs    map[string]string // directory -> resolved directory
	budget  safefile.Budget
	roots   [][2]string // {resolved, as the judge knows it}: home, project, the guarded dirs
	rooted  bool
	stopped bool // LINK-UNRESOLVED given
}

func (j *judge) linkView() *linkState {
	if j.linkSt == nil {
		j.linkSt = &linkState{made: map[string]string{}, dirs: map[string]string{},
			budget: safefile.Budget{Lstats: linkLstats}}
	}
	return j.linkSt
}

// viaLinks is where the absolute, clean path p leads through links, when
// that is not p itself ("" otherwise). follow: the last component is
// followed too (reads and writes; not unlink or rename, which act on the
// link). A path that cannot be followed is LINK-UNRESOLVED.
func (j *judge) viaLinks(p string, follow bool, detail string) string {
	if p == "" || p[0] != '/' {
		return ""
	}
	ls := j.linkView()
	r, ok := ls.applyMade(p, follow)
	if !j.env.NoFiles {
		var changed bool
		var err error
		r, changed, err = j.onDisk(r, follow)
		if err != nil {
			ok = false
		}
		if changed {
			r = j.asKnown(r)
		}
	}
	if !ok && !ls.stopped {
		ls.stopped = true
		j.add(RuleLinkUnresolved, detail)
	}
	if r == p {
		return ""
	}
	return r
}

// applyMade follows the links made earlier in the command, longest first,
// at most safefile.MaxLinkHops times.
func (ls *linkState) applyMade(p string, follow bool) (string, bool) {
	if len(ls.made) == 0 {
		return p, true
	}
	for hop := 0; ; hop++ {
		best := ""
		for l := range ls.made {
			if under(p, l) && len(l) > len(best) && (follow || p != l) {
				best = l
			}
		}
		if best == "" {
			return p, true
		}
		if hop == safefile.MaxLinkHops {
			return p, false
		}
		p = filepath.Clean(ls.made[best] + p[len(best):])
	}
}

// onDisk resolves p's directory (cached: the operands of a command share
// them) and then, when follow, its last component.
func (j *judge) onDisk(p string, follow bool) (string, bool, error) {
	ls := j.linkView()
	dir, base := filepath.Dir(p), filepath.Base(p)
	if p == "/" {
		return p, false, nil
	}
	rd, ok := ls.dirs[dir]
	if !ok {
		var err error
		var changed bool
		rd, changed, err = safefile.Resolve(dir, true, &ls.budget)
		if err != nil {
			return p, false, err
		}
		if !changed {
			rd = dir
		}
		ls.dirs[dir] = rd
	}
	r := filepath.Join(rd, base)
	if follow {
		r2, _, err := safefile.Resolve(r, true, &ls.budget)
		if err != nil {
			return r, r != p, err
		}
		r = r2
	}
	return r, r != p, nil
}

// asKnown writes a resolved path under the name the judge knows its root
// by: with a home that is itself a link (/home/u -> /data/u), what resolves
// to /data/u/.bashrc is ~/.bashrc.
func (j *judge) asKnown(r string) string {
	ls := j.linkView()
	if !ls.rooted {
		ls.rooted = true
		roots := append([]string{j.project, j.home}, j.sentinel...)
		roots = append(roots, j.agentDirs...)
		for _, k := range roots {
			if k == "" || k == "/" {
				continue
			}
			if real, changed, err := safefile.Resolve(k, true, &ls.budget); err == nil && changed && real != k {
				ls.roots = append(ls.roots, [2]string{real, k})
			}
		}
	}
	for _, rt := range ls.roots {
		if under(r, rt[0]) {
			return rt[1] + r[len(rt[0]):]
		}
	}
	return r
}

// links judges an execution that makes links (programs' Links: ln, cp -s,
// cp -l, mount --bind, bindfs): each link is remembered for the rest of
// the command, and a link to a protected place is judged as reaching it,
// since a later plain write, read or rm of the link's name is one of it.
// It reports whether the execution made links.
func (j *judge) links(e *parse.Exec, args []string, detail string) bool {
	if e.Synthetic || e.Remote {
		return false
	}
	p := programs.Lookup(e.Name)
	if p == nil || p.Links == nil {
		return false
	}
	targets, name, intoDir := p.Links(args)
	if len(targets) == 0 || name == "" {
		return false
	}
	symbolic := programs.HasShortFlag(args, 's') || contains(args, "--symbolic")
	if p.Name == "cp" {
		symbolic = programs.HasShortFlag(args, 's') || contains(args, "--symbolic-link")
	}
	nameAbs, ok := j.resolve(name, e.Dir)
	if !ok {
		return true
	}
	if !intoDir && !programs.HasShortFlag(args, 'n') && !programs.HasShortFlag(args, 'T') && !j.env.NoFiles {
		if fi, err := os.Stat(nameAbs); err == nil && fi.IsDir() {
			intoDir = true // ln -s ~/.ssh/id_rsa keys/: the link is keys/id_rsa
		}
	}
	for _, t := range targets {
		// a relative symlink target is read from the link's directory;
		// a hard link's or a bind mount's from the current one
		base := e.Dir
		link := nameAbs
		if intoDir {
			link = filepath.Join(nameAbs, filepath.Base(t))
		}
		if symbolic && !strings.HasPrefix(j.expandHome(t), "/") {
			base = filepath.Dir(link)
		}
		tAbs, ok := j.resolve(t, base)
		if !ok {
			continue
		}
		if r := j.viaLinks(tAbs, true, detail); r != "" {
			tAbs = r
		}
		j.linkView().made[link] = tAbs
		j.linkReach(tAbs, detail)
	}
	return true
}

// linkReach judges a link to t as what a later use of it may do: to a
// secret, a read of it; to the guard's, an agent's or a startup file or
// a credential store, a write of it.
func (j *judge) linkReach(t, detail string) {
	if j.readAbs(t, detail) {
		return
	}
	if j.reachesProtected(t) {
		j.writeLex(t, kindEdit, detail)
	}
}

// reachesProtected reports the places whose change is the harm whatever
// the program (protected.go): the guard's and the agents' files,
// persistence points, shell startup files. (A credential store is a read
// first: linkReach's readAbs; its public files, id.pub, are no harm.)
func (j *judge) reachesProtected(abs string) bool {
	return j.isAgentSettings(abs) || j.isSentinelPath(abs) || j.persistencePath(abs) ||
		programs.StartupFile(abs, j.relHome(abs))
}
