package cputime

import (
	"syscall"
	"time"
)

// Thread returns the CPU time (user and system) the calling OS thread has
// used; ok is false where the system does not count it (outside Linux).
func Thread() (d time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
