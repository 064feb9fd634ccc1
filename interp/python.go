package interp

import (
	"encoding/base64"
	"strings"
)

type pySpec struct{}

func (pySpec) visit(e *eval, n *node) bool {
	switch n.kind {
	case "import_statement":
		for _, k := range n.namedKids() {
			switch k.kind {
			case "dotted_name": // import os.path binds os
				full := k.text()
				first, _, _ := strings.Cut(full, ".")
				e.vars[first] = val{ref: first}
			case "aliased_import": // import os.path as p binds p to os.path
				if a := k.get("alias"); a != nil {
					e.vars[a.text()] = val{ref: k.get("name").text()}
				}
			}
		}
		return false
	case "import_from_statement":
		mod := n.get("module_name")
		if mod == nil {
			return false
		}
		m := mod.text()
		if n.first("wildcard_import") != nil {
			e.star = append(e.star, m)
		}
		for _, k := range n.kids {
			if k.field != "name" {
				continue
			}
			switch k.kind {
			case "dotted_name":
				e.vars[k.text()] = val{ref: m + "." + k.text()}
			case "aliased_import":
				if a := k.get("alias"); a != nil {
					e.vars[a.text()] = val{ref: m + "." + k.get("name").text()}
				}
			}
		}
		return false
	case "assignment":
		l, r := n.get("left"), n.get("right")
		if l != nil && r != nil && l.kind == "identifier" {
			e.vars[l.text()] = e.value(r)
		}
		if l != nil && r != nil && l.kind == "pattern_list" && r.kind == "expression_list" {
			ls, rs := l.namedKids(), r.namedKids()
			for i := range ls {
				if i < len(rs) && ls[i].kind == "identifier" {
					e.vars[ls[i].text()] = e.value(rs[i])
				}
			}
		}
	case "augmented_assignment": // x += "..."
		e.assign(n, "identifier", "+=")
	case "with_item": // with open(p) as f: f.write(...) writes p
		if v := n.get("value"); v != nil && v.kind == "as_pattern" {
			if t := v.get("alias"); t != nil {
				if c := v.namedKids(); len(c) > 0 {
					if id := t.first("identifier"); id != nil {
						e.vars[id.text()] = e.value(c[0])
					}
				}
			}
		}
	case "call":
		pyCall(e, n)
	case "for_statement":
		pyBindLoop(e, n)
	case "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension":
		// the clauses bind before the element is evaluated (it comes first)
		for _, k := range n.namedKids() {
			if k.kind == "for_in_clause" {
				pyBindLoop(e, k)
			}
		}
	case "attribute":
		// os.dup2 / socket use without a call (references)
		if t := n.text(); strings.HasSuffix(t, "dup2") {
			e.dup2 = true
		}
	}
	return true
}

// pyName resolves a callee or reference to a dotted name: os.system,
// subprocess.run, getattr(os, 'sys'+'tem'), __import__('os').system.
func pyRef(e *eval, n *node) (string, bool) {
	v := e.value(n)
	if v.ref != "" {
		return v.ref, true
	}
	return "", false
}

func pyArgs(e *eval, n *node) []arg {
	al := n.get("arguments")
	var out []arg
	for _, k := range al.namedKids() {
		switch k.kind {
		case "keyword_argument":
			out = append(out, arg{name: k.get("name").text(), v: e.value(k.get("value")), n: k})
		case "list_splat", "dictionary_splat":
			out = append(out, arg{star: true, v: flow(k, e.value(k.namedKids()[0])), n: k})
		default:
			out = append(out, arg{v: e.value(k), n: k})
		}
	}
	return out
}

