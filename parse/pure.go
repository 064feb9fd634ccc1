package parse

import (
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Pure programs over known input (issue 12 class 8). A small, fixed set of
// deterministic text filters whose output depends only on their arguments
// and stdin: rev, tr, base64/base32/basenc, xxd -p/-r -p, openssl base64,
// cut, sed s///and y///, head, tail, tac, gzip -d/bzip2 -d. When the input
// is known text (a pipe from echo/printf/cat <<EOF, a here-string, another
// pure program) and every argument is static, the output is computed, with
// sizes capped: input and output at maxPure bytes. An option the evaluator
// does not know, a file operand or a failure leaves the output unknown, as
// before.

const maxPure = 64 << 10

// pure computes c's output when c is one of the pure programs over known
// stdin.
func (w *walker) pure(c *cmd, name string) (output, bool) {
	if f, ok := argFilters[name]; ok && allStatic(c.argv[1:]) {
		// dirname "$PWD": its output is a function of its arguments alone
		args := make([]string, len(c.argv)-1)
		for i, a := range c.argv[1:] {
			args[i] = a.Value
		}
		if text, ok := f(args); ok && len(text) <= maxPure {
			return output{text: text, static: true, srcs: []string{name}, data: -1}, true
		}
		return output{}, false
	}
	f, ok := pureFilters[name]
	if !ok || c.stdin == nil || !c.stdin.static || c.stdin.file || len(c.stdin.text) > maxPure || !allStatic(c.argv[1:]) {
		return output{}, false
	}
	args := make([]string, len(c.argv)-1)
	for i, a := range c.argv[1:] {
		args[i] = a.Value
	}
	text, ok := f(args, c.stdin.text)
	if !ok || len(text) > maxPure {
		return output{}, false
	}
	w.expanded(len(text))
	out := output{text: text, static: true, srcs: []string{name}, data: -1, decoded: c.stdin.decoded}
	if decodes(name, args) {
		out.decoded = joinDecoded(out.decoded, name)
	}
	return out, true
}

type filter func(args []string, in string) (string, bool)

// argFilters compute their output from their arguments: dirname and
// basename (GNU: several operands, -a, -s SUFFIX, -z not known).
var argFilters = map[string]func(args []string) (string, bool){
	"dirname": func(args []string) (string, bool) {
		var b strings.Builder
		for _, a := range args {
			if strings.HasPrefix(a, "-") || a == "" {
				return "", false
			}
			b.WriteString(path.Dir(a) + "\n")
		}
		return b.String(), b.Len() > 0
	},
	"basename": func(args []string) (string, bool) {
		if len(args) == 0 || len(args) > 2 || strings.HasPrefix(args[0], "-") || args[0] == "" {
			return "", false
		}
		b := path.Base(args[0])
		if len(args) == 2 && args[1] != b {
			b = strings.TrimSuffix(b, args[1])
		}
		return b + "\n", true
	},
}

var pureFilters map[string]filter

func init() {
	pureFilters = map[string]filter{
		"rev": revFilter, "tac": tacFilter, "tr": trFilter,
		"base64": baseFilter("base64"), "base32": baseFilter("base32"), "basenc": baseFilter(""),
		"xxd": xxdFilter, "openssl": opensslFilter, "cut": cutFilter, "sed": sedFilter,
		"head": headTail(false), "tail": headTail(true),
		"gzip": unzipFilter(true), "gunzip": unzipFilter(false), "zcat": unzipFilter(false),
		"bzip2": bunzipFilter(true), "bunzip2": bunzipFilter(false), "bzcat": bunzipFilter(false),
	}
}

// lines splits text into lines, each without its newline; last reports
// whether the text ended with one.
func lines(in string) (ls []string, nl bool) {
	nl = strings.HasSuffix(in, "\n")
	in = strings.TrimSuffix(in, "\n")
	if in == "" && nl {
		return []string{""}, true
	}
	if in == "" {
		return nil, false
	}
	return strings.Split(in, "\n"), nl
}

func unlines(ls []string, nl bool) string {
	s := strings.Join(ls, "\n")
	if nl && len(ls) > 0 {
		s += "\n"
	}
	return s
}

func revFilter(args []string, in string) (string, bool) {
	if len(args) > 0 {
		return "", false // a file operand or an option
	}
	ls, nl := lines(in)
	for i, l := range ls {
		rs := []rune(l)
		for a, b := 0, len(rs)-1; a < b; a, b = a+1, b-1 {
			rs[a], rs[b] = rs[b], rs[a]
		}
		ls[i] = string(rs)
	}
	return unlines(ls, nl), true
}

func tacFilter(args []string, in string) (string, bool) {
	if len(args) > 0 {
		return "", false
	}
	ls, _ := lines(in)
	for a, b := 0, len(ls)-1; a < b; a, b = a+1, b-1 {
		ls[a], ls[b] = ls[b], ls[a]
	}
	return unlines(ls, true), true
}

// trSet expands a tr set: ranges, escapes and the common classes.
func trSet(s string) ([]byte, bool) {
	var out []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '[' && strings.HasPrefix(s[i:], "[:"):
			end := strings.Index(s[i:], ":]")
			if end < 0 {
				return nil, false
			}
			cls := s[i+2 : i+end]
			i += end + 1
			var lo, hi []byte
			switch cls {
			case "upper":
				lo, hi = []byte{'A'}, []byte{'Z'}
			case "lower":
				lo, hi = []byte{'a'}, []byte{'z'}
			case "digit":
				lo, hi = []byte{'0'}, []byte{'9'}
			case "alpha":
				lo, hi = []byte{'A', 'a'}, []byte{'Z', 'z'}
			case "alnum":
				lo, hi = []byte{'0', 'A', 'a'}, []byte{'9', 'Z', 'z'}
			case "space":
				out = append(out, ' ', '\t', '\n', '\r', '\v', '\f')
				continue
			case "blank":
				out = append(out, ' ', '\t')
				continue
			default:
				return nil, false
			}
			for k := range lo {
				for b := lo[k]; b <= hi[k]; b++ {
					out = append(out, b)
				}
			}
			continue
		case c == '[':
			return nil, false // [c*n], [=c=]: not modelled
		case c == '\\' && i+1 < len(s):
			i++
			switch e := s[i]; e {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'r':
				c = '\r'
			case '\\':
				c = '\\'
			default:
				if e >= '0' && e <= '7' {
					j := i
					for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
						j++
					}
					n, _ := strconv.ParseUint(s[i:j], 8, 8)
					c, i = byte(n), j-1
				} else {
					c = e
				}
			}
		}
		if i+2 < len(s) && s[i+1] == '-' {
			hi := s[i+2]
			if hi < c {
				return nil, false
			}
			for b := int(c); b <= int(hi); b++ {
				out = append(out, byte(b))
			}
			i += 2
			continue
		}
		out = append(out, c)
	}
	return out, len(out) <= 4096
}

