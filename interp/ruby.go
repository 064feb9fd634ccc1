package interp

import "strings"

type rbSpec struct{}

func (rbSpec) visit(e *eval, n *node) bool {
	switch n.kind {
	case "assignment":
		l, r := n.get("left"), n.get("right")
		if l != nil && r != nil && (l.kind == "identifier" || l.kind == "constant" || l.kind == "global_variable" || l.kind == "instance_variable") {
			e.vars[l.text()] = e.value(r)
		}
	case "operator_assignment":
		e.assign(n, "identifier", "+=")
	case "for": // for f in Dir.glob(p)
		if v, it := n.get("pattern"), e.value(n.get("value").namedKids0()); v != nil && v.kind == "identifier" && it.elem != nil {
			e.vars[v.text()] = *it.elem
		}
	case "call":
		rbCall(e, n)
	case "subshell": // `cmd` and %x{cmd}
		e.runValue("`...`", e.parts(n), true)
	}
	return true
}

// rbName is the qualified name of a call: "FileUtils.rm_rf", "system",
// "Net::HTTP.post", and the receiver's value.
func rbName(e *eval, n *node) (string, val) {
	m := n.get("method")
	if m == nil {
		return "", val{}
	}
	name := m.text()
	recv := n.get("receiver")
	if recv == nil {
		return name, val{}
	}
	rv := e.value(recv)
	if rv.ref != "" {
		return rv.ref + "." + name, rv
	}
	return "." + name, rv
}

func rbArgs(e *eval, n *node) []arg {
	var out []arg
	for _, k := range n.get("arguments").namedKids() {
		switch k.kind {
		case "pair":
			key := strings.TrimSuffix(strings.TrimPrefix(k.get("key").text(), ":"), ":")
			out = append(out, arg{name: key, v: e.value(k.get("value")), n: k})
		case "splat_argument", "hash_splat_argument", "block_argument":
			out = append(out, arg{star: true, v: flow(k, e.value(k.namedKids0())), n: k})
		default:
			out = append(out, arg{v: e.value(k), n: k})
		}
	}
	return out
}