func pyCall(e *eval, n *node) {
	fn := n.get("function")
	if fn == nil || n.get("arguments") == nil {
		return
	}
	args := pyArgs(e, n)
	pos := positional(args)
	at := func(i int) val { return argAt(pos, i) }
	if fn.kind == "attribute" {
		// libc's own system(): ctypes.CDLL(None).system(b"..."), libc.system
		if attr := fn.get("attribute").text(); attr == "system" || attr == "popen" {
			if o := fn.get("object").text(); strings.Contains(o, "CDLL") || strings.Contains(o, "cdll") ||
				strings.Contains(o, "libc") || strings.Contains(o, "LoadLibrary") || e.value(fn.get("object")).ref == "ctypes.CDLL" {
				e.runValue("ctypes "+attr, at(0), true)
				return
			}
		}
	}
	if fn.kind == "attribute" {
		// a method of an object (Path(p).unlink(), sock.connect(...)) or
		// of a value we do not know: its name still says what it does.
		obj := e.value(fn.get("object"))
		switch obj.ref {
		case "", "pathlib.Path", "socket", "requests.session":
			pyMethod(e, fn.get("attribute").text(), obj, pos, args, n)
			return
		}
	}
	ref, ok := pyRef(e, fn)
	if !ok {
		// getattr(mod, name)(...) with a name built at run time.
		if fn.kind == "call" {
			if inner := fn.get("function"); inner != nil && inner.text() == "getattr" {
				ia := pyArgs(e, fn)
				if len(ia) > 1 && !ia[1].v.static {
					e.dynamicName("getattr", ia[1].v)
				}
			}
		}
		return
	}
	pyApply(e, ref, args)
}

