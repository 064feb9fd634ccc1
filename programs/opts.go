package programs

import (
	"maps"
	"slices"
	"strings"
)

// Spec is an option grammar: which options take a value. It is all the
// passes need: a value mistaken for an operand only ever adds operands to
// judge, never hides one.
type Spec struct {
	Short string   // short options that take a value ("C", "o")
	Long  []string // long options that take a value, without "--" ("git-dir")
	// Optional are short options whose value is optional and only ever
	// stuck to the letter (git commit -S[KEYID], -u[MODE]): the next word
	// is never their value, so `-S --no-verify` keeps --no-verify.
	Optional string
	// Two are long options that take two words (bwrap --bind SRC DEST).
	Two []string
	// Code are the options whose value is code, by how it is read (the
	// Code* kinds: a command line, a file a language runs, ...): a rule
	// reads the kind, never the option's name. They take a value; a
	// multi-letter key is also read with one dash (go -toolexec).
	Code map[string]string
}

// S builds a Spec.
func S(short string, long ...string) Spec { return Spec{Short: short, Long: long} }

// Runs returns s with code options: pairs of an option ("x" or a long
// name) and how its value is read (RunsShell, ...).
func (s Spec) Runs(kv ...string) Spec {
	c := make(map[string]string, len(s.Code)+len(kv)/2)
	maps.Copy(c, s.Code)
	for i := 0; i+1 < len(kv); i += 2 {
		c[kv[i]] = kv[i+1]
	}
	s.Code = c
	return s
}

// TakesLong reports a long option (without "--") that takes a value.
func (s Spec) TakesLong(name string) bool { return s.longTakes(name) }

func (s Spec) longTakes(name string) bool {
	if _, ok := s.Code[name]; ok && len(name) > 1 {
		return true
	}
	return slices.Contains(s.Long, name) || slices.Contains(s.Two, name)
}

// TakesShort reports a short option that takes a value.
func (s Spec) TakesShort(c byte) bool { return s.shortTakes(c) }

// shortTakes reports a short option that takes a value.
func (s Spec) shortTakes(c byte) bool {
	if strings.IndexByte(s.Short, c) >= 0 {
		return true
	}
	_, ok := s.Code[string(c)]
	return ok
}

// width is how many words the long option name takes after its own.
func (s Spec) width(name string) int {
	if slices.Contains(s.Two, name) {
		return 2
	}
	if s.longTakes(name) {
		return 1
	}
	return 0
}

// Opts is a command line split GNU style into options and operands.
type Opts struct {
	Short map[byte]bool
	Long  map[string]string // "--force" -> "", "--git-dir=x" -> "x"
	Pos   []string          // operands, in order
	// AfterDash are the operands given after "--".
	AfterDash []string
	Values    map[string]string // value of short options that take one ("C" -> dir)
}

// Parse splits args with the grammar s. Options and operands may mix (GNU
// permutation); "--" ends the options.
func Parse(args []string, s Spec) Opts {
	o := Opts{Short: map[byte]bool{}, Long: map[string]string{}, Values: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			o.AfterDash = append(o.AfterDash, args[i+1:]...)
			o.Pos = append(o.Pos, args[i+1:]...)
			return o
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			if !hasVal && s.longTakes(name) && i+1 < len(args) {
				i++
				val = args[i]
				if slices.Contains(s.Two, name) && i+1 < len(args) {
					i++
				}
			}
			o.Long[name] = val
		case len(a) > 1 && a[0] == '-':
			for k := 1; k < len(a); k++ {
				c := a[k]
				o.Short[c] = true
				if strings.IndexByte(s.Optional, c) >= 0 {
					o.Values[string(c)] = a[k+1:]
					break
				}
				if s.shortTakes(c) {
					v := a[k+1:]
					if v == "" && i+1 < len(args) {
						i++
						v = args[i]
					}
					o.Values[string(c)] = v
					break
				}
			}
		default:
			o.Pos = append(o.Pos, a)
		}
	}
	return o
}

// Has reports a short option or one of the long ones.
func (o Opts) Has(short byte, long ...string) bool {
	if short != 0 && o.Short[short] {
		return true
	}
	for _, l := range long {
		if _, ok := o.Long[l]; ok {
			return true
		}
	}
	return false
}

// Value is the value of a short option or the first long one given.
func (o Opts) Value(short byte, long ...string) string {
	if short != 0 {
		if v, ok := o.Values[string(short)]; ok && v != "" {
			return v
		}
	}
	for _, l := range long {
		if v := o.Long[l]; v != "" {
			return v
		}
	}
	return ""
}

