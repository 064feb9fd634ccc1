package programs

import "strings"

// The environment's printers among programs whose code is an argument: the
// whole environment named as one value (awk's ENVIRON walked, jq's env or
// $ENV, perl's %ENV, node's process.env) reaches the output. One variable
// (ENVIRON["HOME"], $ENV.HOME, process.env.HOME) is not a dump.

// inlineCode is the code a program is given on its command line: awk's and
// jq's first operand (unless -f gave it a file), an interpreter's -e/-c/-p
// values.
func inlineCode(p *Program, args []string) []string {
	var out []string
	if p.Lang == "awk" || p.Name == "jq" {
		o := p.Parse(args)
		if o.Value('f', "from-file") != "" || len(o.Pos) == 0 {
			return nil
		}
		return o.Pos[:1]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		long := strings.TrimPrefix(a, "--")
		if long != a {
			name, v, ok := strings.Cut(long, "=")
			if has(p.InlineLong, name) {
				if ok {
					out = append(out, v)
				} else if i+1 < len(args) {
					out = append(out, args[i+1])
					i++
				}
			}
			continue
		}
		// -e CODE, -eCODE, -le CODE (the inline option ends the cluster)
		for k := 1; k < len(a); k++ {
			if strings.IndexByte(p.Inline, a[k]) >= 0 {
				if k+1 < len(a) {
					out = append(out, a[k+1:])
				} else if i+1 < len(args) {
					out = append(out, args[i+1])
					i++
				}
				break
			}
		}
	}
	return out
}

// wholeRef reports name used as a whole value in code: not followed by a
// member or an index (name.X, name[...], name{...}), and not part of a
// longer word.
func wholeRef(code, name string) bool {
	for i := 0; ; {
		k := strings.Index(code[i:], name)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(name)
		i = end
		if k > 0 && (isWordByte(code[k-1]) || code[k-1] == '.') && name[0] != '$' {
			continue // a longer word, or a member: .env of a JSON document
		}
		if end < len(code) && isWordByte(code[end]) {
			continue
		}
		rest := strings.TrimLeft(code[end:], " \t")
		if rest != "" && (rest[0] == '.' || rest[0] == '[' || rest[0] == '{') {
			if name == "process.env" && strings.HasPrefix(rest, ".toString") {
				return true
			}
			continue
		}
		return true
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// The printers are wired once the tables are registered.
func init() {
	for _, n := range []string{"awk", "jq", "perl", "node", "deno", "bun"} {
		p := Lookup(n)
		p.PrintsEnv = func(args []string) bool { return codePrintsEnv(p, args) }
	}
}

// codePrintsEnv: the printers of each language.
func codePrintsEnv(p *Program, args []string) bool {
	for _, code := range inlineCode(p, args) {
		switch {
		case p.Lang == "awk":
			if wholeRef(code, "ENVIRON") {
				return true // for (k in ENVIRON)
			}
		case p.Name == "jq":
			if wholeRef(code, "env") || wholeRef(code, "$ENV") {
				return true
			}
		case p.Lang == "perl":
			if strings.Contains(code, "%ENV") {
				return true // print %ENV, keys %ENV with $ENV{$_}
			}
		case p.Lang == "js":
			if wholeRef(code, "process.env") || strings.Contains(code, "Deno.env.toObject") || wholeRef(code, "Bun.env") {
				return true
			}
		}
	}
	return false
}

// CodeArgs are the indices in args of words that are code or a pattern,
// never a file: a Pattern program's or awk's first operand (unless -e or
// -f gave it), and an interpreter's inline code (-e CODE, -c CODE, -p).
// grep -r .env src searches for the text ".env"; node -p process.env
// prints a value.
func CodeArgs(name string, args []string) map[int]bool {
	p := Lookup(name)
	if p == nil {
		return nil
	}
	out := map[int]bool{}
	if p.Is(Pattern) || p.Lang == "awk" {
		given := false
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "--":
				if !given && i+1 < len(args) {
					out[i+1] = true
				}
				return out
			case a == "-e" || a == "-f" || strings.HasPrefix(a, "--regexp") || strings.HasPrefix(a, "--expression") ||
				strings.HasPrefix(a, "--file") || a == "--from-file":
				given = true
			case len(a) > 1 && a[0] == '-':
				if len(a) == 2 && strings.IndexByte(p.Opts.Short, a[1]) >= 0 {
					i++ // the option's value
				}
			case !given:
				out[i] = true
				return out
			}
		}
		return out
	}
	if p.Inline == "" && len(p.InlineLong) == 0 {
		return out
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			if !strings.HasPrefix(a, "-") {
				return out // the script: what follows are its arguments
			}
			continue
		}
		if name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "="); strings.HasPrefix(a, "--") {
			if has(p.InlineLong, name) && !strings.Contains(a, "=") && i+1 < len(args) {
				out[i+1] = true
				i++
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			if strings.IndexByte(p.Inline, a[k]) >= 0 {
				if k+1 == len(a) && i+1 < len(args) {
					out[i+1] = true
					i++
				}
				break
			}
		}
	}
	return out
}

