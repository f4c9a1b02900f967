package possibilistic

import (
	"context"

	"github.com/strata-logic/strata/logic"
)

// Lex is an exact lexicographic optimisation on the reasoner's solver. For
// every level of several distinct formulas a totalizer counts the false
// formula selectors, one input per occurrence (a formula written twice in
// a level counts twice, its occurrences sharing one selector): output
// o_j[c] is implied when at least c+1 of them are false, so that assuming ¬o_j[c] admits only the worlds violating at most c
// formulas of level j (assuming s_j admits none). Going down from the top,
// the least count of a level is the least c such that α, the certain
// formulas and the bounds fixed above are satisfiable with it: starting
// from the count of the preferred world found so far, each satisfiable call
// with a bound one lower gives a better world, until one is unsatisfiable.
// A world satisfying every fixed bound attains the least vector, so β is
// entailed iff α ∧ ¬β is unsatisfiable with them. A level's totalizer is
// built the first time a query needs to bound it; after that a query only
// makes assumptions and allocates nothing.

// totalize returns outputs o with o[c] ⟺ "at least c+1 of in are true":
// a full totalizer (logic.Totalizer), so that the outputs follow from the
// inputs by unit propagation alone and never need a decision.
func (r *Reasoner) totalize(in []logic.Lit) []logic.Lit {
	return logic.Totalizer(in, r.s.NewVar, func(c ...logic.Lit) { r.s.AddClause(c...) }, true)
}

// bound returns the assumption "at most c formulas of level j violated"
// and false when it constrains nothing (c is the number of formulas). The
// level's totalizer is built the first time a bound needs it.
func (r *Reasoner) bound(j, c int) (logic.Lit, bool) {
	switch {
	case c >= len(r.forms[j]):
		return 0, false
	case c == 0 || r.distinct[j] == 1:
		// One formula, however often written, is violated by none or all
		// of its occurrences: at most c < all of them is none.
		return r.sel[j], true
	}
	if r.tot[j] == nil {
		r.splitLevel(j)
		in := make([]logic.Lit, len(r.forms[j]))
		for i, fm := range r.forms[j] {
			in[i] = fm.sel.Not() // a repeat's selector is its first occurrence's
		}
		r.tot[j] = r.totalize(in)
	}
	return r.tot[j][c].Not(), true
}

// keepLex computes the least vector. Every level above the inconsistency
// level is satisfiable whole, and the level just below it is not, so the
// poss search (O(log k) calls) settles those levels first.
func (r *Reasoner) keepLex(ctx context.Context) (bool, error) {
	c := &r.kept
	hi, ok, err := r.keepAbove(ctx)
	if err != nil || !ok {
		return false, err
	}
	for j := hi - 1; j >= 0; j-- {
		m := len(r.forms[j])
		if c.haveWorld {
			m = r.violatedIn(j)
		}
		lo := 0
		if j == hi-1 {
			lo = 1
		}
		// Improve the bound from above: every call but the last finds a
		// world that violates fewer formulas of level j, and the last,
		// unsatisfiable one proves the least count. Going up from lo
		// instead costs one unsatisfiable (hard) call per count below the
		// least one, which on a level of hundreds of formulas never ends.
		for m > lo {
			b, _ := r.bound(j, m-1) // m−1 < formulas: a real bound
			sat, err := r.solveWith(ctx, j, b)
			if err != nil {
				return false, err
			}
			if !sat {
				break
			}
			r.saveWorld()
			m = min(m-1, r.violatedIn(j))
		}
		c.viol[j] = m
		c.lit[j], c.on[j] = r.bound(j, m)
	}
	return true, nil
}
