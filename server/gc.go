package server

import (
	"os"
	"runtime/debug"
)

// gcPercent is the garbage collector's target percentage for serving (see
// runtime/debug.SetGCPercent): the heap may grow to 5 times the live heap
// between collections instead of Go's default 2 times. A query allocates a
// few kilobytes that die with its request, and the live heap of a server
// holding a few theories is a few megabytes, so under the default the
// collector runs tens of times a second under load, and each cycle's mark
// phase takes a quarter of the CPU from the requests running meanwhile: a
// tail-latency cost. At 400 it runs a quarter as often, for a heap a few
// megabytes larger.
const gcPercent = 400

// memoryLimit is the soft memory limit for serving (see
// runtime/debug.SetMemoryLimit): as the heap nears it, the collector runs
// more often instead of letting garbage grow to gcPercent of the live heap.
// The requests' work holds some tens of bytes per byte of the bodies in
// flight (Config.MaxInFlight): about 300 MB at the defaults, which the
// limit leaves room for, so that a server under a flood of large requests
// stays under 1 GB. A server holding large stored theories wants a higher
// limit (GOMEMLIMIT).
const memoryLimit = 640 << 20

// TuneGC sets the collector for serving: a target percentage of 400,
// unless the GOGC environment variable chooses a setting, and a soft memory
// limit of 640 MiB, unless GOMEMLIMIT does; it leaves a setting so chosen
// alone. It returns the previous percentage, for a caller that restores
// it. The package never calls it itself; strata serve does at start.
func TuneGC() (previous int) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(memoryLimit)
	}
	if _, set := os.LookupEnv("GOGC"); set {
		p := debug.SetGCPercent(-1) // read it back unchanged
		debug.SetGCPercent(p)
		return p
	}
	return debug.SetGCPercent(gcPercent)
}
