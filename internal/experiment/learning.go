package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
)

// Holdout is how a reproduction holds out a subject's training data to
// choose on (learn.Holdout: by whole annotators, evidence formulas), and
// what a person is told about it.
type Holdout interface {
	learn.Holdout
	// What says what a group is, plural: "annotators", "evidence
	// formulas".
	What() string
	// Scored says what a held-out part is scored on: "examples" (binary
	// accuracy) or "situations" (the multi-class answer).
	Scored() string
	// Name writes a group as a person reads it.
	Name(group string) string
	// Skipped says why nothing is held out when err says the groups are
	// too few (learn.ErrTooFew).
	Skipped(err error) string
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
	// hypothesis (see learn.Settings.Prune); nil when it did not run.
	Pruned *learn.Pruning
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

// Validation is the choice of the number of iterations (and with pruning
// the support) on held-out training data.
type Validation struct {
	// Skipped says why there was no validation run; the other fields are
	// then zero.
	Skipped string

	HeldOut     []string // the held-out groups (annotators, evidence formulas); every group for a cross-validation
	Scored      string   // what a held-out part is scored on (Holdout.Scored)
	FitExamples int      // training examples learned from (by each fold of a cross-validation, on average)
	Folds       int      // the folds of a cross-validation; 0 for one held-out part
	// Selection is the validation: its Held total was scored after every
	// iteration.
	learn.Selection
}

// Learn learns the theory of the subject name under sem from p by
// learn.Learn, its training data held out by h to choose the number of
// iterations on (with the share of the timeout the protocol gives the
// validation; nothing is held out when h's groups are too few, and the
// validation says why). The learning histories go to validation.csv (for
// a cross-validation the pooled curve, and each fold's in
// validation-foldN.csv) and history.csv in dir, or in its subdirectory
// semanticsDir names.
func Learn(ctx context.Context, s *Settings, sem possibilistic.Semantics, name string, p learn.Problem, h Holdout, dir string) (*Learning, error) {
	dir, err := semanticsDir(dir, sem)
	if err != nil {
		return nil, err
	}
	subject := name
	if sem != possibilistic.Poss {
		subject += " " + sem.String()
	}
	p.Holdout = h
	ls := s.learning(sem)
	lr := &Learning{Examples: p.Train.Total()}
	plan, err := learn.NewPlan(p, ls)
	if err != nil && errors.Is(err, learn.ErrTooFew) {
		lr.Validation = &Validation{Skipped: h.Skipped(errors.Unwrap(err))}
		ls.Folds, ls.Validation, ls.Prune = 0, learn.None, false
		plan, err = learn.NewPlan(p, ls)
	}
	if err != nil {
		return nil, err
	}
	if folds := plan.Folds(); len(folds) > 0 {
		lr.Validation = announce(s, subject, h, folds, plan.HeldOut())
	}
	limit := max(ls.Defaulted().Iterations, 0) // of every run, before the final one's is known
	lr.Iterations = limit
	res, err := plan.Learn(ctx, learn.RecorderFunc(func(e learn.Event) {
		switch {
		case e.Kind == learn.EventValidation:
			it := e.Iteration
			s.Emit(Event{Subject: subject, Step: "validate", Iteration: &it, MaxIterations: limit})
		case e.Kind == learn.EventFinal:
			lr.Iterations = e.Iterations
			msg := fmt.Sprintf("learning on all %d training examples, at most %d iterations", lr.Examples, e.Iterations)
			if e.Timeout > 0 {
				msg += fmt.Sprintf(", %s", e.Timeout.Round(time.Second))
			}
			s.Emit(Event{Subject: subject, Step: "learn", Message: msg})
		case e.Kind == learn.EventIteration && e.Run == 0:
			it := e.Iteration
			s.Emit(Event{Subject: subject, Step: "learn", Iteration: &it, MaxIterations: lr.Iterations})
		}
	}))
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if sel := res.Selection; sel != nil {
		lr.Validation.Selection = *sel
		if err := writeHistory(filepath.Join(dir, "validation.csv"), sel.History); err != nil {
			return nil, err
		}
		for i, f := range sel.Folds {
			if err := writeHistory(filepath.Join(dir, fmt.Sprintf("validation-fold%d.csv", i+1)), f.History); err != nil {
				return nil, err
			}
		}
	}
	lr.Hypothesis, lr.History, lr.Stop, lr.Elapsed, lr.TrainAccuracy = res.Hypothesis, res.History, res.Stop, res.Elapsed, res.TrainAccuracy
	if lr.Pruned = res.Pruning; lr.Pruned != nil && lr.Pruned.Threshold > 0 {
		s.Emit(Event{Subject: subject, Step: "prune", Message: fmt.Sprintf(
			"pruned the clauses that at most %d of the %d training examples need: %d → %d literals",
			lr.Pruned.Threshold, lr.Examples, lr.Pruned.Before, lr.Pruned.After)})
	}
	if err := writeHistory(filepath.Join(dir, "history.csv"), lr.History); err != nil {
		return nil, err
	}
	return lr, nil
}

// announce says how the validation on folds (one held-out part, or the
// folds of a cross-validation) holds out the training data, and returns
// the validation to fill in.
func announce(s *Settings, subject string, h Holdout, folds []learn.Fold, held []string) *Validation {
	val := &Validation{Scored: h.Scored()}
	for _, g := range held {
		val.HeldOut = append(val.HeldOut, h.Name(g))
	}
	k := len(folds)
	for _, f := range folds {
		val.FitExamples += f.Train.Total()
	}
	val.FitExamples /= k
	if k > 1 {
		val.Folds = k
		s.Emit(Event{Subject: subject, Step: "validate", Message: fmt.Sprintf(
			"choosing the number of iterations by %d-fold cross-validation: learning on about %d training examples and scoring the %s of the others, %d times (%d %s)",
			k, val.FitExamples, val.Scored, k, len(held), h.What())})
	} else {
		s.Emit(Event{Subject: subject, Step: "validate", Message: fmt.Sprintf(
			"choosing the number of iterations: learning on %d training examples, scoring the %s of %d %s held out",
			val.FitExamples, val.Scored, len(held), h.What())})
	}
	return val
}

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
// to: dir itself for poss (the paper's, whose files keep their names),
// dir/NAME otherwise.
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
