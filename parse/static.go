package parse

import (
	"slices"
	"strconv"
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
	"mvdan.cc/sh/v3/syntax"
)

// The static evaluator (issue 12 class 8). Values the shell would compute
// from text the command itself holds are computed here too, so that the
// command they make is judged like the plain one: word splitting on an
// assigned IFS, the output of command substitutions of pure programs over
// known input (pure.go), parameter operators (expand.go). A value that went
// through a decoder (base64 -d, xxd -r, rev, tr, gunzip, ...) keeps the
// decoders' names: code or a command name made of it is still reported as
// RunsCode with them as Sources (DECODE-EXEC), besides being judged for what
// it does.

// defaultIFS is the shell's IFS when none is assigned.
const defaultIFS = " \t\n"

// maxSubstText bounds a substitution's output computed into a word;
// maxSplitFields the fields one word splits into (past it the word stays
// dynamic, as brace expansion past 256 words does).
const (
	maxSubstText   = 64 << 10
	maxSplitFields = 1024
)

// ifs returns the IFS in effect, when known: the default when none was
// assigned, the value of a static assignment (ASCII only).
func (s *scope) ifs() (string, bool) {
	v, set := findAssign(s.assigns, "IFS")
	if !set {
		return defaultIFS, true
	}
	if !v.Static {
		return "", false
	}
	for i := 0; i < len(v.Value); i++ {
		if v.Value[i] >= 0x80 {
			return "", false
		}
	}
	return v.Value, true
}

// writeFields writes the unquoted expansion v of an argv word split into
// fields as the shell splits it with ifs: IFS white space (space, tab,
// newline in IFS) around at most one other IFS character is one
// delimiter; white space alone at the edges makes no empty field, another
// IFS character does ("a__b" with IFS=_ is a, "", b). A glob character in
// a field makes it dynamic (the shell would expand it).
func (wb *wordBuf) writeFields(v, ifs string) {
	if !wb.split {
		wb.b.WriteString(v)
		return
	}
	blank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }
	ws := func(c byte) bool { return blank(c) && strings.IndexByte(ifs, c) >= 0 }
	other := func(c byte) bool { return !blank(c) && strings.IndexByte(ifs, c) >= 0 }
	for i := 0; i < len(v); {
		if len(wb.fields) > maxSplitFields {
			wb.tooMany = true // the caller makes the word dynamic
			return
		}
		c := v[i]
		if !ws(c) && !other(c) {
			if c == '*' || c == '?' || c == '[' {
				wb.static = false
			}
			wb.b.WriteByte(c)
			wb.has = true
			i++
			continue
		}
		j := i
		for j < len(v) && ws(v[j]) {
			j++
		}
		hard := false
		if j < len(v) && other(v[j]) {
			hard = true
			for j++; j < len(v) && ws(v[j]); j++ {
			}
		}
		if hard || wb.has {
			wb.endField()
		}
		i = j
	}
}

// writeKnown writes a known value into the word: as it is when quoted or
// outside argv, else split on the IFS in effect. It is false when IFS is
// not known (the caller leaves the word dynamic).
func (w *walker) writeKnown(sc *scope, wb *wordBuf, v string, dq bool) bool {
	if dq || !wb.split {
		wb.b.WriteString(v)
		wb.has = true
		return true
	}
	ifs, ok := sc.ifs()
	if !ok {
		return false
	}
	wb.writeFields(v, ifs)
	return true
}

// writeSubst writes the output of a command substitution when it is known
// (echo, printf, cat <<EOF, and pure programs over known text): trailing
// newlines removed, as the shell does.
func (w *walker) writeSubst(sc *scope, wb *wordBuf, out *output, dq bool) bool {
	if out == nil || !out.static || out.shellEcho || len(out.text) > maxSubstText {
		return false
	}
	v := strings.TrimRight(out.text, "\n")
	if strings.IndexByte(v, 0) >= 0 {
		v = strings.ReplaceAll(v, "\x00", "") // bash drops NUL bytes
	}
	w.expanded(len(v))
	if !w.writeKnown(sc, wb, v, dq) {
		return false
	}
	wb.addDecoded(out.decoded)
	return true
}

// addDecoded adds decoder names (comma-separated) to the word's.
func (wb *wordBuf) addDecoded(d string) { wb.decoded = joinDecoded(wb.decoded, d) }