func trFilter(args []string, in string) (string, bool) {
	del, squeeze := false, false
	var sets []string
	for i, a := range args {
		switch {
		case a == "--":
			sets = append(sets, args[i+1:]...)
			goto parsed
		case a == "-d" || a == "--delete":
			del = true
		case a == "-s" || a == "--squeeze-repeats":
			squeeze = true
		case a == "-ds" || a == "-sd":
			del, squeeze = true, true
		case len(a) > 1 && a[0] == '-':
			return "", false // -c, -t: not modelled
		default:
			sets = append(sets, a)
		}
	}
parsed:
	if len(sets) == 0 || len(sets) > 2 {
		return "", false
	}
	s1, ok := trSet(sets[0])
	if !ok {
		return "", false
	}
	var s2 []byte
	if len(sets) == 2 {
		if s2, ok = trSet(sets[1]); !ok || len(s2) == 0 {
			return "", false
		}
	}
	var m [256]int
	for i := range m {
		m[i] = i
	}
	in1 := [256]bool{}
	for _, b := range s1 {
		in1[b] = true
	}
	switch {
	case del && len(s2) > 0 && !squeeze, !del && len(s2) == 0 && !squeeze:
		return "", false
	case !del && len(s2) > 0:
		for i, b := range s1 {
			m[b] = int(s2[min(i, len(s2)-1)]) // GNU pads SET2 with its last byte
		}
	}
	sq := [256]bool{}
	if squeeze {
		last := s1
		if len(s2) > 0 {
			last = s2
		}
		for _, b := range last {
			sq[b] = true
		}
	}
	var out []byte
	for i := 0; i < len(in); i++ {
		b := in[i]
		if del && in1[b] {
			continue
		}
		o := byte(m[b])
		if squeeze && sq[o] && len(out) > 0 && out[len(out)-1] == o {
			continue
		}
		out = append(out, o)
	}
	return string(out), true
}