// envFamilies are the variables people look up in the environment that
// hold no credential (the proxy settings, paths, locale, terminal).
var envFamilies = []string{"proxy", "path", "lang", "lc_", "locale", "term", "display", "xdg", "editor", "pager",
	"shell", "tz", "java_home", "virtual_env", "conda", "node_env", "home", "histsize", "colorterm", "ssh_auth_sock"}

// envSecretWords are the words of a secret variable's name.
var envSecretWords = []string{"key", "token", "secret", "pass", "pwd", "auth", "cred", "private", "session", "cookie"}

// FiltersEnv reports a grep that lets no credential of the environment
// through: it selects only variables of envFamilies (env | grep -i
// proxy), or it drops every line naming a key, token, secret or password
// (env | grep -v -i -E 'key|token|secret|pass').
func FiltersEnv(name string, args []string) bool {
	if Canon(name) != "grep" {
		return false
	}
	invert := false
	var pats []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--regexp":
			if i+1 < len(args) {
				pats = append(pats, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "--regexp="):
			pats = append(pats, a[len("--regexp="):])
		case a == "--invert-match":
			invert = true
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file="):
			return false // patterns not on the line
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			invert = invert || strings.ContainsRune(a, 'v')
			if strings.ContainsAny(a[1:], "ABCm") {
				i++ // a context or count value
			}
		case strings.HasPrefix(a, "-"):
		default:
			if len(pats) == 0 {
				pats = append(pats, a)
			} else {
				return false // a file operand: not the environment's stream
			}
		}
	}
	if len(pats) == 0 {
		return false
	}
	var alts []string
	for _, p := range pats {
		for _, alt := range strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(p, `\|`, "|")), func(r rune) bool { return r == '|' }) {
			alts = append(alts, strings.Trim(alt, "^$=()"))
		}
	}
	if invert {
		for _, w := range []string{"key", "token", "secret", "pass"} {
			covered := false
			for _, alt := range alts {
				covered = covered || strings.Contains(w, alt) && alt != "" && len(alt) >= 3
			}
			if !covered {
				return false
			}
		}
		return true
	}
	for _, alt := range alts {
		if alt == "" || strings.Trim(alt, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
			return false // a wildcard or a class: anything may match
		}
		fam := false
		for _, f := range envFamilies {
			fam = fam || strings.Contains(alt, f)
		}
		for _, w := range envSecretWords {
			if strings.Contains(alt, w) {
				return false
			}
		}
		if !fam {
			return false
		}
	}
	return true
}

// envAccessors are how code reads one variable of the environment, by
// language: os.getenv("X"), os.environ["X"], ENV["X"], process.env.X,
// $ENV{X}, getenv("X"), System.getenv("X").
var envAccessors = []string{"os.getenv", "os.environ", "environ[", "environ.get", "ENV[", "ENV.fetch", "process.env", "$ENV{", "getenv(", "$_ENV[", "Deno.env.get", "Bun.env"}

// codePrinters are how code prints its result (node -p prints the value
// of the expression itself).
var codePrinters = []string{"print", "puts", "console.log", "echo", "io.write", "printf", "say", "p ", "p(", "pp ", "write(", "dump"}