func rbCall(e *eval, n *node) {
	name, recv := rbName(e, n)
	var args []arg
	if n.get("arguments") != nil {
		args = rbArgs(e, n)
	}
	pos := positional(args)
	at := func(i int) val { return argAt(pos, i) }
	if b := n.get("block"); b != nil {
		rbBlock(e, name, recv, n, b)
	}
	// obj.send(:system, "id"), Kernel.public_send("sys"+"tem", ...)
	if base := strings.TrimPrefix(name[strings.LastIndexByte(name, '.')+1:], ""); base == "send" || base == "public_send" || base == "__send__" {
		m := at(0)
		if !m.static {
			e.dynamicName(name, m)
			return
		}
		prefix := ""
		if recv.ref != "" && recv.ref != "Kernel" && recv.ref != "Object" {
			prefix = recv.ref + "."
		}
		name = prefix + strings.TrimPrefix(m.s, ":")
		pos = pos[1:]
		at = func(i int) val { return argAt(pos, i) }
	}
	// method(:system).call("id"), Kernel.method(:system).(...): the
	// method object is the method it names
	if base := name[strings.LastIndexByte(name, '.')+1:]; base == "call" || base == "()" || base == "===" || base == "yield" {
		if r := n.get("receiver"); r != nil && r.kind == "call" && r.get("arguments") != nil {
			if mm := r.get("method"); mm != nil && (mm.text() == "method" || mm.text() == "public_method" || mm.text() == "singleton_method") {
				m := argAt(positional(rbArgs(e, r)), 0)
				if !m.static {
					e.dynamicName("method", m)
					return
				}
				prefix := ""
				if rr := r.get("receiver"); rr != nil {
					if rv := e.value(rr); rv.ref != "" && rv.ref != "Kernel" && rv.ref != "Object" {
						prefix = rv.ref + "."
					}
				}
				name = prefix + strings.TrimPrefix(m.s, ":")
			}
		}
	}
	name = strings.TrimPrefix(name, "Kernel.")
	if strings.HasPrefix(name, "TCPSocket") || strings.HasPrefix(name, "Socket.") || strings.HasPrefix(name, "UDPSocket") {
		e.socket = true
	}
	switch name {
	case "system", "exec", "spawn", "Process.spawn", "Process.exec", "IO.popen", "Open3.capture2", "Open3.capture2e",
		"Open3.capture3", "Open3.popen3", "Open3.popen2", "Open3.popen2e", "Open3.pipeline", "PTY.spawn":
		if len(pos) > 0 && pos[0].kw != nil {
			pos = pos[1:] // an environment hash first
		}
		switch {
		case len(pos) == 0:
		case len(pos) == 1:
			e.runValue(name, pos[0], true)
		default:
			e.command(name, false, val{}, pos)
		}
	case "open", "URI.open":
		if v := at(0); v.static && strings.HasPrefix(v.s, "|") {
			e.command(name, true, lit(v.s[1:]), nil)
		} else if strings.HasPrefix(v.s, "http://") || strings.HasPrefix(v.s, "https://") || name == "URI.open" {
			e.send(name, v)
		} else {
			rbOpen(e, name, v, pos)
		}
	case "File.open", "File.new", "IO.open":
		rbOpen(e, name, at(0), pos)
	case "Pathname.rmtree":
		e.del(name, rbPathOf(recv), true, false)
	case "Pathname.delete", "Pathname.unlink":
		e.del(name, rbPathOf(recv), false, false)
	case "Pathname.write", "Pathname.binwrite", "Pathname.truncate":
		e.write(name, rbPathOf(recv), false)
	case "FileUtils.rm_rf", "FileUtils.rm_r", "FileUtils.remove_dir", "FileUtils.remove_entry", "FileUtils.remove_entry_secure", "FileUtils.rmtree", "FileUtils.remove_tree":
		for _, p := range rbPaths(at(0)) {
			e.del(name, p, true, false)
		}
	case "FileUtils.rm", "FileUtils.rm_f", "FileUtils.remove", "FileUtils.safe_unlink", "File.delete", "File.unlink":
		for _, p := range rbPaths(at(0)) {
			e.del(name, p, false, false)
		}
	case "FileUtils.rmdir", "Dir.rmdir", "Dir.delete", "Dir.unlink":
		e.del(name, at(0), false, true)
	case "File.read", "File.readlines", "File.binread", "IO.read", "IO.readlines", "File.foreach", "IO.binread":
		e.read(name, at(0))
	case "File.write", "File.binwrite", "IO.write", "File.truncate":
		e.write(name, at(0), false)
		if anyEnv(pos[min(1, len(pos)):]) {
			e.envDump(name)
		}
	case "FileUtils.cp", "FileUtils.cp_r", "FileUtils.mv", "FileUtils.copy", "FileUtils.ln_s", "File.rename", "FileUtils.install":
		e.read(name, at(0))
		e.write(name, at(1), false)
	case "eval", "instance_eval", "class_eval", "module_eval", "binding.eval", "Binding.eval", "RubyVM::InstructionSequence.compile":
		e.dynamic(name, at(0), "ruby")
	case "puts", "print", "p", "pp", "$stdout.puts", "STDOUT.puts", "warn", "$stderr.puts":
		if anyEnv(pos) {
			e.envDump(name)
		}
	case "Net::HTTP.post", "Net::HTTP.post_form", "Net::HTTP.get", "Net::HTTP.get_response", "Net::HTTP.start", "Net::HTTP.new",
		"TCPSocket.new", "TCPSocket.open", "Socket.tcp", "UDPSocket.new", "HTTParty.post", "HTTParty.get", "RestClient.post",
		"RestClient.get", "Faraday.post", "Faraday.get", "Faraday.new", "Excon.post", "HTTP.post", "Net::SMTP.start":
		e.send(name, at(0), pos...)
	case "Object.const_get", "const_get":
		if !at(0).static {
			e.dynamicName(name, at(0))
		}
	default:
		if strings.HasSuffix(name, ".reopen") && len(pos) > 0 && e.socket {
			e.dup2 = true // $stdin.reopen(socket)
		}
		if strings.HasSuffix(name, ".to_h") || strings.HasSuffix(name, ".to_a") || strings.HasSuffix(name, ".inspect") {
			return
		}
		if (strings.HasSuffix(name, ".write") || strings.HasSuffix(name, ".puts") || strings.HasSuffix(name, ".print")) && anyEnv(pos) {
			e.envDump(name)
		}
	}
}

