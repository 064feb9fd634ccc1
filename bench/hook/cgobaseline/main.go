// Command cgobaseline reads its stdin and exits, like baseline, but links
// the SQLite driver the hook uses (mattn/go-sqlite3, cgo). It opens nothing:
// the difference from baseline is what any process pays to start with cgo
// and glibc's dynamic loader (relocations, CPU feature and cache detection
// through cpuid, which a VM traps), before the hook does any work.
package main

import (
	"io"
	"os"

	_ "github.com/mattn/go-sqlite3"
)

func main() {
	io.Copy(io.Discard, os.Stdin)
}