// pyApply records what the function ref does called with args. A
// function handed to another to call (multiprocessing.Process(target=
// os.system, args=(...)), threading.Thread, map(os.remove, paths)) is
// applied to what it will be given.
func pyApply(e *eval, ref string, args []arg) {
	pos := positional(args)
	at := func(i int) val { return argAt(pos, i) }
	switch ref {
	case "multiprocessing.Process", "threading.Thread", "threading.Timer", "map", "builtins.map", "list(map)":
		f, a := at(0), at(1)
		if ref == "threading.Timer" {
			f, a = at(1), at(2) // Timer(interval, function, args)
		}
		if v, ok := keyword(args, "target"); ok {
			f = v
		}
		if v, ok := keyword(args, "args"); ok {
			a = v
		}
		if ref == "threading.Timer" {
			if v, ok := keyword(args, "function"); ok {
				f = v
			}
		}
		if f.ref == "" || e.level > maxEval {
			return
		}
		var each [][]val
		switch {
		case (ref == "map" || ref == "builtins.map") && a.elem != nil:
			each = [][]val{{*a.elem}}
		case ref == "map" || ref == "builtins.map":
			for _, x := range a.list {
				each = append(each, []val{x})
			}
		case a.isList:
			each = [][]val{a.list}
		default:
			each = [][]val{nil}
		}
		e.level++
		for _, xs := range each {
			call := make([]arg, len(xs))
			for i, x := range xs {
				call[i] = arg{v: x}
			}
			pyApply(e, f.ref, call)
		}
		e.level--
		return
	}
	if strings.HasPrefix(ref, "socket.") || ref == "socket" {
		e.socket = true
	}
	if strings.HasSuffix(ref, ".dup2") {
		e.dup2 = true
	}
	shellKw, _ := keyword(args, "shell")
	if prog, ok := strings.CutPrefix(ref, "sh."); ok && prog != "" && !strings.Contains(prog, ".") && prog != "Command" {
		e.command(ref, false, val{}, append([]val{lit(prog)}, pos...)) // the sh module: sh.rm("-rf", p) runs rm
		return
	}
	switch ref {
	case "os.system", "os.popen", "commands.getoutput", "commands.getstatusoutput", "subprocess.getoutput", "subprocess.getstatusoutput", "platform.popen":
		e.runValue(ref, at(0), true)
	case "subprocess.run", "subprocess.call", "subprocess.Popen", "subprocess.check_output", "subprocess.check_call",
		"asyncio.create_subprocess_shell", "asyncio.subprocess.create_subprocess_shell":
		a := at(0)
		if v, ok := keyword(args, "args"); ok {
			a = v
		}
		e.runValue(ref, a, !a.isList || shellKw.s == "True")
		if envKw, ok := keyword(args, "env"); ok && envKw.env {
			_ = envKw // the environment handed to a child is not a dump
		}
	case "asyncio.create_subprocess_exec", "asyncio.subprocess.create_subprocess_exec", "os.spawnlp", "os.spawnl":
		vals := pos
		if strings.HasPrefix(ref, "os.spawn") && len(vals) > 0 {
			vals = vals[1:] // the mode
		}
		if len(vals) > 1 && strings.HasPrefix(ref, "os.") {
			vals = append([]val{vals[0]}, vals[2:]...) // path, arg0 (dropped), args
		}
		e.command(ref, false, val{}, vals)
	case "os.spawnv", "os.spawnvp", "os.spawnve", "os.spawnvpe":
		if len(pos) > 2 {
			e.execv(ref, pos[1], pos[2])
		}
	case "pty.spawn":
		e.runValue(ref, at(0), false)
	case "os.execv", "os.execve", "os.execvp", "os.execvpe", "os.posix_spawn", "os.posix_spawnp":
		e.execv(ref, at(0), at(1))
	case "os.execl", "os.execle", "os.execlp", "os.execlpe":
		vals := []val{at(0)}
		if len(pos) > 2 {
			vals = append(vals, pos[2:]...)
		}
		if strings.HasSuffix(ref, "e") && len(vals) > 1 {
			vals = vals[:len(vals)-1] // the environment
		}
		e.command(ref, false, val{}, vals)
	case "shutil.rmtree":
		e.del(ref, at(0), true, false)
	case "os.remove", "os.unlink":
		e.del(ref, at(0), false, false)
	case "os.rmdir", "os.removedirs":
		e.del(ref, at(0), false, true)
	case "os.truncate":
		e.write(ref, at(0), false) // emptied (or cut) in place, as open(p, "w")
	case "os.open":
		// os.open(p, os.O_WRONLY | os.O_TRUNC): the flags say a write
		if len(args) > 1 && args[1].n != nil {
			if fl := args[1].n.text(); strings.Contains(fl, "O_TRUNC") || strings.Contains(fl, "O_WRONLY") || strings.Contains(fl, "O_RDWR") {
				e.write(ref, at(0), strings.Contains(fl, "O_APPEND") && !strings.Contains(fl, "O_TRUNC"))
			}
		}
	case "open", "io.open", "codecs.open", "builtins.open", "io.FileIO", "_io.FileIO":
		mode := lit("r")
		if len(pos) > 1 {
			mode = pos[1]
		}
		if v, ok := keyword(args, "mode"); ok {
			mode = v
		}
		p := at(0)
		if v, ok := keyword(args, "file"); ok {
			p = v
		}
		switch {
		case !mode.static:
			e.write(ref, p, false)
		case strings.ContainsAny(mode.s, "wx+"):
			e.write(ref, p, false)
		case strings.Contains(mode.s, "a"):
			e.write(ref, p, true)
		default:
			e.read(ref, p)
		}
	case "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.move", "os.rename", "os.replace", "os.symlink", "os.link":
		e.read(ref, at(0))
		e.write(ref, at(1), false)
		if ref == "shutil.move" || ref == "os.rename" || ref == "os.replace" {
			e.del(ref, at(0), true, false)
		}
	case "exec", "eval", "compile", "builtins.exec", "builtins.eval", "execfile":
		e.dynamic(ref, at(0), "python")
	case "pickle.loads", "pickle.load", "_pickle.loads", "cPickle.loads", "cPickle.load", "dill.loads", "dill.load",
		"cloudpickle.loads", "marshal.loads", "marshal.load", "jsonpickle.decode", "joblib.load", "torch.load",
		"pandas.read_pickle", "shelve.open", "yaml.unsafe_load", "yaml.full_load":
		// deserialising runs what the data names (a pickle's REDUCE of
		// os.system): the commands a known payload spells, else unknown code
		pickleRun(e, ref, at(0))
	case "print", "pprint.pprint", "sys.stdout.write", "json.dump", "logging.info", "logging.warning":
		if anyEnv(pos) {
			e.envDump(ref)
		}
	case "urllib.request.urlopen", "urllib.request.Request", "urllib.request.urlretrieve", "urllib2.urlopen", "urllib.urlopen",
		"http.client.HTTPConnection", "http.client.HTTPSConnection", "httplib.HTTPConnection", "httplib.HTTPSConnection",
		"smtplib.SMTP", "smtplib.SMTP_SSL", "ftplib.FTP", "ftplib.FTP_TLS", "telnetlib.Telnet", "xmlrpc.client.ServerProxy",
		"socket.create_connection", "paramiko.SSHClient", "websocket.create_connection", "asyncio.open_connection":
		e.send(ref, hostArg(at(0)), vals(args)...)
		if ref == "urllib.request.urlretrieve" && len(pos) > 1 {
			e.write(ref, pos[1], false)
		}
	default:
		for _, lib := range []string{"requests.", "httpx.", "aiohttp.", "urllib3."} {
			if strings.HasPrefix(ref, lib) && isHTTPVerb(ref[len(lib):]) {
				to := at(0)
				if v, ok := keyword(args, "url"); ok {
					to = v
				}
				if ref[len(lib):] == "request" && len(pos) > 1 {
					to = pos[1]
				}
				e.send(ref, to, vals(args)...)
				return
			}
		}
	}
}

