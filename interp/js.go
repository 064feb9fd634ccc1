package interp

import (
	"strings"
)

type jsSpec struct{}

func (jsSpec) visit(e *eval, n *node) bool {
	switch n.kind {
	case "import_statement":
		src := n.get("source")
		if src == nil {
			return false
		}
		m := modName(e.value(src).s)
		clause := n.first("import_clause")
		for _, k := range clause.namedKids() {
			switch k.kind {
			case "identifier": // import fs from 'fs'
				e.vars[k.text()] = val{ref: m}
			case "namespace_import": // import * as fs from 'fs'
				if id := k.first("identifier"); id != nil {
					e.vars[id.text()] = val{ref: m}
				}
			case "named_imports":
				for _, s := range k.namedKids() {
					name, alias := s.get("name"), s.get("alias")
					if name == nil {
						continue
					}
					if alias == nil {
						alias = name
					}
					e.vars[alias.text()] = val{ref: m + "." + name.text()}
				}
			}
		}
		return false
	case "variable_declarator":
		name, v := n.get("name"), n.get("value")
		if name == nil || v == nil {
			return true
		}
		jsBind(e, name, e.value(v))
	case "assignment_expression":
		e.assign(n, "identifier", "")
	case "augmented_assignment_expression":
		e.assign(n, "identifier", "+=")
	case "for_in_statement": // for (const f of fs.readdirSync(d)): f is one of its names
		if op := n.get("operator"); op != nil && op.text() == "of" {
			if l, it := n.get("left"), e.value(n.get("right")); l != nil && l.kind == "identifier" && it.elem != nil {
				e.vars[l.text()] = *it.elem
			}
		}
	case "call_expression":
		jsCall(e, n)
	case "new_expression":
		jsNew(e, n)
	}
	return true
}

// jsCallback binds the first parameter of a callback handed to a method
// of obj to what the method passes it: a promise's value (import(m).then(
// f => f.rm(...)): the module), an element of a list of names
// (readdirSync(d).forEach(f => ...)). The body is read after the call, so
// its uses of the parameter see the binding.
func jsCallback(e *eval, method string, obj val, n *node) {
	var v val
	switch method {
	case "then":
		v = obj
	case "forEach", "map", "flatMap", "filter", "some", "every":
		if obj.elem == nil {
			return
		}
		v = *obj.elem
	default:
		return
	}
	for _, k := range n.get("arguments").namedKids() {
		if k.kind != "arrow_function" && k.kind != "function_expression" && k.kind != "function" {
			continue
		}
		p := k.get("parameter")
		if ps := k.get("parameters"); p == nil && ps != nil {
			p = ps.namedKids0()
		}
		if p != nil && p.kind == "identifier" {
			e.vars[p.text()] = v
		}
		return
	}
}

// jsBind binds a declaration's name or destructuring pattern.
func jsBind(e *eval, name *node, v val) {
	switch name.kind {
	case "identifier":
		e.vars[name.text()] = v
	case "object_pattern": // const {execSync: run, spawn} = require(...)
		for _, p := range name.namedKids() {
			switch p.kind {
			case "shorthand_property_identifier_pattern":
				e.vars[p.text()] = jsMember(v, p.text())
			case "pair_pattern":
				k, val := p.get("key"), p.get("value")
				if k != nil && val != nil && val.kind == "identifier" {
					e.vars[val.text()] = jsMember(v, strings.Trim(k.text(), `'"`))
				}
			}
		}
	}
}

// jsMember is obj.name for a module or known object.
func jsMember(obj val, name string) val {
	if obj.ref == "" {
		if obj.env {
			return val{s: "process.env." + name}
		}
		return val{s: obj.s + "." + name}
	}
	r := obj.ref + "." + name
	switch r {
	case "process.env":
		return val{s: "process.env", env: true, ref: r}
	case "fs.promises":
		return val{ref: "fs"}
	case "path.sep":
		return lit("/")
	}
	return val{ref: r}
}

func jsArgs(e *eval, n *node) []arg {
	var out []arg
	for _, k := range n.get("arguments").namedKids() {
		if k.kind == "spread_element" {
			out = append(out, arg{star: true, v: flow(k, e.value(k.namedKids()[0])), n: k})
			continue
		}
		out = append(out, arg{v: e.value(k), n: k})
	}
	return out
}

