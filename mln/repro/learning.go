package repro

import (
	"context"
	"fmt"
	"slices"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
	"github.com/strata-logic/strata/possibilistic"
)

// Learning says how a dataset's theory was learned; its Validation's
// HeldOut are the held-out evidence formulas.
type Learning = experiment.Learning

// Validation is the choice of the number of iterations on training
// examples held out by whole evidence formulas.
type Validation = experiment.Validation

// learnTheory chooses the number of iterations on held-out training
// examples and learns the theory on all of them, under sem
// (learn.Protocol).
func learnTheory(ctx context.Context, opts *Options, d Dataset, ex *exampleSets, dir string, sem possibilistic.Semantics) (*Learning, error) {
	train, err := toExamples(ex.vocab, ex.train)
	if err != nil {
		return nil, err
	}
	split, err := validationSplit(opts, ex)
	if err != nil {
		return nil, err
	}
	return experiment.Learn(ctx, &opts.Settings, sem, d.Name, ex.vocab, train, nil, split, dir)
}

// validationSplit holds out training examples by whole evidence formulas
// (learn.SplitGroups): with opts.Folds 2 or more in that many folds, with 1
// a share opts.Validation of them; nil with nothing to hold out. The
// examples drawn for one α (up to ten conclusions β) are strongly related,
// and the test examples are drawn with other evidence formulas, so a
// held-out part must not ask about an α the learner saw.
func validationSplit(opts *Options, ex *exampleSets) (*experiment.Split, error) {
	s, err := learn.SplitGroups(ex.train, evidence, opts.Folds, opts.Validation, experiment.Rand(opts.Seed, experiment.ValidationSplit))
	if err != nil {
		return &experiment.Split{Skipped: fmt.Sprintf("%d training examples: %v", len(ex.train), err)}, nil
	}
	if s.Parts == 0 {
		return nil, nil
	}
	out := &experiment.Split{What: "evidence formulas", Scored: "examples"}
	for p := range s.Parts {
		fitList, heldList := learn.Part(s, ex.train, p)
		fit, err := toExamples(ex.vocab, fitList)
		if err != nil {
			return nil, err
		}
		held, err := toExamples(ex.vocab, heldList)
		if err != nil {
			return nil, err
		}
		out.Folds = append(out.Folds, learn.Fold{Train: fit, Held: learn.Binary{Examples: held}})
	}
	// The held-out evidence formulas, as a person writes them: of the one
	// held-out part in the order drawn, or all of them for folds.
	byKey := map[string]string{}
	for _, e := range ex.train {
		if k := evidence(e); byKey[k] == "" {
			byKey[k] = logic.TermF(e.Evidence).String(ex.vocab)
		}
	}
	for _, k := range s.Held {
		out.HeldOut = append(out.HeldOut, byKey[k])
	}
	return out, nil
}

// evidence names the group of an example: its evidence formula, whatever
// the order of its literals.
func evidence(e mln.Example) string { return fmt.Sprint(slices.Sorted(slices.Values(e.Evidence))) }