func isHTTPVerb(s string) bool {
	switch s {
	case "get", "post", "put", "patch", "delete", "head", "options", "request", "urlopen", "Client", "AsyncClient", "Session", "ClientSession", "PoolManager":
		return true
	}
	return false
}

func vals(args []arg) []val {
	out := make([]val, len(args))
	for i, a := range args {
		out[i] = a.v
	}
	return out
}

// hostArg is the host of (host, port) tuples, else the value itself.
func hostArg(v val) val {
	if v.isList && len(v.list) > 0 {
		h := v.list[0]
		h.env = h.env || v.env
		return h
	}
	return v
}

// execv records os.execv(path, args): args[0] is the program's own name.
func (e *eval) execv(via string, p, args val) {
	argv := []val{p}
	if args.isList && len(args.list) > 1 {
		argv = append(argv, args.list[1:]...)
	} else if !args.isList {
		argv = append(argv, flow(nil, args))
	}
	e.command(via, false, val{}, argv)
}

// pyMethod handles methods on values: Path(p).unlink(), sock.connect(...),
// f.write() of an open file, requests.Session().post(...).
func pyMethod(e *eval, attr string, obj val, pos []val, args []arg, n *node) {
	at := func(i int) val { return argAt(pos, i) }
	switch {
	case obj.ref == "pathlib.Path":
		p := obj
		p.ref = ""
		switch attr {
		case "unlink":
			e.del("Path.unlink", p, false, false)
		case "rmdir":
			e.del("Path.rmdir", p, false, true)
		case "write_text", "write_bytes":
			e.write("Path."+attr, p, false)
		case "read_text", "read_bytes":
			e.read("Path."+attr, p)
		case "open":
			if len(pos) > 0 && pos[0].static && strings.ContainsAny(pos[0].s, "wax+") {
				e.write("Path.open", p, strings.Contains(pos[0].s, "a"))
			} else {
				e.read("Path.open", p)
			}
		case "rename", "replace":
			e.write("Path."+attr, at(0), false)
		}
	case obj.ref == "socket" && (attr == "create_connection" || attr == "create_server" || attr == "fromfd" || attr == "socketpair"):
		e.socket = true
		if attr == "create_connection" {
			e.send("socket.create_connection", hostArg(at(0)))
		}
	case attr == "connect" || attr == "connect_ex" || attr == "sendto":
		if attr == "sendto" {
			e.send("socket.sendto", hostArg(at(1)), pos...)
			return
		}
		if obj.ref == "socket" || (len(pos) > 0 && pos[0].isList) {
			e.socket = true
			e.send("socket.connect", hostArg(at(0)))
		}
	case attr == "send" || attr == "sendall" || attr == "write":
		if anyEnv(pos) {
			e.envDump("." + attr)
		}
	case obj.ref == "http.client" && attr == "request":
		e.send("HTTPConnection.request", at(1), pos...)
	case obj.ref == "requests.session" && isHTTPVerb(attr):
		e.send("Session."+attr, at(0), vals(args)...)
	}
}

