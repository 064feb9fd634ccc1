//go:build !linux

package hook

import "time"

func threadCPU() (time.Duration, bool) { return 0, false }