// LongPrefix reports a long option starting with p ("delete" matches
// --delete-after).
func (o Opts) LongPrefix(p string) bool {
	for k := range o.Long {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// Skip scans the leading options of a command line as a runner does before
// the command it runs: it stops at the first operand, after "--", or at a
// word that is not static (it may be the command itself). word(i) gives
// the i-th word and whether it is static. It returns the index of the
// first operand and the options seen ("x" or "long" -> value).
func Skip(n int, word func(i int) (string, bool), s Spec) (int, map[string]string) {
	flags := map[string]string{}
	i := 0
	for i < n {
		v, static := word(i)
		if !static || len(v) < 2 || v[0] != '-' {
			return i, flags
		}
		if v == "--" {
			return i + 1, flags
		}
		if strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(v[2:], "=")
			if !hasVal && s.longTakes(name) && i+1 < n {
				val, _ = word(i + 1)
				i += s.width(name)
			}
			flags[name] = val
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			ch := v[j : j+1]
			if strings.Contains(s.Optional, ch) {
				flags[ch] = v[j+1:]
				break
			}
			if s.shortTakes(ch[0]) {
				if j+1 < len(v) {
					flags[ch] = v[j+1:]
				} else if i+1 < n {
					flags[ch], _ = word(i + 1)
					i++
				}
				break
			}
			flags[ch] = ""
		}
		i++
	}
	return i, flags
}

// How the value of a code option (Spec.Code) is read: a command line, or
// code of a language as CodeShell runs it (RunsPerl).
const (
	RunsShell  = "shell"    // a command line: a program and its arguments, or shell text
	RunsRemote = "remote"   // a command line the other host runs (rsync --rsync-path)
	RunsPerl   = "perl"     // Perl code (latexmk -e)
	RunsLua    = "lua-file" // a Lua script file (pandoc --lua-filter)
	RunsFilter = "filter"   // EXTS:CMD,... : a command per file type (ugrep --filter)
)

// codeText is the shell text a code value of kind amounts to.
func codeText(kind, v string) string {
	switch kind {
	case RunsShell:
		return v
	case RunsLua:
		return "lua " + shellQuote(v)
	case RunsRemote:
		if remoteSelf(v) {
			return "" // --rsync-path='sudo rsync': the other side's rsync, as root
		}
	case RunsFilter:
		var lines []string
		for _, f := range strings.Split(v, ",") {
			if _, cmd, ok := strings.Cut(f, ":"); ok && strings.TrimSpace(cmd) != "" {
				lines = append(lines, cmd)
			}
		}
		return strings.Join(lines, "\n")
	}
	if t, ok := CodeShell(kind, v); ok {
		return t // perl -e CODE
	}
	return v
}

// remoteSelf: a remote program path that is rsync itself, run through a
// privilege runner or not (sudo rsync, /usr/local/bin/rsync): the sync
// asked for, run as another user there.
func remoteSelf(v string) bool {
	f := strings.Fields(v)
	for len(f) > 0 {
		p := Lookup(baseOf(f[0]))
		if !p.Is(Privilege) {
			break
		}
		k := skipOpts(f[1:], p.Opts)
		f = f[1+k:]
	}
	return len(f) == 1 && baseOf(f[0]) == "rsync"
}

// OptionCode returns the code the options of sp typed as code hold in
// args (go build -toolexec CMD, split --filter CMD, scp -S PROG); via names
// the program, for explanations.
func OptionCode(args []string, sp Spec, via string) []Code {
	if len(sp.Code) == 0 {
		return nil
	}
	var out []Code
	add := func(at int, name, v string) {
		kind := sp.Code[name]
		if t := codeText(kind, v); strings.TrimSpace(t) != "" {
			out = append(out, Code{Arg: at, Text: t, Via: via + " " + name, Remote: kind == RunsRemote})
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			if a == "--" {
				break
			}
			continue
		}
		long := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		name, val, hasVal := strings.Cut(long, "=")
		if _, ok := sp.Code[name]; ok && (len(name) > 1 || hasVal && strings.HasPrefix(a, "--")) {
			switch {
			case hasVal:
				add(i, name, val)
			case i+1 < len(args):
				add(i+1, name, args[i+1])
				i++
			}
			continue
		}
		if strings.HasPrefix(a, "--") {
			i += sp.width(name) * b2i(!hasVal)
			continue
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			if strings.IndexByte(sp.Optional, c) >= 0 {
				break
			}
			if !sp.shortTakes(c) {
				continue
			}
			v, at := a[k+1:], i
			if v == "" && i+1 < len(args) {
				i++
				v, at = args[i], i
			}
			if _, ok := sp.Code[string(c)]; ok {
				add(at, string(c), v)
			}
			break
		}
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
