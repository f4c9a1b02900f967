package experiment

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Split is a validation split of the training examples: the learner
// learns from Fit and is scored on Held after every iteration. A
// cross-validation has no Fit and Held of its own but Folds, one split
// per fold.
type Split struct {
	Fit, Held *learn.Examples
	HeldOut   []string // the held-out groups, for a person: annotators, evidence formulas
	What      string   // what a group is, plural: "annotators", "evidence formulas"
	// Folds are the folds of a cross-validation: Folds[i].Held is fold i
	// and Folds[i].Fit the others. HeldOut then lists every group.
	Folds []*Split
	// Skipped says why there is no split (too few groups to hold some
	// out); the other fields are then zero.
	Skipped string
}

// Learning says how a theory was learned.
type Learning struct {
	Hypothesis *learn.Hypothesis
	Validation *Validation // how the number of iterations was chosen; nil without validation

	Iterations    int // the iteration limit of the final run
	Examples      int // training examples learned from, counting multiplicities
	History       []learn.Iteration
	Stop          learn.Stop
	Elapsed       time.Duration
	TrainAccuracy float64

	// Pruned is what reduced-support pruning removed from the final run's
	// model (see Settings.Prune); nil when it did not run.
	Pruned *Pruning
}

// Pruning is the reduced-support pruning of a final model: every clause
// whose support on the training examples was at most Threshold went.
type Pruning struct {
	Threshold     int64 // in training examples, by weight
	Before, After int   // literals
	Elapsed       time.Duration
	TrainAccuracy float64 // of the model before pruning
}

// Total returns the learning time, validation included.
func (lr *Learning) Total() time.Duration {
	t := lr.Elapsed
	if lr.Pruned != nil {
		t += lr.Pruned.Elapsed
	}
	if lr.Validation != nil {
		t += lr.Validation.Elapsed + lr.Validation.SupportElapsed
	}
	return t
}

// Validation is the run that chose the number of iterations on held-out
// training examples.
type Validation struct {
	// Skipped says why there was no validation run; the other fields are
	// then zero.
	Skipped string

	HeldOut     []string // the held-out groups (annotators, evidence formulas); every group for a cross-validation
	FitExamples int      // training examples learned from (by each fold of a cross-validation, on average)
	Folds       int      // the folds of a cross-validation; 0 for one held-out part
	// Selection is the validation run; its Held examples were scored after
	// every iteration.
	learn.Selection
	// Support is the choice of the support a clause needs, made on the
	// chosen iteration's model; nil when pruning is off.
	Support        *learn.SupportSelection
	SupportElapsed time.Duration
}

