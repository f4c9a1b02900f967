package repro

import (
	"context"
	"fmt"
	"slices"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
	"github.com/strata-logic/strata/possibilistic"
)

// Learning says how a dataset's theory was learned; its Validation's
// HeldOut are the held-out evidence formulas.
type Learning = experiment.Learning

// Validation is the run that chose the number of iterations on training
// examples held out by whole evidence formulas.
type Validation = experiment.Validation

// learnTheory chooses the number of iterations on held-out training
// examples and learns the theory on all of them, under sem.
func learnTheory(ctx context.Context, opts *Options, d Dataset, ex *exampleSets, dir string, sem possibilistic.Semantics) (*Learning, error) {
	train, err := toExamples(ex.vocab, ex.train)
	if err != nil {
		return nil, err
	}
	var split *experiment.Split
	if opts.Validation > 0 {
		if split, err = validationSplit(opts, ex); err != nil {
			return nil, err
		}
	}
	return experiment.Learn(ctx, &opts.Settings, sem, d.Name, ex.vocab, train, nil, split, dir)
}

// validationSplit holds out a share of the training examples by whole
// evidence formulas: the examples drawn for one α (up to ten conclusions
// β) are strongly related, and the test examples are drawn with other
// evidence formulas, so validation must not see an α the learner saw.
func validationSplit(opts *Options, ex *exampleSets) (*experiment.Split, error) {
	if opts.Folds > 1 {
		return crossValidationSplit(opts, ex)
	}
	fitList, heldList, _ := experiment.HoldOut(ex.train, opts.Validation, opts.Seed, evidence)
	if len(fitList) == 0 || len(heldList) == 0 {
		return &experiment.Split{Skipped: fmt.Sprintf("%d training examples are too few to hold out %.0f%%", len(ex.train), 100*opts.Validation)}, nil
	}
	s, err := splitOf(ex.vocab, fitList, heldList)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, e := range heldList { // the held-out evidence formulas, as first drawn
		if k := evidence(e); !seen[k] {
			seen[k] = true
			s.HeldOut = append(s.HeldOut, logic.TermF(e.Evidence).String(ex.vocab))
		}
	}
	return s, nil
}

// crossValidationSplit splits the training examples into opts.Folds folds
// by whole evidence formulas.
func crossValidationSplit(opts *Options, ex *exampleSets) (*experiment.Split, error) {
	fold, groups := experiment.KFold(ex.train, opts.Folds, opts.Seed, evidence)
	if groups < opts.Folds {
		return &experiment.Split{Skipped: fmt.Sprintf("%d evidence formulas are too few for %d folds", groups, opts.Folds)}, nil
	}
	s := &experiment.Split{What: "evidence formulas"}
	seen := map[string]bool{}
	for f := range opts.Folds {
		var fitList, heldList []mln.Example
		for i, e := range ex.train {
			if fold[i] == f {
				heldList = append(heldList, e)
			} else {
				fitList = append(fitList, e)
			}
		}
		part, err := splitOf(ex.vocab, fitList, heldList)
		if err != nil {
			return nil, err
		}
		s.Folds = append(s.Folds, part)
	}
	for _, e := range ex.train {
		if k := evidence(e); !seen[k] {
			seen[k] = true
			s.HeldOut = append(s.HeldOut, logic.TermF(e.Evidence).String(ex.vocab))
		}
	}
	return s, nil
}

// splitOf returns the split that learns on fitList and validates on
// heldList.
func splitOf(v *logic.Vocabulary, fitList, heldList []mln.Example) (*experiment.Split, error) {
	fit, err := toExamples(v, fitList)
	if err != nil {
		return nil, err
	}
	held, err := toExamples(v, heldList)
	if err != nil {
		return nil, err
	}
	return &experiment.Split{Fit: fit, Held: held, What: "evidence formulas"}, nil
}

// evidence names the group of an example: its evidence formula, whatever
// the order of its literals.
func evidence(e mln.Example) string { return fmt.Sprint(slices.Sorted(slices.Values(e.Evidence))) }