func joinDecoded(a, b string) string {
	switch {
	case b == "" || a == b:
		return a
	case a == "":
		return b
	}
	out := a
	for _, n := range strings.Split(b, ",") {
		if !strings.Contains(","+out+",", ","+n+",") {
			out += "," + n
		}
	}
	return out
}

func splitDecoded(d string) []string {
	if d == "" {
		return nil
	}
	return strings.Split(d, ",")
}

// lookupDecoded is the decoders of a variable's computed value.
func (s *scope) lookupDecoded(name string) string {
	for i := len(s.assigns) - 1; i >= 0; i-- {
		if a := s.assigns[i]; a.Name == name {
			return a.decoded
		}
	}
	return ""
}

// argsDecoded is the decoders of any of the words.
func argsDecoded(args []arg) string {
	d := ""
	for _, a := range args {
		d = joinDecoded(d, a.decoded)
	}
	return d
}

// decodes reports whether the program, with these arguments, decodes: a
// Decoder of the model in its decode mode.
func decodes(name string, args []string) bool {
	p := programs.Lookup(name)
	return p.Is(programs.Decoder) && (p.Decodes == nil || p.Decodes(args))
}

// echoAmbiguous reports echo arguments whose output differs between
// shells: a backslash and no -e/-E (dash and zsh decode escapes, bash not).
func echoAmbiguous(args []arg) bool {
	for len(args) > 0 && isEchoFlag(args[0].Value) {
		if strings.ContainsAny(args[0].Value, "eE") {
			return false
		}
		args = args[1:]
	}
	return strings.Contains(joinArgs(args), `\`)
}

// markDecoded records, on a command about to be emitted, that its name or
// the code it runs was decoded: it runs decoded text (RunsCode with the
// decoders as Sources), whatever else it is judged for.
func markDecoded(c *cmd, how, decoded string) {
	if decoded != "" && c.runs == nil {
		c.runs = &DynamicCode{How: how, Sources: splitDecoded(decoded)}
	}
}

// A default that may be the value. ${x:-rm} with x not known may expand to
// x's value from the environment or to the default; both are judged: the
// command as written (dynamic where x is) and the command with every such
// default taken (defaultAlt). Only for words without substitutions, which
// would otherwise run twice.

// defaultAlt returns the argv of a simple command with the defaults of
// unknown variables taken, when its words have such a default (and no
// substitution); else nil.
func (w *walker) defaultAlt(sc *scope, words []*syntax.Word) []arg {
	found := false
	for _, wd := range words {
		ok := true
		syntax.Walk(wd, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				ok = false
			case *syntax.ParamExp:
				if n.Param != nil && n.Exp != nil && isDefaultOp(n.Exp.Op) {
					if _, known := sc.lookup(n.Param.Value); !known {
						found = true
					}
				}
				found = found || topParam(sc, n)
			}
			return ok
		})
		if !ok {
			return nil
		}
	}
	if !found {
		return nil
	}
	w.takeDefaults = true
	defer func() { w.takeDefaults = false }()
	var out []arg
	for _, wd := range words {
		out = append(out, w.fields(sc, wd)...)
	}
	return out
}

func isDefaultOp(op syntax.ParExpOperator) bool {
	return op == syntax.DefaultUnset || op == syntax.DefaultUnsetOrNull || op == syntax.AssignUnset || op == syntax.AssignUnsetOrNull
}

// takenDefault is the static default of ${x:-d} / ${x=d} when defaults are
// being taken (defaultAlt) and x is not known.
func (w *walker) takenDefault(sc *scope, p *syntax.ParamExp) (string, bool) {
	if w.takeDefaults && topParam(sc, p) {
		return "", true // rm$IFS$9-rf: the tool's shell has no arguments
	}
	if !w.takeDefaults || p.Param == nil || p.Exp == nil || !isDefaultOp(p.Exp.Op) || p.Excl || p.Length || p.Index != nil {
		return "", false
	}
	if _, known := sc.lookup(p.Param.Value); known {
		return "", false
	}
	return staticLit(p.Exp.Word)
}

// joinsParams reports $@, $*, ${a[@]}, ${a[*]}: several values the caller
// receives joined by spaces, which only split back right when IFS holds a
// space.
func joinsParams(p *syntax.ParamExp) bool {
	if p.Param != nil && (p.Param.Value == "@" || p.Param.Value == "*") {
		return true
	}
	if wd, ok := p.Index.(*syntax.Word); ok {
		return wd.Lit() == "@" || wd.Lit() == "*"
	}
	return false
}

func (s *scope) ifsHasSpace() bool {
	ifs, ok := s.ifs()
	return ok && strings.Contains(ifs, " ")
}

// isStdinPath names the standard input as a file (programs.StdinPath's
// names other than "-", which only some programs read so).
func isStdinPath(p string) bool {
	return p != "-" && programs.StdinPath(p)
}

// topParam is a plain $1..$9, $@ or $* where the positional parameters are
// not known (the top level): in the alternative reading they are empty, as
// in the shell Claude Code starts for a command.
func topParam(sc *scope, p *syntax.ParamExp) bool {
	if sc.params != nil || p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil {
		return false
	}
	v := p.Param.Value
	return v == "@" || v == "*" || len(v) == 1 && v[0] >= '1' && v[0] <= '9'
}

// xargsLine is the one line of known stdin that xargs -I R reads, when its
// only option is -I/-i (which read whole lines, leading blanks removed)
// and the text has no quotes or backslashes.
func xargsLine(opts []arg, in *input, repl string) (string, bool) {
	if repl == "" || in == nil || !in.static || in.file || strings.ContainsAny(in.text, `"'\`) {
		return "", false
	}
	for i := 0; i < len(opts); i++ {
		v := opts[i].Value
		switch {
		case !opts[i].Static:
			return "", false
		case v == "-I":
			i++
		case strings.HasPrefix(v, "-I"), strings.HasPrefix(v, "-i"), strings.HasPrefix(v, "--replace"), v == "-r", v == "--no-run-if-empty":
		default:
			return "", false
		}
	}
	line := strings.TrimLeft(strings.TrimSuffix(in.text, "\n"), " \t")
	if line == "" || strings.Contains(line, "\n") {
		return "", false
	}
	return line, true
}

