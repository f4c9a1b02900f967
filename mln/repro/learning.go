package repro

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"time"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/mln"
)

// Learning says how a dataset's theory was learned.
type Learning struct {
	Model      *learn.Model
	Validation *Validation // how the number of iterations was chosen; nil without validation

	Iterations    int // the iteration limit of the final run
	Examples      int // training examples learned from
	History       []learn.Iteration
	Stop          learn.Stop
	Elapsed       time.Duration
	TrainAccuracy float64
}

// total returns the learning time, validation included.
func (lr *Learning) total() time.Duration {
	if lr.Validation == nil {
		return lr.Elapsed
	}
	return lr.Elapsed + lr.Validation.Elapsed
}

// Validation is the run that chose the number of iterations on training
// examples held out by whole evidence formulas.
type Validation struct {
	// Skipped says why there was no validation run (too few evidence
	// formulas to hold some out); the other fields are then zero.
	Skipped string

	FitExamples int // training examples learned from
	Examples    int // held-out training examples, scored after every iteration
	Evidence    int // held-out evidence formulas
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

// learnTheory chooses the number of iterations on held-out training
// examples and learns the theory on all of them.
func learnTheory(ctx context.Context, opts *Options, d Dataset, ex *exampleSets, dir string) (*Learning, error) {
	lr := &Learning{Iterations: opts.Iterations}
	budget := opts.Timeout
	if opts.Validation > 0 {
		v, err := validate(ctx, opts, d, ex, budget*4/10)
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
	train, err := toExamples(ex.vocab, ex.train)
	if err != nil {
		return nil, err
	}
	lr.Examples = train.Total()
	msg := fmt.Sprintf("learning on all %d training examples, at most %d iterations", lr.Examples, lr.Iterations)
	if budget > 0 {
		msg += fmt.Sprintf(", %s", budget.Round(time.Second))
	}
	opts.emit(Event{Dataset: d.Name, Step: "learn", Message: msg})
	lo := opts.learnOptions(lr.Iterations, budget)
	lo.OnIteration = func(it learn.Iteration) {
		opts.emit(Event{Dataset: d.Name, Step: "learn", Iteration: &it, MaxIterations: lr.Iterations})
	}
	l, err := learn.NewLearner(ex.vocab, train, nil, lo)
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

// validate learns on part of the training examples, scores the others after
// every iteration, and chooses the number of iterations by the
// one-standard-error rule.
func validate(ctx context.Context, opts *Options, d Dataset, ex *exampleSets, budget time.Duration) (*Validation, error) {
	fitList, heldList, groups := holdOut(ex.train, opts.Validation, opts.Seed)
	if len(fitList) == 0 || len(heldList) == 0 {
		return &Validation{Skipped: fmt.Sprintf("%d training examples are too few to hold out %.0f%%", len(ex.train), 100*opts.Validation)}, nil
	}
	fit, err := toExamples(ex.vocab, fitList)
	if err != nil {
		return nil, err
	}
	held, err := toExamples(ex.vocab, heldList)
	if err != nil {
		return nil, err
	}
	v := &Validation{FitExamples: fit.Total(), Examples: held.Total(), Evidence: groups}
	opts.emit(Event{Dataset: d.Name, Step: "validate", Message: fmt.Sprintf(
		"choosing the number of iterations: learning on %d training examples, validating on %d others (%d evidence formulas held out)",
		v.FitExamples, v.Examples, groups)})

	vctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lo := opts.learnOptions(opts.Iterations, budget)
	lo.Test = held
	best, bestAt := math.Inf(-1), 0
	lo.OnIteration = func(it learn.Iteration) {
		opts.emit(Event{Dataset: d.Name, Step: "validate", Iteration: &it, MaxIterations: opts.Iterations})
		if it.TestAccuracy > best {
			best, bestAt = it.TestAccuracy, it.Iteration
		} else if it.Iteration-bestAt >= opts.ValidationPatience {
			cancel()
		}
	}
	l, err := learn.NewLearner(ex.vocab, fit, nil, lo)
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

// holdOut splits the training examples into those learned from and those
// held out for validation, by whole evidence formulas: the examples drawn
// for one α (up to ten conclusions β) are strongly related, and the test
// examples are drawn with other evidence formulas, so validation must not
// see an α the learner saw. Evidence formulas are held out in a random
// order (from seed) until share of the examples are; both parts keep the
// order in which the examples were drawn. groups is the number of evidence
// formulas held out.
func holdOut(exs []mln.Example, share float64, seed uint64) (fit, held []mln.Example, groups int) {
	idx := map[string]int{} // evidence -> group
	group := make([]int, len(exs))
	for i, e := range exs {
		k := fmt.Sprint(slices.Sorted(slices.Values(e.Evidence)))
		g, ok := idx[k]
		if !ok {
			g = len(idx)
			idx[k] = g
		}
		group[i] = g
	}
	size := make([]int, len(idx))
	for _, g := range group {
		size[g]++
	}
	out := make([]bool, len(idx))
	want := int(math.Round(share * float64(len(exs))))
	rng := rand.New(rand.NewPCG(seed, 0x76616c6964)) // "valid"
	for _, g := range rng.Perm(len(idx)) {
		if want <= 0 {
			break
		}
		out[g] = true
		want -= size[g]
		groups++
	}
	for i, e := range exs {
		if out[group[i]] {
			held = append(held, e)
		} else {
			fit = append(fit, e)
		}
	}
	return fit, held, groups
}

// oneStdErr applies the one-standard-error rule to a history whose
// TestAccuracy was measured on n examples: it returns the smallest iteration
// whose accuracy is at least the best minus the standard error of the best,
// sqrt(p(1-p)/n), the best iteration (the first one on ties), and that
// standard error. Iterations are numbered from 1 as in the history; 0 means
// an empty history.
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
	for i, it := range hist[:best] {
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

func writeHistory(path string, hist []learn.Iteration) error {
	return writeFile(path, func(w io.Writer) error { return learn.WriteHistoryCSV(w, hist) })
}
