package defaults

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// Lexicographic closure compares worlds by the vector (n_k, …, n_1) of the
// numbers of defaults of each Z-level they violate, highest level first (a
// default written twice counts twice, as every rule file counts a rule):
// a world is preferred to another when its vector is lexicographically
// smaller. α |~ β holds when every preferred α-world satisfies β.
//
// The search runs on the engine's solver. Since mat[i] → (¬αi ∨ βi), a
// world violating c defaults of a level can falsify exactly those mat[i]:
// the least count of a level is an unweighted MaxSAT problem over the
// mat[i], solved core-guided (leastViolations). Once found it is fixed for
// the levels below by "at most c of the level's ¬mat[i]" (a sequential
// counter behind one activation literal), which admits exactly the worlds
// with at most c violations there, or by assuming every mat[i] when c = 0.

// distinctLevels returns the levels of ord with duplicate defaults removed.
func distinctLevels(b *Base, ord *Ordering) [][]int {
	v := b.vocab()
	seen := map[string]bool{}
	out := make([][]int, len(ord.Levels))
	for j, l := range ord.Levels {
		for _, i := range l {
			d := b.Defaults[i]
			key := d.Antecedent.String(v) + " |~ " + d.Consequent.String(v)
			if !seen[key] {
				seen[key] = true
				out[j] = append(out[j], i)
			}
		}
	}
	return out
}

func (r *Reasoner) lexicographic(ctx context.Context, a *Answer) error {
	e := r.e
	defer e.done()
	levels := r.ord.Levels
	g := logic.Pos(e.s.NewVar()) // guards this query's totalizers
	e.retire = append(e.retire, g)
	as := e.assume([]logic.Lit{g}, a.Query.Antecedent)
	vec, ok, _, err := e.lexMin(ctx, as, g, levels, nil)
	if err != nil {
		return err
	}
	if !ok {
		a.Vacuous, a.Entailed = true, true
		return nil
	}
	a.Violations = vec
	// β fails in some preferred α-world iff the α ∧ ¬β-worlds reach the
	// same least vector; they cannot do better. Comparing optima, rather
	// than asking for an α ∧ ¬β-world within the α-optimum's bounds, keeps
	// the refutation core-guided when the answer is yes.
	if !a.Query.Consequent.Eval(e.best) {
		a.Counter = slices.Clone(e.best) // the optimum found already falsifies β
		return nil
	}
	as = e.assume(as, logic.Not(a.Query.Consequent))
	_, ok, above, err := e.lexMin(ctx, as, g, levels, vec)
	if err != nil {
		return err
	}
	if !ok || above {
		a.Entailed = true
		return nil
	}
	a.Counter = slices.Clone(e.best)
	return nil
}

// lexMin computes the least vector of violations, level by level from the
// top, of the worlds satisfying as; ok is false when there are none. With
// a limit it stops at the first level whose least count exceeds the
// limit's, reporting above. e.best holds a world attaining the vector.
func (e *engine) lexMin(ctx context.Context, as []logic.Lit, g logic.Lit, levels [][]int, limit []int) (vec []int, ok, above bool, err error) {
	as = slices.Clone(as)
	if ok, err := e.solve(ctx, as...); !ok || err != nil {
		return nil, false, false, err
	}
	// w is the last model found; it is copied because adding the clauses of
	// a bound resets the solver's assignment.
	w := slices.Clone(e.model())
	e.best = append(e.best[:0], w...) // the optimum when there are no levels
	vec = make([]int, len(levels))
	for j := len(levels) - 1; j >= 0; j-- {
		stop := -1
		if limit != nil {
			stop = limit[j]
		}
		c, err := e.leastViolations(ctx, as, g, levels[j], w, stop)
		if err != nil {
			return nil, false, false, err
		}
		if limit != nil && c > limit[j] {
			return nil, true, true, nil
		}
		w = append(w[:0], e.best...)
		vec[j] = c
		if c == 0 {
			for _, i := range levels[j] {
				as = append(as, e.mat[i])
			}
		} else {
			as = append(as, e.atMost(levels[j], c))
		}
	}
	return vec, true, false, nil
}

