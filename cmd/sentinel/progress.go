package main

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/register"
)

// A progress bar for the reads that take seconds at a million entries
// (verify, doctor's first walk, census, outcomes, grades, replay, log -n 0,
// export, bundle verify). It is drawn on stderr only when stderr is a
// terminal and the command prints no JSON: a script reading stdout, or a
// pipe on stderr, never sees a byte of it. Nothing is drawn for the first
// progressDelay, so quick commands stay quiet; the bar is cleared when the
// read ends.

// progressDelay is how long a read runs before its bar appears.
var progressDelay = 400 * time.Millisecond

// progressTerminal says whether w is a terminal (a variable for tests).
var progressTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

type progress struct {
	mu    sync.Mutex
	w     io.Writer
	what  string
	max   int64
	start time.Time
	bytes bool // the units are bytes (a bundle file), not entries
	bar   *progressbar.ProgressBar
}

// newProgress returns a bar over max units for cmd, or nil (which every
// method accepts) when none may be drawn.
func newProgress(cmd *cobra.Command, what string, max int64, asJSON bool) *progress {
	w := cmd.ErrOrStderr()
	if asJSON || max <= 0 || !progressTerminal(w) {
		return nil
	}
	return &progress{w: w, what: what, max: max, start: time.Now()}
}

// set moves the bar to n (of max).
func (p *progress) set(n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		if time.Since(p.start) < progressDelay {
			return
		}
		p.bar = progressbar.NewOptions64(p.max, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription(p.what),
			progressbar.OptionSetWidth(30), progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish(),
			progressbar.OptionUseANSICodes(true), progressbar.OptionSetRenderBlankState(true), progressbar.OptionShowBytes(p.bytes))
	}
	p.bar.Set64(min(n, p.max))
}

// done clears the bar.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
	p.start = time.Now() // a later pass waits its own delay
}

// registerProgress draws the register's long reads (ascending, or for log
// descending from the head) until the returned function is called.
func registerProgress(cmd *cobra.Command, r *register.Register, what string, asJSON, descending bool) func() {
	head, _, err := r.Head()
	p := newProgress(cmd, what, head, asJSON)
	if err != nil || p == nil {
		return func() {}
	}
	r.SetProgress(func(seq int64) {
		if descending {
			seq = head - seq + 1
		}
		p.set(seq)
	})
	return func() {
		r.SetProgress(nil)
		p.done()
	}
}

// bundleProgress draws each pass through a bundle file.
func bundleProgress(cmd *cobra.Command, b *bundle.Bundle, what string, asJSON bool) func() {
	p := newProgress(cmd, what, 1, asJSON) // max is set from the file's size
	if p == nil {
		return func() {}
	}
	p.bytes = true
	b.Progress = func(read, size int64) {
		p.mu.Lock()
		p.max = size
		p.mu.Unlock()
		p.set(read)
	}
	return func() {
		b.Progress = nil
		p.done()
	}
}
