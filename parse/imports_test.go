package parse

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportGraph proves from the import graph that package parse cannot
// execute, load code or open the network: none of its dependencies, direct
// or transitive, is a package that does. (The test itself may use os/exec.)
func TestImportGraph(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test=false", "github.com/sentinel-guard/sentinel/parse").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "mvdan.cc/sh/v3/syntax") {
		t.Fatalf("go list output does not look like parse's deps: %v", deps)
	}
	banned := []string{"os/exec", "net", "net/http", "net/rpc", "plugin", "os/signal",
		"mvdan.cc/sh/v3/interp", "mvdan.cc/sh/v3/expand", "golang.org/x/sys/unix", "golang.org/x/sys/execabs"}
	for _, d := range deps {
		if slices.Contains(banned, d) || strings.HasPrefix(d, "net/") || strings.Contains(d, "rekor") || strings.Contains(d, "grpc") {
			t.Errorf("parse depends on %s", d)
		}
	}
	// parse itself does not touch the operating system at all.
	out, err = exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "github.com/sentinel-guard/sentinel/parse").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if imp == "os" || imp == "syscall" || imp == "unsafe" || imp == "io/fs" {
			t.Errorf("parse imports %s directly", imp)
		}
	}
}
