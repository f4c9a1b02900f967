package possibilistic

import "github.com/strata-logic/strata/logic"

// Lex is an exact lexicographic optimisation on the reasoner's solver. For
// every level of several distinct formulas a totalizer counts the false
// formula selectors: output o_j[c] is implied when at least c+1 of them are
// false, so that assuming ¬o_j[c] admits only the worlds violating at most c
// formulas of level j (assuming s_j admits none). Going down from the top,
// the least count of a level is found by raising c from 0 until α, the
// certain formulas and the bounds fixed above are satisfiable with it; the
// preferred world found so far gives an upper bound that needs no call. A
// world satisfying every fixed bound attains the least vector, so β is
// entailed iff α ∧ ¬β is unsatisfiable with them. The totalizers are built
// on the first lex query; after that a query only makes assumptions and
// allocates nothing.

// buildLex adds the totalizers.
func (r *Reasoner) buildLex() {
	r.lexOK = true
	r.tot = make([][]logic.Lit, r.k)
	for j := range r.k {
		var in []logic.Lit
		for _, fm := range r.forms[j] {
			if !fm.dup {
				in = append(in, fm.sel.Not())
			}
		}
		if len(in) > 1 {
			r.tot[j] = r.totalize(in)
		}
	}
}

// totalize returns outputs o with o[c] implied by "at least c+1 of in are
// true": the half of a totalizer that upper bounds need.
func (r *Reasoner) totalize(in []logic.Lit) []logic.Lit {
	if len(in) == 1 {
		return in
	}
	a, b := r.totalize(in[:len(in)/2]), r.totalize(in[len(in)/2:])
	out := make([]logic.Lit, len(in))
	for k := range out {
		out[k] = logic.Pos(r.s.NewVar())
	}
	for i := 0; i <= len(a); i++ {
		for j := 0; j <= len(b); j++ {
			if i+j == 0 {
				continue
			}
			c := []logic.Lit{out[i+j-1]}
			if i > 0 {
				c = append(c, a[i-1].Not())
			}
			if j > 0 {
				c = append(c, b[j-1].Not())
			}
			r.s.AddClause(c...)
		}
	}
	return out
}

// bound returns the assumption "at most c formulas of level j violated"
// and false when it constrains nothing (c is the number of formulas).
func (r *Reasoner) bound(j, c int) (logic.Lit, bool) {
	if c == 0 {
		return r.sel[j], true
	}
	if c >= len(r.tot[j]) {
		return 0, false
	}
	return r.tot[j][c].Not(), true
}

func (r *Reasoner) keepLex() bool {
	if !r.lexOK {
		r.buildLex()
	}
	c := &r.ctx
	top := r.k - 1
	if c.hard >= 0 {
		c.on[c.hard], c.lit[c.hard] = true, r.sel[c.hard]
		top--
	}
	if !r.solveFloor(0, false) {
		return false
	}
	r.saveWorld()
	for j := top; j >= 0; j-- {
		m := r.violatedIn(j)
		for n := 0; n < m; n++ {
			b, _ := r.bound(j, n) // n < m ≤ formulas: a real bound
			if r.solveWith(j, b) {
				r.saveWorld()
				m = n
				break
			}
		}
		c.viol[j] = m
		c.lit[j], c.on[j] = r.bound(j, m)
	}
	return true
}
