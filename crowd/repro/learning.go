package repro

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/dataset"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
)

// Learning says how a domain's theory was learned.
type Learning struct {
	Model      *learn.Model
	Validation *Validation // how the number of iterations was chosen; nil without validation

	Iterations    int // the iteration limit of the final run
	Examples      int // training examples, defaults and non-defaults
	History       []learn.Iteration
	Stop          learn.Stop
	Elapsed       time.Duration
	TrainAccuracy float64
}

// validationTime returns the time of the validation run, if any.
func (lr *Learning) validationTime() time.Duration {
	if lr.Validation == nil {
		return 0
	}
	return lr.Validation.Elapsed
}

// Validation is the run that chose the number of iterations on held-out
// training annotators.
type Validation struct {
	// Skipped says why there was no validation run (too few training
	// annotators); the other fields are then zero.
	Skipped string

	Annotators  []string // the held-out training annotators
	FitExamples int      // examples of the other training annotators, learned from
	Examples    int      // examples of the held-out annotators, scored after every iteration
	History     []learn.Iteration
	Stop        string
	Elapsed     time.Duration

	Best           int     // the iteration with the best validation accuracy
	BestAccuracy   float64 // its accuracy
	StdErr         float64 // the standard error of BestAccuracy on Examples examples
	Chosen         int     // the smallest iteration within one standard error of the best
	ChosenAccuracy float64
}

// StopValidation is why a validation run ends when its validation accuracy
// has not improved for Options.ValidationPatience iterations.
const StopValidation = string(learn.StopNoGain)

// learnTheory chooses the number of iterations on a validation split and
// learns the theory on all training annotators.
func learnTheory(ctx context.Context, opts *Options, d Domain, ds *crowd.Datasets, dir string) (*Learning, error) {
	lr := &Learning{Iterations: opts.Iterations}
	budget := opts.Timeout
	if opts.Validation > 0 {
		v, err := validate(ctx, opts, d, ds, budget*4/10)
		if err != nil {
			return nil, err
		}
		lr.Validation = v
		if v.Chosen > 0 {
			lr.Iterations = v.Chosen
		}
		if budget > 0 {
			budget = max(budget-v.Elapsed, time.Second)
		}
		if v.Skipped == "" {
			if err := writeHistory(filepath.Join(dir, "validation.csv"), v.History); err != nil {
				return nil, err
			}
		}
	}
	train, err := learn.FromRules(ds.Vocab, ds.TrainPos, ds.TrainNeg)
	if err != nil {
		return nil, err
	}
	lr.Examples = train.Total()
	msg := fmt.Sprintf("learning on all %d training annotators (%d examples), at most %d iterations",
		len(ds.Manifest.Train.Annotators), lr.Examples, lr.Iterations)
	if budget > 0 {
		msg += fmt.Sprintf(", %s", budget.Round(time.Second))
	}
	opts.emit(Event{Domain: d.Name, Step: "learn", Message: msg})
	lo := opts.learnOptions(lr.Iterations, budget)
	lo.OnIteration = func(it learn.Iteration) {
		opts.emit(Event{Domain: d.Name, Step: "learn", Iteration: &it, MaxIterations: lr.Iterations})
	}
	l, err := learn.NewLearner(ds.Vocab, train, ds.Hard, lo)
	if err != nil {
		return nil, err
	}
	if lr.Stop, err = l.Run(ctx); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lr.Model, lr.History, lr.Elapsed, lr.TrainAccuracy = l.Final(), l.History(), l.Elapsed(), l.TrainAccuracy()
	return lr, writeHistory(filepath.Join(dir, "history.csv"), lr.History)
}

// validate learns on part of the training annotators, scores the others
// after every iteration, and chooses the number of iterations by the
// one-standard-error rule.
func validate(ctx context.Context, opts *Options, d Domain, ds *crowd.Datasets, budget time.Duration) (*Validation, error) {
	sub, err := dataset.SplitByAnnotator(ds.Split.Train, opts.Validation, opts.Seed+1)
	if err != nil {
		return &Validation{Skipped: err.Error()}, nil
	}
	rng := dataset.NewRand(opts.Seed ^ 0x7a11da7e)
	fp, fn := dataset.Examples(ds.Vocab, ds.Actions, sub.Train, rng)
	vp, vn := dataset.Examples(ds.Vocab, ds.Actions, sub.Test, rng)
	fit, err := learn.FromRules(ds.Vocab, fp, fn)
	if err != nil {
		return nil, err
	}
	held, err := learn.FromRules(ds.Vocab, vp, vn)
	if err != nil {
		return nil, err
	}
	v := &Validation{Annotators: dataset.Annotators(sub.Test), FitExamples: fit.Total(), Examples: held.Total()}
	opts.emit(Event{Domain: d.Name, Step: "validate", Message: fmt.Sprintf(
		"choosing the number of iterations: learning on %d training annotators, validating on %d others (%s)",
		len(dataset.Annotators(sub.Train)), len(v.Annotators), strings.Join(v.Annotators, ", "))})

	lo := opts.learnOptions(opts.Iterations, budget)
	sel, err := learn.ChooseIterations(ctx, ds.Vocab, fit, held, ds.Hard, lo, opts.ValidationPatience, func(it learn.Iteration) {
		opts.emit(Event{Domain: d.Name, Step: "validate", Iteration: &it, MaxIterations: opts.Iterations})
	})
	if err != nil {
		return nil, err
	}
	v.Stop = string(sel.Stop)
	v.History, v.Elapsed = sel.History, sel.Elapsed
	v.Chosen, v.Best, v.StdErr = sel.Chosen, sel.Best, sel.StdErr
	v.ChosenAccuracy, v.BestAccuracy = sel.ChosenAccuracy, sel.BestAccuracy
	return v, nil
}

func (o *Options) learnOptions(iterations int, timeout time.Duration) learn.Options {
	return learn.Options{Iterations: iterations, Timeout: timeout, Candidates: o.Candidates, Seed: o.Seed,
		Threads: o.Threads, Patience: o.Patience}
}

func writeHistory(path string, hist []learn.Iteration) error {
	return fileutil.WriteAtomic(path, func(w io.Writer) error { return learn.WriteHistoryCSV(w, hist) })
}
