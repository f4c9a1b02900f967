package possibilistic

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// Verdict is a decided query with the weights and levels that decide it,
// filled alike under every semantics. Levels are numbered as the
// theory's Levels: 0 is the highest.
type Verdict struct {
	// Semantics is the semantics the query was decided under.
	Semantics Semantics
	Entailed  bool
	// Inconsistency is inc(Θ ∪ {(α, 1)}); under Poss the levels of weight
	// at most it are drowned by the evidence. It is 1 exactly when α has
	// no world of positive possibility (it contradicts itself or the
	// formulas of weight 1), and then only tautologies follow.
	Inconsistency float64
	// Necessity is the highest weight λ such that the formulas of weight at
	// least λ, with α, entail β under the semantics (0 when β is not
	// entailed, 1 when α alone entails it).
	Necessity float64
	// Level is the level of weight Necessity: the lowest level needed to
	// entail β. It is -1 when β is not entailed, and when α alone entails β
	// in a theory without formulas of weight 1.
	Level int
	// SetAside lists, highest first, the levels the evidence set aside:
	// under Poss the drowned levels (of weight at most the inconsistency
	// level), under Linear the levels skipped, under Lex the levels of
	// which the preferred worlds violate some formula. When α has no world
	// of positive possibility, it lists every level.
	SetAside []int
	// Formulas (Lex only) lists the formulas that one preferred world of α,
	// the one MostPlausibleWorld returns, violates: the formulas it sets
	// aside. Other preferred worlds may set aside others, as many per
	// level.
	Formulas []FormulaRef
	// Violations (Lex only) holds, per level, the least number of its
	// formulas that a world of α violates, given the levels above (a
	// formula written twice counting twice): the vector every preferred
	// world attains.
	Violations []int

	// What Reason needs besides: the query, the theory's vocabulary and
	// weights (highest first), and whether α contradicts itself.
	alpha, beta   *logic.Formula
	vocab         *logic.Vocabulary
	weights       []float64
	contradictory bool
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
	// smallest), highest level first. It is empty when β is not entailed,
	// when α alone entails β, and when α contradicts the formulas of
	// weight 1. Under Lex the kept formulas are those the preferred world
	// of Verdict.Formulas satisfies: every world satisfying them and α is
	// preferred.
	Support []FormulaRef
	// Counter is, when β is not entailed, a preferred world of α that
	// falsifies β (nil when α contradicts the formulas of weight 1).
	Counter []bool
}

// Decide decides (Θ, α) ⊢ β under s, with the necessity of β given α
// under s, the deciding level and what the evidence set aside.
//
// Every semantics reads the evidence α as certain. The formulas of weight 1,
// when the theory has such a level, are certain too: α joins their level,
// and when α contradicts them only tautologies follow, under every
// semantics. Below weight 1 the semantics differ in which formulas α keeps:
//
//   - Poss keeps the levels above the inconsistency level inc(Θ ∪ {(α, 1)})
//     and drowns every level at or below it.
//   - Linear goes down from the highest level below weight 1, keeping a
//     level when it is consistent with α, the certain formulas and the
//     levels kept so far, and setting it aside otherwise.
//   - Lex keeps the worlds of α and the certain formulas whose vector of
//     violated-formula counts, level by level from the top, is
//     lexicographically least (a level is a multiset: a formula written
//     twice in a level counts twice); a preferred world sets aside the
//     formulas it violates.
//
// Under each, (Θ, α) entails β when β holds in every preferred world: the
// worlds of α that satisfy what α keeps (for lex, the worlds attaining the
// least vector).
//
// The necessity of β given α under a semantics s is the highest weight λ
// such that the formulas of weight at least λ, used under s with α, entail
// β (1 when α alone entails β, 0 when β is not entailed). For Poss it is
// the paper's necessity degree N(β | α). Each semantics decides levels from
// the top down, so its answer on the levels of weight at least λ is the
// restriction of its answer on the whole theory, and entailment is monotone
// in λ.
func (r *Reasoner) Decide(ctx context.Context, s Semantics, alpha, beta *logic.Formula) (Verdict, error) {
	if err := s.check(); err != nil {
		return Verdict{}, err
	}
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(beta)
	return r.decide(ctx, s, alpha, beta, false)
}

