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

// Split is how a subject's training data are held out to choose on: the
// folds of learn.Protocol, and what a person is told about them.
type Split struct {
	Folds   []learn.Fold // one held-out part, or the folds of a cross-validation
	HeldOut []string     // the held-out groups, for a person: annotators, evidence formulas; every group for folds
	What    string       // what a group is, plural: "annotators", "evidence formulas"
	// Scored says what a held-out part is scored on, for a person:
	// "examples" (binary accuracy) or "situations" (the multi-class
	// answer).
	Scored string
	// Skipped says why nothing is held out (too few groups); Folds is
	// then empty.
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
	// hypothesis (see Settings.Prune); nil when it did not run.
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
	Scored      string   // what a held-out part is scored on (Split.Scored)
	FitExamples int      // training examples learned from (by each fold of a cross-validation, on average)
	Folds       int      // the folds of a cross-validation; 0 for one held-out part
	// Selection is the validation: its Held total was scored after every
	// iteration.
	learn.Selection
}

// Learn runs the learning protocol (learn.Protocol) for the subject name
// under sem: it chooses the number of iterations on split, when it is not
// nil (with the share of s.Timeout the protocol gives the validation), and
// learns the theory on all of train with that many iterations and the
// rest of the time. The learning histories go to validation.csv (for a
// cross-validation the pooled curve, and each fold's in
// validation-foldN.csv) and history.csv in dir, or in its subdirectory
// semanticsDir names.
func Learn(ctx context.Context, s *Settings, sem possibilistic.Semantics, name string, v *logic.Vocabulary, train *learn.Examples, hard []logic.Clause, split *Split, dir string) (*Learning, error) {
	dir, err := semanticsDir(dir, sem)
	if err != nil {
		return nil, err
	}
	subject := name
	if sem != possibilistic.Poss {
		subject += " " + sem.String()
	}
	p := learn.Problem{Vocab: v, Train: train, Hard: hard}
	proto := learn.Protocol{Settings: s.learner(sem), ValidationPatience: s.ValidationPatience, Rule: s.Rule, Restarts: s.Restarts}
	if s.Prune {
		proto.PruneShare = learn.DefaultPruneShare
	}
	lr := &Learning{Iterations: s.Iterations, Examples: train.Total()}
	if split != nil {
		if lr.Validation, err = validate(ctx, s, subject, p, &proto, split); err != nil {
			return nil, err
		}
	}
	var sel *learn.Selection
	if lr.Validation != nil && lr.Validation.Skipped == "" {
		sel = &lr.Validation.Selection
		if err := writeHistory(filepath.Join(dir, "validation.csv"), sel.History); err != nil {
			return nil, err
		}
		for i, f := range sel.Folds {
			if err := writeHistory(filepath.Join(dir, fmt.Sprintf("validation-fold%d.csv", i+1)), f.History); err != nil {
				return nil, err
			}
		}
	}
	final := proto.Final(sel)
	lr.Iterations = final.Iterations
	msg := fmt.Sprintf("learning on all %d training examples, at most %d iterations", lr.Examples, lr.Iterations)
	if final.Timeout > 0 {
		msg += fmt.Sprintf(", %s", final.Timeout.Round(time.Second))
	}
	s.Emit(Event{Subject: subject, Step: "learn", Message: msg})
	l, err := learn.NewLearner(p, final)
	if err != nil {
		return nil, err
	}
	l.OnIteration = func(it learn.Iteration) {
		s.Emit(Event{Subject: subject, Step: "learn", Iteration: &it, MaxIterations: lr.Iterations})
	}
	out, err := proto.Finish(ctx, p, sel, l)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lr.Hypothesis, lr.History, lr.Stop, lr.Elapsed, lr.TrainAccuracy = out.Hypothesis, out.Learner.History(), out.Stop, out.Elapsed, out.TrainAccuracy
	if lr.Pruned = out.Pruning; lr.Pruned != nil && lr.Pruned.Threshold > 0 {
		s.Emit(Event{Subject: subject, Step: "prune", Message: fmt.Sprintf(
			"pruned the clauses that at most %d of the %d training examples need: %d → %d literals",
			lr.Pruned.Threshold, train.Total(), lr.Pruned.Before, lr.Pruned.After)})
	}
	if err := writeHistory(filepath.Join(dir, "history.csv"), lr.History); err != nil {
		return nil, err
	}
	return lr, nil
}

// validate chooses on split (learn.Choose): on one held-out part, or on
// every fold and the pooled curve of a cross-validation.
func validate(ctx context.Context, s *Settings, subject string, p learn.Problem, proto *learn.Protocol, split *Split) (*Validation, error) {
	if split.Skipped != "" || len(split.Folds) == 0 {
		return &Validation{Skipped: split.Skipped}, nil
	}
	val := &Validation{HeldOut: split.HeldOut, Scored: split.Scored}
	k := len(split.Folds)
	for _, f := range split.Folds {
		val.FitExamples += f.Train.Total()
	}
	val.FitExamples /= k
	var emit sync.Mutex // folds that run at once report at once
	proto.Folds = split.Folds
	proto.OnValidation = func(_ int, it learn.Iteration) {
		emit.Lock()
		defer emit.Unlock()
		s.Emit(Event{Subject: subject, Step: "validate", Iteration: &it, MaxIterations: s.Iterations})
	}
	if k > 1 {
		val.Folds = k
		s.Emit(Event{Subject: subject, Step: "validate", Message: fmt.Sprintf(
			"choosing the number of iterations by %d-fold cross-validation: learning on about %d training examples and scoring the %s of the others, %d times (%d %s)",
			k, val.FitExamples, split.Scored, k, len(split.HeldOut), split.What)})
	} else {
		s.Emit(Event{Subject: subject, Step: "validate", Message: fmt.Sprintf(
			"choosing the number of iterations: learning on %d training examples, scoring the %s of %d %s held out",
			val.FitExamples, split.Scored, len(split.HeldOut), split.What)})
	}
	sel, err := learn.Choose(ctx, p, *proto)
	if err != nil {
		return nil, err
	}
	val.Selection = *sel
	return val, nil
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
