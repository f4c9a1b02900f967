package server

import (
	"context"

	"github.com/strata-logic/strata/learn"
)

// validation is a run's first phase with learnRequest.Folds or
// Validation: the protocol's validation on its folds (one for a held-out
// part), after which the run learns on all the examples with the chosen
// iterations.
type validation struct {
	folds []learn.Fold
	// problem is the vocabulary and hard rules the folds are learned in,
	// when they are not the run's (a table's folds, each with its own cut
	// points: table.Problem.Validation).
	problem learn.Problem

	// Filled in as the phase runs, under the run's lock.
	steps   []validationStep // every iteration of every fold, in order
	sel     *learn.Selection
	support *learn.SupportSelection
	pruned  int64 // the threshold the final theory was pruned at; -1 before
}

// validationStep is an iteration of the validation phase, for the event
// stream: of fold Fold of Folds in a cross-validation (both 0 for one
// held-out part).
type validationStep struct {
	Fold  int `json:"fold,omitempty"`
	Folds int `json:"folds,omitempty"`
	iterationView
}

// validationView is a run's validation phase for JSON.
type validationView struct {
	FitExamples  int `json:"fit_examples"`  // of a fold, on average
	HeldExamples int `json:"held_examples"` // of all folds
	// Folds and Fold are the folds of a cross-validation and the one
	// running (from 1); both are 0 for one held-out part.
	Folds int `json:"folds,omitempty"`
	Fold  int `json:"fold,omitempty"`
	// History is the running fold's, then the pooled one (test_accuracy:
	// on the held-out examples).
	History []iterationView `json:"history"`
	// Set once the phase ends: the best iteration, the chosen one (the
	// one-standard-error rule) and with prune the pruning threshold, in
	// training examples.
	Best           int     `json:"best,omitempty"`
	BestAccuracy   float64 `json:"best_accuracy,omitempty"`
	Chosen         int     `json:"chosen,omitempty"`
	ChosenAccuracy float64 `json:"chosen_accuracy,omitempty"`
	StdErr         float64 `json:"std_err,omitempty"`
	// Censored: the curve was at its best when the validation's time ran
	// out, so the final run learns to the limits (learn.Selection.Censored).
	Censored bool `json:"censored,omitempty"`
	// Saturated: every held-out example was right at the chosen
	// iteration, so the final run learns to the limits as well
	// (learn.Selection.Saturated).
	Saturated      bool   `json:"saturated,omitempty"`
	PruneThreshold *int64 `json:"prune_threshold,omitempty"`
}

func (val *validation) view() *validationView {
	v := &validationView{History: []iterationView{}}
	if val.sel != nil {
		v.History = viewHistory(val.sel.History)
	} else if n := len(val.steps); n > 0 { // the running fold's steps
		fold := val.steps[n-1].Fold
		i := n
		for i > 0 && val.steps[i-1].Fold == fold {
			i--
		}
		for _, st := range val.steps[i:] {
			v.History = append(v.History, st.iterationView)
		}
		v.Fold = fold
	}
	for _, f := range val.folds {
		v.FitExamples += f.Train.Total()
		v.HeldExamples += f.Held.Queries().Total()
	}
	v.FitExamples /= len(val.folds)
	if len(val.folds) > 1 {
		v.Folds = len(val.folds)
	}
	if s := val.sel; s != nil {
		v.Best, v.BestAccuracy, v.Chosen, v.ChosenAccuracy, v.StdErr = s.Best, s.BestAccuracy, s.Chosen, s.ChosenAccuracy, s.StdErr
		v.Censored, v.Saturated = s.Censored(), s.Saturated()
	}
	if val.pruned >= 0 {
		t := val.pruned
		v.PruneThreshold = &t
	}
	return v
}

// validate runs the validation phase of rn (learn.Choose) and returns the
// selection and the learner of the final run, on all of p's training
// examples with the chosen iterations (proto.Final).
func (s *Server) validate(ctx context.Context, rn *run, p learn.Problem, proto learn.Protocol) (*learn.Selection, *learn.Learner, error) {
	val := rn.val
	proto.Folds = val.folds
	// One fold after the other: the run's view shows the running fold,
	// and a run's threads are the request's.
	proto.Parallel = 1
	proto.OnValidation = func(fold int, it learn.Iteration) {
		rn.update(func() {
			step := validationStep{iterationView: viewIteration(it)}
			if len(val.folds) > 1 {
				step.Fold, step.Folds = fold+1, len(val.folds)
			}
			val.steps = append(val.steps, step)
		})
	}
	vp := p
	if val.problem.Vocab != nil {
		vp = val.problem
	}
	sel, err := learn.Choose(ctx, vp, proto)
	if err != nil {
		return nil, nil, err
	}
	rn.update(func() { val.sel, val.support = sel, sel.Support })
	l, err := learn.NewLearner(p, proto.Final(sel))
	if err != nil {
		return nil, nil, err
	}
	rn.observe(l)
	return sel, l, nil
}
