package possibilistic

import "github.com/strata-logic/strata/logic"

// context records what the last evidence keeps under a semantics: per
// level, the assumption that imposes it (none when the level is left free),
// and a preferred world.
type context struct {
	sem  Semantics
	ok   bool        // α has a preferred world
	on   []bool      // per level: lit is assumed
	lit  []logic.Lit // per level: s_j, or a lex bound
	viol []int       // lex: least number of violated formulas per level
	hi   int         // the poss cut: inc(Θ ∪ {(α, 1)}) is the weight of level hi−1

	// haveWorld says that r.world is a preferred world. Without one,
	// betaFalse says whether the model of the poss search falsifies β,
	// which is then preferred too.
	haveWorld, betaFalse bool
}

// hardLevel returns the index of the level of weight 1, or -1.
func (r *Reasoner) hardLevel() int {
	if r.k > 0 && r.weights[r.k-1] == 1 {
		return r.k - 1
	}
	return -1
}

// keep decides what the compiled α keeps under s, leaving a preferred
// world in r.world (a copy, which later solver calls do not disturb).
func (r *Reasoner) keep(s Semantics) bool {
	if !r.settle(s) {
		return false
	}
	if !r.ctx.haveWorld {
		if !r.solveFloor(0, false) {
			panic("possibilistic: what the evidence keeps is inconsistent")
		}
		r.saveWorld()
	}
	return true
}

// settle decides what the compiled α keeps under s; r.world holds a
// preferred world if ctx.haveWorld.
func (r *Reasoner) settle(s Semantics) bool {
	c := &r.ctx
	c.sem, c.haveWorld = s, false
	c.on = resetBools(c.on, r.k)
	c.viol = resetInts(c.viol, r.k)
	if len(c.lit) < r.k {
		c.lit = make([]logic.Lit, r.k)
	}
	switch s {
	case Linear:
		c.ok = r.keepLinear()
	case Lex:
		c.ok = r.keepLex()
	default:
		c.ok = r.keepPoss()
	}
	return c.ok
}

func resetBools(b []bool, n int) []bool {
	b = b[:0]
	for range n {
		b = append(b, false)
	}
	return b
}

func resetInts(b []int, n int) []int {
	b = b[:0]
	for range n {
		b = append(b, 0)
	}
	return b
}

func (r *Reasoner) keepPoss() bool {
	hi, betaFalse := r.incSearch()
	r.ctx.hi = hi
	if hi == r.kEff {
		return false
	}
	r.ctx.betaFalse = betaFalse
	for j := hi; j < r.k; j++ {
		r.ctx.on[j], r.ctx.lit[j] = true, r.sel[j]
	}
	return true
}

// solveFloor solves α with what the context keeps of the levels from floor
// up and, if asked, ¬β.
func (r *Reasoner) solveFloor(floor int, negBeta bool) bool {
	a := append(r.assume[:0], r.alpha...)
	for j := range r.k {
		a = r.assumeLevel(a, j, j >= floor && r.ctx.on[j], r.ctx.lit[j])
	}
	if negBeta {
		a = append(a, r.negBeta...)
	}
	r.assume = a
	r.calls++
	return r.solve(a...)
}

// solveWith solves α with the kept levels above j and lit on level j.
func (r *Reasoner) solveWith(j int, lit logic.Lit) bool {
	a := append(r.assume[:0], r.alpha...)
	for i := range r.k {
		switch {
		case i == j:
			a = r.assumeLevel(a, i, true, lit)
		default:
			a = r.assumeLevel(a, i, i > j && r.ctx.on[i], r.ctx.lit[i])
		}
	}
	r.assume = a
	r.calls++
	return r.solve(a...)
}

// assumeLevel appends the assumptions of level j: lit when on, and ¬s_j
// unless lit is s_j, which switches the level's clauses off; a lex bound
// constrains the level through its formulas' own selectors, and a level
// left out has them cleared too.
func (r *Reasoner) assumeLevel(a []logic.Lit, j int, on bool, lit logic.Lit) []logic.Lit {
	if on {
		a = append(a, lit)
		if lit == r.sel[j] {
			return a
		}
	}
	a = append(a, r.sel[j].Not())
	if !on && r.hasOff[j] {
		a = append(a, r.off[j])
	}
	return a
}

// saveWorld copies the solver's model into r.world, a preferred world.
func (r *Reasoner) saveWorld() {
	r.model()
	r.ctx.haveWorld = true
}

// violatedIn counts the distinct formulas of level j that r.world violates.
func (r *Reasoner) violatedIn(j int) int {
	n := 0
	for i := range r.forms[j] {
		if fm := &r.forms[j][i]; !fm.dup && !fm.holds(r.world) {
			n++
		}
	}
	return n
}

// entailsKept decides entailment once the context is set: β holds in every
// preferred world.
func (r *Reasoner) entailsKept() bool {
	if !r.ctx.ok {
		return !r.solveCut(r.kEff, true) // only tautologies follow
	}
	if r.ctx.haveWorld && !r.betaHoldsIn(r.world) || !r.ctx.haveWorld && r.ctx.betaFalse {
		return false
	}
	return !r.solveFloor(0, true)
}

func (r *Reasoner) betaHoldsIn(w []bool) bool {
	if r.betaF != nil {
		return r.betaF.Eval(w)
	}
	return r.betaV.Holds(w)
}

// EntailsUnder decides whether (Θ, α) entails β under s; under Poss it is
// Entails.
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
//     lexicographically least (a formula written twice in a level counts
//     once); a preferred world sets aside the formulas it violates.
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
func (r *Reasoner) EntailsUnder(s Semantics, alpha, beta *logic.Formula) bool {
	if s == Poss {
		return r.Entails(alpha, beta)
	}
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(beta)
	r.settle(s)
	return r.entailsKept()
}

// EntailsClauseUnder decides whether (Θ, α) entails β under s for a
// conjunction of literals α and a clause β; under Poss it is EntailsClause.
// It allocates nothing once warmed up.
func (r *Reasoner) EntailsClauseUnder(s Semantics, alpha logic.Term, beta logic.Clause) bool {
	if s == Poss {
		return r.EntailsClause(alpha, beta)
	}
	r.alpha = r.mapLits(r.alpha[:0], alpha)
	r.betaF = nil
	r.setBetaClause(beta)
	r.settle(s)
	return r.entailsKept()
}
