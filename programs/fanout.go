package programs

import "strings"

// Fan-out: listers whose names become another command's arguments (find
// -exec, fd -x, ... | xargs CMD) and what those names stand for. A
// listing is given as path words, resolved later against the command's
// directory: DIR/* for everything in DIR, DIR/*_ for a filtered part of it
// (a narrow glob: some entries below DIR), or the glob itself (ls *.log).

// Listed is what a lister prints, as paths.
type Listed struct {
	Paths []string
	// Deep: the names reach every depth below the paths (find, fd,
	// git ls-files, ls -R), not only the entries themselves.
	Deep bool
}

// FindStarts are find's starting points ("." when none).
func FindStarts(args []string) []string {
	var roots []string
	for _, a := range args {
		if a == "-H" || a == "-L" || a == "-P" || strings.HasPrefix(a, "-O") || a == "-D" {
			continue
		}
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == "\\(" {
			break
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	return roots
}

// FdSearch splits fd's arguments: the search roots ("." when none), the
// command of -x/--exec/-X/--exec-batch (up to ";"), and whether the
// pattern or options narrow the search.
func FdSearch(args []string) (roots, exec []string, filtered bool) {
	var pos []string
	sp := Lookup("fd").Opts
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-x" || a == "--exec" || a == "-X" || a == "--exec-batch":
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != `\;` {
				j++
			}
			if exec == nil {
				exec = args[i+1 : j]
			}
			i = j
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, _, hasVal := strings.Cut(a[2:], "=")
			switch name {
			case "extension", "glob", "size", "changed-within", "changed-before", "change-newer-than", "change-older-than",
				"newer", "older", "owner", "exclude", "type":
				if name != "type" && name != "exclude" {
					filtered = true
				}
			}
			if !hasVal && sp.longTakes(name) {
				i++
			}
			if name == "glob" && !hasVal {
				i-- // --glob is a switch: the pattern is a glob
			}
		case len(a) > 1 && a[0] == '-':
			for k := 1; k < len(a); k++ {
				c := a[k]
				if c == 'e' || c == 'g' || c == 'S' || c == 'o' {
					filtered = true
				}
				if strings.IndexByte(sp.Short, c) >= 0 || c == 'S' || c == 'o' {
					if k == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) > 0 {
		if p := pos[0]; p != "" && p != "." && p != "^" && p != ".*" && p != "*" {
			filtered = true
		}
		roots = pos[1:]
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	return roots, exec, filtered
}

// below is DIR/* (everything in it) or DIR/*_ (a filtered part).
func below(dir string, filtered bool) string {
	d := strings.TrimSuffix(dir, "/")
	if d == "" && strings.HasPrefix(dir, "/") {
		d = ""
	}
	if filtered {
		return d + "/*_"
	}
	return d + "/*"
}

// FindListed is what find's starting points stand for in what it prints
// or hands to -exec.
func FindListed(args []string) Listed {
	filtered := FindSelects(args)
	var out Listed
	for _, r := range FindStarts(args) {
		out.Paths = append(out.Paths, below(r, filtered))
	}
	out.Deep = true
	return out
}

// Listing is what a lister prints when its output becomes arguments (ls,
// find, fd, git ls-files), or ok false when name prints something else.
func Listing(name string, args []string) (Listed, bool) {
	switch p := Lookup(name); {
	case p == nil:
		return Listed{}, false
	case p.Name == "find":
		return FindListed(args), true
	case p.Name == "fd":
		roots, exec, filtered := FdSearch(args)
		if exec != nil {
			return Listed{}, false // fd -x prints what its command prints
		}
		var out Listed
		for _, r := range roots {
			out.Paths = append(out.Paths, below(r, filtered))
		}
		out.Deep = true
		return out, true
	case p.Name == "ls":
		var out Listed
		for _, a := range args {
			if a == "-R" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'R') {
				out.Deep = true
			}
			if !strings.HasPrefix(a, "-") {
				if strings.ContainsAny(a, "*?[") {
					out.Paths = append(out.Paths, a) // ls *.log: those files
				} else {
					out.Paths = append(out.Paths, below(a, false))
				}
			}
		}
		if len(out.Paths) == 0 {
			out.Paths = []string{"*"}
		}
		return out, true
	case p.Name == "git":
		return gitListed(args)
	}
	return Listed{}, false
}

// gitListed reads git [-C DIR] ls-files [options] [-- pathspec]: every
// tracked file, unless a pathspec or a selecting option narrows it.
func gitListed(args []string) (Listed, bool) {
	dir := "."
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if args[i] == "-C" && i+1 < len(args) {
			dir = args[i+1]
			i++
		} else if args[i] == "-c" || args[i] == "--git-dir" || args[i] == "--work-tree" {
			i++
		}
		i++
	}
	if i >= len(args) || args[i] != "ls-files" {
		return Listed{}, false
	}
	filtered := false
	for _, a := range args[i+1:] {
		switch {
		case a == "-z" || a == "--full-name" || a == "-c" || a == "--cached" || a == "--" || a == "-t" || a == "-v":
		default:
			filtered = true // a pathspec, --others, --modified, --deleted, -i ...
		}
	}
	return Listed{Paths: []string{below(dir, filtered)}, Deep: true}, true
}