func jsCallee(e *eval, fn *node) (string, val) {
	if fn.kind == "member_expression" {
		// process.mainModule.require(m), module.require(m),
		// module.constructor._load(m), require('module')._load(m): require
		if p := fn.get("property"); p != nil && (p.text() == "require" || p.text() == "_load") {
			return "require", val{ref: "require"}
		}
	}
	if fn.kind == "import" {
		return "require", val{ref: "require"} // import("fs/promises"): the module, as require's
	}
	v := e.value(fn)
	return v.ref, v
}

func jsCall(e *eval, n *node) {
	fn := n.get("function")
	if fn == nil || n.get("arguments") == nil {
		return
	}
	args := jsArgs(e, n)
	pos := positional(args)
	at := func(i int) val { return argAt(pos, i) }
	if fn.kind == "member_expression" {
		if p := fn.get("property"); p != nil {
			jsCallback(e, p.text(), e.value(fn.get("object")), n)
		}
	}
	ref, fv := jsCallee(e, fn)
	if ref == "" && fn.kind == "identifier" && fn.text() == "$" {
		ref = "$" // zx's global $
	}
	if ref == "" {
		if fn.kind == "subscript_expression" {
			if idx := e.value(fn.get("index")); !idx.static {
				e.dynamicName("[...]()", idx)
			}
		}
		if fn.kind == "member_expression" {
			if p := fn.get("property"); p != nil {
				jsMethod(e, p.text(), e.value(fn.get("object")), pos)
			}
		}
		if fn.kind == "new_expression" { // new Function(code)()
			return
		}
		_ = fv
		return
	}
	if strings.HasPrefix(ref, "net.") || strings.HasPrefix(ref, "dgram.") || strings.HasPrefix(ref, "tls.") {
		e.socket = true
	}
	opts := func(i int) val {
		if i < len(pos) && pos[i].kw != nil {
			return pos[i]
		}
		return val{}
	}
	recursive := func(o val) bool { r, ok := o.kw["recursive"]; return ok && r.s == "true" }
	switch strings.TrimPrefix(ref, "child_process.") {
	case "exec", "execSync":
		if strings.HasPrefix(ref, "child_process.") {
			e.runValue(ref, at(0), true)
			return
		}
	case "fork":
		// fork(module, args, {execArgv, execPath}) runs node with
		// execArgv (-e CODE runs CODE), then the module and its arguments
		if strings.HasPrefix(ref, "child_process.") {
			o := opts(1)
			var args []val
			if len(pos) > 1 && pos[1].isList {
				args, o = pos[1].list, opts(2)
			}
			argv := []val{lit("node")}
			if x, ok := o.kw["execPath"]; ok {
				argv[0] = x
			}
			if x, ok := o.kw["execArgv"]; ok && x.isList {
				argv = append(argv, x.list...)
			}
			argv = append(append(argv, at(0)), args...)
			e.command(ref, false, val{}, argv)
			return
		}
	case "spawn", "spawnSync", "execFile", "execFileSync":
		if strings.HasPrefix(ref, "child_process.") {
			argv := []val{at(0)}
			k := 1
			if len(pos) > 1 && pos[1].isList {
				argv = append(argv, pos[1].list...)
				k = 2
			}
			if o := opts(k); o.kw != nil {
				if sh, ok := o.kw["shell"]; ok && sh.s != "false" {
					line := argv[0]
					for _, a := range argv[1:] {
						line = concat(concat(line, lit(" ")), a)
					}
					e.command(ref, true, line, nil)
					return
				}
			}
			e.command(ref, false, val{}, argv)
			return
		}
	}
	switch ref {
	case "execa.execa", "execa.execaSync", "execa.sync", "execa", "execa.default", "execa.execaNode":
		argv := []val{at(0)}
		if ref == "execa.execaNode" {
			argv = []val{lit("node"), at(0)}
		}
		if len(pos) > 1 && pos[1].isList {
			argv = append(argv, pos[1].list...)
		}
		e.command(ref, false, val{}, argv)
	case "execa.execaCommand", "execa.execaCommandSync", "execa.command", "execa.commandSync", "shelljs.exec", "cross-spawn.sync":
		e.runValue(ref, at(0), ref != "cross-spawn.sync")
	case "shelljs.rm":
		// shelljs.rm("-rf", p...): the flags first, as rm's
		r := len(pos) > 0 && pos[0].static && strings.HasPrefix(pos[0].s, "-") && strings.ContainsAny(pos[0].s, "rR")
		for _, p := range pos {
			if !(p.static && strings.HasPrefix(p.s, "-")) {
				e.del(ref, p, r, false)
			}
		}
	case "$", "bun.$", "Bun.$", "zx.$", "execa.$":
		// $`rm -rf ${dir}` (zx, Bun, execa): a shell line, each ${} one word
		if a := n.get("arguments"); a != nil && a.kind == "template_string" {
			e.command(ref, true, e.value(a), nil)
		}
	case "Bun.spawn", "Bun.spawnSync":
		e.runValue(ref, at(0), false)
	case "Deno.run":
		if c, ok := at(0).kw["cmd"]; ok {
			e.runValue(ref, c, false)
		}
	case "fs.rmSync", "fs.rm", "fs.rmdirSync", "fs.rmdir", "Deno.remove", "Deno.removeSync":
		r := recursive(opts(1))
		e.del(ref, at(0), r, !r && strings.Contains(ref, "rmdir"))
	case "fs.removeSync", "fs.remove", "fs.emptyDirSync", "fs.emptyDir", "rimraf", "rimraf.sync", "rimraf.rimrafSync", "del", "del.sync":
		e.del(ref, at(0), true, false)
	case "fs.unlinkSync", "fs.unlink":
		e.del(ref, at(0), false, false)
	case "fs.readFileSync", "fs.readFile", "fs.createReadStream", "fs.openSync", "Deno.readTextFile", "Deno.readFile", "Bun.file":
		if ref == "fs.openSync" && len(pos) > 1 && pos[1].static && strings.ContainsAny(pos[1].s, "wa+") {
			e.write(ref, at(0), strings.Contains(pos[1].s, "a"))
			return
		}
		e.read(ref, at(0))
	case "fs.writeFileSync", "fs.writeFile", "fs.createWriteStream", "fs.outputFileSync", "fs.outputFile", "Deno.writeTextFile", "Deno.writeFile", "Bun.write", "fs.writeJsonSync", "fs.writeJSONSync":
		e.write(ref, at(0), false)
		if anyEnv(pos[min(1, len(pos)):]) {
			e.envDump(ref)
		}
	case "fs.truncateSync", "fs.truncate":
		e.write(ref, at(0), false) // emptied in place, as writeFileSync(p, "")
	case "fs.appendFileSync", "fs.appendFile":
		e.write(ref, at(0), true)
	case "fs.copyFileSync", "fs.copyFile", "fs.cpSync", "fs.cp", "fs.renameSync", "fs.rename", "fs.symlinkSync", "fs.copySync", "fs.moveSync":
		e.read(ref, at(0))
		e.write(ref, at(1), false)
	case "eval", "Function", "vm.runInNewContext", "vm.runInThisContext", "vm.runInContext", "setTimeout", "setInterval", "vm.compileFunction":
		if (ref == "setTimeout" || ref == "setInterval") && !(at(0).static || len(at(0).srcs) > 0) {
			return // a function, not a string of code
		}
		e.dynamic(ref, at(0), "js")
	case "fetch", "http.request", "http.get", "https.request", "https.get", "axios", "axios.get", "axios.post", "axios.put",
		"axios.patch", "axios.delete", "axios.request", "got", "got.post", "got.get", "needle", "request", "request.post",
		"superagent.post", "ky.post", "undici.request", "undici.fetch", "WebSocket",
		"navigator.sendBeacon", "EventSource": // a page's sends
		to := at(0)
		if u, ok := to.kw["url"]; ok {
			to = u
		} else if h, ok := to.kw["hostname"]; ok {
			to = h
		} else if h, ok := to.kw["host"]; ok {
			to = h
		}
		e.send(ref, to, pos...)
	case "net.Socket.connect":
		e.socket = true
		e.send("socket.connect", at(1))
	case "net.connect", "net.createConnection", "tls.connect":
		e.socket = true
		to := at(1)
		if o := at(0); o.kw != nil {
			to = o.kw["host"]
		}
		e.send(ref, to)
	case "console.log", "console.error", "console.info", "process.stdout.write":
		if anyEnv(pos) {
			e.envDump(ref)
		}
	case "require":
		if !at(0).static {
			e.dynamicName("require", at(0))
		}
	}
}

