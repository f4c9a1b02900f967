package possibilistic

import "context"

// keepLinear is linear base revision. Linear keeps every level that Poss
// keeps, the levels above the inconsistency level, and sets aside the level
// just below it, so it starts from the poss search (O(log k) calls) and
// goes on down from there, keeping each level consistent with everything
// kept so far. A level that the current preferred world already satisfies
// is kept without a solver call.
func (r *Reasoner) keepLinear(ctx context.Context) (bool, error) {
	c := &r.kept
	hi, ok, err := r.keepAbove(ctx)
	if err != nil || !ok {
		return false, err
	}
	for j := hi - 2; j >= 0; j-- {
		if !c.haveWorld || r.violatedIn(j) > 0 {
			sat, err := r.solveWith(ctx, j, r.sel[j])
			if err != nil {
				return false, err
			}
			if !sat {
				continue // set aside
			}
			r.saveWorld()
		}
		c.on[j], c.lit[j] = true, r.sel[j]
	}
	return true, nil
}

// keepAbove runs the poss search and keeps, whole, every level above the
// inconsistency level it finds: linear and lex agree with poss there. It
// returns that boundary (the lowest kept level) and false when α
// contradicts the certain formulas.
func (r *Reasoner) keepAbove(ctx context.Context) (hi int, ok bool, err error) {
	c := &r.kept
	r.track = true
	hi, _, err = r.incSearch(ctx)
	r.track = false
	if err != nil {
		return 0, false, err
	}
	c.hi = hi
	if hi == r.kEff {
		return hi, false, nil
	}
	c.haveWorld = true // the model of the cut at hi
	for j := hi; j < r.k; j++ {
		c.on[j], c.lit[j] = true, r.sel[j]
	}
	return hi, true, nil
}