// baseFilter is base64/base32/basenc: decode (-d, --decode, -D; -i skips
// garbage) or encode (-w N wraps, 76 by default).
func baseFilter(kind string) filter {
	return func(args []string, in string) (string, bool) {
		dec, garbage, wrap := false, false, 76
		k := kind
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-d" || a == "--decode" || a == "-D":
				dec = true
			case a == "-i" || a == "--ignore-garbage":
				garbage = true
			case a == "-di" || a == "-id":
				dec, garbage = true, true
			case a == "-w" && i+1 < len(args):
				i++
				n, err := strconv.Atoi(args[i])
				if err != nil {
					return "", false
				}
				wrap = n
			case strings.HasPrefix(a, "--wrap="), strings.HasPrefix(a, "-w"):
				n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(a, "--wrap="), "-w"))
				if err != nil {
					return "", false
				}
				wrap = n
			case a == "--base64" || a == "--base32" || a == "--base64url" || a == "--base16":
				k = a[2:]
			default:
				return "", false
			}
		}
		var enc interface {
			DecodeString(string) ([]byte, error)
			EncodeToString([]byte) string
		}
		alphabet := ""
		switch k {
		case "base64":
			enc, alphabet = base64.StdEncoding, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
		case "base64url":
			enc, alphabet = base64.URLEncoding, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_="
		case "base32":
			enc, alphabet = base32.StdEncoding, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567="
		case "base16":
			if !dec {
				return strings.ToUpper(hex.EncodeToString([]byte(in))) + "\n", true
			}
			b, err := hex.DecodeString(strings.Join(strings.Fields(in), ""))
			return string(b), err == nil
		default:
			return "", false
		}
		if !dec {
			s := enc.EncodeToString([]byte(in))
			if wrap > 0 {
				var b strings.Builder
				for len(s) > wrap {
					b.WriteString(s[:wrap] + "\n")
					s = s[wrap:]
				}
				s = b.String() + s
			}
			return s + "\n", true
		}
		clean := strings.Map(func(r rune) rune {
			switch {
			case r == '\n' || r == '\r' || r == ' ' || r == '\t':
				return -1
			case garbage && !strings.ContainsRune(alphabet, r):
				return -1
			}
			return r
		}, in)
		b, err := enc.DecodeString(clean)
		if err != nil && (k == "base64" || k == "base64url") {
			// GNU base64 accepts missing padding at the end
			raw := base64.RawStdEncoding
			if k == "base64url" {
				raw = base64.RawURLEncoding
			}
			b, err = raw.DecodeString(strings.TrimRight(clean, "="))
		}
		return string(b), err == nil
	}
}

// xxdFilter: xxd -p (plain hex, 30 bytes a line; -c N, -l N) and xxd -r -p.
func xxdFilter(args []string, in string) (string, bool) {
	rev, plain, cols, limit := false, false, 30, -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-r", "-revert":
			rev = true
		case "-p", "-ps", "-postscript", "-plain":
			plain = true
		case "-rp", "-pr", "-rps":
			rev, plain = true, true
		case "-c", "-cols", "-l", "-len":
			if i+1 >= len(args) {
				return "", false
			}
			i++
			n, err := strconv.Atoi(args[i])
			if err != nil || n < 0 {
				return "", false
			}
			if a == "-c" || a == "-cols" {
				cols = max(n, 1)
			} else {
				limit = n
			}
		default:
			return "", false
		}
	}
	if !plain {
		return "", false // the dump format: not modelled
	}
	if rev {
		h := strings.Map(func(r rune) rune {
			if isHex(byte(r)) && r < 0x80 {
				return r
			}
			return -1
		}, in)
		if len(h)%2 == 1 {
			h = h[:len(h)-1]
		}
		b, err := hex.DecodeString(h)
		return string(b), err == nil
	}
	if limit >= 0 && limit < len(in) {
		in = in[:limit]
	}
	var b strings.Builder
	for i := 0; i < len(in); i += cols {
		b.WriteString(hex.EncodeToString([]byte(in[i:min(len(in), i+cols)])) + "\n")
	}
	return b.String(), true
}

