package server

import (
	"context"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
)

// validation is a run's first phase with learnRequest.Validation or
// Folds: the learner learns on fits[i] and scores helds[i] after every
// iteration, for each fold i (one for a held-out part), and the run then
// learns on all the examples with the chosen iterations.
type validation struct {
	fits, helds []*learn.Examples
	patience    int
	prune       bool

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
	PruneThreshold *int64  `json:"prune_threshold,omitempty"`
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
	for i := range val.fits {
		v.FitExamples += val.fits[i].Total()
		v.HeldExamples += val.helds[i].Total()
	}
	v.FitExamples /= len(val.fits)
	if len(val.fits) > 1 {
		v.Folds = len(val.fits)
	}
	if s := val.sel; s != nil {
		v.Best, v.BestAccuracy, v.Chosen, v.ChosenAccuracy, v.StdErr = s.Best, s.BestAccuracy, s.Chosen, s.ChosenAccuracy, s.StdErr
	}
	if val.pruned >= 0 {
		t := val.pruned
		v.PruneThreshold = &t
	}
	return v
}

// validate runs the validation phase of rn and returns the learner of the
// final run, on all of p's training examples with the chosen iterations.
func (s *Server) validate(ctx context.Context, rn *run, p learn.Problem, opts learn.Settings) (*learn.Learner, error) {
	val := rn.val
	vopts := opts
	vopts.Patience = -1 // the held-out accuracy decides when to stop
	var folds []learn.Validation
	for i := range val.fits {
		folds = append(folds, learn.Validation{
			Problem:  learn.Problem{Vocab: p.Vocab, Train: val.fits[i], Hard: p.Hard, Test: val.helds[i]},
			Settings: vopts, Patience: val.patience,
			OnIteration: func(it learn.Iteration) {
				rn.update(func() {
					step := validationStep{iterationView: viewIteration(it)}
					if len(folds) > 1 {
						step.Fold, step.Folds = i+1, len(folds)
					}
					val.steps = append(val.steps, step)
				})
			},
		})
	}
	// One fold after the other: the run's view shows the running fold,
	// and a run's threads are the request's.
	sel, err := learn.ChooseIterationsCV(ctx, learn.CrossValidation{Folds: folds, Parallel: 1})
	if err != nil {
		return nil, err
	}
	var sup *learn.SupportSelection
	if val.prune && sel.Chosen > 0 {
		if sup, err = learn.ChooseSupportCV(ctx, folds, sel, experiment.MaxSupportShare); err != nil {
			return nil, err
		}
	}
	rn.update(func() { val.sel, val.support = sel, sup })
	opts.Iterations = max(sel.Chosen, 1)
	l, err := learn.NewLearner(p, opts)
	if err != nil {
		return nil, err
	}
	rn.observe(l, p.Vocab)
	return l, nil
}

// final returns the theory rn ends with: l's, pruned when the validation
// phase chose a support threshold.
func (s *Server) final(ctx context.Context, rn *run, l *learn.Learner, p learn.Problem, opts learn.Settings) (string, error) {
	m := l.Final()
	if val := rn.val; val != nil && val.support != nil && ctx.Err() == nil {
		t := val.support.Threshold(p.Train.Total())
		pruned, err := learn.PruneSupport(ctx, p, m, opts, t)
		if err != nil {
			return "", err
		}
		m = pruned
		rn.update(func() { val.pruned = t })
	}
	return m.Theory(p.Vocab).String(), nil
}
