package parse

import (
	"slices"
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// shell handles bash/sh/... : -c STRING is re-parsed, a script file is an
// ordinary execution, and otherwise the shell runs what it reads on stdin.
func (w *walker) shell(sc *scope, c *cmd, name string) {
	if checksOnly(c, name) {
		w.emit(c) // bash -n x.sh: the syntax is checked, nothing runs
		return
	}
	args := c.argv[1:]
	hasC, stdinMode := false, false
	sp := programs.Lookup(name).Opts // its options that take a value (-o, fish's -C CMD)
	i := 0
scan:
	for i < len(args) {
		a := args[i]
		v := a.Value
		if !a.Static || len(v) < 2 || (v[0] != '-' && v[0] != '+') {
			break
		}
		if v == "--" {
			i++
			break
		}
		if strings.HasPrefix(v, "--") {
			if !strings.Contains(v, "=") && sp.TakesLong(v[2:]) {
				i++ // --rcfile F, --init-command CMD
			}
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			switch {
			case v[j] == 'c':
				hasC = true
			case v[j] == 's':
				stdinMode = true
			case sp.TakesShort(v[j]):
				if j == len(v)-1 {
					i++ // -o pipefail
				}
				i++
				continue scan
			}
		}
		i++
	}
	operands := args[min(i, len(args)):]
	if hasC {
		if len(operands) == 0 {
			// sh -c with the string from elsewhere (xargs sh -c).
			if c.extra {
				c.runs = &DynamicCode{How: "shell-c", Sources: c.extraSrcs}
			}
			w.emit(c)
			return
		}
		o := Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: name + " -c"}
		if !c.extra { // xargs or find -exec would append unknown arguments
			params := slices.Clone(operands[1:]) // $0, $1, ...
			if len(params) == 0 {
				params = []arg{{Word: Word{Value: name, Static: true}}}
			}
			c.shParams = &params
		} else if params, ok := feedParams(c, operands[1:]); ok {
			c.shParams = &params // find -exec sh -c '...' _ {} \;: $1 is one name found (globvar.go)
		}
		w.reparseArgs(c, operands[:1], o, "shell-c", "", nil)
		return
	}
	if len(operands) > 0 && operands[0].Static && isStdinPath(operands[0].Value) {
		stdinMode = true // bash /dev/stdin <<< "$code": the script is stdin
	}
	if len(operands) > 0 && !stdinMode {
		if operands[0].code != nil { // bash <(echo 'rm x')
			w.sourceCode(c, operands[0].code, name+" <(...)")
			return
		}
		if w.runWritten(c, operands[:1], "") {
			return // a file written earlier in the same source
		}
		w.emit(c) // runs a script file
		return
	}
	w.stdinCode(c, name, "")
}

// stdinCode handles a shell (lang "") or an interpreter reading its code
// on stdin: static text is re-parsed or scanned, anything else is code
// that cannot be read.
func (w *walker) stdinCode(c *cmd, name, lang string) {
	in := c.stdin
	if in != nil && in.file && w.runWritten(c, []arg{in.path}, lang) {
		return // sh < x.sh: the script's text is known
	}
	if in == nil || in.file {
		w.emit(c) // interactive, or a script from a file
		return
	}
	how, kind := "shell-stdin", OriginShellStdin
	if lang != "" {
		how, kind = "interpreter", OriginInterpreter
	}
	if !in.static {
		c.runs = &DynamicCode{How: how, Sources: in.srcs}
		w.emit(c)
		return
	}
	if in.dataIdx >= 0 {
		w.dropData[in.dataIdx] = true // it was code after all
	}
	markDecoded(c, how, in.decoded) // echo ... | base64 -d | sh
	w.emit(c)
	inner := *c
	inner.stdin, inner.runs = nil, nil
	o := Origin{Kind: kind, Depth: c.origin.Depth + 1, Via: name + " stdin"}
	if lang == "" {
		w.reparse(&inner, in.text, o, nil, in.decoded == "")
	} else {
		w.scanCode(&inner, in.text, lang, o)
	}
}

// stdinReader handles a program that is no shell or interpreter reading
// the code it runs on stdin (programs.CodeOnStdin): that code is in no
// language parse reads, so only where it comes from is known.
func (w *walker) stdinReader(c *cmd, name string) output {
	in := c.stdin
	if in != nil && !in.file && !in.static {
		c.runs = &DynamicCode{How: HowStdinReader, Sources: in.srcs}
	}
	out := w.plain(c, name) // its SQL or script operands are still read
	if in != nil && !in.file && in.static {
		o := Origin{Kind: OriginInterpreter, Depth: c.origin.Depth + 1, Via: name + " stdin"}
		if lang := programs.Lookup(name).Lang; lang == "awk" || programs.Scanned(lang) {
			inner := *c
			inner.stdin = nil
			w.scanCode(&inner, in.text, lang, o) // awk -f /dev/stdin: its program, read as awk's
		} else {
			// echo '!rm -rf ~/x' | ed -s: the commands it embeds (foreign.go)
			w.foreignCode(c, in.text, "", o)
		}
	}
	return out
}