// opensslFilter: openssl base64|enc -base64 [-d] [-A].
func opensslFilter(args []string, in string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	dec, oneLine, b64 := false, false, args[0] == "base64"
	if args[0] != "base64" && args[0] != "enc" {
		return "", false
	}
	for _, a := range args[1:] {
		switch a {
		case "-d", "-decode":
			dec = true
		case "-A":
			oneLine = true
		case "-base64", "-a":
			b64 = true
		default:
			return "", false // a cipher, a key, a file: not pure
		}
	}
	if !b64 {
		return "", false
	}
	if !dec {
		s := base64.StdEncoding.EncodeToString([]byte(in))
		if oneLine {
			return s + "\n", true
		}
		var b strings.Builder
		for len(s) > 64 {
			b.WriteString(s[:64] + "\n")
			s = s[64:]
		}
		return b.String() + s + "\n", true
	}
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(in), ""))
	return string(b), err == nil
}

// cutFilter: cut -c|-b LIST, cut -d D -f LIST [-s].
func cutFilter(args []string, in string) (string, bool) {
	mode, list, delim, only := "", "", "\t", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func(flag string) (string, bool) {
			if a == flag {
				if i+1 >= len(args) {
					return "", false
				}
				i++
				return args[i], true
			}
			return a[len(flag):], true
		}
		var ok bool
		switch {
		case strings.HasPrefix(a, "-c"), strings.HasPrefix(a, "-b"), strings.HasPrefix(a, "-f"):
			mode = a[1:2]
			if list, ok = val(a[:2]); !ok {
				return "", false
			}
		case strings.HasPrefix(a, "-d"):
			if delim, ok = val("-d"); !ok || len(delim) != 1 {
				return "", false
			}
		case a == "-s" || a == "--only-delimited":
			only = true
		default:
			return "", false
		}
	}
	ranges, ok := cutList(list)
	if mode == "" || !ok {
		return "", false
	}
	sel := func(n, i int) bool { // 1-based i of n
		for _, r := range ranges {
			if i >= r[0] && (r[1] == 0 || i <= r[1]) {
				return true
			}
		}
		return false
	}
	ls, nl := lines(in)
	var out []string
	for _, l := range ls {
		switch mode {
		case "c", "b":
			var b strings.Builder
			for i := 0; i < len(l); i++ {
				if sel(len(l), i+1) {
					b.WriteByte(l[i])
				}
			}
			out = append(out, b.String())
		case "f":
			if !strings.Contains(l, delim) {
				if !only {
					out = append(out, l)
				}
				continue
			}
			fs := strings.Split(l, delim)
			var keep []string
			for i, f := range fs {
				if sel(len(fs), i+1) {
					keep = append(keep, f)
				}
			}
			out = append(out, strings.Join(keep, delim))
		}
	}
	return unlines(out, nl || len(out) > 0), true
}

// cutList reads N, N-M, N-, -M, comma-separated; an open end is 0.
func cutList(s string) ([][2]int, bool) {
	var out [][2]int
	for _, part := range strings.Split(s, ",") {
		lo, hi, rng := strings.Cut(part, "-")
		a, b := 1, 0
		var err error
		if lo != "" {
			if a, err = strconv.Atoi(lo); err != nil || a < 1 {
				return nil, false
			}
		}
		if !rng {
			b = a
		} else if hi != "" {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, false
			}
		}
		out = append(out, [2]int{a, b})
	}
	return out, len(out) > 0
}

// headTail: head|tail -n N / -N / -c N, tail -n +N / -c +N.
func headTail(tail bool) filter {
	return func(args []string, in string) (string, bool) {
		bytesMode, n, from := false, 10, false
		for i := 0; i < len(args); i++ {
			a := args[i]
			v := ""
			switch {
			case a == "-n" || a == "-c":
				if i+1 >= len(args) {
					return "", false
				}
				bytesMode = a == "-c"
				i++
				v = args[i]
			case strings.HasPrefix(a, "-n") || strings.HasPrefix(a, "-c"):
				bytesMode, v = a[1] == 'c', a[2:]
			case len(a) > 1 && a[0] == '-' && isDigits(a[1:]):
				v = a[1:]
			default:
				return "", false
			}
			if strings.HasPrefix(v, "+") && tail {
				from, v = true, v[1:]
			}
			k, err := strconv.Atoi(v)
			if err != nil || k < 0 {
				return "", false // head -n -N: all but the last N; not modelled
			}
			n = k
		}
		if bytesMode {
			switch {
			case from:
				return in[min(len(in), max(n-1, 0)):], true
			case tail:
				return in[max(0, len(in)-n):], true
			}
			return in[:min(n, len(in))], true
		}
		ls, nl := lines(in)
		switch {
		case from:
			ls = ls[min(len(ls), max(n-1, 0)):]
		case tail:
			ls = ls[max(0, len(ls)-n):]
		default:
			if n < len(ls) {
				ls, nl = ls[:n], true
			}
		}
		return unlines(ls, nl), true
	}
}