func (pySpec) value(e *eval, n *node) (val, bool) {
	switch n.kind {
	case "string":
		return pyString(e, n), true
	case "concatenated_string":
		out := lit("")
		for _, k := range n.namedKids() {
			out = concat(out, e.value(k))
		}
		return out, true
	case "integer":
		return numVal(n)
	case "true":
		return lit("True"), true
	case "false":
		return lit("False"), true
	case "none":
		return lit("None"), true
	case "parenthesized_expression", "expression_statement":
		if k := n.namedKids(); len(k) == 1 {
			return e.value(k[0]), true
		}
	case "identifier":
		name := n.text()
		if v, ok := e.vars[name]; ok {
			return v, true
		}
		switch name {
		case "exec", "eval", "compile", "open", "print", "getattr", "__import__", "chr", "str", "bytes", "dict", "bytearray", "list", "execfile", "map":
			return val{ref: name}, true
		}
		for _, m := range e.star {
			return val{ref: m + "." + name}, true
		}
		return val{s: name}, true
	case "attribute":
		return pyAttr(n, e.value(n.get("object")), n.get("attribute").text()), true
	case "subscript":
		obj := e.value(n.get("value"))
		sub := n.get("subscript")
		if obj.ref == "os.environ" && sub != nil {
			return e.getenv(e.value(sub)), true
		}
		if sub != nil && sub.kind == "slice" && strings.ReplaceAll(sub.text(), " ", "") == "::-1" && obj.static {
			return lit(reverse(obj.s)).withSrc("decode"), true
		}
		if obj.isList && sub != nil {
			if i := e.value(sub); i.isNum && i.num < len(obj.list) {
				return obj.list[i.num], true
			}
		}
		if obj.kw != nil && sub != nil {
			if k := e.value(sub); k.static {
				if v, ok := obj.kw[k.s]; ok {
					return v, true
				}
			}
		}
		return flow(n, obj), true
	case "binary_operator":
		l, r := e.value(n.get("left")), e.value(n.get("right"))
		op := n.get("operator")
		switch {
		case op != nil && op.text() == "+":
			if l.isNum && r.isNum {
				return val{s: n.text(), static: true, num: l.num + r.num, isNum: true}, true
			}
			return concat(l, r), true
		case op != nil && op.text() == "/" && l.ref == "pathlib.Path":
			p := join([]val{l, r}, true)
			p.ref = "pathlib.Path"
			return p, true
		case op != nil && op.text() == "%" && l.static:
			return pyPercent(n, l, r), true
		}
		return flow(n, l, r), true
	case "list", "tuple", "expression_list":
		return e.list(n), true
	case "dictionary":
		out := val{kw: map[string]val{}, s: n.text()}
		for _, p := range n.namedKids() {
			if p.kind == "dictionary_splat" {
				v := e.value(p)
				out.env = out.env || v.env
				continue
			}
			if p.kind != "pair" {
				continue
			}
			k, v := e.value(p.get("key")), e.value(p.get("value"))
			out.env = out.env || v.env || k.env
			if k.static {
				out.kw[k.s] = v
			}
		}
		return out, true
	case "dictionary_splat", "list_splat":
		if k := n.namedKids(); len(k) > 0 {
			return flow(n, e.value(k[0])), true
		}
	case "call":
		return pyCallValue(e, n), true
	case "conditional_expression", "boolean_operator":
		var parts []val
		for _, k := range n.namedKids() {
			parts = append(parts, e.value(k))
		}
		return flow(n, parts...), true
	}
	return val{}, false
}

