package programs

import "strings"

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
}

// S builds a Spec.
func S(short string, long ...string) Spec { return Spec{Short: short, Long: long} }

// TakesLong reports a long option (without "--") that takes a value.
func (s Spec) TakesLong(name string) bool { return s.longTakes(name) }

func (s Spec) longTakes(name string) bool {
	for _, l := range s.Long {
		if l == name {
			return true
		}
	}
	return false
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
				if strings.IndexByte(s.Short, c) >= 0 {
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
				i++
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
			if strings.Contains(s.Short, ch) {
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
