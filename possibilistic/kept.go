package possibilistic

import (
	"context"

	"github.com/strata-logic/strata/logic"
)

// kept records what the last evidence keeps under a semantics: per level,
// the assumption that imposes it (none when the level is left free), and a
// preferred world.
type kept struct {
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
// world in r.world (a copy, which later solver calls do not disturb) when
// α has one.
func (r *Reasoner) keep(ctx context.Context, s Semantics) error {
	if err := r.settle(ctx, s); err != nil || !r.kept.ok || r.kept.haveWorld {
		return err
	}
	sat, err := r.solveFloor(ctx, 0, false)
	if err != nil {
		return err
	}
	if !sat {
		panic("possibilistic: what the evidence keeps is inconsistent")
	}
	r.saveWorld()
	return nil
}

// settle decides what the compiled α keeps under s; r.world holds a
// preferred world if kept.haveWorld.
func (r *Reasoner) settle(ctx context.Context, s Semantics) error {
	c := &r.kept
	c.sem, c.haveWorld, c.ok = s, false, false
	c.on = resetBools(c.on, r.k)
	c.viol = resetInts(c.viol, r.k)
	if len(c.lit) < r.k {
		c.lit = make([]logic.Lit, r.k)
	}
	var err error
	switch s {
	case Linear:
		c.ok, err = r.keepLinear(ctx)
	case Lex:
		c.ok, err = r.keepLex(ctx)
	default:
		c.ok, err = r.keepPoss(ctx)
	}
	if err != nil {
		c.ok = false
	}
	return err
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

func (r *Reasoner) keepPoss(ctx context.Context) (bool, error) {
	hi, betaFalse, err := r.incSearch(ctx)
	if err != nil {
		return false, err
	}
	r.kept.hi = hi
	if hi == r.kEff {
		return false, nil
	}
	r.kept.betaFalse = betaFalse
	for j := hi; j < r.k; j++ {
		r.kept.on[j], r.kept.lit[j] = true, r.sel[j]
	}
	return true, nil
}

// solveFloor solves α with what the evidence keeps of the levels from
// floor up and, if asked, ¬β.
func (r *Reasoner) solveFloor(ctx context.Context, floor int, negBeta bool) (bool, error) {
	a := append(r.assume[:0], r.alpha...)
	for j := range r.k {
		a = r.assumeLevel(a, j, j >= floor && r.kept.on[j], r.kept.lit[j])
	}
	if negBeta {
		a = append(a, r.negBeta...)
	}
	r.assume = a
	return r.solve(ctx, a)
}

// solveWith solves α with the kept levels above j and lit on level j.
func (r *Reasoner) solveWith(ctx context.Context, j int, lit logic.Lit) (bool, error) {
	a := append(r.assume[:0], r.alpha...)
	for i := range r.k {
		switch {
		case i == j:
			a = r.assumeLevel(a, i, true, lit)
		default:
			a = r.assumeLevel(a, i, i > j && r.kept.on[i], r.kept.lit[i])
		}
	}
	r.assume = a
	return r.solve(ctx, a)
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
	r.kept.haveWorld = true
}

// violatedIn counts the formulas of level j that r.world violates, each
// occurrence of a repeated formula once.
func (r *Reasoner) violatedIn(j int) int {
	n := 0
	for i := range r.forms[j] {
		if fm := &r.forms[j][i]; !fm.holds(r.world) {
			n++
		}
	}
	return n
}

// entailsKept decides entailment once what the evidence keeps is settled:
// β holds in every preferred world.
func (r *Reasoner) entailsKept(ctx context.Context) (bool, error) {
	if !r.kept.ok {
		sat, err := r.solveCut(ctx, r.kEff, true) // only tautologies follow
		return !sat && err == nil, err
	}
	if r.kept.haveWorld && !r.betaHoldsIn(r.world) || !r.kept.haveWorld && r.kept.betaFalse {
		return false, nil
	}
	sat, err := r.solveFloor(ctx, 0, true)
	return !sat && err == nil, err
}

func (r *Reasoner) betaHoldsIn(w []bool) bool {
	if r.betaF != nil {
		return r.betaF.Eval(w)
	}
	return r.betaV.Holds(w)
}

// necessityKept returns the necessity of the compiled β, which the
// evidence entails, and the index of the level of that weight (-1 for α's
// own weight 1 in a theory without a level of weight 1). Entailment is
// monotone in the floor: binary search for the highest floor that entails.
func (r *Reasoner) necessityKept(ctx context.Context) (float64, int, error) {
	hard := r.hardLevel()
	if !r.kept.ok {
		return 1, hard, nil // β is a tautology
	}
	sat, err := r.solveFloor(ctx, r.k, true)
	if err != nil {
		return 0, 0, err
	}
	if !sat {
		return 1, hard, nil // α alone entails β
	}
	lo, up := 0, r.k-1 // entailed at floor lo
	for lo < up {
		mid := (lo + up + 1) / 2
		sat, err := r.solveFloor(ctx, mid, true)
		if err != nil {
			return 0, 0, err
		}
		if sat {
			up = mid - 1
		} else {
			lo = mid
		}
	}
	return r.weights[lo], lo, nil
}