// staticPrefix are the values of the words before the first one known
// only at run time.
func staticPrefix(args []arg) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if !a.Static {
			break
		}
		out = append(out, a.Value)
	}
	return out
}

// ssh HOST [CMD...]: the remote command is the words after the host,
// joined by spaces and run by the remote shell.
func (w *walker) ssh(sc *scope, c *cmd) {
	spec := spec("ssh")
	i, _ := scanOpts(c.argv[1:], spec)
	ops := c.argv[1+i:]
	if len(ops) == 0 {
		w.emit(c)
		return
	}
	o := Origin{Kind: OriginRemote, Depth: c.origin.Depth + 1, Via: "ssh"}
	// OpenSSH also reads options after the host (ssh host -t cmd).
	j, _ := scanOpts(ops[1:], spec)
	words := ops[1+j:]
	if len(words) == 0 {
		// A remote login shell: it runs what ssh reads on stdin.
		if c.stdin != nil && !c.stdin.file {
			w.remoteStdin(c, o)
			return
		}
		w.emit(c)
		return
	}
	w.reparseArgs(c, words, o, "shell-c", "", c.stdin)
}

func (w *walker) remoteStdin(c *cmd, o Origin) {
	in := c.stdin
	if !in.static {
		c.runs = &DynamicCode{How: "shell-stdin", Sources: in.srcs}
		w.emit(c)
		return
	}
	if in.dataIdx >= 0 {
		w.dropData[in.dataIdx] = true
	}
	w.emit(c)
	inner := *c
	inner.stdin = nil
	w.reparse(&inner, in.text, o, nil, true)
}

var (
	dockerGlobal = programs.DockerGlobal
	composeOpts  = programs.DockerCompose
	dockerExec   = programs.DockerExec
	dockerRun    = programs.DockerRun
)

// container handles docker/podman exec and run: the command given runs
// in the container (Origin remote).
func (w *walker) container(sc *scope, c *cmd, name string) {
	w.emit(c)
	args := c.argv[1:]
	i, _ := scanOpts(args, dockerGlobal)
	args = args[i:]
	if len(args) > 0 && args[0].Value == "container" {
		args = args[1:]
	}
	if len(args) > 0 && args[0].Value == "compose" {
		i, _ = scanOpts(args[1:], composeOpts)
		args = args[1+i:]
	}
	if len(args) == 0 {
		return
	}
	sub := args[0].Value
	args = args[1:]
	var spec optSpec
	switch sub {
	case "exec":
		spec = dockerExec
	case "run", "create":
		spec = dockerRun
	default:
		return
	}
	i, flags := scanOpts(args, spec)
	if i >= len(args) {
		return
	}
	rest := args[i+1:] // after the container or image
	if ep, ok := flags["entrypoint"]; ok && ep != "" {
		rest = append([]arg{{Word: Word{Value: ep, Static: true}}}, rest...)
	}
	w.remoteArgv(sc, c, rest, name+" "+sub)
}

// kubectl [global opts] exec [opts] POD [--] CMD...
func (w *walker) kubectl(sc *scope, c *cmd, name string) {
	w.emit(c)
	args := c.argv[1:]
	i, _ := scanOpts(args, optSpec{Short: "ns", Long: []string{"namespace", "context", "kubeconfig", "cluster", "user", "server", "token"}})
	args = args[i:]
	if len(args) == 0 || args[0].Value != "exec" {
		return
	}
	args = args[1:]
	var rest []arg
	if k := slices.IndexFunc(args, func(a arg) bool { return a.Static && a.Value == "--" }); k >= 0 {
		rest = args[k+1:]
	} else {
		i, _ := scanOpts(args, optSpec{Short: "cnf", Long: []string{"container", "namespace", "filename", "context", "pod-running-timeout"}})
		if i < len(args) {
			rest = args[i+1:]
		}
	}
	w.remoteArgv(sc, c, rest, name+" exec")
}

// remoteArgv runs argv in a container or pod: another machine, so the
// directory, assignments and wrappers of this one do not apply.
func (w *walker) remoteArgv(sc *scope, c *cmd, argv []arg, via string) {
	if len(argv) == 0 {
		return
	}
	inner := *c
	inner.argv = argv
	inner.wrappers = nil
	inner.assigns = nil
	inner.redirs = nil
	inner.dir = ""
	inner.extra = false
	inner.remote = true
	inner.origin = Origin{Kind: OriginRemote, Depth: c.origin.Depth + 1, Via: via}
	w.run(sc.sub(), &inner)
}