// jsNew handles new Function(code), new net.Socket(), new WebSocket(url).
func jsNew(e *eval, n *node) {
	c := n.get("constructor")
	if c == nil || n.get("arguments") == nil {
		return
	}
	ref := e.value(c).ref
	pos := positional(jsArgs(e, n))
	switch ref {
	case "worker_threads.Worker":
		// new Worker(code, {eval: true}): the string is the worker's code
		if o := argAt(pos, 1); o.kw != nil && o.kw["eval"].s == "true" {
			e.dynamic("new Worker", argAt(pos, 0), "js")
		}
	case "Deno.Command":
		// new Deno.Command("rm", {args: [...]}): the program and its args
		argv := []val{argAt(pos, 0)}
		if a, ok := argAt(pos, 1).kw["args"]; ok && a.isList {
			argv = append(argv, a.list...)
		}
		e.command("new Deno.Command", false, val{}, argv)
	case "Function", "AsyncFunction", "vm.Script":
		if len(pos) > 0 {
			e.dynamic("new "+ref, pos[len(pos)-1], "js")
		}
	case "WebSocket", "ws", "XMLHttpRequest", "EventSource":
		if len(pos) > 0 {
			e.send("new "+ref, pos[0])
		}
	case "net.Socket":
		e.socket = true
	}
}

