package learn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/strata-logic/strata/logic"
)

// The learning protocol is how strata learns a theory without tuning on
// test data: the learner's number of iterations, and with pruning the
// support a clause needs, are chosen on held-out parts of the training
// data, each scored the way the task is (its Task), by the
// one-standard-error rule or the best score (Settings.Rule); then the
// theory is learned on all the training data with the chosen number of
// iterations (the final run) and pruned at the chosen support. Learn runs
// it for every interface (learn.go); this file holds its steps after the
// validation (choose, validation.go): final and finish.

// Rule is how a protocol chooses the number of iterations on the held-out
// curve of its validation.
type Rule int

// The rules of choice.
const (
	// OneStandardError keeps the smallest iteration whose held-out score
	// is within one standard error of the best: the smallest theory the
	// held-out data cannot tell from the best (Breiman et al.'s rule).
	OneStandardError Rule = iota
	// BestScore keeps the iteration with the best held-out score, the
	// earliest of equal ones. Where the held-out curve still rises slowly
	// when the theory is already large (the answer tables of real
	// decisions), the one-standard-error rule stops a long way before
	// the best and loses accuracy the held-out data measured; this rule
	// keeps it, at the price of a larger theory.
	BestScore
	// Paired keeps the smallest iteration whose held-out score is below
	// the best's by at most one standard error of their paired
	// difference: the two hypotheses are scored on the same held-out
	// cases, most of which both answer alike, so the error of the
	// difference, the square root of the (weighted) cases they answer
	// differently over the total, is a fraction of the error of either
	// score, which OneStandardError uses. Where the curve rises, it keeps
	// near the best; on a plateau, where the best iteration is the
	// noise's choice among equals, it keeps the plateau's first. It needs
	// tasks that score their cases apart (CaseTask).
	Paired
)

