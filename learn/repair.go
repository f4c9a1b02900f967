package learn

import "github.com/strata-logic/strata/logic"

// Most of the solver calls left in scoring ask whether a cut, with α and a
// candidate c, is consistent, when no stored world satisfies c, and on the
// poker data the answer is nearly always yes: a stored world of the cut
// violates only c, or a clause or two that flipping one more atom mends.
// repair tries that before the solver: it starts from a stored world of
// the group, makes one literal true in each violated clause (never one that
// propagation refutes at the cut, so never against α), and checks the
// result against every clause of the cut, the hard rules and c. A world
// that passes proves consistency as the solver's would; when repair fails
// the solver decides, so no answer changes.

// maxRepairStarts bounds the stored worlds repair starts from.
const maxRepairStarts = 2

// clause returns clause id of the index as a mask.
func (x *unitIndex) clause(id int32) clauseMask {
	o := 2 * x.words * int(id)
	return clauseMask{pos: x.mask[o : o+x.words], neg: x.mask[o+x.words : o+2*x.words]}
}

// repair looks for a world of the hard rules, α, the cut at j of hypothesis m
// and c (cm its mask; c nil: none) by mending stored worlds of group gi;
// on success the world is in w.m. f are the group's unit facts and x the
// index, both of m.
func (w *possWorker) repair(gi, j int, m *Hypothesis, c logic.Clause, cm *clauseMask, f *unitFacts, x *unitIndex) bool {
	e := w.d
	if f == nil || x == nil || !x.ok || x.hyp != m || f.hyp != m {
		return false
	}
	k := len(m.Levels)
	active := x.start[k-j] // the hard rules and the levels from j up
	// Worlds of the cut itself first: they violate only c.
	tries := 0
	for _, below := range [2]bool{true, false} {
		for _, y := range e.groups[gi] {
			st := &e.st[y]
			for s := range int(st.n) {
				if (int(st.lv[s]) <= j) != below {
					continue
				}
				if tries == maxRepairStarts {
					return false
				}
				tries++
				copy(w.m, e.slot(int(y), s))
				if w.mend(j, c, cm, f, x, active) {
					return true
				}
			}
		}
	}
	return false
}

// index returns the unit index of hypothesis m, remembering the last.
func (w *possWorker) index(m *Hypothesis) *unitIndex {
	if w.ux == nil || w.ux.hyp != m {
		w.ux = w.d.unitIndexFor(m)
	}
	return w.ux
}

// mend makes one literal true in each clause w.m violates (c, then the
// active clauses), then checks them all.
func (w *possWorker) mend(j int, c logic.Clause, cm *clauseMask, f *unitFacts, x *unitIndex, active int32) bool {
	flipped := false
	if c != nil && !cm.holds(w.m) {
		if !w.satisfy(c, j, f) {
			return false
		}
		flipped = true
	}
	for id := range active {
		if k := x.clause(id); !k.holds(w.m) {
			if !w.satisfy(x.cls[id], j, f) {
				return false
			}
			flipped = true
		}
	}
	if !flipped {
		return true
	}
	if c != nil && !cm.holds(w.m) {
		return false
	}
	for id := range active {
		if k := x.clause(id); !k.holds(w.m) {
			return false
		}
	}
	return true
}

// satisfy makes true in w.m the first literal of c that propagation does
// not refute at the cut at j, preferring one it derives there; false if
// every literal is refuted.
func (w *possWorker) satisfy(c logic.Clause, j int, f *unitFacts) bool {
	pick := logic.Lit(-1)
	for _, l := range c {
		if f.at(l.Not()) >= j {
			continue
		}
		if f.at(l) >= j {
			pick = l
			break
		}
		if pick < 0 {
			pick = l
		}
	}
	if pick < 0 {
		return false
	}
	a := pick.Atom()
	if pick.IsNeg() {
		w.m[a>>6] &^= 1 << (a & 63)
	} else {
		w.m[a>>6] |= 1 << (a & 63)
	}
	return true
}
