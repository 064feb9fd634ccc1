package programs

import "strings"

// PrintsArgs reports the programs whose output is their own arguments
// (echo, printf, print): a credential among the arguments is printed, into
// the transcript when nothing after it takes the output.
func PrintsArgs(name string) bool {
	switch name {
	case "echo", "printf", "print", "say":
		return true
	}
	return false
}

// NamesOnly reports a program told to print at most the names (keys) or a
// count of what it reads, never a value: grep -q/-c/-l, cut -d= -f1,
// awk -F= '{print $1}', sed 's/=.*//', jq 'keys', wc. `cut -d= -f1 .env`
// lists the variables a .env sets, and `env | cut -d= -f1` the
// environment's names: no credential reaches the output.
func NamesOnly(name string, args []string) bool {
	p := Lookup(name)
	canon := name
	if p != nil {
		canon = p.Name
	}
	switch {
	case canon == "stat" && (name == "wc" || name == "du"):
		return true
	case canon == "grep":
		for _, a := range args {
			switch {
			case a == "--quiet" || a == "--silent" || a == "--count" || a == "--files-with-matches" || a == "--files-without-match":
				return true
			case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "qclL") &&
				!strings.ContainsAny(a[1:], "efmABCd"): // -qi, -cE; not a cluster ending in a valued option
				return true
			}
		}
	case name == "cut":
		delim, fields := "", ""
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-d" || a == "--delimiter" || a == "-f" || a == "--fields":
				if i+1 < len(args) {
					if a[1] == 'd' || a == "--delimiter" {
						delim = args[i+1]
					} else {
						fields = args[i+1]
					}
					i++
				}
			case strings.HasPrefix(a, "--delimiter="):
				delim = a[len("--delimiter="):]
			case strings.HasPrefix(a, "--fields="):
				fields = a[len("--fields="):]
			case strings.HasPrefix(a, "-d"):
				delim = a[2:]
			case strings.HasPrefix(a, "-f"):
				fields = a[2:]
			}
		}
		return delim == "=" && fields == "1"
	case p != nil && p.Lang == "awk":
		sep, prog := "", ""
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-F" && i+1 < len(args):
				sep = args[i+1]
				i++
			case strings.HasPrefix(a, "-F"):
				sep = a[2:]
			case !strings.HasPrefix(a, "-") && prog == "":
				prog = a
			}
		}
		return sep == "=" && strings.Join(strings.Fields(prog), "") == "{print$1}"
	case name == "sed":
		for _, a := range args {
			if s := strings.TrimSuffix(strings.TrimSuffix(a, "g"), "/"); s == "s/=.*/" || s == "s/=.*$/" {
				return true
			}
		}
	case canon == "jq":
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			f := strings.Join(strings.Fields(a), "")
			if i := strings.LastIndexByte(f, '|'); i >= 0 {
				f = f[i+1:]
			}
			switch f {
			case "keys", "keys[]", "keys_unsorted", "keys_unsorted[]", "length":
				return true
			}
			return false
		}
	}
	return false
}