// unzipFilter: gzip -d (gunzip, zcat), with -c/-f/-q/-n allowed.
func unzipFilter(needD bool) filter {
	return func(args []string, in string) (string, bool) {
		if !decompressArgs(args, needD) {
			return "", false
		}
		r, err := gzip.NewReader(strings.NewReader(in))
		if err != nil {
			return "", false
		}
		return readCapped(r)
	}
}

func bunzipFilter(needD bool) filter {
	return func(args []string, in string) (string, bool) {
		if !decompressArgs(args, needD) {
			return "", false
		}
		return readCapped(bzip2.NewReader(strings.NewReader(in)))
	}
}

func decompressArgs(args []string, needD bool) bool {
	d := !needD
	for _, a := range args {
		switch a {
		case "-d", "--decompress", "--uncompress", "-dc", "-cd":
			d = true
		case "-c", "--stdout", "-f", "-q", "-n", "--force", "--quiet":
		default:
			return false
		}
	}
	return d
}

// readCapped reads at most maxPure bytes; more (a bomb) is unknown.
func readCapped(r io.Reader) (string, bool) {
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, maxPure+1))
	if err != nil || n > maxPure {
		return "", false
	}
	return buf.String(), true
}

// sedFilter: scripts of s/RE/REP/FLAGS (flags g, a number, I) and
// y/SRC/DST/ commands, separated by ";" or newlines or given by several
// -e; -E/-r for extended expressions. Addresses, other commands, -n, -i,
// files: unknown.
func sedFilter(args []string, in string) (string, bool) {
	ere := false
	var scripts []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-E" || a == "-r" || a == "--regexp-extended":
			ere = true
		case a == "-e" || a == "--expression":
			if i+1 >= len(args) {
				return "", false
			}
			i++
			scripts = append(scripts, args[i])
		case strings.HasPrefix(a, "--expression="):
			scripts = append(scripts, a[len("--expression="):])
		case strings.HasPrefix(a, "-"):
			return "", false
		case len(scripts) == 0:
			scripts = append(scripts, a)
		default:
			return "", false // a file operand
		}
	}
	if len(scripts) == 0 {
		return "", false
	}
	var cmds []sedCmd
	for _, s := range scripts {
		cs, ok := parseSed(s, ere)
		if !ok {
			return "", false
		}
		cmds = append(cmds, cs...)
	}
	ls, nl := lines(in)
	for i, l := range ls {
		for _, c := range cmds {
			l = c.apply(l)
			if len(l) > maxPure {
				return "", false
			}
		}
		ls[i] = l
	}
	return unlines(ls, nl), true
}

type sedCmd struct {
	re       *regexp.Regexp
	rep      string // with \1..\9 as ${1}.., & as ${0}
	global   bool
	nth      int
	from, to []rune // y
}

func (c sedCmd) apply(l string) string {
	if c.re == nil {
		m := map[rune]rune{}
		for i, r := range c.from {
			m[r] = c.to[i]
		}
		return strings.Map(func(r rune) rune {
			if t, ok := m[r]; ok {
				return t
			}
			return r
		}, l)
	}
	var b []byte
	last, k := 0, 0
	for _, m := range c.re.FindAllStringSubmatchIndex(l, -1) {
		k++
		if c.global && k < c.nth || !c.global && k != max(c.nth, 1) {
			continue
		}
		b = append(b, l[last:m[0]]...)
		b = c.re.ExpandString(b, c.rep, l, m)
		last = m[1]
		if !c.global {
			break
		}
	}
	return string(append(b, l[last:]...))
}

