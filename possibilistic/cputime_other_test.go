//go:build !linux

package possibilistic_test

import "time"

// threadCPU is only available on Linux.
func threadCPU() (time.Duration, bool) { return 0, false }
