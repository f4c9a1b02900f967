package repro

import (
	"context"
	"fmt"
	"math/rand/v2"

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
// examples drawn for them as for the test annotators; or, with
// opts.Folds > 1, splits them into folds (crossValidationSplit).
func validationSplit(opts *Options, ds *crowd.Datasets) (*experiment.Split, error) {
	if opts.Folds > 1 {
		return crossValidationSplit(opts, ds)
	}
	fitAnswers, heldAnswers, annotators := experiment.HoldOut(ds.Split.Train, opts.Validation, opts.Seed, annotator)
	if len(annotators) == 0 {
		return &experiment.Split{Skipped: fmt.Sprintf("%d training annotators are too few to hold out %.0f%%",
			len(crowd.Annotators(ds.Split.Train)), 100*opts.Validation)}, nil
	}
	s, err := splitOf(ds, fitAnswers, heldAnswers, experiment.Rand(opts.Seed, experiment.ValidationExamples))
	if err != nil {
		return nil, err
	}
	s.HeldOut = annotators
	return s, nil
}

// crossValidationSplit splits the training annotators into opts.Folds
// folds, each fold's examples drawn as for the test annotators.
func crossValidationSplit(opts *Options, ds *crowd.Datasets) (*experiment.Split, error) {
	fold, groups := experiment.KFold(ds.Split.Train, opts.Folds, opts.Seed, annotator)
	if groups < opts.Folds {
		return &experiment.Split{Skipped: fmt.Sprintf("%d training annotators are too few for %d folds", groups, opts.Folds)}, nil
	}
	s := &experiment.Split{HeldOut: crowd.Annotators(ds.Split.Train), What: "annotators"}
	rng := experiment.Rand(opts.Seed, experiment.ValidationExamples)
	for f := range opts.Folds {
		var fitAnswers, heldAnswers []crowd.Answer
		for i, a := range ds.Split.Train {
			if fold[i] == f {
				heldAnswers = append(heldAnswers, a)
			} else {
				fitAnswers = append(fitAnswers, a)
			}
		}
		part, err := splitOf(ds, fitAnswers, heldAnswers, rng)
		if err != nil {
			return nil, err
		}
		s.Folds = append(s.Folds, part)
	}
	return s, nil
}

// splitOf draws the examples of the answers to learn from and of the
// held-out ones.
func splitOf(ds *crowd.Datasets, fitAnswers, heldAnswers []crowd.Answer, rng *rand.Rand) (*experiment.Split, error) {
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
	return &experiment.Split{Fit: fit, Held: held, What: "annotators"}, nil
}

// annotator names the group of an answer.
func annotator(a crowd.Answer) string { return a.Annotator }
