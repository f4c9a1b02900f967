package possibilistic

// keepLinear is linear base revision: α and the certain formulas first,
// then each level from the top, kept when consistent with everything kept
// so far. A level that the current preferred world already satisfies is
// kept without a solver call, so the cost is at most one call per level
// and usually far fewer.
func (r *Reasoner) keepLinear() bool {
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
		if r.violatedIn(j) > 0 {
			if !r.solveWith(j, r.sel[j]) {
				continue // set aside
			}
			r.saveWorld()
		}
		c.on[j], c.lit[j] = true, r.sel[j]
	}
	return true
}
