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

// progress shows a bar on a terminal and, with --verbose, a line per
// iteration; otherwise a line per iteration or per minute, whichever is
// rarer (quietInterval).
type progress struct {
	w       io.Writer
	bar     *progressbar.ProgressBar
	verbose bool
	pace    *pacer // not on a terminal
}

func newProgress(w io.Writer, total int, verbose bool) *progress {
	p := &progress{w: w, verbose: verbose}
	if total <= 0 {
		total = -1 // no iteration limit: a spinner
	}
	if !verbose {
		if !isTerminal(w) {
			p.pace = newPacer()
		} else {
			p.bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription("learning"),
				progressbar.OptionShowCount(),
				progressbar.OptionSetElapsedTime(true),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionClearOnFinish())
		}
	}
	return p
}

func (p *progress) resume(done int) {
	if p.bar != nil {
		p.bar.Set(done)
	}
}

func (p *progress) step(it learn.Iteration) {
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("learning: train %.3f, %d rules", it.TrainAccuracy, it.Rules))
		p.bar.Add(1)
	}
	if p.verbose || p.pace != nil && p.pace.due() {
		fmt.Fprintf(p.w, "iteration %d: train %.4f", it.Iteration, it.TrainAccuracy)
		if it.TestAccuracy == it.TestAccuracy {
			fmt.Fprintf(p.w, "  test %.4f", it.TestAccuracy)
		}
		fmt.Fprintf(p.w, "  %d rules, %d levels, %d literals  %s\n", it.Rules, it.Levels, it.Literals, it.Elapsed.Round(time.Millisecond))
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
