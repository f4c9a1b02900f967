package possibilistic

import (
	"slices"

	"github.com/strata-logic/strata/logic"
)

// Verdict is a decided query with the weights and levels that decide it.
// Levels are indices into the theory's Levels (0 is the lowest).
type Verdict struct {
	Entailed bool
	// Inconsistency is inc(Θ ∪ {(α, 1)}); under Poss the levels at or below
	// it are drowned by the evidence.
	Inconsistency float64
	// Necessity is the highest weight λ such that the formulas of weight at
	// least λ, with α, entail β under the semantics (0 when β is not
	// entailed, 1 when α alone entails it).
	Necessity float64

	// The fields below are filled by DecideUnder and Explain; Decide leaves
	// them zero.

	// Semantics is the semantics the query was decided under.
	Semantics Semantics
	// Level is the level of weight Necessity: the lowest level needed to
	// entail β. It is -1 when β is not entailed, and when α alone entails β
	// in a theory without formulas of weight 1.
	Level int
	// SetAside lists, highest first, the levels the evidence set aside:
	// under Poss the drowned levels (at or below the inconsistency level),
	// under Linear the levels skipped, under Lex the levels of which the
	// preferred worlds violate some formula. When α contradicts the
	// formulas of weight 1, it lists every level.
	SetAside []int
	// Formulas (Lex only) lists the formulas that one preferred world of α,
	// the one MostPlausibleWorldUnder returns, violates: the formulas it
	// sets aside. Other preferred worlds may set aside others, as many per
	// level.
	Formulas []FormulaRef
	// Violations (Lex only) holds, per level, the least number of its
	// distinct formulas that a world of α violates, given the levels above:
	// the vector every preferred world attains.
	Violations []int
}

// FormulaRef names a formula of a theory: Theory.Levels[Level].Formulas[Index].
type FormulaRef struct {
	Level, Index int
	Formula      *logic.Formula
}

// Explanation is a decided query with what decides it.
type Explanation struct {
	Verdict
	// Support is a set of formulas, kept by the evidence, of levels at or
	// above Verdict.Level, that together with α entail β, and none of
	// which can be left out (a minimal such set, not necessarily the
	// smallest). It is empty when β is not entailed, when α alone entails
	// β, and when α contradicts the formulas of weight 1. Under Lex the
	// kept formulas are those the preferred world of Verdict.Formulas
	// satisfies: every world satisfying them and α is preferred.
	Support []FormulaRef
	// Counter is, when β is not entailed, a preferred world of α that
	// falsifies β (nil when α contradicts the formulas of weight 1).
	Counter []bool
}

// DecideUnder decides (Θ, α) ⊢ β under s, with the necessity of β given α
// under s, the deciding level and what the evidence set aside.
func (r *Reasoner) DecideUnder(s Semantics, alpha, beta *logic.Formula) Verdict {
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(beta)
	return r.decideKept(s)
}

func (r *Reasoner) decideKept(s Semantics) Verdict {
	ok := r.keep(s)
	v := Verdict{Semantics: s, Inconsistency: r.incWeight(r.ctx.hi), Level: -1}
	for j := r.k - 1; j >= 0; j-- {
		switch {
		case !ok || !r.ctx.on[j] && s != Lex:
			v.SetAside = append(v.SetAside, j)
		case s == Lex && r.ctx.viol[j] > 0:
			v.SetAside = append(v.SetAside, j)
			for i := range r.forms[j] {
				if !r.forms[j][i].holds(r.world) {
					v.Formulas = append(v.Formulas, FormulaRef{Level: j, Index: i, Formula: r.forms[j][i].f})
				}
			}
		}
	}
	if s == Lex && ok {
		v.Violations = slices.Clone(r.ctx.viol)
	}
	v.Entailed = r.entailsKept()
	if v.Entailed {
		v.Necessity, v.Level = r.necessityKept()
	}
	return v
}

// necessityKept returns the necessity of the compiled β once entailment
// under the context is known, and the index of the level of that weight
// (-1 for α's own weight 1). Entailment is monotone in the floor: binary
// search for the highest floor that entails.
func (r *Reasoner) necessityKept() (float64, int) {
	hard := r.hardLevel()
	if !r.ctx.ok {
		return 1, hard // β is a tautology
	}
	if !r.solveFloor(r.k, true) {
		return 1, hard // α alone entails β
	}
	lo, up := 0, r.k-1 // entailed at floor lo
	for lo < up {
		mid := (lo + up + 1) / 2
		if r.solveFloor(mid, true) {
			up = mid - 1
		} else {
			lo = mid
		}
	}
	return r.weights[lo], lo
}