// rbBlock binds a block's first parameter to what the call yields it:
// an element of a list of paths or names (Dir.glob(p).each { |f| },
// Dir.children(d).each), or the paths the call itself walks
// (Dir.glob(p) { |f| }, Dir.each_child(d) { |f| }, Dir.foreach(d)).
func rbBlock(e *eval, name string, recv val, call, b *node) {
	var it val
	switch name {
	case ".each", ".map", ".each_with_index", ".select", ".reject", ".filter", ".flat_map", ".each_entry", ".collect", ".find_all":
		it = recv
	default:
		it = e.value(call) // Dir.glob(p) { |f| }: rbCallValue's list
	}
	if it.elem == nil {
		return
	}
	ps := b.get("parameters")
	if ps == nil {
		return
	}
	if p := ps.namedKids0(); p != nil && p.kind == "identifier" {
		e.vars[p.text()] = *it.elem
	}
}

// rbPathOf is a Pathname's path as a plain value.
func rbPathOf(v val) val {
	v.ref = ""
	return v
}

// rbPaths lists a path or an array of paths (FileUtils takes both).
func rbPaths(v val) []val {
	if v.isList {
		return v.list
	}
	return []val{v}
}

func rbOpen(e *eval, via string, p val, pos []val) {
	if len(pos) > 1 && (!pos[1].static || strings.ContainsAny(pos[1].s, "wa+")) {
		e.write(via, p, pos[1].static && strings.Contains(pos[1].s, "a"))
		return
	}
	e.read(via, p)
}

func (rbSpec) value(e *eval, n *node) (val, bool) {
	switch n.kind {
	case "string", "subshell":
		return e.parts(n), true
	case "simple_symbol":
		return lit(strings.TrimPrefix(n.text(), ":")), true
	case "delimited_symbol":
		return e.parts(n), true
	case "integer":
		return numVal(n)
	case "true", "false", "nil":
		return lit(n.kind), true
	case "parenthesized_statements":
		if k := n.namedKids(); len(k) == 1 {
			return e.value(k[0]), true
		}
	case "constant":
		if v, ok := e.vars[n.text()]; ok {
			return v, true
		}
		if n.text() == "ENV" {
			return val{s: "ENV", env: true, ref: "ENV"}, true
		}
		return val{ref: n.text()}, true
	case "scope_resolution":
		return val{ref: strings.TrimPrefix(n.text(), "::")}, true
	case "identifier", "global_variable", "instance_variable":
		if v, ok := e.vars[n.text()]; ok {
			return v, true
		}
		switch n.text() {
		case "$stdout", "$stderr", "$stdin":
			return val{ref: n.text()}, true
		}
		return val{s: n.text()}, true
	case "element_reference":
		obj := e.value(n.get("object"))
		var idx val
		if k := n.namedKids(); len(k) > 1 {
			idx = e.value(k[1])
		}
		if obj.ref == "ENV" {
			return e.getenv(idx), true
		}
		if obj.ref == "Dir" && idx.static { // Dir["~/x/*"]: Dir.glob's
			return names(pattern(idx.s, strings.Contains(idx.s, "**"))), true
		}
		if obj.isList && idx.isNum && idx.num < len(obj.list) {
			return obj.list[idx.num], true
		}
		return flow(n, obj, idx), true
	case "binary":
		return binary(n, e.value(n.get("left")), e.value(n.get("right")), "+"), true
	case "array":
		return e.list(n), true
	case "hash":
		out := val{kw: map[string]val{}, s: n.text()}
		for _, p := range n.namedKids() {
			if p.kind != "pair" {
				continue
			}
			v := e.value(p.get("value"))
			out.env = out.env || v.env
			key := strings.Trim(strings.TrimSuffix(strings.TrimPrefix(p.get("key").text(), ":"), ":"), `'"`)
			out.kw[key] = v
		}
		return out, true
	case "call":
		return rbCallValue(e, n), true
	}
	return val{}, false
}

