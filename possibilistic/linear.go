package possibilistic

// keepLinear is linear base revision. Linear keeps every level that Poss
// keeps, the levels above the inconsistency level, and sets aside the level
// just below it, so it starts from the poss search (O(log k) calls) and
// goes on down from there, keeping each level consistent with everything
// kept so far. A level that the current preferred world already satisfies
// is kept without a solver call.
func (r *Reasoner) keepLinear() bool {
	c := &r.ctx
	r.track = true
	hi, _ := r.incSearch()
	r.track = false
	r.ctx.hi = hi
	if hi == r.kEff {
		return false
	}
	c.haveWorld = true // the model of the cut at hi
	for j := hi; j < r.k; j++ {
		c.on[j], c.lit[j] = true, r.sel[j]
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