// NecessityUnder returns the necessity of β given α under s: the highest
// weight λ such that the formulas of weight at least λ, used under s with
// α, entail β (0 when β is not entailed). Under Poss it is Necessity.
func (r *Reasoner) NecessityUnder(s Semantics, alpha, beta *logic.Formula) float64 {
	if s == Poss {
		return r.Necessity(alpha, beta)
	}
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(beta)
	r.keep(s)
	if !r.entailsKept() {
		return 0
	}
	n, _ := r.necessityKept()
	return n
}

// MostPlausibleWorldUnder returns a preferred world of α under s: one
// satisfying α and what α keeps (under Lex, of lexicographically least
// violation vector). It reports false when α has no world of positive
// possibility: α is contradictory, or contradicts the formulas of weight 1.
// Under Poss it is MostPlausibleWorld.
func (r *Reasoner) MostPlausibleWorldUnder(s Semantics, alpha *logic.Formula) ([]bool, bool) {
	if s == Poss {
		return r.MostPlausibleWorld(alpha)
	}
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(logic.True())
	if !r.keep(s) {
		return nil, false
	}
	return slices.Clone(r.world), true
}

// ConclusionsUnder returns the plausible conclusions of α under s: every
// literal l over the vocabulary that (Θ, α) entails under s, in atom order.
// It is empty when α has no world of positive possibility. Under Poss it is
// Conclusions.
func (r *Reasoner) ConclusionsUnder(s Semantics, alpha *logic.Formula) []logic.Lit {
	if s == Poss {
		return r.Conclusions(alpha)
	}
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(logic.True())
	if !r.keep(s) {
		return nil
	}
	cand := make([]logic.Lit, len(r.world))
	for a, val := range r.world {
		cand[a] = logic.MkLit(logic.Atom(a), !val)
	}
	alive := make([]bool, len(cand))
	for i := range alive {
		alive[i] = true
	}
	var out []logic.Lit
	for i, l := range cand {
		if !alive[i] {
			continue
		}
		r.setBetaClause(logic.Clause{l})
		if !r.solveFloor(0, true) {
			out = append(out, l)
			continue
		}
		for j, m := range r.model() {
			if j < len(cand) && cand[j].IsNeg() == m {
				alive[j] = false
			}
		}
	}
	return out
}

// Explain decides (Θ, α) ⊢ β under s and says why: the verdict of
// DecideUnder, a minimal set of kept formulas that with α entail β, or a
// preferred world of α that falsifies β.
func (r *Reasoner) Explain(s Semantics, alpha, beta *logic.Formula) Explanation {
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(beta)
	e := Explanation{Verdict: r.decideKept(s)}
	switch {
	case !e.Entailed && r.ctx.ok:
		if r.betaHoldsIn(r.world) && r.solveFloor(0, true) {
			r.saveWorld()
		}
		e.Counter = slices.Clone(r.world)
	case e.Entailed && r.ctx.ok && e.Level >= 0:
		e.Support = r.support(e.Level)
	}
	return e
}

// support returns a minimal set of the formulas kept at levels from floor
// up that with α entail β: the solver's failed assumptions, then deletion
// of each member that the rest can do without.
func (r *Reasoner) support(floor int) []FormulaRef {
	for j := floor; j < r.k; j++ {
		r.splitLevel(j)
	}
	ref := map[logic.Lit]FormulaRef{}
	var sels []logic.Lit
	for j := floor; j < r.k; j++ {
		if !r.ctx.on[j] && r.ctx.sem != Lex {
			continue
		}
		for i := range r.forms[j] {
			fm := &r.forms[j][i]
			if fm.dup || r.ctx.sem == Lex && !fm.holds(r.world) {
				continue
			}
			ref[fm.sel] = FormulaRef{Level: j, Index: i, Formula: fm.f}
			sels = append(sels, fm.sel)
		}
	}
	unsat := func(set []logic.Lit) bool {
		a := append(append(slices.Clone(r.alpha), r.negBeta...), set...)
		r.calls++
		return !r.solve(a...)
	}
	core := func() []logic.Lit {
		var c []logic.Lit
		for _, l := range r.s.Failed() {
			if _, ok := ref[l]; ok {
				c = append(c, l)
			}
		}
		return c
	}
	if !unsat(sels) {
		return nil // cannot happen: entailment was decided on these formulas
	}
	set := core()
	for i := 0; i < len(set); {
		rest := slices.Delete(slices.Clone(set), i, i+1)
		if unsat(rest) {
			set = core()
			continue
		}
		i++
	}
	out := make([]FormulaRef, 0, len(set))
	for _, l := range set {
		out = append(out, ref[l])
	}
	slices.SortFunc(out, func(a, b FormulaRef) int {
		if a.Level != b.Level {
			return b.Level - a.Level
		}
		return a.Index - b.Index
	})
	return out
}