// pyString evaluates a string literal: prefixes, escapes, f-string
// interpolation.
func pyString(e *eval, n *node) val {
	start := n.first("string_start")
	prefix := ""
	if start != nil {
		prefix = strings.ToLower(strings.TrimRight(start.text(), `'"`))
	}
	raw := strings.Contains(prefix, "r")
	out := lit("")
	for _, k := range n.kids {
		switch k.kind {
		case "string_content":
			t := k.text()
			if !raw {
				t = unescape(t)
			}
			out = concat(out, e.strLit(t))
		case "interpolation":
			x := k.get("expression")
			v := e.value(x)
			if k.get("format_specifier") != nil || k.first("type_conversion") != nil {
				v = flow(k, v)
			}
			out = concat(out, v)
		}
	}
	return out
}

// pyPercent evaluates "fmt %s" % x for %s only.
func pyPercent(n *node, f, x val) val {
	args := []val{x}
	if x.isList {
		args = x.list
	}
	var b strings.Builder
	static := true
	env := x.env
	s := f.s
	k := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case '%':
			b.WriteByte('%')
		case 's', 'r', 'd':
			if k >= len(args) {
				return flow(n, x)
			}
			b.WriteString(args[k].s)
			static = static && args[k].static
			k++
		default:
			return flow(n, x)
		}
	}
	return val{s: b.String(), static: static, env: env}
}