// String names the rule as the command line does.
func (r Rule) String() string {
	switch r {
	case OneStandardError:
		return "one-se"
	case BestScore:
		return "best"
	case Paired:
		return "paired"
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// ParseRule returns the rule named s (String's names).
func ParseRule(s string) (Rule, error) {
	for _, r := range []Rule{OneStandardError, BestScore, Paired} {
		if s == r.String() {
			return r, nil
		}
	}
	return 0, fmt.Errorf("learn: unknown rule of choice %q (want one-se, best or paired)", s)
}

// The validation runs' share of the protocol's learning time, in tenths:
// one held-out part runs on most of the data once, folds several times.
const (
	holdOutTenths = 4
	foldsTenths   = 6
)

// Fold is a held-out part of the training data: a validation run learns
// Train and scores Held after every iteration.
type Fold struct {
	Train *Examples
	Held  Task
	// Vocab and Hard, when Vocab is not nil, are the vocabulary and hard
	// rules the folds are learned in, when they are not the problem's (a
	// table's folds, each encoded on its own rows, share a vocabulary of
	// all their atoms): the same for every fold of a problem.
	Vocab *logic.Vocabulary
	Hard  []logic.Clause
}

// protocol says how a theory is learned: Settings.protocol, every default
// applied. A zero field has no effect: with no Folds nothing is chosen,
// and the theory is learned with Settings as they are.
type protocol struct {
	// Settings are those of every learning run. Settings.Timeout bounds
	// the learning time of the whole protocol: the validation runs share
	// 40% of it (one held-out part) or 60% (folds, an equal share each),
	// and the final run has what they leave (at least a second).
	Settings config
	// Folds are the held-out parts the iterations are chosen on: one
	// held-out part, or the folds of a cross-validation (every training
	// example held out once), whose held-out scores are pooled iteration
	// by iteration.
	Folds []Fold
	// ValidationPatience stops a validation run this many iterations after
	// its held-out score last improved (0: only at the limits of
	// Settings).
	ValidationPatience int
	// Rule chooses the number of iterations on the held-out curve.
	Rule Rule
	// Restarts, after a validation chose the iterations, repeats the
	// final run with other seeds, this many runs in all, and keeps the
	// hypothesis with the best training score (restarts.go; 0 or 1: one
	// run).
	Restarts int
	// PruneShare turns on reduced-support pruning (Settings.Prune) up to
	// this share of the training weight (0: no pruning).
	PruneShare float64
	// Parallel bounds the folds that run at once. 0 runs as many as
	// Settings.Threads allow, each with an equal share of them (the
	// learner gains little from a second thread, a second fold nearly
	// doubles the speed); 1 runs them one after the other. The choice
	// does not depend on it, unless a fold runs out of time.
	Parallel int
	// OnValidation, if not nil, is called after every iteration of a
	// validation run with the fold's index; folds that run at once call
	// it concurrently.
	OnValidation func(fold int, it Iteration)
}

// check refuses settings that have no meaning.
func (proto *protocol) check() error {
	switch {
	case proto.ValidationPatience < 0:
		return fmt.Errorf("learn: validation patience %d: it cannot be negative (0: never)", proto.ValidationPatience)
	case !(proto.PruneShare >= 0 && proto.PruneShare < 1):
		return fmt.Errorf("learn: prune share %v outside [0, 1) (0: no pruning)", proto.PruneShare)
	case proto.Rule != OneStandardError && proto.Rule != BestScore && proto.Rule != Paired:
		return fmt.Errorf("learn: invalid rule of choice %d", proto.Rule)
	case proto.Restarts < 0:
		return fmt.Errorf("learn: %d restarts: the number cannot be negative (0: one run)", proto.Restarts)
	case proto.Parallel < 0:
		return fmt.Errorf("learn: %d folds at once: the number cannot be negative (0: as the threads allow)", proto.Parallel)
	}
	for i, f := range proto.Folds {
		if f.Train == nil || len(f.Train.List) == 0 {
			return fmt.Errorf("learn: fold %d of %d has no training examples", i+1, len(proto.Folds))
		}
		if f.Held == nil || len(f.Held.Queries().List) == 0 {
			return fmt.Errorf("learn: fold %d of %d holds out nothing to score", i+1, len(proto.Folds))
		}
		if _, ok := f.Held.(CaseTask); proto.Rule == Paired && !ok {
			return fmt.Errorf("learn: fold %d of %d: the rule %s needs a held-out task that scores its cases apart (%T does not)", i+1, len(proto.Folds), Paired, f.Held)
		}
	}
	return proto.Settings.check()
}

// final returns the settings of the final run after the selection sel
// (nil: nothing was chosen): proto.Settings with the chosen number of
// iterations (the limit of Settings when the validation made none or its
// curve is censored) and the learning time the validation left.
//
// A censored curve (Selection.Censored) was still rising when the
// validation's time ran out, as on a large table whose held-out parts each
// have a fifth of the time: capping the final run, which has more time,
// at the iterations the held-out parts managed would stop it where the
// only evidence is that more helped. It then learns to the limits of
// Settings (iterations, time, patience), as the validation would have with
// more time (TestFinalCensored). A saturated curve (Selection.Saturated)
// does the same: its held-out parts were right on every example, and the
// final run learns until it is right on every training example, which
// on more examples can take more iterations than the held-out parts'
// runs needed.
func (proto *protocol) final(sel *Selection) config {
	s := proto.Settings
	if sel == nil {
		return s
	}
	if sel.Chosen > 0 && !sel.ToLimits() {
		s.Iterations = sel.Chosen
	}
	if s.Timeout > 0 {
		s.Timeout = max(s.Timeout-sel.Elapsed, time.Second)
	}
	return s
}

// outcome is the end of a protocol: the final run and its pruned
// hypothesis.
type outcome struct {
	Selection *Selection // what the validation chose; nil without folds
	Learner   *Learner   // of the final run whose hypothesis was kept
	Stop      Stop       // why the final run ended
	// Hypothesis is the final run's (Learner.Final), pruned at the chosen
	// support, and TrainAccuracy its accuracy on the training examples.
	Hypothesis    *Hypothesis
	TrainAccuracy float64
	// Runs is the number of final runs (restarts), Kept the one whose
	// hypothesis was kept (0: the first, whose learner was given to
	// finish).
	Runs, Kept int
	// Elapsed is the learning time of the final runs (Learner.Elapsed of
	// each).
	Elapsed time.Duration
	// Pruning is what pruning did; nil when nothing was chosen to prune
	// at, or the final run was interrupted.
	Pruning *Pruning
}

// Pruning is the reduced-support pruning of a final hypothesis: every
// clause that at most Threshold training examples (by weight) need went.
type Pruning struct {
	Threshold     int64
	Before, After int // literals
	TrainAccuracy float64
	Elapsed       time.Duration
}

// finish runs l, the final run's learner (of p with proto.final(sel), or
// resumed), to its end, runs the restarts, prunes the hypothesis at the
// support sel chose and states p.Fallback below it (withFallbacks). After
// every iteration of final run k (from 0), it calls onIteration, if not
// nil, with the run's learner.
func (proto *protocol) finish(ctx context.Context, p Problem, sel *Selection, l *Learner, onIteration func(k int, l *Learner, it Iteration)) (*outcome, error) {
	if onIteration != nil {
		l.OnIteration = func(it Iteration) { onIteration(0, l, it) }
	}
	stop, err := l.Run(ctx)
	if err != nil {
		return nil, err
	}
	out := &outcome{Selection: sel, Learner: l, Stop: stop, Hypothesis: l.Final(), TrainAccuracy: l.TrainAccuracy(), Runs: 1, Elapsed: l.Elapsed()}
	if err := proto.restart(ctx, p, sel, out, onIteration); err != nil {
		return nil, err
	}
	learned := out.Hypothesis
	if err := proto.prune(ctx, p, sel, l, out); err != nil {
		return nil, err
	}
	var covered []bool
	if out.Stop != StopCancelled {
		out.Hypothesis, covered = withFallbacks(out.Hypothesis, p, proto.Settings, out.Learner.covers)
	}
	if out.Hypothesis != learned {
		// Scored once for pruning and the fallback together.
		if covered == nil {
			covered = out.Learner.covers(out.Hypothesis)
		}
		correct, total := scoreCovered(p.Train, covered)
		out.TrainAccuracy = float64(correct) / float64(max(total, 1))
	}
	return out, nil
}

// prune prunes out's hypothesis at the support sel chose, if it chose one
// and the final run was not cancelled; finish scores what it leaves.
func (proto *protocol) prune(ctx context.Context, p Problem, sel *Selection, l *Learner, out *outcome) error {
	if out.Stop == StopCancelled || sel == nil || sel.Support == nil {
		return nil
	}
	start := time.Now()
	t := sel.Support.Threshold(p.Train.Total())
	pr := &Pruning{Threshold: t, Before: out.Hypothesis.NumLiterals(), TrainAccuracy: out.TrainAccuracy}
	if t > 0 {
		h, err := pruneSupport(ctx, p, out.Hypothesis, proto.Settings, t)
		if errors.Is(err, ctx.Err()) && ctx.Err() != nil {
			out.Stop = l.ctxStop(ctx)
			return nil
		}
		if err != nil {
			return err
		}
		out.Hypothesis = h
	}
	pr.After, pr.Elapsed = out.Hypothesis.NumLiterals(), time.Since(start)
	out.Pruning = pr
	return nil
}
