package programs

import "testing"

// An import statement that names nothing ("import  ", found by FuzzParse)
// once indexed an empty field list; it must name no file, and a real import
// beside it must still be found.
func TestPythonImportsEmptyName(t *testing.T) {
	for _, code := range []string{"import  ", "import ,", "from x import  ", "import \t"} {
		if got := pythonImports(code); len(got) != 0 && got[0].Path != "x.py" {
			t.Errorf("pythonImports(%q) = %v, want no file", code, got)
		}
	}
	got := pythonImports("import  ,helper as h")
	if len(got) == 0 || got[0].Path != "helper.py" {
		t.Errorf("pythonImports(import  ,helper as h) = %v, want helper.py first", got)
	}
}
