package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
)

// A single held-out part of a few hundred examples measures each
// iteration's score with an error of one or two points, about what the
// later iterations gain, so the one-standard-error rule's choice varies
// with the draw of the held-out part. Cross-validation scores every
// training example once, on a hypothesis that did not learn from it, and
// so measures the same curve with the error of the whole training set, as
// CART does where Breiman et al. proposed the rule.

// Selection is what a protocol's validation chose (see choose).
type Selection struct {
	// History is the validation curve: TestAccuracy is the held-out score
	// after every iteration, pooled over the folds of a cross-validation
	// (each weighted by its held-out total), whose sizes are the folds'
	// means.
	History []Iteration
	// Hypotheses holds a validation run's hypothesis after every iteration
	// (Learner.Hypothesis, implied rules not removed); nil for the pooled
	// selection of folds.
	Hypotheses []*Hypothesis
	// Folds holds every fold's own run when there are several; nil for one
	// held-out part, whose run the selection is.
	Folds   []*Selection
	Stop    Stop          // why the curve ends (StopNoGain: the held-out score stopped improving)
	Elapsed time.Duration // learning time of the validation runs, summed
	Held    int           // the held-out total, by weight

	Best           int     // the iteration with the best held-out score
	BestAccuracy   float64 // its score
	StdErr         float64 // the standard error of BestAccuracy on Held; under Paired, of the difference between the chosen and the best
	Chosen         int     // the iteration the protocol's Rule chose
	ChosenAccuracy float64

	// Support is the choice of the support a clause needs (with
	// Settings.Prune); nil without pruning.
	Support        *SupportSelection
	SupportElapsed time.Duration
}

// Censored reports whether the curve was cut short by the validation's
// share of the learning time while its held-out score was at its best: the
// last iteration is the best, so the curve shows no iteration after which
// more learning stopped helping, only that the time ran out. The chosen
// iteration is then a lower bound, not an estimate (protocol.final).
func (s *Selection) Censored() bool {
	return s != nil && s.Stop == StopTimeout && s.Best > 0 && s.Best == len(s.History)
}

// Saturated reports whether every held-out example was right at the chosen
// iteration. The curve cannot rise above it, so it shows only how many
// iterations the held-out parts' runs needed to be right on everything,
// on fewer training examples than the final run has: the final run, which
// must fit more of them, is not held to that number either (protocol.final).
// A run that is right on every training example ends there by itself.
func (s *Selection) Saturated() bool {
	return s != nil && s.Chosen > 0 && s.ChosenAccuracy >= 1
}

// ToLimits reports whether the final run learns to the limits of the
// protocol's settings instead of stopping at the chosen iteration: when the
// curve is censored or saturated.
func (s *Selection) ToLimits() bool { return s.Censored() || s.Saturated() }

// StopNoGain ends a validation run whose held-out score has not improved
// for the protocol's ValidationPatience.
const StopNoGain Stop = "held-out accuracy stopped improving"

// errNoIteration is the error of a cross-validation one of whose folds
// made no iteration: there is no curve to choose on.
var errNoIteration = errors.New("learn: a cross-validation fold made no iteration")

// errNoGain is the cause of the cancellation that ends a validation run by
// its patience, told apart from the caller's own cancellation.
var errNoGain = errors.New(string(StopNoGain))

// choose runs the validation of proto on p's vocabulary and hard rules: a
// run on each fold's training examples that scores its held-out part after
// every iteration, until the limits of proto.Settings or the fold's
// ValidationPatience; the number of iterations is chosen on the curve (one
// fold's, or the folds' pooled) by proto.Rule: by default the
// one-standard-error rule, the smallest iteration whose held-out score is
// within one standard error of the best, which keeps the theory as small
// as the data allow; with BestScore the best iteration. A fold that
// stopped by itself (every training example right, the learner's own
// patience, or its held-out score's) keeps its last score in the pooled
// curve, a plateau the other folds need not share; the pooled curve ends
// where a fold ended for any other reason (its iteration limit or time),
// or with the longest fold. With proto.PruneShare it then chooses the
// support a clause needs (SupportSelection). It returns nil without folds,
// and ctx's error when ctx is done. It changes nothing it is given.
func choose(ctx context.Context, p Problem, proto protocol) (*Selection, error) {
	if err := proto.check(); err != nil {
		return nil, err
	}
	folds := proto.Folds
	if len(folds) == 0 {
		return nil, nil
	}
	if s := proto.Settings; s.Iterations == 0 && s.Timeout == 0 && s.Patience == 0 && proto.ValidationPatience == 0 && ctx.Done() == nil {
		return nil, errors.New("learn: no iteration limit, timeout or patience, and a context that is never done: the validation might not end")
	}
	runs, err := runFolds(ctx, p, proto)
	if err != nil {
		return nil, err
	}
	sel := runs[0]
	if len(runs) > 1 {
		sel = &Selection{Folds: runs}
		for _, s := range runs {
			sel.Held += s.Held
			sel.Elapsed += s.Elapsed
		}
		sel.History, sel.Stop = poolHistories(runs)
		if len(sel.History) == 0 {
			return nil, errNoIteration
		}
	}
	sel.Chosen, sel.Best, sel.StdErr = oneStandardError(sel.History, sel.Held)
	switch proto.Rule {
	case BestScore:
		sel.Chosen = sel.Best
	case Paired:
		if sel.Chosen, sel.StdErr, err = pairedChoice(ctx, proto, runs, sel.History, sel.Best); err != nil {
			return nil, err
		}
	}
	if sel.Chosen > 0 {
		sel.ChosenAccuracy, sel.BestAccuracy = sel.History[sel.Chosen-1].TestAccuracy, sel.History[sel.Best-1].TestAccuracy
	}
	if proto.PruneShare == 0 || sel.Chosen == 0 {
		return sel, nil
	}
	start := time.Now()
	if sel.Support, err = chooseSupport(ctx, p, proto, runs, sel.Chosen); err != nil {
		return nil, err
	}
	sel.SupportElapsed = time.Since(start)
	return sel, nil
}

