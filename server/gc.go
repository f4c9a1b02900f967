package server

import (
	"os"
	"runtime/debug"
)

// GCPercent is the garbage collector's target percentage for serving (see
// runtime/debug.SetGCPercent): the heap may grow to 5 times the live heap
// between collections instead of Go's default 2 times. A query allocates a
// few kilobytes that die with its request, and the live heap of a server
// holding a few theories is a few megabytes, so under the default the
// collector runs tens of times a second under load, and each cycle's mark
// phase takes a quarter of the CPU from the requests running meanwhile: a
// tail-latency cost. At 400 it runs a quarter as often, for a heap a few
// megabytes larger. Set GOMEMLIMIT to cap the memory of a server holding
// large theories: the collector then runs more often as the heap nears it.
const GCPercent = 400

// TuneGC sets the collector for serving: GCPercent, unless the GOGC
// environment variable chooses a setting, which it then leaves alone. It
// returns the previous percentage, for a caller that restores it. The
// package never calls it itself; strata serve does at start.
func TuneGC() (previous int) {
	if _, set := os.LookupEnv("GOGC"); set {
		p := debug.SetGCPercent(-1) // read it back unchanged
		debug.SetGCPercent(p)
		return p
	}
	return debug.SetGCPercent(GCPercent)
}