// Learn chooses the number of iterations under sem on split, when it is
// not nil, with 40% of s.Timeout (60% for a cross-validation, shared by its
// folds), and learns the theory of the subject
// name on all of train with that many iterations and the rest of the time.
// The learning histories go to validation.csv (for a cross-validation
// the pooled curve, and each fold's in validation-foldN.csv) and
// history.csv in dir, or
// in its subdirectory semanticsDir names.
func Learn(ctx context.Context, s *Settings, sem possibilistic.Semantics, name string, v *logic.Vocabulary, train *learn.Examples, hard []logic.Clause, split *Split, dir string) (*Learning, error) {
	dir, err := semanticsDir(dir, sem)
	if err != nil {
		return nil, err
	}
	subject := name
	if sem != possibilistic.Poss {
		subject += " " + sem.String()
	}
	lr := &Learning{Iterations: s.Iterations, Examples: train.Total()}
	budget := s.Timeout
	if split != nil {
		share := time.Duration(4) // tenths of the budget for validation
		if len(split.Folds) > 0 {
			share = 6 // several runs, each on most of the examples
		}
		val, err := validate(ctx, s, sem, subject, v, hard, split, budget*share/10)
		if err != nil {
			return nil, err
		}
		lr.Validation = val
		if val.Chosen > 0 {
			lr.Iterations = val.Chosen
		}
		if budget > 0 {
			budget = max(budget-val.Elapsed, time.Second)
		}
		if val.Skipped == "" {
			if err := writeHistory(filepath.Join(dir, "validation.csv"), val.History); err != nil {
				return nil, err
			}
			for i, f := range val.Selection.Folds {
				if err := writeHistory(filepath.Join(dir, fmt.Sprintf("validation-fold%d.csv", i+1)), f.History); err != nil {
					return nil, err
				}
			}
		}
	}
	msg := fmt.Sprintf("learning on all %d training examples, at most %d iterations", lr.Examples, lr.Iterations)
	if budget > 0 {
		msg += fmt.Sprintf(", %s", budget.Round(time.Second))
	}
	s.Emit(Event{Subject: subject, Step: "learn", Message: msg})
	l, err := learn.NewLearner(learn.Problem{Vocab: v, Train: train, Hard: hard}, s.learner(sem, lr.Iterations, budget))
	if err != nil {
		return nil, err
	}
	l.OnIteration = func(it learn.Iteration) {
		s.Emit(Event{Subject: subject, Step: "learn", Iteration: &it, MaxIterations: lr.Iterations})
	}
	if lr.Stop, err = l.Run(ctx); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lr.Hypothesis, lr.History, lr.Elapsed, lr.TrainAccuracy = l.Final(), l.History(), l.Elapsed(), l.TrainAccuracy()
	if err := writeHistory(filepath.Join(dir, "history.csv"), lr.History); err != nil {
		return nil, err
	}
	if lr.Validation != nil && lr.Validation.Support != nil {
		if err := prune(ctx, s, sem, subject, learn.Problem{Vocab: v, Train: train, Hard: hard}, lr); err != nil {
			return nil, err
		}
	}
	return lr, nil
}

// prune removes from lr's model every clause whose support on the training
// examples is at most the share that lr's validation chose.
func prune(ctx context.Context, s *Settings, sem possibilistic.Semantics, subject string, p learn.Problem, lr *Learning) error {
	start := time.Now()
	t := lr.Validation.Support.Threshold(p.Train.Total())
	pr := &Pruning{Threshold: t, Before: lr.Hypothesis.NumLiterals(), TrainAccuracy: lr.TrainAccuracy}
	if t > 0 {
		s.Emit(Event{Subject: subject, Step: "prune", Message: fmt.Sprintf(
			"pruning the clauses that at most %d of the %d training examples need", t, p.Train.Total())})
		m, err := learn.PruneSupport(ctx, p, lr.Hypothesis, s.learner(sem, 1, 0), t)
		if err != nil {
			return err
		}
		correct, total := learn.Score(m, p.Train, s.Threads, sem)
		lr.Hypothesis, lr.TrainAccuracy = m, float64(correct)/float64(max(total, 1))
	}
	pr.After, pr.Elapsed = lr.Hypothesis.NumLiterals(), time.Since(start)
	lr.Pruned = pr
	return nil
}