// runFolds runs the validation of every fold of proto, at most
// proto.Parallel at once, and returns their selections in the folds'
// order. The first fold to fail stops the others.
func runFolds(ctx context.Context, p Problem, proto protocol) ([]*Selection, error) {
	folds := proto.Folds
	s := proto.Settings
	if s.Timeout > 0 {
		tenths := time.Duration(holdOutTenths)
		if len(folds) > 1 {
			tenths = foldsTenths
		}
		// At least a nanosecond: a share of 0 would be no limit at all.
		s.Timeout = max(s.Timeout*tenths/10/time.Duration(len(folds)), 1)
	}
	parallel := proto.Parallel
	if parallel == 0 {
		parallel = threadsOf(s)
	}
	parallel = min(max(parallel, 1), len(folds))
	if parallel > 1 {
		s.Threads = max(1, threadsOf(s)/parallel)
	}
	fctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	runs := make([]*Selection, len(folds))
	slots := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, f := range folds {
		slots <- struct{}{}
		if fctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			var on func(Iteration)
			if proto.OnValidation != nil {
				on = func(it Iteration) { proto.OnValidation(i, it) }
			}
			sel, err := validate(fctx, Problem{Vocab: p.Vocab, Train: f.Train, Hard: p.Hard}, s, f.Held, proto.ValidationPatience, on)
			if err != nil {
				if len(folds) > 1 {
					err = fmt.Errorf("fold %d of %d: %w", i+1, len(folds), err)
				}
				cancel(err)
				return
			}
			runs[i] = sel
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

// validate learns p under s, scoring held after every iteration, until the
// limits of s or patience iterations after the held-out score last
// improved (0: never), and returns the run as a selection whose Chosen is
// still to be made.
func validate(ctx context.Context, p Problem, s config, held Task, patience int, onIteration func(Iteration)) (*Selection, error) {
	l, err := newLearner(p, s, held)
	if err != nil {
		return nil, err
	}
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	best, bestAt := math.Inf(-1), 0
	var hyps []*Hypothesis
	l.OnIteration = func(it Iteration) {
		hyps = append(hyps, l.Hypothesis())
		if onIteration != nil {
			onIteration(it)
		}
		if it.TestAccuracy > best {
			best, bestAt = it.TestAccuracy, it.Iteration
		} else if patience > 0 && it.Iteration-bestAt >= patience {
			cancel(errNoGain)
		}
	}
	stop, err := l.Run(sctx)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if stop == StopCancelled {
		if !errors.Is(context.Cause(sctx), errNoGain) {
			return nil, fmt.Errorf("learn: validation run interrupted: %w", context.Cause(sctx))
		}
		stop = StopNoGain
	}
	_, total := held.Score(make([]bool, len(held.Queries().List)))
	return &Selection{History: l.History(), Hypotheses: hyps, Stop: stop, Elapsed: l.Elapsed(), Held: total}, nil
}

// oneStandardError applies the one-standard-error rule to a history whose
// TestAccuracy was measured on n examples: it returns the smallest
// iteration whose accuracy is at least the best minus the standard error of
// the best (accuracyStdErr), the best iteration, and that standard error.
// Iterations are numbered from 1 as in the history; 0 means an empty one.
func oneStandardError(hist []Iteration, n int) (chosen, best int, se float64) {
	for i, it := range hist {
		if best == 0 || it.TestAccuracy > hist[best-1].TestAccuracy {
			best = i + 1
		}
	}
	if best == 0 || n <= 0 {
		return best, best, 0
	}
	p := hist[best-1].TestAccuracy
	se = accuracyStdErr(p, n)
	for i, it := range hist {
		if it.TestAccuracy >= p-se {
			return i + 1, best, se
		}
	}
	return best, best, se
}

// accuracyStdErr returns the standard error of an accuracy p measured on n
// examples, by Agresti and Coull's adjusted estimate for a band of one
// standard error (z = 1): half an example right and half wrong are added,
// p̃ = (pn + ½)/(n + 1), and the error is sqrt(p̃(1−p̃)/(n+1)). The plain
// estimate sqrt(p(1−p)/n) vanishes as p nears 0 or 1, so that a held-out
// accuracy of 300 in 300 would let the one-standard-error rule keep only
// the best iteration, however little it gains; near ½ the two agree.
func accuracyStdErr(p float64, n int) float64 {
	if n <= 0 {
		return 0
	}
	m := float64(n) + 1
	q := (p*float64(n) + 0.5) / m
	return math.Sqrt(q * (1 - q) / m)
}

// poolHistories returns the pooled curve of the folds' runs (see choose)
// and why it ends: the reason of the fold that ended it.
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
		// Sizes are the folds' means, rounded: what a hypothesis learned
		// on all the examples can be expected to have.
		it.Rules, it.Levels, it.Literals = (it.Rules+k/2)/k, (it.Levels+k/2)/k, (it.Literals+k/2)/k
		it.Elapsed = elapsed
		hist[t] = it
	}
	return hist, stop
}

// carried reports whether a fold's run stopped by itself, so that its
// last accuracy stands for the later iterations of the pooled curve.
func carried(s Stop) bool { return s == StopPerfect || s == StopPatience || s == StopNoGain }