// envTests are code that asks whether a variable is set or how long it
// is, printing no value.
var envTests = []string{" if ", "bool(", "len(", " is None", " is not None", "~= nil", "!= nil", "== nil", ".nil?", ".empty?", " in os.environ", "!!process.env", "?.length", ".length", " ? "}

// CodeEnvNames are the names an interpreter's inline code reads from the
// environment and prints: the quoted words and the identifiers after an
// accessor (os.getenv("GITHUB_TOKEN"), process.env.NPM_TOKEN), and every
// quoted word of code that reads a variable named at run time (for _,k in
// ipairs({"AWS_SECRET_ACCESS_KEY"}) do print(k, os.getenv(k)) end). nil
// when the code reads none or prints nothing.
func CodeEnvNames(name string, args []string) []string {
	p := Lookup(name)
	if !p.Is(Interpreter) {
		return nil
	}
	var out []string
	for _, code := range inlineCode(p, args) {
		reads := false
		for _, a := range envAccessors {
			reads = reads || strings.Contains(code, a)
		}
		prints := p.Lang == "js" && (has(args, "-p") || has(args, "--print"))
		for _, w := range codePrinters {
			prints = prints || strings.Contains(code, w)
		}
		if !reads || !prints {
			continue
		}
		tests := false
		for _, t := range envTests {
			tests = tests || strings.Contains(code, t)
		}
		if tests {
			continue // print("set" if os.environ.get("TOKEN") else "unset"): whether it is set
		}
		for _, a := range []string{"process.env.", "$ENV{", "Bun.env."} {
			for rest := code; ; {
				k := strings.Index(rest, a)
				if k < 0 {
					break
				}
				rest = rest[k+len(a):]
				end := 0
				for end < len(rest) && (isWordByte(rest[end]) && rest[end] != '$') {
					end++
				}
				if end > 0 {
					out = append(out, rest[:end])
				}
			}
		}
		for _, q := range []byte{'"', '\''} {
			parts := strings.Split(code, string(q))
			for i := 1; i < len(parts); i += 2 {
				out = append(out, parts[i])
			}
		}
	}
	return out
}

// EnvNamesPrinted are the variables whose values a program prints by their
// names on its command line: `declare -p NAME`, `typeset -p NAME`; awk's
// `ENVIRON["NAME"]` and jq's `env.NAME`, `$ENV.NAME`, `env["NAME"]` in
// their code (awk and jq print what their code computes).
func EnvNamesPrinted(name string, args []string) []string {
	p := Lookup(name)
	if p == nil {
		return nil
	}
	switch {
	case p.Name == "set" && name != "set" && name != "export":
		for _, a := range args {
			if len(a) > 1 && a[0] == '-' && strings.IndexByte(a, 'p') > 0 {
				return Operands(args)
			}
		}
		return nil
	case p.Lang != "awk" && p.Name != "jq":
		return nil
	}
	var out []string
	for _, code := range inlineCode(p, args) {
		accessors := []string{"ENVIRON["}
		if p.Name == "jq" {
			accessors = []string{"$ENV.", "env.", "$ENV[", "env["}
		}
		for _, a := range accessors {
			for rest := code; ; {
				k := strings.Index(rest, a)
				if k < 0 {
					break
				}
				before := rest[:k]
				rest = rest[k+len(a):]
				if a[0] != '$' && before != "" && (isWordByte(before[len(before)-1]) || before[len(before)-1] == '.') {
					continue // .env.X of a document, $ENV. counted once
				}
				w := strings.TrimLeft(rest, `"'\`)
				end := 0
				for end < len(w) && isWordByte(w[end]) && w[end] != '$' {
					end++
				}
				if end > 0 {
					out = append(out, w[:end])
				}
			}
		}
	}
	return out
}

// SubstitutesEnv reports a program that prints its input with the
// environment's variables put in for their names (envsubst): the names in
// the text it is given are printed as values.
func SubstitutesEnv(name string) bool { return name == "envsubst" }