// validate learns on split.Fit, scores split.Held after every iteration,
// and chooses the number of iterations by the one-standard-error rule; or,
// for a cross-validation, does so on every fold and chooses on the pooled
// curve.
func validate(ctx context.Context, s *Settings, sem possibilistic.Semantics, subject string, v *logic.Vocabulary, hard []logic.Clause, split *Split, budget time.Duration) (*Validation, error) {
	if split.Skipped != "" {
		return &Validation{Skipped: split.Skipped}, nil
	}
	parts := split.Folds
	if len(parts) == 0 {
		parts = []*Split{split}
	}
	val := &Validation{HeldOut: split.HeldOut}
	var folds []learn.Validation
	held := 0
	var emit sync.Mutex // folds that run at once report at once
	for _, p := range parts {
		val.FitExamples += p.Fit.Total()
		held += p.Held.Total()
		folds = append(folds, learn.Validation{
			Problem:  learn.Problem{Vocab: v, Train: p.Fit, Hard: hard, Test: p.Held},
			Settings: s.learner(sem, s.Iterations, budget/time.Duration(len(parts))),
			Patience: s.ValidationPatience,
			OnIteration: func(it learn.Iteration) {
				emit.Lock()
				defer emit.Unlock()
				s.Emit(Event{Subject: subject, Step: "validate", Iteration: &it, MaxIterations: s.Iterations})
			},
		})
	}
	val.FitExamples /= len(parts)
	if len(split.Folds) > 0 {
		s.Emit(Event{Subject: subject, Step: "validate", Message: fmt.Sprintf(
			"choosing the number of iterations by %d-fold cross-validation: learning on about %d training examples and validating on about %d others, %d times (%d %s)",
			len(parts), val.FitExamples, held/len(parts), len(parts), len(split.HeldOut), split.What)})
	} else {
		s.Emit(Event{Subject: subject, Step: "validate", Message: fmt.Sprintf(
			"choosing the number of iterations: learning on %d training examples, validating on %d others (%d %s held out)",
			val.FitExamples, held, len(split.HeldOut), split.What)})
	}
	if len(split.Folds) > 0 {
		val.Folds = len(parts)
	}
	sel, err := learn.ChooseIterationsCV(ctx, learn.CrossValidation{Folds: folds})
	if err != nil {
		return nil, err
	}
	val.Selection = *sel
	if !s.Prune || sel.Chosen == 0 {
		return val, nil
	}
	start := time.Now()
	s.Emit(Event{Subject: subject, Step: "validate", Message: "choosing the support a clause needs on the held-out examples"})
	for i := range folds {
		folds[i].Settings = s.learner(sem, 1, 0)
	}
	sup, err := learn.ChooseSupportCV(ctx, folds, sel, MaxSupportShare)
	if err != nil {
		return nil, err
	}
	val.Support, val.SupportElapsed = sup, time.Since(start)
	return val, nil
}

// MaxSupportShare is the highest support, as a share of the training
// examples, that ChooseSupport tries as a pruning threshold.
const MaxSupportShare = 0.01

func writeHistory(path string, hist []learn.Iteration) error {
	return fileutil.WriteAtomic(path, func(w io.Writer) error { return learn.WriteHistoryCSV(w, hist) })
}

// Learned is a theory learned under one semantics and scored under it on
// the test examples.
type Learned struct {
	Semantics      possibilistic.Semantics
	Learning       *Learning
	Theory         *possibilistic.Theory // Learning.Hypothesis over the examples' atoms
	Correct, Total int
}

// Accuracy returns the test accuracy in [0, 1].
func (l *Learned) Accuracy() float64 {
	if l.Total == 0 {
		return 0
	}
	return float64(l.Correct) / float64(l.Total)
}

// Literals returns the theory's size as the paper counts it.
func (l *Learned) Literals() int { return l.Learning.Hypothesis.NumLiterals() }

// semanticsList returns sems with poss first (the paper's column, which the
// diagnostics read), each once; all three when sems is empty.
func semanticsList(sems []possibilistic.Semantics) []possibilistic.Semantics {
	out := []possibilistic.Semantics{possibilistic.Poss}
	if len(sems) == 0 {
		sems = possibilistic.AllSemantics
	}
	for _, s := range sems {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// semanticsDir returns the directory a run under sem writes its histories
// to: dir itself for poss (as before there were others), dir/NAME
// otherwise.
func semanticsDir(dir string, sem possibilistic.Semantics) (string, error) {
	if sem == possibilistic.Poss {
		return dir, nil
	}
	d := filepath.Join(dir, sem.String())
	return d, os.MkdirAll(d, 0o755)
}

// SemanticsColumn names a semantics in a results table.
func SemanticsColumn(sem possibilistic.Semantics) string {
	switch sem {
	case possibilistic.Poss:
		return "Poss."
	case possibilistic.Linear:
		return "Linear"
	case possibilistic.Lex:
		return "Lex"
	}
	return sem.String()
}