// pyCallValue is the value of calls that compute strings and names.
func pyCallValue(e *eval, n *node) val {
	fn := n.get("function")
	if fn == nil || n.get("arguments") == nil {
		return unknown(n)
	}
	args := pyArgs(e, n)
	pos := positional(args)
	at := func(i int) val { return argAt(pos, i) }
	// methods on strings: "...".decode(), "x".join([...]), .format(...)
	if fn.kind == "attribute" {
		obj := e.value(fn.get("object"))
		attr := fn.get("attribute").text()
		if obj.ref == "" || obj.ref == "pathlib.Path" {
			switch attr {
			case "decode", "encode", "strip", "rstrip", "lstrip":
				if len(pos) > 0 && pos[0].static && (pos[0].s == "rot13" || pos[0].s == "rot_13") {
					return decoded(obj, func(s string) (string, bool) { return rot13(s), true })
				}
				return obj
			case "join":
				if obj.static && len(pos) == 1 && pos[0].isList {
					return joinVals(pos[0].list, obj)
				}
			case "format":
				if obj.static {
					return pyFormat(n, obj, pos)
				}
			case "replace":
				if obj.static && len(pos) == 2 && pos[0].static && pos[1].static {
					return lit(strings.ReplaceAll(obj.s, pos[0].s, pos[1].s))
				}
			case "copy", "items", "keys", "values", "read", "text", "json", "content", "readline", "readlines":
				return flow(n, obj)
			case "home":
				if obj.ref == "pathlib.Path" {
					h := e.home()
					h.ref = "pathlib.Path"
					return h
				}
			case "expanduser", "resolve", "absolute":
				if obj.ref == "pathlib.Path" {
					p := e.expanduser(obj)
					p.ref = "pathlib.Path"
					return p
				}
			case "joinpath":
				if obj.ref == "pathlib.Path" {
					p := join(append([]val{obj}, pos...), true)
					p.ref = "pathlib.Path"
					return p
				}
			case "cwd":
				if obj.ref == "pathlib.Path" && e.opt.Cwd != "" {
					return val{s: e.opt.Cwd, static: true, ref: "pathlib.Path"}
				}
			case "iterdir", "glob", "rglob":
				if obj.ref == "pathlib.Path" {
					if v, ok := pyPathIter(obj, attr, pos); ok {
						return v
					}
				}
			}
		}
	}
	ref, ok := pyRef(e, fn)
	if !ok {
		return flow(n, pos...)
	}
	if v, ok := pyIterValue(ref, pos); ok {
		return v // os.walk, glob.glob, os.listdir: what a loop over it takes (pyiter.go)
	}
	switch ref {
	case "os.path.expanduser":
		return e.expanduser(at(0))
	case "os.path.expandvars":
		v := at(0)
		if v.static {
			v.s = strings.ReplaceAll(strings.ReplaceAll(v.s, "${HOME}", e.home().s), "$HOME", e.home().s)
			v.static = e.opt.Home != "" || !strings.Contains(at(0).s, "$HOME")
		}
		return v
	case "os.path.join", "posixpath.join":
		return join(pos, true)
	case "os.path.abspath", "os.path.realpath", "os.path.normpath", "str", "os.fspath", "os.fsencode", "os.fsdecode":
		v := at(0)
		if v.ref == "pathlib.Path" {
			v.ref = ""
		}
		if ref == "str" && v.ref == "os.environ" {
			return val{s: "str(os.environ)", env: true}
		}
		return v
	case "os.path.dirname":
		if v := at(0); v.static {
			i := strings.LastIndexByte(strings.TrimSuffix(v.s, "/"), '/')
			if i > 0 {
				return lit(v.s[:i])
			}
		}
		return flow(n, at(0))
	case "os.getcwd":
		if e.opt.Cwd != "" {
			return lit(e.opt.Cwd)
		}
	case "os.getenv", "os.environ.get", "os.environ.setdefault", "posix.getenv":
		return e.getenv(at(0))
	case "pathlib.Path", "pathlib.PosixPath", "pathlib.PurePath", "pathlib.Path.home":
		if ref == "pathlib.Path.home" {
			h := e.home()
			h.ref = "pathlib.Path"
			return h
		}
		var p val
		if len(pos) == 0 {
			p = lit(".")
		} else {
			p = join(pos, true)
		}
		p.ref = "pathlib.Path"
		return p
	case "pathlib.Path.cwd":
		if e.opt.Cwd != "" {
			return val{s: e.opt.Cwd, static: true, ref: "pathlib.Path"}
		}
	case "bytes.fromhex", "bytearray.fromhex", "binascii.unhexlify", "binascii.a2b_hex", "codecs.decode":
		if ref == "codecs.decode" && len(pos) > 1 && pos[1].static {
			switch strings.ToLower(pos[1].s) {
			case "rot13", "rot_13":
				return decoded(at(0), func(s string) (string, bool) { return rot13(s), true })
			case "base64":
				return decoded(at(0), b64)
			case "hex":
			default:
				return flow(n, at(0)).withSrc("decode")
			}
		}
		return decoded(at(0), hexDecode)
	case "base64.b64decode", "base64.decodebytes", "base64.standard_b64decode", "base64.urlsafe_b64decode", "binascii.a2b_base64", "base64.decodestring":
		return decoded(at(0), b64)
	case "base64.b32decode", "base64.b85decode", "base64.a85decode", "zlib.decompress", "gzip.decompress", "bz2.decompress", "lzma.decompress", "marshal.loads", "pickle.loads":
		return flow(n, at(0)).withSrc("decode")
	case "chr":
		return fromCodes([]val{at(0)})
	case "bytes", "bytearray":
		if v := at(0); v.isList {
			return fromCodes(v.list)
		}
		return at(0)
	case "dict", "json.dumps", "repr", "list", "sorted", "copy.copy", "copy.deepcopy", "urllib.parse.urlencode", "json.loads":
		return flow(n, pos...)
	case "__import__", "importlib.import_module":
		if v := at(0); v.static {
			return val{ref: v.s}
		}
		e.dynamicName(ref, at(0))
		return flow(n, at(0))
	case "getattr":
		obj, name := at(0), at(1)
		if obj.ref != "" && name.static {
			return pyAttr(n, obj, name.s)
		}
		if !name.static {
			e.dynamicName("getattr", name)
		}
		return flow(n, obj, name)
	case "requests.get", "requests.post", "urllib.request.urlopen", "httpx.get":
		return flow(n).withSrc("network")
	case "requests.Session", "requests.session", "httpx.Client":
		return val{ref: "requests.session"}
	case "socket.socket", "socket.create_connection":
		return val{ref: "socket"}
	case "tempfile.gettempdir":
		return lit("/tmp")
	}
	return flow(n, pos...)
}

