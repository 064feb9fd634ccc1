// Command baseline is the bench's floor: a Go binary that reads its stdin
// and exits, so that what the hook costs over the cost of starting any Go
// process can be measured in the same run.
package main

import (
	"io"
	"os"
)

func main() {
	io.Copy(io.Discard, os.Stdin)
}
