package programs

import "strings"

// Writers that leave a file empty by what they write into it (issue 19,
// blind class destroy-nonrm): an output written from no input (sort -o F
// /dev/null, uniq /dev/null F, xxd -r -p /dev/null F, shuf -n 0 -o F),
// and an in-place edit whose program prints nothing (gawk -i inplace
// 'NR<0' F). They are the programs' Zeroes: judge types the write as one
// that empties its file, wherever the file is.

// fromNothing reports inputs that hold nothing: every one is /dev/null.
// No input at all is stdin, which is not known here.
func fromNothing(inputs []string) bool {
	if len(inputs) == 0 {
		return false
	}
	for _, f := range inputs {
		if f != "/dev/null" {
			return false
		}
	}
	return true
}

var sortSpec = S("oSTtk", "output", "buffer-size", "temporary-directory", "field-separator", "key")

// sortZeroes: sort -o F /dev/null.
func sortZeroes(args []string) []string {
	if fromNothing(Parse(args, sortSpec).Pos) {
		return sortOutputs(args)
	}
	return nil
}

var uniqSpec = S("fsw", "skip-fields", "skip-chars", "check-chars")

// uniqOutputs: uniq [INPUT [OUTPUT]] writes OUTPUT.
func uniqOutputs(args []string) []string {
	if p := Parse(args, uniqSpec).Pos; len(p) == 2 && p[1] != "-" {
		return p[1:]
	}
	return nil
}

// uniqZeroes: uniq /dev/null F.
func uniqZeroes(args []string) []string {
	if p := Parse(args, uniqSpec).Pos; len(p) == 2 && fromNothing(p[:1]) {
		return uniqOutputs(args)
	}
	return nil
}

var shufSpec = S("nioe", "head-count", "input-range", "output", "random-source")

// shufZeroes: shuf -n 0 -o F (no line out), shuf -o F /dev/null.
func shufZeroes(args []string) []string {
	o := Parse(args, shufSpec)
	if n := o.Value('n', "head-count"); n == "0" || !o.Has('e', "echo") && o.Value('i', "input-range") == "" && fromNothing(o.Pos) {
		return optOutputs(shufSpec, 'o', "output")(args)
	}
	return nil
}

// iconvSpec: iconv -f FROM -t TO [-o OUT] [FILE...] (-c is a flag).
var iconvSpec = S("fto", "from-code", "to-code", "output")

// iconvZeroes: iconv -o F /dev/null (nothing converted into F).
func iconvZeroes(args []string) []string {
	if fromNothing(Parse(args, iconvSpec).Pos) {
		return optOutputs(iconvSpec, 'o', "output")(args)
	}
	return nil
}

// xxdZeroes: xxd -r /dev/null F.
func xxdZeroes(args []string) []string {
	if p := Parse(args, xxdSpec).Pos; len(p) == 2 && fromNothing(p[:1]) {
		return p[1:]
	}
	return nil
}

// awkZeroes: gawk -i inplace PROGRAM FILES with a program that prints
// nothing: a pattern no record meets ('NR<0', '0', 'NR==0') or only
// actions with no print ('{}', '{next}'); each FILE is left empty.
func awkZeroes(args []string) []string {
	prog, files := AwkInPlace(args)
	if len(files) == 0 || !awkPrintsNothing(prog) {
		return nil
	}
	return files
}

// AwkInPlace is the program of gawk -i inplace PROGRAM FILES and the files
// it rewrites with what the program prints (none without -i inplace).
func AwkInPlace(args []string) (prog string, files []string) {
	inplace := false
	for i, a := range args {
		if (a == "-i" || a == "--include") && i+1 < len(args) && strings.TrimSuffix(args[i+1], ".awk") == "inplace" ||
			a == "-iinplace" || a == "--include=inplace" {
			inplace = true
		}
	}
	prog, at := awkProgram(args)
	if !inplace || at < 0 {
		return "", nil
	}
	for _, a := range args[at+1:] {
		if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			files = append(files, a)
		}
	}
	return prog, files
}

// awkPrintsNothing: a program that never prints a record.
func awkPrintsNothing(prog string) bool {
	p := strings.Join(strings.Fields(prog), "")
	switch p {
	case "0", "NR<0", "NR==0", "NR<1", "!1", "NR<=0", "0{print}", "NR<0{print}":
		return true
	}
	if strings.Contains(p, "print") || strings.Contains(p, "system") || strings.Contains(p, "getline") {
		return false
	}
	// only actions: '{}', '{next}', '{$0=""}'; a bare pattern after one ('{...}1') prints
	return strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") && !strings.Contains(p, "}1") && !strings.Contains(p, "};1")
}

// RmBuiltin reports a program (or a package runner's tool) that deletes
// its operands as rm does, and where in args they start: rimraf DIR,
// del-cli GLOB (always recursive), shx rm -rf DIR, cmake -E rm -rf DIR,
// cmake -E remove_directory DIR, cmake -E remove F. recursive is false
// for a cmake -E rm or shx rm without -r.
func RmBuiltin(name string, args []string) (start int, recursive, ok bool) {
	name = strings.ToLower(baseOf(name))
	rflag := func(a []string) bool {
		return has(a, "-r", "-R", "--recursive") || HasShortFlag(a, 'r') || HasShortFlag(a, 'R')
	}
	switch name {
	case "rimraf", "del-cli":
		return 0, true, true
	case "shx":
		if len(args) > 0 && args[0] == "rm" {
			return 1, rflag(args[1:]), true
		}
	case "cmake":
		if len(args) > 1 && args[0] == "-E" {
			switch args[1] {
			case "rm":
				return 2, rflag(args[2:]), true
			case "remove_directory", "rm_rf":
				return 2, true, true
			case "remove":
				return 2, false, true
			}
		}
	}
	return 0, false, false
}

// EditorFiles are the files an editor's arguments name: its operands,
// where -s is silence in ex mode (ex -s F, vim -es F, vim -e -s F) and
// takes a script file otherwise (vim -s keys.txt F).
func EditorFiles(name string, args []string) []string {
	p := Lookup(name)
	if p == nil {
		return nil
	}
	spec := p.Opts
	if b := strings.ToLower(baseOf(name)); b == "ex" || b == "nex" || has(args, "-e", "-E", "-es", "-Es", "-se", "-sE") {
		spec.Short = strings.ReplaceAll(spec.Short, "s", "")
	}
	return Parse(args, spec).Pos
}
