package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"
)

// A single held-out part of a few hundred examples measures each
// iteration's accuracy with an error of one or two points, about what the
// later iterations gain, so the one-standard-error rule's choice varies
// with the draw of the held-out part. Cross-validation scores every
// training example once, on a hypothesis that did not learn from it, and so
// measures the same curve with the error of the whole training set, as
// CART does where Breiman et al. proposed the rule.

// CrossValidation is a cross-validation: every fold is a Validation whose
// held-out examples (Problem.Test) are one part of the training examples
// and whose Problem.Train are the others. A single fold is one held-out
// part, so that a caller that offers both takes one path.
type CrossValidation struct {
	Folds []Validation
	// Parallel bounds the folds that run at once. 0 runs as many as a
	// fold's Settings.Threads allow, each with an equal share of them
	// (the learner gains little from a second thread, a second fold
	// nearly doubles the speed); 1 runs them one after the other. Folds
	// that run at once may call their OnIteration concurrently.
	Parallel int
}

// ChooseIterationsCV chooses the number of iterations by cross-validation;
// with a single fold it is ChooseIterations. It runs each fold as
// ChooseIterations does (with its own patience), pools the held-out
// accuracies iteration by iteration, weighting each fold by its held-out
// examples, and applies the one-standard-error rule to the pooled curve
// measured on all the held-out examples together. A fold that stopped by
// itself keeps its last accuracy for the later iterations: its learner
// stopped (every training example classified correctly, or no training
// gain for the learner's patience, where a run allowed more iterations
// stops too), or its held-out accuracy had not improved for the fold's
// patience, a plateau the other folds need not share (ending the pooled
// curve there would end it for all of them). The pooled curve ends where a
// fold ended for any other reason (its iteration limit or its time), or
// with the longest fold. The selection's Folds hold each fold's run and
// its Elapsed their sum; Models is nil (a single fold's selection is its
// run, with its Models and no Folds). The outcome does not depend on
// cv.Parallel, since the learner's does not depend on its threads, unless
// a fold runs out of its Settings.Timeout. It changes nothing it is given.
func ChooseIterationsCV(ctx context.Context, cv CrossValidation) (*Selection, error) {
	switch len(cv.Folds) {
	case 0:
		return nil, errors.New("learn: a cross-validation without folds")
	case 1:
		return ChooseIterations(ctx, cv.Folds[0])
	}
	runs, err := runFolds(ctx, cv)
	if err != nil {
		return nil, err
	}
	out := &Selection{Folds: runs}
	for _, s := range runs {
		out.Held += s.Held
		out.Elapsed += s.Elapsed
	}
	out.History, out.Stop = poolHistories(out.Folds)
	if len(out.History) == 0 {
		return nil, errors.New("learn: a cross-validation fold made no iteration")
	}
	out.Chosen, out.Best, out.StdErr = oneStandardError(out.History, out.Held)
	if out.Chosen > 0 {
		out.ChosenAccuracy, out.BestAccuracy = out.History[out.Chosen-1].TestAccuracy, out.History[out.Best-1].TestAccuracy
	}
	return out, nil
}

// runFolds runs ChooseIterations on every fold of cv, at most cv.Parallel
// (see CrossValidation) at once, and returns their selections in the
// folds' order. The first fold to fail stops the others.
func runFolds(ctx context.Context, cv CrossValidation) ([]*Selection, error) {
	folds := cv.Folds
	parallel := cv.Parallel
	if parallel <= 0 {
		parallel = threadsOf(folds[0].Settings)
	}
	parallel = min(max(parallel, 1), len(folds))
	fctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	runs := make([]*Selection, len(folds))
	slots := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, f := range folds {
		if parallel > 1 {
			f.Settings.Threads = max(1, threadsOf(f.Settings)/parallel)
		}
		slots <- struct{}{}
		if fctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			s, err := ChooseIterations(fctx, f)
			if err != nil {
				cancel(fmt.Errorf("fold %d of %d: %w", i+1, len(folds), err))
				return
			}
			runs[i] = s
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := context.Cause(fctx); err != nil {
		return nil, err
	}
	return runs, nil
}

// threadsOf returns the workers a learner with settings s uses.
func threadsOf(s Settings) int {
	if s.Threads > 0 {
		return s.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// poolHistories returns the pooled curve of the folds' runs (see
// ChooseIterationsCV) and why it ends: the reason of the fold that ended
// it.
func poolHistories(folds []*Selection) ([]Iteration, Stop) {
	n, stop := math.MaxInt, Stop("")
	longest, longestStop := 0, Stop("")
	for _, s := range folds {
		if len(s.History) > longest {
			longest, longestStop = len(s.History), s.Stop
		}
		if !carried(s.Stop) && len(s.History) < n {
			n, stop = len(s.History), s.Stop
		}
	}
	if n == math.MaxInt { // every fold stopped by itself: the longest ends the curve
		n, stop = longest, longestStop
	}
	var held float64
	for _, s := range folds {
		held += float64(s.Held)
	}
	hist := make([]Iteration, n)
	for t := range hist {
		it := Iteration{Iteration: t + 1}
		var elapsed time.Duration
		for _, s := range folds {
			h := s.History[min(t, len(s.History)-1)]
			w := float64(s.Held) / held // both accuracies weighted by the held-out examples
			it.TestAccuracy += w * h.TestAccuracy
			it.TrainAccuracy += w * h.TrainAccuracy
			it.Rules += h.Rules
			it.Levels += h.Levels
			it.Literals += h.Literals
			it.Improved = it.Improved || (t < len(s.History) && h.Improved)
			elapsed += h.Elapsed
		}
		k := len(folds)
		// Sizes are the folds' means, rounded: what a hypothesis learned on
		// all the examples can be expected to have.
		it.Rules, it.Levels, it.Literals = (it.Rules+k/2)/k, (it.Levels+k/2)/k, (it.Literals+k/2)/k
		it.Elapsed = elapsed
		hist[t] = it
	}
	return hist, stop
}

// carried reports whether a fold's run stopped by itself, so that its
// last accuracy stands for the later iterations of the pooled curve.
func carried(s Stop) bool { return s == StopPerfect || s == StopPatience || s == StopNoGain }
