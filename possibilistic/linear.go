package possibilistic

// keepLinear is linear base revision. Linear keeps every level that Poss
// keeps, the levels above the inconsistency level, and sets aside the level
// just below it, so it starts from the poss search (O(log k) calls) and
// goes on down from there, keeping each level consistent with everything
// kept so far. A level that the current preferred world already satisfies
// is kept without a solver call.
func (r *Reasoner) keepLinear() bool {
	c := &r.ctx
	hi, ok := r.keepAbove()
	if !ok {
		return false
	}
	for j := hi - 2; j >= 0; j-- {
		if !c.haveWorld || r.violatedIn(j) > 0 {
			if !r.solveWith(j, r.sel[j]) {
				continue // set aside
			}
			r.saveWorld()
		}
		c.on[j], c.lit[j] = true, r.sel[j]
	}
	return true
}

// keepAbove runs the poss search and keeps, whole, every level above the
// inconsistency level it finds: linear and lex agree with poss there. It
// returns that boundary (the lowest kept level) and false when α
// contradicts the certain formulas.
func (r *Reasoner) keepAbove() (hi int, ok bool) {
	c := &r.ctx
	r.track = true
	hi, _ = r.incSearch()
	r.track = false
	c.hi = hi
	if hi == r.kEff {
		return hi, false
	}
	c.haveWorld = true // the model of the cut at hi
	for j := hi; j < r.k; j++ {
		c.on[j], c.lit[j] = true, r.sel[j]
	}
	return hi, true
}
