package server

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/strata-logic/strata/learn"
)

// validation is a run's first phase with learnRequest.Folds or
// Validation: the protocol's validation on its folds (one for a held-out
// part), after which the run learns on all the examples with the chosen
// iterations.
type validation struct {
	folds []learn.Fold

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
	Fold, Folds int
	Iteration   learn.Iteration
}

// MarshalJSON writes the step as its iteration does (learn.Iteration),
// with "fold" and "folds" first in a cross-validation.
func (st validationStep) MarshalJSON() ([]byte, error) {
	it, err := json.Marshal(st.Iteration)
	if err != nil || st.Folds == 0 {
		return it, err
	}
	return append(fmt.Appendf(nil, `{"fold":%d,"folds":%d,`, st.Fold, st.Folds), bytes.TrimPrefix(it, []byte("{"))...), nil
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
	History []learn.Iteration `json:"history"`
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
	v := &validationView{History: []learn.Iteration{}}
	if val.sel != nil {
		v.History = viewHistory(val.sel.History)
	} else if n := len(val.steps); n > 0 { // the running fold's steps
		fold := val.steps[n-1].Fold
		i := n
		for i > 0 && val.steps[i-1].Fold == fold {
			i--
		}
		for _, st := range val.steps[i:] {
			v.History = append(v.History, st.Iteration)
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
