package interp

import "strings"

type phpSpec struct{}

func (phpSpec) visit(e *eval, n *node) bool {
	switch n.kind {
	case "assignment_expression":
		e.assign(n, "variable_name", "")
	case "augmented_assignment_expression":
		e.assign(n, "variable_name", ".=")
	case "foreach_statement": // foreach (glob(p) as $f), foreach (scandir(d) as $k => $f)
		if k := n.namedKids(); len(k) > 1 {
			v := k[1]
			if kk := v.namedKids(); v.kind == "pair" && len(kk) > 0 {
				v = kk[len(kk)-1]
			}
			if it := e.value(k[0]); v.kind == "variable_name" && it.elem != nil {
				e.vars[v.text()] = *it.elem
			}
		}
	case "function_call_expression":
		phpCall(e, n)
	case "shell_command_expression":
		e.runValue("`...`", e.parts(n), true)
	case "echo_statement", "print_intrinsic":
		for _, k := range n.namedKids() {
			if e.value(k).env {
				e.envDump("echo")
			}
		}
	}
	return true
}

func phpArgs(e *eval, n *node) []val { return phpArgList(e, n.get("arguments")) }

// phpArgList is the values of an arguments node.
func phpArgList(e *eval, args *node) []val {
	var out []val
	for _, a := range args.namedKids() {
		if a.kind == "argument" {
			if k := a.namedKids(); len(k) > 0 {
				out = append(out, e.value(k[len(k)-1]))
			}
			continue
		}
		out = append(out, e.value(a))
	}
	return out
}