// replaceLine puts line for every repl in the words.
func replaceLine(args []arg, repl, line string) []arg {
	out := slices.Clone(args)
	for i := range out {
		if out[i].Static {
			out[i].Value = strings.ReplaceAll(out[i].Value, repl, line)
		}
	}
	return out
}

// joinOutputs is the output of several statements run in turn, when every
// one is known text (at most 16): their texts concatenated.
func joinOutputs(outs []output) *output {
	if len(outs) > 16 {
		return nil
	}
	j := output{static: true, data: -1}
	for _, o := range outs {
		if !o.static || o.shellEcho || len(j.text)+len(o.text) > maxSubstText {
			return nil
		}
		j.text += o.text
		j.srcs = append(j.srcs, o.srcs...)
		j.decoded = joinDecoded(j.decoded, o.decoded)
	}
	return &j
}

// printfInt formats an integer argument of printf %o %x %X %i %u.
func printfInt(conv byte, v string) (string, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 0, 64)
	if err != nil {
		return "", false
	}
	switch conv {
	case 'o':
		return strconv.FormatInt(n, 8), true
	case 'x':
		return strconv.FormatInt(n, 16), true
	case 'X':
		return strings.ToUpper(strconv.FormatInt(n, 16)), true
	}
	return strconv.FormatInt(n, 10), true
}

// joinSep is what "$*" and "${a[*]}" put between values: IFS's first
// character (none when IFS is empty).
func (s *scope) joinSep() (string, bool) {
	ifs, ok := s.ifs()
	if !ok {
		return "", false
	}
	return ifs[:min(1, len(ifs))], true
}

// procStdin is the stdin of < <(cmd): cmd's output, known or not (then it
// names cmd as its source); nil for any other target.
func procStdin(wd *syntax.Word, t arg) *input {
	if wd == nil || len(wd.Parts) != 1 {
		return nil
	}
	if _, ok := wd.Parts[0].(*syntax.ProcSubst); !ok {
		return nil
	}
	if t.code != nil && t.code.static {
		return &input{text: t.code.text, static: true, srcs: t.code.srcs, dataIdx: -1, decoded: t.code.decoded}
	}
	return &input{srcs: t.srcs, dataIdx: -1}
}

// printfVar assigns printf -v NAME FORMAT ARGS... when every word is
// static: NAME is the formatted text.
func (w *walker) printfVar(sc *scope, args []arg) {
	if len(args) < 3 || !args[0].Static || args[0].Value != "-v" || !args[1].Static || !isName(args[1].Value) {
		return
	}
	if text, ok := echoText("printf", args[2:]); ok {
		w.expanded(len(text))
		sc.setAssign(Assign{Name: args[1].Value, Value: Word{Value: text, Static: true}})
	}
}
