package main

import (
	"io"
	"os"
	"time"
)

// quietInterval is the least time between two progress lines when stderr
// is not a terminal (a CI log, nohup, a pipe): long work prints a line per
// iteration or per quietInterval, whichever is rarer, so that it is neither
// silent nor flooding. Tests shorten it.
var quietInterval = time.Minute

// isTerminal reports whether w is a terminal, where progress shows as a bar.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// pacer lets a progress line through when quietInterval has passed since
// the last one (or since it was made).
type pacer struct{ last time.Time }

func newPacer() *pacer { return &pacer{last: time.Now()} }

// due reports whether a line may be printed now, and if so counts it as
// printed.
func (p *pacer) due() bool {
	now := time.Now()
	if now.Sub(p.last) < quietInterval {
		return false
	}
	p.last = now
	return true
}
