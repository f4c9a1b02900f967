package mln

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/strata-logic/strata/logic"
)

// Example is a MAP-entailment example α |~ β of the paper's §5.3: the
// evidence α is a conjunction of literals on distinct atoms, the conclusion
// β a literal on another atom, and the example is positive (a default) when
// (M, α) ⊢MAP β and negative (a non-default) otherwise.
type Example struct {
	Evidence   logic.Term
	Conclusion logic.Lit
	Positive   bool
}

// Rule returns the example as the default rule α |~ β.
func (e Example) Rule() logic.Rule {
	return logic.Rule{Antecedent: logic.TermF(e.Evidence), Consequent: logic.LitF(e.Conclusion)}
}

// Split returns the rules of the positive and of the negative examples.
func Split(exs []Example) (pos, neg []logic.Rule) {
	for _, e := range exs {
		if e.Positive {
			pos = append(pos, e.Rule())
		} else {
			neg = append(neg, e.Rule())
		}
	}
	return pos, neg
}

// ExampleOptions configure Generate; zero fields take the defaults.
type ExampleOptions struct {
	MaxEvidence int    // most literals in α (default 5, the paper's)
	PerEvidence int    // conclusions β drawn for each α (default 10)
	Seed        uint64 // the examples are a function of the seed
	Workers     int    // evidence formulas labelled at once (default 2)
	// Progress, when set, is told how many examples are labelled so far.
	Progress func(done, total int)
}

func (o *ExampleOptions) defaults() {
	if o.MaxEvidence <= 0 {
		o.MaxEvidence = 5
	}
	if o.PerEvidence <= 0 {
		o.PerEvidence = 10
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.Progress == nil {
		o.Progress = func(int, int) {}
	}
}

// Reseeder is implemented by engines whose answers depend on a random
// generator (Approx). Generate reseeds them for every evidence formula, so
// that the labels do not depend on how the work is spread over workers.
type Reseeder interface {
	Reseed(seed uint64)
}

// query is one evidence formula with the conclusions drawn for it.
type query struct {
	alpha logic.Term
	betas []logic.Lit
	seed  uint64
}

// Generate draws n examples as in the paper: it draws evidence formulas α of
// 1 to MaxEvidence literals (a uniform number of distinct atoms, each with a
// uniform sign), and for each α up to PerEvidence conclusions β, distinct
// literals on the other atoms, uniformly. Each α |~ β is labelled by
// Entails with an engine made by newEngine (one per worker). Since a most
// probable world of α satisfies exactly one literal of each atom, about half
// of the conclusions are false in it and so negative, while the others are
// positive unless α has most probable worlds that disagree on the atom:
// both labels occur. Evidence formulas that no world satisfies are dropped
// and replaced. Duplicates are kept: example sets are multisets.
func Generate(newEngine func() (Engine, error), atoms, n int, o ExampleOptions) ([]Example, error) {
	o.defaults()
	if atoms < 2 {
		return nil, errors.New("mln: examples need at least two atoms")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x65786d706c6573))
	engines := make([]Engine, o.Workers)
	for i := range engines {
		e, err := newEngine()
		if err != nil {
			return nil, err
		}
		engines[i] = e
	}
	var out []Example
	for round := 0; len(out) < n; round++ {
		if round == 20 {
			return nil, fmt.Errorf("mln: after %d rounds only %d of %d examples: most evidence formulas have no world", round, len(out), n)
		}
		qs := drawQueries(rng, atoms, n-len(out), o)
		labelled, err := labelAll(engines, qs, len(out), n, o.Progress)
		if err != nil {
			return nil, err
		}
		out = append(out, labelled...)
	}
	return out[:n], nil
}

// drawQueries draws evidence formulas and conclusions for need examples.
func drawQueries(rng *rand.Rand, atoms, need int, o ExampleOptions) []query {
	var qs []query
	for need > 0 {
		k := 1 + rng.IntN(min(o.MaxEvidence, atoms-1))
		perm := rng.Perm(atoms)
		q := query{seed: rng.Uint64()}
		for _, a := range perm[:k] {
			q.alpha = append(q.alpha, logic.MkLit(logic.Atom(a), rng.IntN(2) == 0))
		}
		var cands []logic.Lit
		for _, a := range perm[k:] {
			cands = append(cands, logic.Pos(logic.Atom(a)), logic.Neg(logic.Atom(a)))
		}
		m := min(o.PerEvidence, len(cands), need)
		for i := 0; i < m; i++ { // partial Fisher–Yates: m distinct literals
			j := i + rng.IntN(len(cands)-i)
			cands[i], cands[j] = cands[j], cands[i]
		}
		q.betas = cands[:m]
		need -= m
		qs = append(qs, q)
	}
	return qs
}

// labelAll labels the queries with one worker per engine, keeping their
// order.
func labelAll(engines []Engine, qs []query, done, total int, progress func(int, int)) ([]Example, error) {
	results := make([][]Example, len(qs))
	errs := make([]error, len(qs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := 0
	for _, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(qs) {
					return
				}
				results[i], errs[i] = label(e, qs[i])
				mu.Lock()
				done += len(results[i])
				progress(min(done, total), total)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	var out []Example
	for i, r := range results {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = append(out, r...)
	}
	return out, nil
}

// label decides the conclusions of one evidence formula; none when no world
// satisfies it.
func label(e Engine, q query) ([]Example, error) {
	if r, ok := e.(Reseeder); ok {
		r.Reseed(q.seed)
	}
	world, cost, ok, err := e.MAP(q.alpha)
	if err != nil || !ok {
		return nil, err
	}
	world = append([]bool(nil), world...) // the engine reuses it
	out := make([]Example, len(q.betas))
	for i, b := range q.betas {
		pos, err := entailsGiven(e, q.alpha, b, world, cost)
		if err != nil {
			return nil, err
		}
		out[i] = Example{Evidence: q.alpha, Conclusion: b, Positive: pos}
	}
	return out, nil
}
