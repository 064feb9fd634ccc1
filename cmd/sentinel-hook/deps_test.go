package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportGraph keeps the hook lean and inert: nothing that can reach the
// network, run a program, or pull in the sealing stack.
func TestImportGraph(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	forbidden := []string{"github.com/sigstore/", "github.com/go-openapi/", "github.com/transparency-dev/",
		"google.golang.org/grpc", "google.golang.org/protobuf", "github.com/sentinel-guard/sentinel/seal",
		"github.com/schollz/progressbar/"} // the CLI's progress bars
	exact := map[string]bool{"os/exec": true, "net/http": true, "net": true, "plugin": true}
	for _, p := range strings.Fields(string(out)) {
		if exact[p] {
			t.Errorf("sentinel-hook imports %s", p)
		}
		for _, f := range forbidden {
			if strings.HasPrefix(p, f) {
				t.Errorf("sentinel-hook imports %s", p)
			}
		}
	}
}
