package defaults

import (
	"fmt"
	"slices"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// Lexicographic closure compares worlds by the vector (n_k, …, n_1) of the
// numbers of defaults of each Z-level they violate, highest level first:
// a world is preferred to another when its vector is lexicographically
// smaller. α |~ β holds when every preferred α-world satisfies β.
//
// The search runs on the engine's solver. Since mat[i] → (¬αi ∨ βi), a
// world violating c defaults of a level can falsify exactly those mat[i],
// so "at most c of the level's ¬mat[i]" (a sequential counter behind one
// activation literal) admits exactly the worlds with at most c violations
// there. Level by level from the top, the least count is found by
// descending from the count of the last model (each model can jump several
// steps), and then fixed by its bound for the levels below.

// lexLevels returns the levels of the ordering with duplicate defaults
// removed: Δ is a set, and a rule written twice is violated once.
func (r *Reasoner) lexLevels() [][]int {
	v := r.base.vocab()
	seen := map[string]bool{}
	out := make([][]int, len(r.ord.Levels))
	for j, l := range r.ord.Levels {
		for _, i := range l {
			d := r.base.Defaults[i]
			key := d.Antecedent.String(v) + " |~ " + d.Consequent.String(v)
			if !seen[key] {
				seen[key] = true
				out[j] = append(out[j], i)
			}
		}
	}
	return out
}

func (r *Reasoner) lexicographic(a *Answer) {
	e := r.e
	defer e.done()
	levels := r.lexLevels()
	as := e.assume(nil, a.Query.Antecedent)
	if !e.s.Solve(as...) {
		a.Vacuous, a.Entailed = true, true
		return
	}
	// w is the last model found; it is copied because adding the clauses of
	// a bound resets the solver's assignment.
	w := slices.Clone(e.model())
	a.Violations = make([]int, len(levels))
	for j := len(levels) - 1; j >= 0; j-- {
		c := e.violated(levels[j], w)
		for c > 0 && e.s.Solve(append(as, e.atMost(levels[j], c-1))...) {
			w = append(w[:0], e.model()...)
			c = e.violated(levels[j], w)
		}
		a.Violations[j] = c
		if c == 0 {
			for _, i := range levels[j] {
				as = append(as, e.mat[i])
			}
		} else {
			as = append(as, e.atMost(levels[j], c))
		}
	}
	as = e.assume(as, logic.Not(a.Query.Consequent))
	if e.s.Solve(as...) {
		a.Counter = append([]bool(nil), e.model()...)
		return
	}
	a.Entailed = true
}

// violated counts the members whose material w falsifies.
func (e *engine) violated(members []int, w []bool) int {
	n := 0
	for _, i := range members {
		if !e.matF[i].Eval(w) {
			n++
		}
	}
	return n
}

// atMost returns an activation literal for "at most c of the members are
// violated"; done retires it.
func (e *engine) atMost(members []int, c int) logic.Lit {
	viol := make([]logic.Lit, len(members))
	for k, i := range members {
		viol[k] = e.mat[i].Not()
	}
	x := logic.Pos(e.s.NewVar())
	for _, cl := range logic.AtMostClauses(c, viol, e.s.NewVar) {
		e.s.AddClause(append(cl, x.Not())...)
	}
	e.retire = append(e.retire, x)
	return x
}

func (a Answer) lexReason(b *strings.Builder, alpha, beta string) {
	parts := make([]string, 0, len(a.Violations))
	for j := len(a.Violations) - 1; j >= 0; j-- {
		parts = append(parts, fmt.Sprintf("%s: %d", levelName(j), a.Violations[j]))
	}
	vec := "no levels"
	if len(parts) > 0 {
		vec = strings.Join(parts, ", ")
	}
	fmt.Fprintf(b, "the preferred worlds of %s violate (%s) defaults, highest level first; ", alpha, vec)
	if a.Entailed {
		fmt.Fprintf(b, "all of them satisfy %s", beta)
	} else {
		fmt.Fprintf(b, "not all of them satisfy %s", beta)
	}
}
