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

// Validation is the choice of the number of iterations on held-out
// training annotators.
type Validation = experiment.Validation

// learnTheory chooses the number of iterations on held-out training
// annotators and learns the theory on all of them (learn.Protocol).
func learnTheory(ctx context.Context, opts *Options, d Domain, ds *crowd.Datasets, dir string, sem possibilistic.Semantics) (*Learning, error) {
	tp, tn := ds.TrainPos, ds.TrainNeg
	if opts.Typical {
		tp, tn = crowd.TypicalExamples(ds.Vocab, ds.Actions, ds.Split.Train, experiment.Rand(opts.Seed, experiment.TrainingExamples))
	}
	train, err := learn.FromRules(ds.Vocab, tp, tn)
	if err != nil {
		return nil, err
	}
	split, err := validationSplit(opts, ds)
	if err != nil {
		return nil, err
	}
	return experiment.Learn(ctx, &opts.Settings, sem, d.Name, ds.Vocab, train, ds.Hard, split, dir)
}

// validationSplit holds out training annotators (learn.SplitGroups): with
// opts.Folds 2 or more in that many folds, with 1 a share opts.Validation
// of them; nil with nothing to hold out. Each part learns from the others'
// examples, drawn as the final run's are, and is scored as the test
// is: the most typical action of each of its situations (crowd.Task).
func validationSplit(opts *Options, ds *crowd.Datasets) (*experiment.Split, error) {
	s, err := learn.SplitGroups(ds.Split.Train, annotator, opts.Folds, opts.Validation, experiment.Rand(opts.Seed, experiment.ValidationSplit))
	if err != nil {
		return &experiment.Split{Skipped: fmt.Sprintf("%d training annotators: %v", len(crowd.Annotators(ds.Split.Train)), err)}, nil
	}
	if s.Parts == 0 {
		return nil, nil
	}
	out := &experiment.Split{HeldOut: s.Held, What: "annotators", Scored: "situations"}
	rng := experiment.Rand(opts.Seed, experiment.ValidationExamples)
	for p := range s.Parts {
		fitAnswers, heldAnswers := learn.Part(s, ds.Split.Train, p)
		examples := crowd.Examples
		if opts.Typical {
			examples = crowd.TypicalExamples
		}
		fp, fn := examples(ds.Vocab, ds.Actions, fitAnswers, rng)
		fit, err := learn.FromRules(ds.Vocab, fp, fn)
		if err != nil {
			return nil, err
		}
		task, err := crowd.Task(ds.Vocab, ds.Actions, heldAnswers)
		if err != nil {
			return nil, err
		}
		out.Folds = append(out.Folds, learn.Fold{Train: fit, Held: task})
	}
	return out, nil
}

// annotator names the group of an answer.
func annotator(a crowd.Answer) string { return a.Annotator }
