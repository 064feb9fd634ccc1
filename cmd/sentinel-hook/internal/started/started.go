// Package started records the instant the hook process began, from a
// package initialiser that runs before the heavier ones (see oneproc): the
// hook's deadline counts from here, not from main.
package started

import "time"

// At is when the process started initialising.
var At = time.Now()