// leastViolations returns the least number of members violated by a world
// satisfying the assumptions as, given w, such a world; e.best is left
// holding a world that attains it.
//
// It is unweighted MaxSAT over the members' mat literals, solved
// core-guided (the OLL algorithm): assume every soft literal; each
// unsatisfiable core raises the lower bound by one and is relaxed by a
// totalizer over its members that allows one more of them to fail. The
// first model satisfying all the current soft literals is optimal. Dense
// bases defeat plain descent with cardinality bounds, whose last step must
// refute "at most opt−1 violations" over the whole level at once; cores
// keep every refutation local. Totalizer clauses carry the query guard g.
//
// A stop ≥ 0 is a known lower bound: the search ends at once when w attains
// it, and gives up, returning the bound, as soon as the bound exceeds it.
func (e *engine) leastViolations(ctx context.Context, as []logic.Lit, g logic.Lit, members []int, w []bool, stop int) (int, error) {
	e.best = append(e.best[:0], w...)
	hi := e.violated(members, w)
	if hi == 0 || hi <= stop {
		return hi, nil // stop is also a lower bound where it is given
	}
	type bound struct {
		outs []logic.Lit // outs[k] holds when at least k+1 inputs fail
		k    int         // the soft literal is ¬outs[k]
	}
	relax := map[logic.Lit]*bound{}
	softs := make([]logic.Lit, len(members))
	for k, i := range members {
		softs[k] = e.mat[i]
	}
	lo := 0
	for lo < hi {
		sat, err := e.solve(ctx, append(slices.Clone(as), softs...)...)
		if err != nil {
			return 0, err
		}
		if sat {
			m := e.model()
			if c := e.violated(members, m); c < hi {
				hi = c
				e.best = append(e.best[:0], m...)
			}
			break
		}
		inCore, err := e.trimCore(ctx, as, softs)
		if err != nil {
			return 0, err
		}
		lo++
		if stop >= 0 && lo > stop {
			return lo, nil
		}
		var failing, next []logic.Lit
		for _, l := range softs {
			if !inCore[l] {
				next = append(next, l)
				continue
			}
			failing = append(failing, l.Not())
			if b := relax[l]; b != nil && b.k+1 < len(b.outs) {
				b.k++
				relax[b.outs[b.k].Not()] = b
				next = append(next, b.outs[b.k].Not())
			}
		}
		if len(failing) == 0 {
			break // as alone is unsatisfiable: cannot happen, as has a model
		}
		if len(failing) > 1 {
			b := &bound{outs: e.totalize(g, failing), k: 1}
			relax[b.outs[1].Not()] = b
			next = append(next, b.outs[1].Not())
		}
		softs = next
	}
	return hi, nil
}

// trimCore returns the soft literals of the core of the last, unsatisfiable
// call, shrunk: the core is solved again on its own while that makes it
// smaller, then each literal is dropped in turn if the rest stays
// unsatisfiable (for cores small enough for that to be cheap). Small cores
// keep the totalizers small and the later calls easy.
func (e *engine) trimCore(ctx context.Context, as, softs []logic.Lit) (map[logic.Lit]bool, error) {
	isSoft := map[logic.Lit]bool{}
	for _, l := range softs {
		isSoft[l] = true
	}
	collect := func() []logic.Lit {
		var core []logic.Lit
		for _, l := range e.s.Failed() {
			if isSoft[l] {
				core = append(core, l)
			}
		}
		return core
	}
	core := collect()
	for range 8 {
		sat, err := e.solve(ctx, append(slices.Clone(as), core...)...)
		if err != nil {
			return nil, err
		}
		if sat {
			break // cannot happen: a subset of an unsatisfiable call's core
		}
		smaller := collect()
		if len(smaller) >= len(core) {
			break
		}
		core = smaller
	}
	if len(core) <= 32 {
		for k := 0; k < len(core); {
			rest := slices.Delete(slices.Clone(core), k, k+1)
			sat, err := e.solve(ctx, append(slices.Clone(as), rest...)...)
			if err != nil {
				return nil, err
			}
			if !sat {
				core = collect()
				continue
			}
			k++
		}
	}
	in := map[logic.Lit]bool{}
	for _, l := range core {
		in[l] = true
	}
	return in, nil
}

// totalize returns outputs o with o[k] implied by "at least k+1 of in are
// true" (the half of the totalizer that lower bounds need), each clause
// guarded by ¬g.
func (e *engine) totalize(g logic.Lit, in []logic.Lit) []logic.Lit {
	if len(in) == 1 {
		return in
	}
	a, b := e.totalize(g, in[:len(in)/2]), e.totalize(g, in[len(in)/2:])
	out := make([]logic.Lit, len(in))
	for k := range out {
		out[k] = logic.Pos(e.s.NewVar())
	}
	for i := 0; i <= len(a); i++ {
		for j := 0; j <= len(b); j++ {
			if i+j == 0 {
				continue
			}
			c := []logic.Lit{g.Not(), out[i+j-1]}
			if i > 0 {
				c = append(c, a[i-1].Not())
			}
			if j > 0 {
				c = append(c, b[j-1].Not())
			}
			e.s.AddClause(c...)
		}
	}
	return out
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
