package interp

import "strings"

// What a python loop's variable ranges over (issue 19, blind class 4):
// `for r, d, fs in os.walk(HOME): ... os.remove(os.path.join(r, f))`
// deletes every file below HOME. The names os.walk, glob.glob, os.listdir
// and pathlib's iterdir/glob/rglob yield are not known, but what they
// range over is: a loop variable bound to one of them holds a glob pattern
// (not static) below the directory, as a shell's `for f in DIR/*` does; a
// path that ranges over a whole tree (os.walk, rglob, a recursive glob) is
// deep, and a deletion of it is judged as a recursive one.

// pattern is a value that is one of the paths p matches.
func pattern(p string, deep bool) val { return val{s: p, deep: deep} }

// names is a list of names the loop takes one at a time.
func names(elem val) val { return val{s: elem.s, elem: &elem} }

// pyIterValue is the value of a call that yields paths or names to iterate
// over (its elem), ok false for other calls.
func pyIterValue(ref string, pos []val) (val, bool) {
	at := func(i int) val { return argAt(pos, i) }
	switch ref {
	case "os.walk", "os.fwalk":
		top := at(0)
		if !top.static {
			return val{}, false
		}
		// (root, dirs, files): root is top or any directory below it, and
		// the body may pick some of what it visits (if f.endswith(".pyc")):
		// a part below top (programs.Listing's DIR/*_), not all of it
		root := pattern(strings.TrimSuffix(top.s, "/")+"/*_", true)
		tuple := val{isList: true, list: []val{root, names(pattern("*", false)), names(pattern("*", false))}}
		return val{s: "os.walk(" + top.s + ")", elem: &tuple}, true
	case "os.listdir", "os.scandir":
		return names(pattern("*", false)), true
	case "glob.glob", "glob.iglob":
		p := at(0)
		if !p.static {
			return val{}, false
		}
		// a file pattern, even with recursive=True: os.remove of each is
		// judged as rm of the pattern (a tree walk is os.walk's)
		return names(pattern(p.s, false)), true
	}
	return val{}, false
}

// pyPathIter is pathlib's Path(d).iterdir() / .glob(p) / .rglob(p).
func pyPathIter(obj val, attr string, pos []val) (val, bool) {
	if !obj.static {
		return val{}, false
	}
	d := strings.TrimSuffix(obj.s, "/")
	var p val
	switch attr {
	case "iterdir":
		p = pattern(d+"/*", false)
	case "glob", "rglob":
		g := argAt(pos, 0)
		if !g.static {
			return val{}, false
		}
		p = pattern(d+"/"+g.s, attr == "rglob" || strings.Contains(g.s, "**"))
	default:
		return val{}, false
	}
	p.ref = "pathlib.Path"
	return names(p), true
}

// pyBindLoop binds the targets of a for statement or a comprehension's
// for clause to what its iterable yields, when that is known.
func pyBindLoop(e *eval, n *node) {
	l, r := n.get("left"), n.get("right")
	if l == nil || r == nil {
		return
	}
	it := e.value(r)
	if it.elem == nil {
		return
	}
	elem := *it.elem
	switch l.kind {
	case "identifier":
		e.vars[l.text()] = elem
	case "pattern_list", "tuple_pattern", "list_pattern":
		if !elem.isList {
			return
		}
		for i, id := range l.namedKids() {
			if id.kind == "identifier" && i < len(elem.list) {
				e.vars[id.text()] = elem.list[i]
			}
		}
	}
}
