package judge

import "strings"

// opts is a command line split GNU-style into flags and operands. It knows
// which options take a value only from what the caller says, which is all
// the rules need: a value mistaken for an operand only ever adds operands
// to judge.
type opts struct {
	short map[byte]bool
	long  map[string]string // "--force" -> "", "--git-dir=x" -> "x"
	pos   []string          // operands, in order
	// posAfterDash are the operands given after "--".
	posAfterDash []string
	values       map[string]string // value of short options that take one ("C" -> dir)
}

// parseOpts splits args. shortVal lists the short options that take a
// value ("C", "c"); longVal the long ones ("git-dir").
func parseOpts(args []string, shortVal string, longVal ...string) opts {
	o := opts{short: map[byte]bool{}, long: map[string]string{}, values: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			o.posAfterDash = append(o.posAfterDash, args[i+1:]...)
			o.pos = append(o.pos, args[i+1:]...)
			return o
		case strings.HasPrefix(a, "--"):
			name, val, has := strings.Cut(a[2:], "=")
			if !has && contains(longVal, name) && i+1 < len(args) {
				i++
				val = args[i]
			}
			o.long[name] = val
		case len(a) > 1 && a[0] == '-':
			for k := 1; k < len(a); k++ {
				c := a[k]
				o.short[c] = true
				if strings.IndexByte(shortVal, c) >= 0 {
					v := a[k+1:]
					if v == "" && i+1 < len(args) {
						i++
						v = args[i]
					}
					o.values[string(c)] = v
					break
				}
			}
		default:
			o.pos = append(o.pos, a)
		}
	}
	return o
}

func (o opts) has(short byte, long ...string) bool {
	if short != 0 && o.short[short] {
		return true
	}
	for _, l := range long {
		if _, ok := o.long[l]; ok {
			return true
		}
	}
	return false
}

// longPrefix reports a long option starting with p ("delete" matches
// --delete-after).
func (o opts) longPrefix(p string) bool {
	for k := range o.long {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsAny(list []string, want ...string) bool {
	for _, w := range want {
		if contains(list, w) {
			return true
		}
	}
	return false
}
