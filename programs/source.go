package programs

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Sources of compiled languages (issue 19 class 1: a compiler then
// ./a.out, go run, go test, go generate, rustc, javac and java). The judge
// has no grammar for C, Go, Rust or Java, so what such a source runs is
// read from its literal text: the commands it spawns with literal
// arguments (system("..."), popen, the exec family, exec.Command,
// Command::new(..).arg(..), Runtime.exec, ProcessBuilder), the trees it
// deletes (os.RemoveAll, remove_dir_all) when the argument is a literal or
// the home directory, and Go's //go:generate lines. SourceShell turns them
// into shell text, judged as what running the program would do; code that
// builds its commands at run time is not seen (a miss, never a pass made
// from nothing: the output file is still run by path and judged as such).

// LangSource is FileLang's language for a compiled source.
const LangSource = "source"

// GoPackage is the name, in a directory, of the facts about the Go files
// written there: go test, go generate, go run . run the package, not a
// file named on the line.
const GoPackage = "*.go"

var sourceExts = map[string]bool{".c": true, ".cc": true, ".cpp": true, ".cxx": true, ".C": true,
	".go": true, ".rs": true, ".java": true}

var (
	srcString  = lazy(`"((?:[^"\\\n]|\\.)*)"`)
	srcGen     = lazy(`(?m)^//go:generate\s+(.+)$`)
	srcHomeVal = lazy(`os\.UserHomeDir\(\)|(?:os\.Getenv|getenv|System\.getenv|env::var|std::env::var)\(\s*"HOME"\s*\)|System\.getProperty\(\s*"user\.home"\s*\)|dirs::home_dir\(\)|home::home_dir\(\)`)
	srcHomeVar = lazy(`(?:(?:let|var|String|const char\s*\*|char\s*\*|auto)\s+)?(\w+)(?:\s*,\s*\w+)?\s*:?=\s*"~"`)
	// a spawn: the call and where its arguments start
	srcSpawn = lazy(`\b(system|popen|execlp?e?|exec\.Command(?:Context)?|syscall\.Exec|Command::new|Runtime\.getRuntime\(\)\.exec|new\s+ProcessBuilder|os\.RemoveAll|remove_dir_all|FileUtils\.deleteDirectory)\s*\(`)
)

// lazy compiles a pattern on first use: the hook starts once per call
// and most calls never reach a given pattern, so compiling every table's
// patterns at init cost each call about 0.2 ms of CPU.
func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// SourceShell is the shell text a compiled source's program would run.
func SourceShell(text string) string {
	var b strings.Builder
	for _, m := range srcGen().FindAllStringSubmatch(text, 32) {
		b.WriteString(strings.TrimSpace(m[1]) + "\n")
	}
	t := srcHomeVal().ReplaceAllString(text, `"~"`)
	// h, _ := os.UserHomeDir() binds h to the home directory
	for _, m := range srcHomeVar().FindAllStringSubmatch(t, 8) {
		t = regexp.MustCompile(`([(,]\s*)`+regexp.QuoteMeta(m[1])+`(\s*[),])`).ReplaceAllString(t, `$1"~"$2`)
	}
	for _, loc := range srcSpawn().FindAllStringSubmatchIndex(t, 64) {
		call := t[loc[2]:loc[3]]
		rest := t[loc[1]:]
		if end := strings.IndexAny(rest, ";\n"); end >= 0 {
			rest = rest[:end] // the statement: Command::new("rm").args([...]) chains on one line
		}
		var argv []string
		for _, s := range srcString().FindAllStringSubmatch(rest, 32) {
			argv = append(argv, unescapeC(s[1]))
		}
		if len(argv) == 0 {
			continue
		}
		switch {
		case call == "system" || call == "popen" || strings.HasSuffix(call, "exec") && len(argv) == 1:
			b.WriteString(argv[0] + "\n") // shell text
		case strings.HasPrefix(call, "exec") && !strings.Contains(call, "."), call == "syscall.Exec":
			if len(argv) > 1 {
				argv = argv[1:] // execl(PATH, ARGV0, ...): the path, then argv
			}
			b.WriteString(quoteAll(argv) + "\n")
		case call == "os.RemoveAll" || call == "remove_dir_all" || call == "FileUtils.deleteDirectory":
			b.WriteString("rm -rf " + homeQuote(argv[0]) + "\n")
		default:
			b.WriteString(quoteAll(argv) + "\n")
		}
	}
	return b.String()
}

func quoteAll(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = homeQuote(a)
	}
	return strings.Join(q, " ")
}

// homeQuote quotes a for the shell, leaving a leading ~ (the home
// directory the source named: os.UserHomeDir, getenv("HOME")) to expand.
func homeQuote(a string) string {
	if a == "~" {
		return a
	}
	if rest, ok := strings.CutPrefix(a, "~/"); ok {
		return "~/" + shellQuote(rest)
	}
	return shellQuote(a)
}

func unescapeC(s string) string {
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n", `\t`, "\t").Replace(s)
}

