package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
)

// sayFolds says how the training examples are held out to choose the
// number of iterations, when they are.
func sayFolds(w io.Writer, folds []learn.Fold, what string) {
	if len(folds) == 0 {
		return
	}
	fit, held := folds[0].Train.Total(), folds[0].Held.Queries().Total()
	if len(folds) > 1 {
		fmt.Fprintf(w, "choosing the number of iterations by %d-fold cross-validation: learning on about %d %s, validating on about %d, %d times\n",
			len(folds), fit, what, held, len(folds))
	} else {
		fmt.Fprintf(w, "choosing the number of iterations: learning on %d %s, validating on %d\n", fit, what, held)
	}
}

// learnRecorder is strata learn's learn.Recorder: a progress bar for the
// validation and one for the final run, what the validation chose, and
// with --checkpoint the final run's state after every iteration.
type learnRecorder struct {
	w               io.Writer
	verbose         bool // a line per iteration
	checkpoint      string
	validationLimit int // the validation runs' iterations, all folds (0: no limit)
	progress        *progress
	validated       int   // the validation's iterations so far
	limit           int   // the final run's iteration limit
	cpErr           error // the first checkpoint that could not be written
}

func (r *learnRecorder) Record(e learn.Event) {
	switch e.Kind {
	case learn.EventValidation:
		r.validated++
		r.step(e.Iteration, r.validated, r.validationLimit)
	case learn.EventChosen:
		r.finish()
		if s := e.Selection; s != nil {
			sayChosen(r.w, s)
		}
	case learn.EventFinal:
		r.finish()
		r.limit = e.Iterations
		if n := len(e.History); n > 0 {
			r.progress.count("learning", int64(n), int64(r.limit), "")
		}
	case learn.EventIteration:
		if e.Run > 0 {
			return // the restarts are not shown
		}
		r.step(e.Iteration, e.Iteration.Iteration, r.limit)
		if r.checkpoint != "" {
			if err := fileutil.WriteAtomic(r.checkpoint, e.WriteCheckpoint); err != nil && r.cpErr == nil {
				r.cpErr = err
				fmt.Fprintf(r.w, "strata: checkpoint: %v\n", err)
			}
		}
	}
}

// step shows an iteration, the done-th of at most limit (0: no limit): a
// line with --verbose, else the bar.
func (r *learnRecorder) step(it learn.Iteration, done, limit int) {
	switch {
	case r.verbose:
		iterationLine(r.w, it)
	case r.progress.terminal:
		r.progress.count("learning", int64(done), int64(limit), fmt.Sprintf("learning: train %.3f, %d rules", it.TrainAccuracy, it.Rules))
	case r.progress.due():
		iterationLine(r.w, it)
	}
}

// finish ends the bar shown, if any.
func (r *learnRecorder) finish() { r.progress.finish() }

// sayChosen says what the validation chose.
func sayChosen(w io.Writer, s *learn.Selection) {
	fmt.Fprintf(w, "validation: best %.4f at iteration %d; chose %d iterations (%.4f, within one standard error %.4f)\n",
		s.BestAccuracy, s.Best, s.Chosen, s.ChosenAccuracy, s.StdErr)
	if note := toLimitsNote(s.Censored(), s.Saturated()); note != "" {
		fmt.Fprintln(w, note)
	}
	if sup := s.Support; sup != nil {
		fmt.Fprintf(w, "support: pruning clauses that at most %.2f%% of the training examples need (held-out accuracy %.4f; unpruned %.4f)\n",
			100*sup.Share, sup.Accuracy[sup.Chosen], sup.Accuracy[0])
	}
}

// toLimitsNote says why the final run is not held to the chosen
// iterations, when it is not (learn.Selection.ToLimits).
func toLimitsNote(censored, saturated bool) string {
	switch {
	case censored:
		return "the held-out accuracy was still at its best when the validation's share of --timeout ran out: the final run learns up to --iterations, --patience or the time left"
	case saturated:
		return "every held-out example was right at the chosen iteration: the final run learns until every training example is right, up to --iterations, --patience or the time left"
	}
	return ""
}

// interruptedValidation says, when Ctrl-C ended the validation phase, that
// nothing was written: the theory and the checkpoint come from the final
// run, which had not started.
func interruptedValidation(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	return errors.New("interrupted while choosing the number of iterations, before the final run: no theory or checkpoint written (start again to choose them)")
}
