package possibilistic

import (
	"context"

	"github.com/strata-logic/strata/logic"
)

// Conclusion is a plausible conclusion with its necessity degree.
type Conclusion struct {
	Lit       logic.Lit
	Necessity float64
}

// Conclude returns the plausible conclusions of α under s: every literal l
// over the vocabulary that (Θ, α) entails under s, in atom order, each with
// its necessity given α under s (see Decide). It is empty when α has no
// world of positive possibility.
//
// α is compiled once for all of them, and what it keeps is settled once:
// each solver call that finds a model rules out every candidate literal the
// model falsifies, a literal of α has necessity 1 without a call, and the
// necessity of another is a binary search over the levels, so that evidence
// of thousands of literals costs no more than a few calls per other
// conclusion.
func (r *Reasoner) Conclude(ctx context.Context, s Semantics, alpha *logic.Formula) ([]Conclusion, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(logic.True())
	if s == Poss {
		return r.concludePoss(ctx)
	}
	if err := r.keep(ctx, s); err != nil || !r.kept.ok {
		return nil, err
	}
	cand := make([]logic.Lit, len(r.world))
	for a, val := range r.world {
		cand[a] = logic.MkLit(logic.Atom(a), !val)
	}
	var out []Conclusion
	err := r.sift(cand, func(l logic.Lit) (bool, error) {
		r.setBetaClause(logic.Clause{l})
		sat, err := r.solveFloor(ctx, 0, true)
		if sat || err != nil {
			return false, err
		}
		n, _, err := r.necessityKept(ctx)
		out = append(out, Conclusion{Lit: l, Necessity: n})
		return true, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sift tries the candidate literals in order: entailed reports whether
// the evidence entails one, leaving, when it does not, a model in the
// solver in which the literal fails; every candidate that model falsifies
// is then ruled out without a call of its own.
func (r *Reasoner) sift(cand []logic.Lit, entailed func(logic.Lit) (bool, error)) error {
	alive := make([]bool, len(cand))
	for i := range alive {
		alive[i] = true
	}
	for i, l := range cand {
		if !alive[i] {
			continue
		}
		ok, err := entailed(l)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		for j, m := range r.model() {
			if j < len(cand) && cand[j].IsNeg() == m {
				alive[j] = false
			}
		}
	}
	return nil
}

// concludePoss is Conclude under Poss, on the cut of the poss search.
func (r *Reasoner) concludePoss(ctx context.Context) ([]Conclusion, error) {
	hi, _, err := r.incSearch(ctx)
	if err != nil || hi == r.kEff {
		return nil, err
	}
	sat, err := r.solveCut(ctx, hi, false)
	if err != nil || !sat {
		return nil, err // !sat cannot happen: the search found the cut consistent
	}
	inAlpha := make(map[logic.Lit]bool, len(r.alpha))
	for _, l := range r.alpha {
		inAlpha[l] = true
	}
	var cand []logic.Lit
	for a, val := range r.model() {
		cand = append(cand, logic.MkLit(logic.Atom(a), !val))
	}
	var out []Conclusion
	err = r.sift(cand, func(l logic.Lit) (bool, error) {
		if inAlpha[r.lit(l)] {
			out = append(out, Conclusion{Lit: l, Necessity: 1}) // α's own weight
			return true, nil
		}
		r.setBetaClause(logic.Clause{l})
		sat, err := r.solveCut(ctx, hi, true)
		if sat || err != nil {
			return false, err
		}
		n, err := r.necessityPoss(ctx, hi)
		out = append(out, Conclusion{Lit: l, Necessity: n})
		return true, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