// Compiles reports a compiler's sources and the files it makes of them
// (gcc x.c: a.out; cc -o t x.c: t; rustc main.rs: main; javac Main.java:
// Main.class; go build x.go: x), paths as written.
func Compiles(name string, args []string) (srcs, outs []string) {
	out := ""
	for i, a := range args {
		switch {
		case a == "-o" && i+1 < len(args):
			out = args[i+1]
		case strings.HasPrefix(a, "-o") && len(a) > 2 && Canon(name) != "go":
			out = a[2:]
		case !strings.HasPrefix(a, "-") && sourceExts[path.Ext(a)] && (i == 0 || args[i-1] != "-o"):
			srcs = append(srcs, a)
		}
	}
	if len(srcs) == 0 {
		return nil, nil
	}
	switch Canon(name) {
	case "gcc":
		if out == "" {
			out = "a.out"
		}
	case "rustc":
		if out == "" {
			out = strings.TrimSuffix(srcs[0], ".rs")
		}
	case "javac":
		for _, s := range srcs {
			outs = append(outs, strings.TrimSuffix(s, ".java")+".class")
		}
		return srcs, outs
	case "go":
		if len(args) == 0 || args[0] != "build" {
			return nil, nil
		}
		if out == "" {
			out = path.Base(strings.TrimSuffix(srcs[0], ".go"))
		}
	default:
		return nil, nil
	}
	return srcs, []string{out}
}

// goToolFiles are the Go files go run, test, generate and vet run: the
// .go operands, else the facts about the package in each directory named
// (./... and ./pkg/... from their root).
func goToolFiles(args []string) []ToolFile {
	if len(args) == 0 {
		return nil
	}
	switch args[0] {
	case "run", "test", "generate", "vet":
	default:
		return nil
	}
	var files, dirs []ToolFile
operands:
	for _, a := range Operands(args[1:]) {
		switch {
		case strings.HasSuffix(a, ".go"):
			files = append(files, ToolFile{Path: a, Lang: LangSource})
		case a == "." || a == "./..." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "/"):
			d := strings.TrimSuffix(strings.TrimSuffix(a, "..."), "/")
			if d == "" || d == "." {
				d = "."
			}
			dirs = append(dirs, ToolFile{Path: path.Join(d, GoPackage), Lang: LangSource})
		}
		if args[0] == "run" && len(dirs) > 0 {
			break operands // go run . ARGS: the rest are the program's arguments
		}
	}
	if len(files) > 0 {
		return files
	}
	if len(dirs) == 0 {
		dirs = []ToolFile{{Path: GoPackage, Lang: LangSource}}
	}
	return dirs
}

var _ = register(
	&Program{Name: "gcc", Names: []string{"cc", "clang", "g++", "c++", "clang++"}, Kind: NonReader, Opts: S("oIDLlxW"), Outputs: compilerOutputs},
	// tcc -run compiles and runs its source at once: from stdin with - or /dev/stdin
	&Program{Name: "tcc", Kind: NonReader, Opts: S("oIDLlxW"), Outputs: compilerOutputs,
		StdinCode: func(a []string) bool {
			return has(a, "-run") && slices.ContainsFunc(a, StdinPath)
		}},
	&Program{Name: "rustc", Kind: NonReader, Opts: S("oL"), Outputs: compilerOutputs},
	&Program{Name: "javac", Kind: NonReader, Opts: S("d", "classpath", "cp")},
	// pyinstaller writes the bundle DISTPATH/NAME (./dist, the script's
	// name without .py unless -n NAME)
	&Program{Name: "pyinstaller", Kind: NonReader, Outputs: pyinstallerOutputs},
	// patchelf changes the binaries it is given, unless it only prints
	&Program{Name: "patchelf", Kind: Writer, EditsOperands: true, ReadOnly: func(a []string) bool {
		for _, x := range a {
			if strings.HasPrefix(x, "--") && !strings.HasPrefix(x, "--print-") && x != "--version" && x != "--help" {
				return false
			}
		}
		return true
	}},
)

// pyinstallerOutputs: the bundle it writes, DISTPATH/NAME.
func pyinstallerOutputs(args []string) []string {
	dist, name, script := "dist", "", ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func(opt string) (string, bool) {
			if v, ok := strings.CutPrefix(a, opt+"="); ok {
				return v, true
			}
			if a == opt && i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		if v, ok := val("--distpath"); ok {
			dist = v
			continue
		}
		if v, ok := val("--name"); ok {
			name = v
			continue
		}
		if v, ok := val("-n"); ok {
			name = v
			continue
		}
		if _, ok := val("--workpath"); ok {
			continue // the build's scratch files, not the bundle
		}
		if _, ok := val("--specpath"); ok {
			continue
		}
		if !strings.HasPrefix(a, "-") && script == "" {
			script = a
		}
	}
	if name == "" {
		name = strings.TrimSuffix(strings.TrimSuffix(script[strings.LastIndexByte(script, '/')+1:], ".py"), ".spec")
	}
	if name == "" {
		return []string{dist}
	}
	return []string{strings.TrimSuffix(dist, "/") + "/" + name}
}

// compilerOutputs: -o F writes F.
func compilerOutputs(args []string) []string {
	vals, _ := optValues(args, "-o")
	return vals
}

// javaToolFiles: java Main runs Main.class (the fact javac's compile of a
// written Main.java left there).
func javaToolFiles(args []string) []ToolFile {
	for i, a := range args {
		switch {
		case a == "-cp" || a == "-classpath" || a == "--class-path" || a == "-jar":
			if a == "-jar" {
				return nil
			}
			continue
		case i > 0 && (args[i-1] == "-cp" || args[i-1] == "-classpath" || args[i-1] == "--class-path"):
			continue
		case strings.HasPrefix(a, "-"):
			continue
		case strings.HasSuffix(a, ".java"):
			return []ToolFile{{Path: a, Lang: LangSource}} // java F.java: source launch
		}
		return []ToolFile{{Path: strings.ReplaceAll(a, ".", "/") + ".class"}}
	}
	return nil
}