// parseSed reads the commands of one script.
func parseSed(s string, ere bool) ([]sedCmd, bool) {
	var out []sedCmd
	for len(s) > 0 && len(out) < 16 {
		s = strings.TrimLeft(s, " \t\n;")
		if s == "" {
			break
		}
		if len(s) < 2 || s[0] != 's' && s[0] != 'y' {
			return nil, false
		}
		op, d := s[0], s[1]
		if d == '\\' || d == '\n' || d == ' ' {
			return nil, false
		}
		parts, rest, ok := sedParts(s[2:], d)
		if !ok {
			return nil, false
		}
		if op == 'y' {
			f, t := []rune(parts[0]), []rune(parts[1])
			if len(f) != len(t) {
				return nil, false
			}
			out = append(out, sedCmd{from: f, to: t})
			s = rest
			continue
		}
		flags := rest
		if k := strings.IndexAny(rest, ";\n"); k >= 0 {
			flags, rest = rest[:k], rest[k:]
		} else {
			rest = ""
		}
		c := sedCmd{}
		ci := false
		for _, f := range strings.TrimSpace(flags) {
			switch {
			case f == 'g':
				c.global = true
			case f == 'I' || f == 'i':
				ci = true
			case f >= '0' && f <= '9':
				c.nth = c.nth*10 + int(f-'0')
			default:
				return nil, false
			}
		}
		expr, ok := sedRegexp(parts[0], ere)
		if !ok {
			return nil, false
		}
		if ci {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, false
		}
		c.re = re
		if c.rep, ok = sedReplacement(parts[1]); !ok {
			return nil, false
		}
		out = append(out, c)
		s = rest
	}
	return out, len(out) > 0 && len(out) < 16
}

// sedParts splits "RE<d>REP<d>rest" on the unescaped delimiter d.
func sedParts(s string, d byte) ([2]string, string, bool) {
	var parts [2]string
	var b strings.Builder
	k := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			if s[i+1] == d {
				b.WriteByte(d)
			} else {
				b.WriteByte(c)
				b.WriteByte(s[i+1])
			}
			i++
			continue
		}
		if c == d {
			parts[k] = b.String()
			b.Reset()
			k++
			if k == 2 {
				return parts, s[i+1:], true
			}
			continue
		}
		b.WriteByte(c)
	}
	return parts, "", false
}

// sedRegexp translates a POSIX basic (or extended) expression into Go's
// syntax; back-references and anything unusual: false.
func sedRegexp(re string, ere bool) (string, bool) {
	if len(re) > 256 {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '\\' && i+1 < len(re):
			i++
			e := re[i]
			switch {
			case e >= '1' && e <= '9':
				return "", false // back-references: RE2 has none
			case !ere && strings.IndexByte("(){}+?|", e) >= 0:
				b.WriteByte(e) // BRE: \( \) \{ \} \+ \? \| are the operators
			case e == 'n':
				b.WriteString(`\n`)
			case e == 't':
				b.WriteString(`\t`)
			case strings.IndexByte(`.*[]^$\/&`, e) >= 0 || ere && strings.IndexByte("(){}+?|", e) >= 0:
				b.WriteString(regexp.QuoteMeta(string(e)))
			case e == 'w' || e == 'W' || e == 's' || e == 'S' || e == 'b' || e == 'B':
				b.WriteByte('\\')
				b.WriteByte(e)
			default:
				return "", false
			}
		case !ere && strings.IndexByte("(){}+?|", c) >= 0:
			b.WriteString(regexp.QuoteMeta(string(c))) // BRE: literal
		case c == '[':
			// a bracket expression: copied through its closing ]
			j := i + 1
			if j < len(re) && re[j] == '^' {
				j++
			}
			if j < len(re) && re[j] == ']' {
				j++
			}
			for j < len(re) && re[j] != ']' {
				if re[j] == '[' && j+1 < len(re) && (re[j+1] == ':' || re[j+1] == '=' || re[j+1] == '.') {
					end := strings.Index(re[j+2:], string(re[j+1])+"]")
					if end < 0 {
						return "", false
					}
					j += end + 4
					continue
				}
				j++
			}
			if j >= len(re) {
				return "", false
			}
			b.WriteString(strings.ReplaceAll(re[i:j+1], `\`, `\\`))
			i = j
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// sedReplacement translates a sed replacement into Expand's template: &
// is the match, \1..\9 the groups, \n a newline, \& a literal &.
func sedReplacement(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			e := s[i]
			switch {
			case e >= '0' && e <= '9':
				b.WriteString("${" + string(e) + "}")
			case e == 'n':
				b.WriteByte('\n')
			case e == 't':
				b.WriteByte('\t')
			case e == '$':
				b.WriteString("$$")
			default:
				b.WriteByte(e)
			}
		case c == '&':
			b.WriteString("${0}")
		case c == '$':
			b.WriteString("$$")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}
