package repro

import (
	"context"
	"fmt"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
)

// Learning says how a domain's theory was learned; its Validation's
// HeldOut are the held-out training annotators.
type Learning = experiment.Learning

// Validation is the run that chose the number of iterations on held-out
// training annotators.
type Validation = experiment.Validation

// learnTheory chooses the number of iterations on a validation split of
// the training annotators and learns the theory on all of them.
func learnTheory(ctx context.Context, opts *Options, d Domain, ds *crowd.Datasets, dir string, sem possibilistic.Semantics) (*Learning, error) {
	train, err := learn.FromRules(ds.Vocab, ds.TrainPos, ds.TrainNeg)
	if err != nil {
		return nil, err
	}
	var split *experiment.Split
	if opts.Validation > 0 {
		if split, err = validationSplit(opts, ds); err != nil {
			return nil, err
		}
	}
	return experiment.Learn(ctx, &opts.Settings, sem, d.Name, ds.Vocab, train, ds.Hard, split, dir)
}

// validationSplit holds out a share of the training annotators, with
// examples drawn for them as for the test annotators.
func validationSplit(opts *Options, ds *crowd.Datasets) (*experiment.Split, error) {
	fitAnswers, heldAnswers, annotators := experiment.HoldOut(ds.Split.Train, opts.Validation, opts.Seed,
		func(a crowd.Answer) string { return a.Annotator })
	if len(annotators) == 0 {
		return &experiment.Split{Skipped: fmt.Sprintf("%d training annotators are too few to hold out %.0f%%",
			len(crowd.Annotators(ds.Split.Train)), 100*opts.Validation)}, nil
	}
	rng := experiment.Rand(opts.Seed, experiment.ValidationExamples)
	fp, fn := crowd.Examples(ds.Vocab, ds.Actions, fitAnswers, rng)
	vp, vn := crowd.Examples(ds.Vocab, ds.Actions, heldAnswers, rng)
	fit, err := learn.FromRules(ds.Vocab, fp, fn)
	if err != nil {
		return nil, err
	}
	held, err := learn.FromRules(ds.Vocab, vp, vn)
	if err != nil {
		return nil, err
	}
	return &experiment.Split{Fit: fit, Held: held, HeldOut: annotators, What: "annotators"}, nil
}