// jsMethod handles methods of values: socket.connect(port, host),
// child.stdout.pipe(socket), sh.stdin / socket.pipe(sh.stdin).
func jsMethod(e *eval, name string, obj val, pos []val) {
	switch name {
	case "connect":
		if obj.ref == "net.Socket" || len(pos) > 1 {
			var to val
			if len(pos) > 1 {
				to = pos[1]
			}
			e.socket = true
			e.send("socket.connect", to)
		}
	case "pipe":
		if e.socket {
			e.dup2 = true // a socket piped into or out of a process
		}
	case "write", "send", "end":
		if anyEnv(pos) {
			e.envDump("." + name)
		}
	}
}

func (jsSpec) value(e *eval, n *node) (val, bool) {
	switch n.kind {
	case "string", "template_string":
		return e.parts(n), true
	case "number":
		return numVal(n)
	case "true", "false", "null", "undefined":
		return lit(n.kind), true
	case "parenthesized_expression", "await_expression":
		if k := n.namedKids(); len(k) == 1 {
			return e.value(k[0]), true
		}
	case "identifier":
		name := n.text()
		if v, ok := e.vars[name]; ok {
			return v, true
		}
		switch name {
		case "process", "require", "eval", "Function", "fetch", "Buffer", "atob", "String", "JSON", "console",
			"setTimeout", "setInterval", "globalThis", "global", "window", "Deno", "Bun", "WebSocket", "XMLHttpRequest", "Object", "navigator", "EventSource":
			return val{ref: name}, true
		case "fs", "child_process", "os", "path", "http", "https", "net", "vm", "tls", "dgram":
			// node -e and -p expose the core modules as globals
			return val{ref: name}, true
		}
		return val{s: name}, true
	case "member_expression":
		obj := e.value(n.get("object"))
		p := n.get("property")
		if p == nil {
			return flow(n, obj), true
		}
		name := p.text()
		if obj.ref == "process.env" {
			return e.getenv(lit(name)), true
		}
		if obj.ref == "globalThis" || obj.ref == "global" || obj.ref == "window" {
			return e.value(&node{kind: "identifier", src: name, end: len(name), named: true}), true
		}
		if name == "length" {
			return flow(n, obj), true
		}
		return jsMember(obj, name), true
	case "subscript_expression":
		obj := e.value(n.get("object"))
		idx := e.value(n.get("index"))
		if obj.ref == "process.env" {
			return e.getenv(idx), true
		}
		if idx.static && !idx.isNum && (obj.ref != "") {
			if obj.ref == "globalThis" || obj.ref == "global" || obj.ref == "window" {
				return e.value(&node{kind: "identifier", src: idx.s, end: len(idx.s), named: true}), true
			}
			return jsMember(obj, idx.s), true
		}
		return index(n, obj, idx), true
	case "binary_expression":
		return binary(n, e.value(n.get("left")), e.value(n.get("right")), "+"), true
	case "array":
		return e.list(n), true
	case "object":
		out := val{kw: map[string]val{}, s: n.text()}
		for _, p := range n.namedKids() {
			switch p.kind {
			case "pair":
				k, v := p.get("key"), e.value(p.get("value"))
				out.env = out.env || v.env
				out.srcs = append(out.srcs, v.srcs...)
				if k != nil {
					key := strings.Trim(k.text(), `'"`)
					out.kw[key] = v
				}
			case "spread_element", "shorthand_property_identifier":
				v := e.value(p.namedKids0())
				if p.kind == "shorthand_property_identifier" {
					v = e.value(&node{kind: "identifier", src: p.text(), end: len(p.text()), named: true})
					out.kw[p.text()] = v
				}
				out.env = out.env || v.env
			}
		}
		return out, true
	case "call_expression":
		return jsCallValue(e, n), true
	case "new_expression":
		if c := n.get("constructor"); c != nil {
			r := e.value(c).ref
			if r == "net.Socket" {
				return val{ref: "net.Socket"}, true
			}
		}
	case "ternary_expression":
		var parts []val
		for _, k := range n.namedKids() {
			parts = append(parts, e.value(k))
		}
		return flow(n, parts...), true
	}
	return val{}, false
}

