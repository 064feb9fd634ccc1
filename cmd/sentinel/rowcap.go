package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// terminalRows is how many rows outcomes and grades print to a terminal
// when -n is not given: at a million entries they have tens of thousands,
// which no one reads on a screen. A pipe or a file gets every row.
const terminalRows = 100

// rowCap caps the rows of a listing at n (0: every row), keeping the last
// n (the newest, for a listing in sequence order) or the first n (a queue,
// oldest first), and counts the rows it left out. The last n are held as
// printed lines, so memory is bounded by n, not by the register.
type rowCap struct {
	n    int
	last bool
	seen int
	ring []string
}

// newRowCap reads -n: given, it is the cap; not given (-1), the cap is
// terminalRows when stdout is a terminal and the output is a table, else
// none.
func newRowCap(cmd *cobra.Command, n int, asJSON, last bool) (*rowCap, error) {
	if n < -1 {
		return nil, fail(exitUsage, "-n must be 0 (all) or more, got %d", n)
	}
	if n == -1 {
		n = 0
		if !asJSON && progressTerminal(stdoutFile(cmd)) {
			n = terminalRows
		}
	}
	return &rowCap{n: n, last: last}, nil
}

// stdoutFile is the command's stdout under the counting wrapper.
func stdoutFile(cmd *cobra.Command) io.Writer {
	w := cmd.OutOrStdout()
	if cw, ok := w.(*countingWriter); ok {
		return cw.w
	}
	return w
}

// add takes a row; it reports whether to print it now (a kept last row is
// printed by flush).
func (c *rowCap) add(line string) bool {
	c.seen++
	switch {
	case c.n == 0:
		return true
	case !c.last:
		return c.seen <= c.n
	case len(c.ring) < c.n:
		c.ring = append(c.ring, line)
	default:
		c.ring[(c.seen-1)%c.n] = line
	}
	return false
}

// kept writes the last rows held, in order.
func (c *rowCap) kept(w io.Writer) {
	for _, l := range c.keptLines() {
		io.WriteString(w, l)
	}
}

// keptLines are the last rows held, in order.
func (c *rowCap) keptLines() []string {
	if c.n == 0 || !c.last || len(c.ring) < c.n {
		return c.ring
	}
	i := c.seen % c.n
	return append(append([]string{}, c.ring[i:]...), c.ring[:i]...)
}

// left is how many rows were not printed.
func (c *rowCap) left() int {
	if c.n == 0 || c.seen <= c.n {
		return 0
	}
	return c.seen - c.n
}

// note says what was left out ("" nothing), for the line after the table.
func (c *rowCap) note(noun string) string {
	l := c.left()
	if l == 0 {
		return ""
	}
	which := "later"
	if c.last {
		which = "earlier"
	}
	return fmt.Sprintf("(%d %s %s not shown: -n N shows N, -n 0 all, --json every one)\n", l, which, noun)
}