func rbCallValue(e *eval, n *node) val {
	name, recv := rbName(e, n)
	var pos []val
	if n.get("arguments") != nil {
		pos = positional(rbArgs(e, n))
	}
	at := func(i int) val { return argAt(pos, i) }
	switch name {
	case "Dir.home", "Etc.getpwuid.dir":
		return e.home()
	case "Etc.getpwuid":
		return val{ref: name} // the user's entry: its .dir is the home directory
	case "Pathname.new", "Pathname", "Pathname.home", "Pathname.join", "Pathname.+", "Pathname./", "Pathname.expand_path":
		// a Pathname is its path, with the methods of Pathname
		var v val
		switch name {
		case "Pathname.home":
			v = e.home()
		case "Pathname.join", "Pathname.+", "Pathname./":
			v = join(append([]val{recv}, pos...), true)
		case "Pathname.expand_path":
			v = e.expanduser(recv)
		default:
			v = e.expanduser(at(0))
		}
		v.ref = "Pathname"
		return v
	case "Dir.glob", "Dir.[]":
		if p := at(0); p.static {
			return names(pattern(p.s, strings.Contains(p.s, "**")))
		}
	case "Dir.children", "Dir.entries", "Dir.each_child", "Dir.foreach":
		return names(pattern("*", false))
	case "sprintf", "format", "Kernel.sprintf", "Kernel.format":
		if len(pos) > 0 && pos[0].static {
			return printfValue(pos[0].s, pos[1:])
		}
	case "Dir.pwd", "Dir.getwd":
		if e.opt.Cwd != "" {
			return lit(e.opt.Cwd)
		}
	case "Dir.tmpdir":
		return lit("/tmp")
	case "File.expand_path":
		return e.expanduser(at(0))
	case "File.join":
		return join(pos, false)
	case "ENV.fetch", "ENV.[]":
		return e.getenv(at(0))
	case "ENV.to_h", "ENV.to_a", "ENV.inspect", "ENV.to_s", "ENV.map", "ENV.each", "ENV.select", "ENV.keys", "ENV.values", "ENV.dup", "ENV.clone":
		return val{s: n.text(), env: true}
	case "Base64.decode64", "Base64.strict_decode64", "Base64.urlsafe_decode64":
		return decoded(at(0), b64)
	case "Zlib::Inflate.inflate", "Zlib.inflate", "Marshal.load":
		return flow(n, at(0)).withSrc("decode")
	case "URI", "URI.parse":
		return at(0)
	case "Net::HTTP.get", "URI.open", "open":
		return flow(n).withSrc("network")
	case "TCPSocket.new", "TCPSocket.open", "Socket.tcp":
		return val{ref: "TCPSocket"}
	}
	if strings.HasPrefix(name, ".") && recv.ref == "" {
		switch name {
		case ".reverse":
			if recv.static {
				return lit(reverse(recv.s)).withSrc("decode")
			}
		case ".join":
			if recv.isList {
				sep := lit("")
				if len(pos) == 1 {
					sep = pos[0]
				}
				return joinVals(recv.list, sep)
			}
		case ".pack":
			if recv.isList && len(recv.list) == 1 && len(pos) == 1 && pos[0].static && strings.HasPrefix(pos[0].s, "H") {
				return decoded(recv.list[0], hexDecode)
			}
			if recv.isList && len(pos) == 1 && pos[0].static && strings.HasPrefix(pos[0].s, "m") && len(recv.list) == 1 {
				return recv.list[0]
			}
			if recv.isList && len(pos) == 1 && pos[0].static && strings.HasPrefix(pos[0].s, "c") {
				return fromCodes(recv.list)
			}
		case ".unpack1", ".unpack":
			if len(pos) == 1 && pos[0].static && strings.HasPrefix(pos[0].s, "m") {
				return decoded(recv, b64)
			}
		case ".chr":
			if recv.isNum {
				return fromCodes([]val{recv})
			}
		case ".to_s", ".strip", ".chomp", ".to_str", ".read", ".body":
			return recv
		case ".tr":
			if recv.static && len(pos) == 2 && pos[0].s == "A-Za-z" && pos[1].s == "N-ZA-Mn-za-m" {
				return lit(rot13(recv.s)).withSrc("decode")
			}
		}
		return flow(n, append(pos, recv)...)
	}
	return flow(n, pos...)
}