// phpFunc is the name of the function called: a name, or a variable or
// expression whose value is a static string ($f = 'sys'.'tem'; $f('id')).
func phpFunc(e *eval, fn *node) (string, val, bool) {
	if fn.kind == "name" || fn.kind == "qualified_name" {
		return strings.ToLower(strings.TrimPrefix(fn.text(), `\`)), val{}, true
	}
	v := e.value(fn)
	if v.static && !v.isList {
		return strings.ToLower(v.s), v, true
	}
	return "", v, false
}

func phpCall(e *eval, n *node) {
	fn := n.get("function")
	if fn == nil || n.get("arguments") == nil {
		return
	}
	name, fv, ok := phpFunc(e, fn)
	if !ok {
		e.dynamicName("$f()", fv)
		return
	}
	pos := phpArgs(e, n)
	if name == "call_user_func" || name == "call_user_func_array" {
		if len(pos) == 0 || !pos[0].static {
			if len(pos) > 0 {
				e.dynamicName(name, pos[0])
			}
			return
		}
		name = strings.ToLower(pos[0].s)
		pos = pos[1:]
		if len(pos) == 1 && pos[0].isList {
			pos = pos[0].list
		}
	}
	if name == "array_map" || name == "array_walk" {
		// array_map("unlink", glob(p)), array_walk($list, "unlink"): the
		// function named is called with each element
		fi, li := 0, 1
		if name == "array_walk" {
			fi, li = 1, 0
		}
		f, l := argAt(pos, fi), argAt(pos, li)
		if fn := phpCallback(n, fi); fn != nil && l.elem != nil {
			// array_map(fn($f) => unlink($f), glob(p)): the parameter is
			// each element; the body is read after the call
			if p := fn.first("formal_parameters").namedKids0(); p != nil {
				if v := p.first("variable_name"); v != nil {
					e.vars[v.text()] = *l.elem
				}
			}
			return
		}
		if !f.static || f.isList {
			return
		}
		var each []val
		switch {
		case l.elem != nil:
			each = []val{*l.elem}
		case l.isList:
			each = l.list
		}
		for _, x := range each {
			phpApply(e, strings.ToLower(f.s), []val{x})
		}
		return
	}
	phpApply(e, name, pos)
}

// phpCallback is the i-th argument of call n when it is a function
// written in place (fn($x) => ..., function ($x) { ... }).
func phpCallback(n *node, i int) *node {
	k := 0
	for _, a := range n.get("arguments").namedKids() {
		if a.kind != "argument" {
			continue
		}
		if k == i {
			if f := a.first("arrow_function", "anonymous_function", "anonymous_function_creation_expression"); f != nil {
				return f
			}
			return nil
		}
		k++
	}
	return nil
}

// phpApply records what the function name does called with pos.
func phpApply(e *eval, name string, pos []val) {
	at := func(i int) val { return argAt(pos, i) }
	switch name {
	case "system", "exec", "shell_exec", "passthru", "popen", "proc_open":
		e.runValue(name, at(0), true)
	case "pcntl_exec":
		argv := []val{at(0)}
		if len(pos) > 1 && pos[1].isList {
			argv = append(argv, pos[1].list...)
		}
		e.command(name, false, val{}, argv)
	case "unlink":
		e.del(name, at(0), false, false)
	case "rmdir":
		e.del(name, at(0), false, true)
	case "file_get_contents", "file", "readfile", "fopen", "parse_ini_file", "highlight_file", "show_source":
		p := at(0)
		switch {
		case p.static && (strings.HasPrefix(p.s, "http://") || strings.HasPrefix(p.s, "https://") || strings.HasPrefix(p.s, "ftp://")):
			e.send(name, p)
		case name == "fopen" && len(pos) > 1 && (!pos[1].static || strings.ContainsAny(pos[1].s, "waxc+")):
			e.write(name, p, pos[1].static && strings.Contains(pos[1].s, "a"))
		default:
			e.read(name, p)
		}
	case "file_put_contents":
		appendMode := len(pos) > 2 && strings.Contains(pos[2].s, "APPEND")
		e.write(name, at(0), appendMode)
		if anyEnv(pos[min(1, len(pos)):]) {
			e.envDump(name)
		}
	case "copy", "rename", "symlink", "link", "move_uploaded_file":
		e.read(name, at(0))
		e.write(name, at(1), false)
	case "eval", "assert", "create_function":
		e.dynamic(name, at(len(pos)-1), "php")
	case "print_r", "var_dump", "var_export", "printf", "print", "json_encode", "error_log":
		if anyEnv(pos) {
			e.envDump(name)
		}
	case "fsockopen", "pfsockopen", "stream_socket_client", "socket_connect", "curl_init", "mail", "ftp_connect", "ssh2_connect":
		if name != "curl_init" && name != "mail" {
			e.socket = true
		}
		to := at(0)
		if name == "socket_connect" {
			to = at(1)
		}
		e.send(name, to)
	case "curl_setopt":
		if len(pos) > 2 && pos[2].env {
			e.envDump(name)
		}
	case "preg_replace":
		if p := at(0); p.static && strings.HasSuffix(strings.TrimRight(p.s, "imsxuADSUXJ"), "/") && strings.Contains(p.s[strings.LastIndexByte(p.s, '/'):], "e") {
			e.dynamic("preg_replace /e", at(1), "php")
		}
	}
}

func (phpSpec) value(e *eval, n *node) (val, bool) {
	switch n.kind {
	case "encapsed_string", "shell_command_expression", "heredoc_body", "heredoc":
		if n.kind == "heredoc" {
			if b := n.first("heredoc_body"); b != nil {
				return e.parts(b), true
			}
		}
		return e.parts(n), true
	case "string":
		// single quotes: only \' and \\ are escapes
		out := lit("")
		for _, k := range n.kids {
			if k.kind == "string_content" || k.kind == "string_value" {
				t := strings.ReplaceAll(strings.ReplaceAll(k.text(), `\'`, `'`), `\\`, `\`)
				out = concat(out, e.strLit(t))
			}
		}
		return out, true
	case "nowdoc":
		if b := n.first("nowdoc_body"); b != nil {
			return e.strLit(b.text()), true
		}
	case "integer":
		return numVal(n)
	case "parenthesized_expression":
		if k := n.namedKids(); len(k) == 1 {
			return e.value(k[0]), true
		}
	case "variable_name":
		if v, ok := e.vars[n.text()]; ok {
			return v, true
		}
		switch n.text() {
		case "$_ENV", "$_SERVER":
			return val{s: n.text(), env: true, ref: "$_ENV"}, true
		}
		return val{s: n.text()}, true
	case "name":
		return val{s: n.text()}, true
	case "subscript_expression":
		k := n.namedKids()
		if len(k) < 2 {
			return unknown(n), true
		}
		obj, idx := e.value(k[0]), e.value(k[1])
		if obj.ref == "$_ENV" {
			return e.getenv(idx), true
		}
		return index(n, obj, idx), true
	case "binary_expression":
		return binary(n, e.value(n.get("left")), e.value(n.get("right")), "."), true
	case "array_creation_expression":
		out := val{isList: true, static: true, s: n.text(), kw: map[string]val{}}
		for _, el := range n.namedKids() {
			if el.kind != "array_element_initializer" {
				continue
			}
			kids := el.namedKids()
			if len(kids) == 0 {
				continue
			}
			v := e.value(kids[len(kids)-1])
			out.env = out.env || v.env
			if len(kids) == 2 {
				if key := e.value(kids[0]); key.static {
					out.kw[key.s] = v
				}
			}
			out.list = append(out.list, v)
		}
		return out, true
	case "function_call_expression":
		return phpCallValue(e, n), true
	case "object_creation_expression":
		return phpNewValue(e, n), true
	}
	return val{}, false
}

// phpNewValue is what the directory iterators range over, as glob's
// (pyiter.go): new DirectoryIterator($d) the entries of $d, the
// recursive one every path below it; RecursiveIteratorIterator and
// IteratorIterator yield what they wrap.
func phpNewValue(e *eval, n *node) val {
	c, args := n.first("name", "qualified_name"), n.first("arguments")
	if c == nil || args == nil {
		return unknown(n)
	}
	pos := phpArgList(e, args)
	d := argAt(pos, 0)
	switch strings.TrimPrefix(c.text(), `\`) {
	case "RecursiveIteratorIterator", "IteratorIterator", "CallbackFilterIterator", "RecursiveCallbackFilterIterator":
		return d
	case "DirectoryIterator", "FilesystemIterator":
		if d.static {
			return names(pattern(strings.TrimSuffix(d.s, "/")+"/*", false))
		}
	case "RecursiveDirectoryIterator":
		if d.static {
			return names(pattern(strings.TrimSuffix(d.s, "/")+"/*", true))
		}
	case "GlobIterator":
		if d.static {
			return names(pattern(d.s, false))
		}
	}
	return flow(n, pos...)
}

func phpCallValue(e *eval, n *node) val {
	fn := n.get("function")
	if fn == nil || n.get("arguments") == nil {
		return unknown(n)
	}
	name, _, ok := phpFunc(e, fn)
	pos := phpArgs(e, n)
	if !ok {
		return flow(n, pos...)
	}
	at := func(i int) val { return argAt(pos, i) }
	switch name {
	case "glob":
		if p := at(0); p.static {
			return names(pattern(p.s, false))
		}
	case "scandir":
		return names(pattern("*", false)) // the names in the directory (pyiter.go)
	case "getenv":
		if len(pos) == 0 {
			return val{s: "getenv()", env: true}
		}
		return e.getenv(at(0))
	case "sys_get_temp_dir":
		return lit("/tmp")
	case "getcwd":
		if e.opt.Cwd != "" {
			return lit(e.opt.Cwd)
		}
	case "base64_decode":
		return decoded(at(0), b64)
	case "hex2bin":
		return decoded(at(0), hexDecode)
	case "str_rot13":
		return decoded(at(0), func(s string) (string, bool) { return rot13(s), true })
	case "strrev":
		return decoded(at(0), func(s string) (string, bool) { return reverse(s), true })
	case "chr":
		return fromCodes([]val{at(0)})
	case "escapeshellarg", "escapeshellcmd", "realpath":
		return at(0) // quoted for the shell, or normalised: the same path
	case "implode", "join":
		if len(pos) == 2 && pos[1].isList {
			return joinVals(pos[1].list, pos[0])
		}
	case "gzinflate", "gzuncompress", "gzdecode", "unserialize", "convert_uudecode":
		return flow(n, at(0)).withSrc("decode")
	case "file_get_contents", "curl_exec", "fread", "stream_get_contents":
		if p := at(0); name != "file_get_contents" || (p.static && strings.Contains(p.s, "://")) {
			return flow(n).withSrc("network")
		}
	case "json_encode", "serialize", "http_build_query", "print_r", "var_export", "strval", "trim":
		return flow(n, pos...)
	}
	return flow(n, pos...)
}
