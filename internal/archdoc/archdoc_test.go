package archdoc

import (
	"os"
	"os/exec"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/sentinel-guard/sentinel"

// row is one line of the package table.
type row struct {
	pkg    string          // as written, without backticks or a trailing slash; "x/..." covers a tree
	mayUse map[string]bool // packages of this module named in the "may import" column
	any    bool            // "everything"
}

var tick = regexp.MustCompile("`([^`]+)`")

func readTable(t *testing.T) []row {
	t.Helper()
	b, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "| package | owns | may import |") {
			in = true
			continue
		}
		if !in || strings.HasPrefix(line, "| ---") {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if len(rows) > 0 {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 3 {
			continue
		}
		m := tick.FindStringSubmatch(cells[0])
		if m == nil {
			t.Errorf("architecture.md: a table row without a `package`: %s", line)
			continue
		}
		r := row{pkg: strings.TrimSuffix(m[1], "/"), mayUse: map[string]bool{}}
		last := cells[len(cells)-1]
		r.any = strings.Contains(last, "everything")
		for _, n := range tick.FindAllStringSubmatch(last, -1) {
			r.mayUse[strings.TrimSuffix(n[1], "/")] = true
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatal("architecture.md: no package table found")
	}
	return rows
}

// covers reports whether the row names pkg (a tree row "x/..." covers x and
// below).
func (r row) covers(pkg string) bool {
	if tree, ok := strings.CutSuffix(r.pkg, "/..."); ok {
		return pkg == tree || strings.HasPrefix(pkg, tree+"/")
	}
	return r.pkg == pkg
}

// TestPackageTable: docs/architecture.md's package table against go list.
func TestPackageTable(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"/...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(f[0], module), "/")
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, module+"/") {
				imports[pkg] = append(imports[pkg], strings.TrimPrefix(imp, module+"/"))
			}
		}
		if _, ok := imports[pkg]; !ok {
			imports[pkg] = nil
		}
	}
	rows := readTable(t)
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		var r *row
		for i := range rows {
			if rows[i].covers(p) && (r == nil || len(rows[i].pkg) > len(r.pkg)) {
				r = &rows[i]
			}
		}
		if r == nil {
			t.Errorf("docs/architecture.md: package `%s/` has no row in the package table (| `%s/` | what it owns | what it may import |)", p, p)
			continue
		}
		if r.any {
			continue
		}
		for _, imp := range imports[p] {
			if !r.mayUse[imp] && !(strings.HasPrefix(imp, p+"/")) && !(path.Dir(imp) == p) {
				t.Errorf("docs/architecture.md: `%s` imports `%s`, which its row's \"may import\" column does not name", p, imp)
			}
		}
	}
	for _, r := range rows {
		found := false
		for _, p := range pkgs {
			if r.covers(p) {
				found = true
			}
		}
		if !found {
			t.Errorf("docs/architecture.md: the row for `%s` names no package (go list finds none)", r.pkg)
		}
	}
}

// TestPackageDocs: every package says what it is where a reader looks for
// it: a library in doc.go or <name>.go ("// Package name ..."), a command in
// main.go or doc.go ("// Command name ...").
func TestPackageDocs(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.Dir}} {{.Name}} {{join .GoFiles " "}}`, module+"/...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		dir, name, files := f[0], f[1], f[2:]
		if len(files) == 0 {
			continue // only tests (bench/replay): its doc is in its test file
		}
		want, where := "// Package "+name+" ", []string{"doc.go", name + ".go"}
		if name == "main" {
			want, where = "// Command ", []string{"main.go", "doc.go"}
		}
		found := ""
		for _, file := range files {
			b, err := os.ReadFile(path.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), want) {
				found = file
			}
		}
		ok := false
		for _, w := range where {
			ok = ok || found == w
		}
		if !ok {
			t.Errorf("%s: the package doc (%q...) belongs in %s; found in %q", dir, want, strings.Join(where, " or "), found)
		}
	}
}