// decide decides the compiled query under s; with world set it leaves a
// preferred world in r.world when α has one.
func (r *Reasoner) decide(ctx context.Context, s Semantics, alpha, beta *logic.Formula, world bool) (Verdict, error) {
	var err error
	if world {
		err = r.keep(ctx, s)
	} else {
		err = r.settle(ctx, s)
	}
	if err != nil {
		return Verdict{}, err
	}
	c := &r.kept
	v := Verdict{Semantics: s, Inconsistency: r.incWeight(c.hi), Level: -1,
		alpha: alpha, beta: beta, vocab: r.vocab, weights: r.shown}
	for j := r.k - 1; j >= 0; j-- {
		switch {
		case !c.ok || !c.on[j] && s != Lex:
			v.SetAside = append(v.SetAside, r.level(j))
		case s == Lex && c.viol[j] > 0:
			v.SetAside = append(v.SetAside, r.level(j))
			for i := range r.forms[j] {
				if !r.forms[j][i].holds(r.world) {
					v.Formulas = append(v.Formulas, FormulaRef{Level: r.level(j), Index: i, Formula: r.forms[j][i].f})
				}
			}
		}
	}
	if s == Lex && c.ok {
		v.Violations = make([]int, r.k)
		for j, n := range c.viol {
			v.Violations[r.level(j)] = n
		}
	}
	if v.Entailed, err = r.entailsKept(ctx); err != nil {
		return Verdict{}, err
	}
	if v.Entailed {
		n, j, err := r.necessityKept(ctx)
		if err != nil {
			return Verdict{}, err
		}
		v.Necessity = n
		if j >= 0 {
			v.Level = r.level(j)
		}
	}
	if !c.ok {
		sat, err := r.solveFloor(ctx, r.k, false) // α alone
		if err != nil {
			return Verdict{}, err
		}
		v.contradictory = !sat
	}
	return v, nil
}

// Explain decides (Θ, α) ⊢ β under s and says why: the verdict of Decide,
// a minimal set of kept formulas that with α entail β, or a preferred world
// of α that falsifies β. Reason puts it in words.
func (r *Reasoner) Explain(ctx context.Context, s Semantics, alpha, beta *logic.Formula) (Explanation, error) {
	if err := s.check(); err != nil {
		return Explanation{}, err
	}
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(beta)
	v, err := r.decide(ctx, s, alpha, beta, true)
	if err != nil {
		return Explanation{}, err
	}
	e := Explanation{Verdict: v}
	switch {
	case !e.Entailed && r.kept.ok:
		if r.betaHoldsIn(r.world) {
			sat, err := r.solveFloor(ctx, 0, true)
			if err != nil {
				return Explanation{}, err
			}
			if sat {
				r.saveWorld()
			}
		}
		e.Counter = slices.Clone(r.world)
	case e.Entailed && r.kept.ok && e.Level >= 0:
		if e.Support, err = r.support(ctx, r.level(e.Level)); err != nil {
			return Explanation{}, err
		}
	}
	return e, nil
}

// support returns a minimal set of the formulas kept at levels from floor
// up that with α entail β: the solver's failed assumptions, then deletion
// of each member that the rest can do without.
func (r *Reasoner) support(ctx context.Context, floor int) ([]FormulaRef, error) {
	for j := floor; j < r.k; j++ {
		r.splitLevel(j)
	}
	ref := map[logic.Lit]FormulaRef{}
	var sels []logic.Lit
	for j := floor; j < r.k; j++ {
		if !r.kept.on[j] && r.kept.sem != Lex {
			continue
		}
		for i := range r.forms[j] {
			fm := &r.forms[j][i]
			if fm.dup || r.kept.sem == Lex && !fm.holds(r.world) {
				continue
			}
			ref[fm.sel] = FormulaRef{Level: r.level(j), Index: i, Formula: fm.f}
			sels = append(sels, fm.sel)
		}
	}
	unsat := func(set []logic.Lit) (bool, error) {
		sat, err := r.solve(ctx, append(append(slices.Clone(r.alpha), r.negBeta...), set...))
		return !sat && err == nil, err
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
	if ok, err := unsat(sels); err != nil || !ok {
		return nil, err // !ok cannot happen: entailment was decided on these formulas
	}
	set := core()
	for i := 0; i < len(set); {
		ok, err := unsat(slices.Delete(slices.Clone(set), i, i+1))
		if err != nil {
			return nil, err
		}
		if ok {
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
			return a.Level - b.Level
		}
		return a.Index - b.Index
	})
	return out, nil
}