func (n *node) namedKids0() *node {
	if k := n.namedKids(); len(k) > 0 {
		return k[0]
	}
	return nil
}

// jsCallValue is the value of calls that compute strings and modules.
func jsCallValue(e *eval, n *node) val {
	fn := n.get("function")
	if fn == nil || n.get("arguments") == nil {
		return unknown(n)
	}
	pos := positional(jsArgs(e, n))
	at := func(i int) val { return argAt(pos, i) }
	if fn.kind == "member_expression" {
		obj := e.value(fn.get("object"))
		name := ""
		if p := fn.get("property"); p != nil {
			name = p.text()
		}
		if obj.ref == "" {
			switch name {
			case "toString":
				if obj.ref == "" && len(obj.srcs) > 0 {
					return obj
				}
				return obj
			case "join":
				if obj.isList && len(pos) <= 1 {
					sep := lit(",")
					if len(pos) == 1 {
						sep = pos[0]
					}
					return joinVals(obj.list, sep)
				}
			case "split":
				if obj.static && len(pos) == 1 && pos[0].static && pos[0].s == "" {
					out := val{isList: true, static: true, s: obj.s, srcs: obj.srcs}
					for _, r := range obj.s {
						out.list = append(out.list, lit(string(r)))
					}
					return out
				}
			case "reverse":
				if obj.isList {
					out := obj
					out.list = make([]val, len(obj.list))
					for i, v := range obj.list {
						out.list[len(obj.list)-1-i] = v
					}
					return out.withSrc("decode")
				}
			case "replace", "replaceAll":
				if obj.static && len(pos) == 2 && pos[0].static && pos[1].static && pos[0].s != "" {
					return lit(strings.ReplaceAll(obj.s, pos[0].s, pos[1].s))
				}
			case "trim", "toLowerCase", "concat":
				if name == "concat" {
					out := obj
					for _, p := range pos {
						out = concat(out, p)
					}
					return out
				}
				return obj
			case "text", "json", "arrayBuffer":
				return flow(n, obj)
			}
		}
	}
	ref, _ := jsCallee(e, fn)
	switch ref {
	case "require":
		if v := at(0); v.static {
			return val{ref: modName(v.s)}
		}
		return flow(n, at(0))
	case "os.homedir":
		return e.home()
	case "fs.readdirSync", "fs.readdir":
		return names(pattern("*", false)) // the names in the directory (pyiter.go)
	case "glob.sync", "glob.globSync", "glob.glob", "fs.globSync", "fs.glob", "fg.sync", "globSync":
		if p := at(0); p.static {
			return names(pattern(p.s, strings.Contains(p.s, "**")))
		}
	case "os.tmpdir":
		return lit("/tmp")
	case "process.cwd", "Deno.cwd":
		if e.opt.Cwd != "" {
			return lit(e.opt.Cwd)
		}
	case "path.join", "path.posix.join":
		return join(pos, false)
	case "path.resolve", "path.posix.resolve":
		return join(pos, true)
	case "path.normalize", "String", "Object.assign":
		return at(0)
	case "JSON.stringify", "Object.entries", "Object.keys", "Object.values", "new URLSearchParams", "encodeURIComponent":
		return flow(n, pos...)
	case "Buffer.from":
		if len(pos) > 1 && pos[1].static {
			switch pos[1].s {
			case "base64", "base64url":
				return decoded(at(0), b64)
			case "hex":
				return decoded(at(0), hexDecode)
			}
		}
		if v := at(0); v.isList {
			return fromCodes(v.list)
		}
		return at(0)
	case "atob":
		return decoded(at(0), b64)
	case "String.fromCharCode", "String.fromCodePoint":
		return fromCodes(pos)
	case "fetch", "axios.get", "http.get", "https.get":
		return flow(n).withSrc("network")
	case "Deno.env.get", "process.env.get":
		return e.getenv(at(0))
	case "Deno.env.toObject":
		return val{s: "Deno.env.toObject()", env: true}
	case "net.connect", "net.createConnection":
		return val{ref: "net.Socket"}
	}
	return flow(n, pos...)
}
