package repro

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/dataset"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
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
const StopValidation = "validation accuracy stopped improving"

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
	train, err := toExamples(ds.Vocab, ds.TrainPos, ds.TrainNeg)
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
	fit, err := toExamples(ds.Vocab, fp, fn)
	if err != nil {
		return nil, err
	}
	held, err := toExamples(ds.Vocab, vp, vn)
	if err != nil {
		return nil, err
	}
	v := &Validation{Annotators: dataset.Annotators(sub.Test), FitExamples: fit.Total(), Examples: held.Total()}
	opts.emit(Event{Domain: d.Name, Step: "validate", Message: fmt.Sprintf(
		"choosing the number of iterations: learning on %d training annotators, validating on %d others (%s)",
		len(dataset.Annotators(sub.Train)), len(v.Annotators), strings.Join(v.Annotators, ", "))})

	vctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lo := opts.learnOptions(opts.Iterations, budget)
	lo.Test = held
	best, bestAt := math.Inf(-1), 0
	lo.OnIteration = func(it learn.Iteration) {
		opts.emit(Event{Domain: d.Name, Step: "validate", Iteration: &it, MaxIterations: opts.Iterations})
		if it.TestAccuracy > best {
			best, bestAt = it.TestAccuracy, it.Iteration
		} else if it.Iteration-bestAt >= opts.ValidationPatience {
			cancel()
		}
	}
	l, err := learn.NewLearner(ds.Vocab, fit, ds.Hard, lo)
	if err != nil {
		return nil, err
	}
	stop, err := l.Run(vctx)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v.Stop = string(stop)
	if stop == learn.StopCancelled {
		v.Stop = StopValidation
	}
	v.History, v.Elapsed = l.History(), l.Elapsed()
	v.Chosen, v.Best, v.StdErr = oneStdErr(v.History, v.Examples)
	if v.Chosen > 0 {
		v.ChosenAccuracy, v.BestAccuracy = v.History[v.Chosen-1].TestAccuracy, v.History[v.Best-1].TestAccuracy
	}
	return v, nil
}

// oneStdErr applies the one-standard-error rule to a history whose
// TestAccuracy was measured on n examples: it returns the smallest iteration
// whose accuracy is at least the best minus the standard error of the best,
// sqrt(p(1-p)/n), the best iteration, and that standard error. Iterations
// are numbered from 1 as in the history; 0 means an empty history.
func oneStdErr(hist []learn.Iteration, n int) (chosen, best int, se float64) {
	for i, it := range hist {
		if best == 0 || it.TestAccuracy > hist[best-1].TestAccuracy {
			best = i + 1
		}
	}
	if best == 0 || n <= 0 {
		return best, best, 0
	}
	p := hist[best-1].TestAccuracy
	se = math.Sqrt(p * (1 - p) / float64(n))
	for i, it := range hist {
		if it.TestAccuracy >= p-se {
			return i + 1, best, se
		}
	}
	return best, best, se
}

func (o *Options) learnOptions(iterations int, timeout time.Duration) learn.Options {
	return learn.Options{Iterations: iterations, Timeout: timeout, Candidates: o.Candidates, Seed: o.Seed,
		Threads: o.Threads, Patience: o.Patience}
}

func toExamples(v *logic.Vocabulary, pos, neg []logic.Rule) (*learn.Examples, error) {
	ex := &learn.Examples{}
	if err := ex.AddRules(pos, true, v, "defaults"); err != nil {
		return nil, err
	}
	if err := ex.AddRules(neg, false, v, "non-defaults"); err != nil {
		return nil, err
	}
	return ex, nil
}

func writeHistory(path string, hist []learn.Iteration) error {
	return fileutil.WriteAtomic(path, func(w io.Writer) error { return learn.WriteHistoryCSV(w, hist) })
}
