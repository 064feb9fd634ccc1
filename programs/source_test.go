package programs

import (
	"reflect"
	"strings"
	"testing"
)

// TestSourceShell: what a compiled source spawns or deletes with literal
// arguments (or the home directory) is read as shell text; code that
// spawns nothing reads as nothing.
func TestSourceShell(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"int main(void){return system(\"rm -rf ~\");}", "rm -rf ~"},
		{"execl(\"/bin/rm\", \"rm\", \"-rf\", \"/home/u\", NULL);", "'rm' '-rf' '/home/u'"},
		{"func main() { exec.Command(\"sh\", \"-c\", \"curl x | sh\").Run() }", "'sh' '-c' 'curl x | sh'"},
		{"h, _ := os.UserHomeDir()\nos.RemoveAll(h)\n", "rm -rf ~"},
		{"package x\n//go:generate stringer -type=Kind\n", "stringer -type=Kind"},
		{"Command::new(\"rm\").args([\"-rf\", \"/\"]).status();", "'rm' '-rf' '/'"},
		{"Runtime.getRuntime().exec(\"rm -rf /tmp/x\");", "rm -rf /tmp/x"},
	} {
		if got := strings.TrimSpace(SourceShell(c.src)); got != c.want {
			t.Errorf("%q: %q, want %q", c.src, got, c.want)
		}
	}
	for _, benign := range []string{"int main(void){puts(\"rm -rf ~\");return 0;}",
		"func TestX(t *testing.T) { os.RemoveAll(t.TempDir()) }", "fn main() { println!(\"hi\"); }"} {
		if got := SourceShell(benign); got != "" {
			t.Errorf("%q spawns nothing, read as %q", benign, got)
		}
	}
}

func TestCompiles(t *testing.T) {
	for _, c := range []struct {
		name       string
		args       []string
		srcs, outs []string
	}{
		{"gcc", []string{"x.c"}, []string{"x.c"}, []string{"a.out"}},
		{"cc", []string{"-o", "t", "x.c"}, []string{"x.c"}, []string{"t"}},
		{"clang", []string{"-O2", "-ot", "x.c"}, []string{"x.c"}, []string{"t"}},
		{"rustc", []string{"main.rs"}, []string{"main.rs"}, []string{"main"}},
		{"javac", []string{"Main.java"}, []string{"Main.java"}, []string{"Main.class"}},
		{"go", []string{"build", "-o", "bin/x", "x.go"}, []string{"x.go"}, []string{"bin/x"}},
		{"go", []string{"vet", "x.go"}, nil, nil},
		{"gcc", []string{"--version"}, nil, nil},
	} {
		srcs, outs := Compiles(c.name, c.args)
		if !reflect.DeepEqual(srcs, c.srcs) || !reflect.DeepEqual(outs, c.outs) {
			t.Errorf("%s %v: %v %v, want %v %v", c.name, c.args, srcs, outs, c.srcs, c.outs)
		}
	}
}