func b64(s string) (string, bool) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return string(b), true
		}
	}
	return "", false
}

// pyFormat evaluates "...{}...".format(args) for positional {} and {0}.
func pyFormat(n *node, f val, args []val) val {
	var b strings.Builder
	static := true
	s := f.s
	k := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '{' && i+1 < len(s) && s[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		if s[i] != '{' {
			b.WriteByte(s[i])
			continue
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return flow(n, args...)
		}
		field := s[i+1 : i+end]
		idx := k
		if field != "" {
			v, ok := parseInt(field)
			if !ok {
				return flow(n, args...)
			}
			idx = v
		} else {
			k++
		}
		if idx >= len(args) {
			return flow(n, args...)
		}
		b.WriteString(args[idx].s)
		static = static && args[idx].static
		i += end
	}
	return val{s: b.String(), static: static}
}

// pyAttr is obj.attr where obj names a module or a known object.
func pyAttr(n *node, obj val, attr string) val {
	if obj.ref == "" {
		return flow(n, obj)
	}
	r := obj.ref + "." + attr
	switch r {
	case "os.environ", "posix.environ":
		return val{s: "os.environ", env: true, ref: "os.environ"}
	case "os.sep":
		return lit("/")
	case "os.name":
		return lit("posix")
	}
	if obj.ref == "pathlib.Path" || obj.ref == "requests.session" || obj.ref == "socket" {
		// a method of the object: the object stays what it was
		return val{ref: obj.ref, s: obj.s, static: obj.static, env: obj.env}
	}
	return val{ref: r}
}

// pickleRun judges a deserialised payload: a known pickle that reaches a
// command runner (os/posix/nt system, subprocess, builtins exec/eval)
// runs its strings as shell commands; anything else is code not known.
func pickleRun(e *eval, via string, v val) {
	if !v.static || v.isList {
		e.facts.Dynamic = append(e.facts.Dynamic, Dynamic{Via: via, Sources: v.srcs})
		return
	}
	b := v.s
	runner := false
	for _, m := range []string{"system", "popen", "check_output", "check_call", "Popen", "getoutput", "exec", "eval", "spawn"} {
		if strings.Contains(b, m) {
			runner = true
		}
	}
	if !runner {
		return // plain data
	}
	for _, s := range printableRuns(b) {
		switch s {
		case "os", "posix", "nt", "system", "popen", "subprocess", "builtins", "__builtin__", "exec", "eval",
			"check_output", "check_call", "Popen", "getoutput", "spawn", "p0", "p1", "p2", "p3":
			continue
		}
		if strings.ContainsAny(s, " /~$;|&") || len(s) > 2 {
			e.runValue(via, lit(s), true)
		}
	}
}

// printableRuns are the runs of printable text in b (the strings a pickle
// carries), split at its opcodes' line ends and quotes.
func printableRuns(b string) []string {
	var out []string
	start := -1
	flush := func(i int) {
		if start >= 0 && i-start >= 2 {
			s := strings.Trim(b[start:i], "'\"")
			s = strings.TrimLeft(s, "SVcX(")
			if len(s) >= 2 {
				out = append(out, s)
			}
		}
		start = -1
	}
	for i := 0; i < len(b) && len(out) < 64; i++ {
		c := b[i]
		if c >= 0x20 && c < 0x7f && c != '\'' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(b))
	return out
}
