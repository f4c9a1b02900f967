package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/strata-logic/strata/logic"
)

// Validation is a run that chooses the number of iterations on held-out
// training examples: the learner learns Problem.Train and scores
// Problem.Test, the held-out examples, after every iteration.
type Validation struct {
	Problem  Problem  // Test holds the held-out examples and is required
	Settings Settings // the learner's settings for the run
	// Patience stops the run this many iterations after the held-out
	// accuracy last improved (0: only at the settings' own limits).
	Patience int
	// OnIteration, if not nil, is called after every iteration.
	OnIteration func(Iteration)
}

// Selection is the outcome of choosing the number of iterations on
// held-out training examples (see ChooseIterations).
type Selection struct {
	History []Iteration // TestAccuracy is the accuracy on the held-out examples
	// Models holds the model after every iteration (Learner.Model, implied
	// rules not removed), so that the chosen one can be examined further
	// (ChooseSupport).
	Models []*Hypothesis
	// Folds holds the run of every fold of a cross-validation
	// (ChooseIterationsCV), whose History is their pooled curve; nil for
	// a single held-out part.
	Folds   []*Selection
	Stop    Stop // why the run ended (StopNoGain: the held-out accuracy stopped improving)
	Elapsed time.Duration
	Held    int // held-out examples, counting multiplicities

	Best           int     // the iteration with the best held-out accuracy
	BestAccuracy   float64 // its accuracy
	StdErr         float64 // the standard error of BestAccuracy on Held examples
	Chosen         int     // the smallest iteration within one standard error of the best
	ChosenAccuracy float64
}

// StopNoGain ends a selection run whose held-out accuracy has not improved
// for the given patience.
const StopNoGain Stop = "held-out accuracy stopped improving"

// errNoGain is the cause of the cancellation that ends a validation run by
// its patience, told apart from the caller's own cancellation.
var errNoGain = errors.New(string(StopNoGain))

// ChooseIterations runs val, stopping val.Patience iterations after the
// held-out accuracy last improved (or at the settings' own limits), and
// chooses the number of iterations by the one-standard-error rule: the
// smallest iteration whose held-out accuracy is within one standard error
// of the best. Learning that many iterations on all the training data then
// keeps the theory as small as the data allow without tuning on the test
// set. It changes nothing it is given. When ctx is cancelled or its
// deadline passes, it returns ctx's error.
func ChooseIterations(ctx context.Context, val Validation) (*Selection, error) {
	held := val.Problem.Test
	if held == nil || len(held.List) == 0 {
		return nil, errors.New("learn: no held-out examples to choose the number of iterations on")
	}
	l, err := NewLearner(val.Problem, val.Settings)
	if err != nil {
		return nil, err
	}
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	best, bestAt := math.Inf(-1), 0
	var models []*Hypothesis
	l.OnIteration = func(it Iteration) {
		models = append(models, l.Hypothesis())
		if val.OnIteration != nil {
			val.OnIteration(it)
		}
		if it.TestAccuracy > best {
			best, bestAt = it.TestAccuracy, it.Iteration
		} else if val.Patience > 0 && it.Iteration-bestAt >= val.Patience {
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
	s := &Selection{History: l.History(), Models: models, Stop: stop, Elapsed: l.Elapsed(), Held: held.Total()}
	s.Chosen, s.Best, s.StdErr = oneStandardError(s.History, s.Held)
	if s.Chosen > 0 {
		s.ChosenAccuracy, s.BestAccuracy = s.History[s.Chosen-1].TestAccuracy, s.History[s.Best-1].TestAccuracy
	}
	return s, nil
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

// FromRules builds a training set from positive and negative rules.
func FromRules(v *logic.Vocabulary, pos, neg []logic.Rule) (*Examples, error) {
	ex := &Examples{}
	if err := ex.AddRules(pos, true, v, "defaults"); err != nil {
		return nil, err
	}
	if err := ex.AddRules(neg, false, v, "non-defaults"); err != nil {
		return nil, err
	}
	return ex, nil
}
