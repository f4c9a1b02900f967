package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/strata-logic/strata/learn"
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

// progress shows long work on stderr, for every command alike: on a
// terminal as a bar per stage (its count, or a spinner without one), and
// otherwise as the lines its user prints when they are due: a line per
// step or per quietInterval, whichever is rarer.
type progress struct {
	w        io.Writer
	terminal bool
	pace     *pacer
	bar      *progressbar.ProgressBar
	key      string // the stage the bar shows
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, terminal: isTerminal(w), pace: newPacer()}
}

// count shows that done of total of stage key are done, described by desc
// when it is not empty, on the terminal's bar (a new bar for a new stage; a
// spinner when total is not positive); off a terminal it does nothing.
func (p *progress) count(key string, done, total int64, desc string) {
	if !p.terminal {
		return
	}
	if p.bar == nil || p.key != key {
		p.finish()
		if total <= 0 {
			total = -1
		}
		p.key = key
		p.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription(key),
			progressbar.OptionShowCount(), progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish())
	}
	if desc != "" {
		p.bar.Describe(desc)
	}
	p.bar.Set64(done)
}

// due reports whether a line may be printed now off a terminal, and if so
// counts it as printed.
func (p *progress) due() bool { return !p.terminal && p.pace.due() }

// finish ends the bar shown, if any.
func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
	p.key = ""
}

// iterationLine writes a line of a learning run's history, as strata
// learn shows it.
func iterationLine(w io.Writer, it learn.Iteration) {
	fmt.Fprintf(w, "iteration %d: train %.4f", it.Iteration, it.TrainAccuracy)
	if it.TestAccuracy == it.TestAccuracy {
		fmt.Fprintf(w, "  test %.4f", it.TestAccuracy)
	}
	fmt.Fprintf(w, "  %d rules, %d levels, %d literals  %s\n", it.Rules, it.Levels, it.Literals, it.Elapsed.Round(time.Millisecond))
}
