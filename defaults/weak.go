package defaults

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// Partition is the extended tolerance partition (Δ^0, …, Δ^k, Δ^∞) of a
// base: Δ^0 holds the defaults the base tolerates, Δ^1 those the rest
// tolerates, and so on, each layer inclusion-maximal; Δ^∞ holds the
// defaults left when the rest tolerates none of them.
//
// Δ^∞ is the largest subset of the base that tolerates none of its
// members (such subsets are closed under union, and no layer can take a
// member of one). A world satisfying the materials of Δ^∞ therefore
// satisfies no antecedent of Δ^∞, or it would verify that default without
// falsifying the others: the worlds that falsify no default of Δ^∞ are
// exactly the worlds of ⋀¬α over Δ^∞. The base is weakly consistent when
// such worlds exist (under the background knowledge): an OCF accepts it
// with the antecedents of Δ^∞ at rank ∞. It is strongly consistent when
// Δ^∞ is empty. A conditional (⊥|α) is never verified, so it is in Δ^∞:
// it says that ¬α holds in every world.
type Partition struct {
	Base     *Base
	Levels   [][]int // Δ^0 first, as indices into Base.Defaults
	Infinite []int   // Δ^∞
}

// Strong reports whether Δ^∞ is empty: the base is consistent in the
// sense of Pearl and Adams.
func (p *Partition) Strong() bool { return len(p.Infinite) == 0 }

// ExtendedPartition computes the extended tolerance partition of b, or an
// *InconsistentError when b is not even weakly consistent (no world
// satisfies the background knowledge and the negated antecedents of Δ^∞),
// and with ctx's error when ctx is done first.
func ExtendedPartition(ctx context.Context, b *Base) (*Partition, error) {
	e := newEngine(b)
	all := make([]int, len(b.Defaults))
	for i := range all {
		all[i] = i
	}
	levels, stuck, err := e.partition(ctx, all)
	if err != nil {
		return nil, err
	}
	if ok, err := e.backgroundSatisfiable(ctx); err != nil || !ok {
		if err != nil {
			return nil, err
		}
		return nil, backgroundError(ctx, b)
	}
	if stuck != nil {
		as := make([]logic.Lit, len(stuck))
		for k, i := range stuck {
			as[k] = e.mat[i]
		}
		ok, err := e.solve(ctx, as...)
		if err != nil {
			return nil, err
		}
		if !ok {
			ie, err := e.inconsistent(ctx, stuck)
			if err != nil {
				return nil, err
			}
			ie.Level = len(levels)
			return nil, ie
		}
	}
	return &Partition{Base: b, Levels: levels, Infinite: stuck}, nil
}

// NewWeakReasoner returns a reasoner for a weakly consistent base: the
// defaults of Δ^∞ become the background knowledge ¬α (each such α is
// impossible), and every semantics works on the rest, whose partition is
// the finite part of the extended one. This is how p-entailment, System
// Z, lexicographic inference, System W and (extended) c-representations
// treat weakly consistent bases: every OCF accepting the base ranks the
// antecedents of Δ^∞ at ∞. A strongly consistent base gives the same
// reasoner as NewReasoner. The reasoner's Ordering().Base is the reduced
// base; Infinite returns Δ^∞.
func NewWeakReasoner(ctx context.Context, b *Base) (*Reasoner, error) {
	p, err := ExtendedPartition(ctx, b)
	if err != nil {
		return nil, err
	}
	if p.Strong() {
		return NewReasoner(ctx, b)
	}
	reduced := &Base{Name: b.Name, Vocab: b.vocab(), Background: slices.Clone(b.Background)}
	var inf []Default
	for i, d := range b.Defaults {
		if slices.Contains(p.Infinite, i) {
			inf = append(inf, d)
			reduced.Background = append(reduced.Background, logic.Not(d.Antecedent))
		} else {
			reduced.Defaults = append(reduced.Defaults, d)
		}
	}
	r, err := NewReasoner(ctx, reduced)
	if err != nil {
		return nil, err // only ctx's: the finite layers are consistent under ⋀¬α
	}
	r.infinite = inf
	return r, nil
}

// Infinite returns Δ^∞ of a base given to NewWeakReasoner: the defaults
// whose antecedents are impossible.
func (r *Reasoner) Infinite() []Default { return r.infinite }
