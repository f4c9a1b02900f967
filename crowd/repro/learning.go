package repro

import (
	"context"

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
	dir, err = experiment.SemanticsDir(dir, sem)
	if err != nil {
		return nil, err
	}
	subject := d.Name
	if sem != possibilistic.Poss {
		subject += " " + sem.String()
	}
	return experiment.Learn(ctx, opts.settings(sem), subject, ds.Vocab, train, ds.Hard, split, dir, opts.Progress)
}

// validationSplit holds out a share of the training annotators, with
// examples drawn for them as for the test annotators.
func validationSplit(opts *Options, ds *crowd.Datasets) (*experiment.Split, error) {
	sub, err := crowd.SplitByAnnotator(ds.Split.Train, opts.Validation, opts.Seed+1)
	if err != nil {
		return &experiment.Split{Skipped: err.Error()}, nil
	}
	rng := crowd.NewRand(opts.Seed ^ 0x7a11da7e)
	fp, fn := crowd.Examples(ds.Vocab, ds.Actions, sub.Train, rng)
	vp, vn := crowd.Examples(ds.Vocab, ds.Actions, sub.Test, rng)
	fit, err := learn.FromRules(ds.Vocab, fp, fn)
	if err != nil {
		return nil, err
	}
	held, err := learn.FromRules(ds.Vocab, vp, vn)
	if err != nil {
		return nil, err
	}
	return &experiment.Split{Fit: fit, Held: held, HeldOut: crowd.Annotators(sub.Test), What: "annotators"}, nil
}
