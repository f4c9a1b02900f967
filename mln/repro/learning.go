package repro

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
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
	dir, err = experiment.SemanticsDir(dir, sem)
	if err != nil {
		return nil, err
	}
	subject := d.Name
	if sem != possibilistic.Poss {
		subject += " " + sem.String()
	}
	return experiment.Learn(ctx, opts.settings(sem), subject, ex.vocab, train, nil, split, dir, opts.Progress)
}

// validationSplit holds out a share of the training examples by whole
// evidence formulas.
func validationSplit(opts *Options, ex *exampleSets) (*experiment.Split, error) {
	fitList, heldList, evidence := holdOut(ex.train, opts.Validation, opts.Seed)
	if len(fitList) == 0 || len(heldList) == 0 {
		return &experiment.Split{Skipped: fmt.Sprintf("%d training examples are too few to hold out %.0f%%", len(ex.train), 100*opts.Validation)}, nil
	}
	fit, err := toExamples(ex.vocab, fitList)
	if err != nil {
		return nil, err
	}
	held, err := toExamples(ex.vocab, heldList)
	if err != nil {
		return nil, err
	}
	s := &experiment.Split{Fit: fit, Held: held, What: "evidence formulas"}
	for _, t := range evidence {
		s.HeldOut = append(s.HeldOut, logic.TermF(t).String(ex.vocab))
	}
	return s, nil
}

// holdOut splits the training examples into those learned from and those
// held out for validation, by whole evidence formulas: the examples drawn
// for one α (up to ten conclusions β) are strongly related, and the test
// examples are drawn with other evidence formulas, so validation must not
// see an α the learner saw. Evidence formulas are held out in a random
// order (from seed) until share of the examples are; both parts keep the
// order in which the examples were drawn. evidence has one held-out
// evidence formula a group.
func holdOut(exs []mln.Example, share float64, seed uint64) (fit, held []mln.Example, evidence []logic.Term) {
	idx := map[string]int{} // evidence -> group
	var first []logic.Term  // a group's evidence, as first drawn
	group := make([]int, len(exs))
	for i, e := range exs {
		k := fmt.Sprint(slices.Sorted(slices.Values(e.Evidence)))
		g, ok := idx[k]
		if !ok {
			g = len(idx)
			idx[k] = g
			first = append(first, e.Evidence)
		}
		group[i] = g
	}
	size := make([]int, len(idx))
	for _, g := range group {
		size[g]++
	}
	out := make([]bool, len(idx))
	want := int(math.Round(share * float64(len(exs))))
	rng := rand.New(rand.NewPCG(seed, 0x76616c6964)) // "valid"
	for _, g := range rng.Perm(len(idx)) {
		if want <= 0 {
			break
		}
		out[g] = true
		want -= size[g]
		evidence = append(evidence, first[g])
	}
	for i, e := range exs {
		if out[group[i]] {
			held = append(held, e)
		} else {
			fit = append(fit, e)
		}
	}
	return fit, held, evidence
}
