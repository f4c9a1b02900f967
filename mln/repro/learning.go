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
// examples and learns the theory on all of them, under sem (learn.Learn).
func learnTheory(ctx context.Context, opts *Options, d Dataset, ex *exampleSets, dir string, sem possibilistic.Semantics) (*Learning, error) {
	train, err := toExamples(ex.vocab, ex.train)
	if err != nil {
		return nil, err
	}
	return experiment.Learn(ctx, &opts.Settings, sem, d.Name, learn.Problem{Vocab: ex.vocab, Train: train}, &evidences{opts: opts, ex: ex}, dir)
}

// evidences holds out training examples by whole evidence formulas: with
// opts.Learning.Folds 2 or more in that many folds, with 1 a share of them.
// The examples drawn for one α (up to ten conclusions β) are strongly
// related, and the test examples are drawn with other evidence formulas,
// so a held-out part must not ask about an α the learner saw.
type evidences struct {
	opts *Options
	ex   *exampleSets
}

func (h *evidences) Items(int) learn.Items {
	names := make([]string, len(h.ex.train))
	for i, e := range h.ex.train {
		names[i] = evidence(e)
	}
	return learn.Items{Group: names, What: "evidence formulas", Rand: learn.RandFor(h.opts.Seed, learn.ForValidationSplit)}
}

func (h *evidences) Folds(held [][]int) ([]learn.Fold, error) {
	var out []learn.Fold
	for _, hp := range held {
		fitList, heldList := learn.Apart(h.ex.train, hp)
		fit, err := toExamples(h.ex.vocab, fitList)
		if err != nil {
			return nil, err
		}
		ho, err := toExamples(h.ex.vocab, heldList)
		if err != nil {
			return nil, err
		}
		out = append(out, learn.Fold{Train: fit, Held: learn.Binary{Examples: ho}})
	}
	return out, nil
}

func (h *evidences) What() string   { return "evidence formulas" }
func (h *evidences) Scored() string { return "examples" }

// Name writes the evidence formula of a group as a person does, in the
// order of the literals of its first example.
func (h *evidences) Name(key string) string {
	for _, e := range h.ex.train {
		if evidence(e) == key {
			return logic.TermF(e.Evidence).String(h.ex.vocab)
		}
	}
	return key
}

func (h *evidences) Skipped(err error) string {
	return fmt.Sprintf("%d training examples: %v", len(h.ex.train), err)
}

// evidence names the group of an example: its evidence formula, whatever
// the order of its literals.
func evidence(e mln.Example) string { return fmt.Sprint(slices.Sorted(slices.Values(e.Evidence))) }
