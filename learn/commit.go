package learn

import (
	"sync"

	"github.com/strata-logic/strata/logic"
)

// This file changes the drowning engine's hypothesis: a commit of a whole
// hypothesis, of an insertion or of a removal, and trial removals that leave
// the states as they are, each deciding again only the examples whose
// boundary the change can move.

// commit makes m the current hypothesis and re-decides every example.
func (e *drowning) commit(m *Hypothesis) {
	e.hyp = m
	parallel(e.workers, func(w *possWorker) {
		w.compileSel(m)
		w.each(w.refresh)
	})
}

// scoreRemoval returns the change of score if clause i of level j were
// removed. Only examples with b ≤ j+1 can change (see commitRemove). It
// leaves the engine's state untouched, but the workers compiled for the
// smaller hypothesis: call commitRemove or recompile afterwards.
func (e *drowning) scoreRemoval(j, i int) int64 {
	c := e.hyp.Levels[j][i]
	m := e.hyp.Remove(j, i)
	emptied := len(m.Levels) < len(e.hyp.Levels)
	e.entailedFor(e.hyp)
	parts := make([]int64, len(e.workers))
	parallel(e.workers, func(w *possWorker) {
		w.compileSel(m)
		w.act = e.active(c, w.act)
		var delta int64
		var lv [slots]int32
		w.each(func(x int) {
			st := &e.st[x]
			d := &e.ex[x]
			if !d.hardOK || int(st.b) > j+1 || !w.mayChange(int(e.grp[x])) {
				return
			}
			bNew := removedBoundary(int(st.b), j, emptied)
			if e.removalKeepsUnder(x, j, bNew, emptied, m, c) {
				return
			}
			for s := range int(st.n) {
				lv[s] = int32(levelAfterRemoval(int(st.lv[s]), j, emptied, m, c, e.slot(x, s)))
			}
			if now := w.decide(x, m, lv[:st.n], bNew-1); now != st.covered {
				if now {
					delta += d.sign * d.weight
				} else {
					delta -= d.sign * d.weight
				}
			}
		})
		parts[w.id] = delta
	})
	var s int64
	for _, p := range parts {
		s += p
	}
	return s
}

// removalHarmless reports whether removing clause i of level j keeps the
// score at least as high (scoreRemoval(j, i) ≥ 0), deciding as few
// examples as the answer needs: an affected example classified correctly
// can only lose its weight and a misclassified one only gain it, so once
// the changes decided so far plus every gain still possible fall below
// zero the removal is harmful, and once they stay at or above zero with
// every loss still possible it is harmless. Like scoreRemoval it leaves the
// workers compiled for the smaller hypothesis.
func (e *drowning) removalHarmless(j, i int) bool {
	c := e.hyp.Levels[j][i]
	m := e.hyp.Remove(j, i)
	emptied := len(m.Levels) < len(e.hyp.Levels)
	e.entailedFor(e.hyp)
	// tally: the change decided so far and the gains and losses still
	// possible, updated together so that the bounds read are consistent.
	var tally struct {
		sync.Mutex
		sum, gain, loss int64
	}
	parallel(e.workers, func(w *possWorker) {
		w.compileSel(m)
		w.act = e.active(c, w.act)
		w.pending = w.pending[:0]
		var g, l int64
		w.each(func(x int) {
			st := &e.st[x]
			d := &e.ex[x]
			if !d.hardOK || int(st.b) > j+1 || !w.mayChange(int(e.grp[x])) {
				return
			}
			if e.removalKeepsUnder(x, j, removedBoundary(int(st.b), j, emptied), emptied, m, c) {
				return
			}
			p := trialPending{x: x}
			for s := range int(st.n) {
				p.lv[s] = int32(levelAfterRemoval(int(st.lv[s]), j, emptied, m, c, e.slot(x, s)))
			}
			w.pending = append(w.pending, p)
			if st.covered == (d.sign > 0) {
				l += d.weight
			} else {
				g += d.weight
			}
		})
		tally.Lock()
		tally.gain += g
		tally.loss += l
		tally.Unlock()
	})
	parallel(e.workers, func(w *possWorker) {
		for _, p := range w.pending {
			tally.Lock()
			settled := tally.sum+tally.gain < 0 || tally.sum-tally.loss >= 0
			tally.Unlock()
			if settled {
				return
			}
			st := &e.st[p.x]
			d := &e.ex[p.x]
			now := w.decide(p.x, m, p.lv[:st.n], removedBoundary(int(st.b), j, emptied)-1)
			tally.Lock()
			if now != st.covered {
				if now {
					tally.sum += d.sign * d.weight
				} else {
					tally.sum -= d.sign * d.weight
				}
			}
			if st.covered == (d.sign > 0) {
				tally.loss -= d.weight
			} else {
				tally.gain -= d.weight
			}
			tally.Unlock()
		}
	})
	// Stopped as harmful, sum+gain < 0 implies sum−loss < 0; stopped as
	// harmless, sum−loss ≥ 0; with every example decided, gain and loss
	// are 0.
	return tally.sum-tally.loss >= 0
}

// trialPending is an example a trial removal has to decide, with the
// levels of its stored worlds after the removal.
type trialPending struct {
	x  int
	lv [slots]int32
}

// removedBoundary returns the boundary b of an example in the indices of
// the hypothesis without a clause of level j (emptied: the level went with it).
// Removing a clause never raises a boundary and seldom lowers it, so it is
// the likely new boundary.
func removedBoundary(b, j int, emptied bool) int {
	if emptied && b > j {
		return b - 1
	}
	return b
}

// decide re-decides example i under m (compiled in w) without changing
// stored state, given the levels of the stored worlds under m. The cut at
// probe is decided first (see research).
func (w *possWorker) decide(i int, m *Hypothesis, lv []int32, probe int) bool {
	e := w.d
	st := &e.st[i]
	hi := len(m.Levels)
	for _, l := range lv {
		hi = min(hi, int(l))
	}
	lo := 0
	f := w.unitsUnder(int(e.grp[i]), m)
	if f != nil {
		if at, _ := f.conflictAt(); at < hi {
			lo = at + 1 // propagation refutes the cuts below
		}
	}
	for first := true; lo < hi; first = false {
		mid := (lo + hi) / 2
		if first && lo <= probe && probe < hi {
			mid = probe
		}
		if !w.repair(int(e.grp[i]), mid, m, nil, nil, f, w.index(m)) && !w.solve(i, mid, false, -1) {
			lo = min(max(mid, w.coreLow())+1, hi)
			continue
		}
		hi = lowestSatisfied(m.Levels, w.m, mid)
		if !holds(e.ex[i].beta, w.m) && hi == lo {
			return false
		}
	}
	for s, l := range lv {
		if st.bf[s] && int(l) <= hi {
			return false
		}
	}
	if f != nil {
		if at, _ := f.derives(e.ex[i].beta); at >= hi {
			return true
		}
	}
	return !w.solve(i, hi, true, -1)
}

// commitRemove makes m current, where m is the current hypothesis without clause
// i of level j. Only examples with b ≤ j+1 can change (a clause below the
// level under the cut is not in any cut at or above b, and that level stays
// inconsistent with the cut); the others keep their state, shifted when the
// level disappeared. Removing formulas never raises a boundary.
func (e *drowning) commitRemove(j, i int) {
	old := e.hyp
	c := old.Levels[j][i]
	m := old.Remove(j, i)
	emptied := len(m.Levels) < len(old.Levels)
	e.entailedFor(old)
	e.hyp = m
	parallel(e.workers, func(w *possWorker) {
		w.compileSel(m)
		w.act = e.active(c, w.act)
		w.each(func(x int) {
			st := &e.st[x]
			for s := range int(st.n) {
				st.lv[s] = int32(levelAfterRemoval(int(st.lv[s]), j, emptied, m, c, e.slot(x, s)))
			}
			if !w.mayChange(int(e.grp[x])) {
				removedUnchanged(st, j, emptied)
				return
			}
			bNew := removedBoundary(int(st.b), j, emptied)
			if !e.ex[x].hardOK || int(st.b) <= j+1 {
				if !e.ex[x].hardOK {
					w.research(x, 0, -1)
					return
				}
				if !e.removalKeeps(x, j, bNew, st.lv[:st.n]) {
					if st.b > 0 && st.coreBOK && st.coreB>>j&1 == 0 {
						// The cut under the boundary stays inconsistent
						// (its core has no clause of level j), so the
						// boundary stays: only the answer is re-decided.
						st.b = int32(bNew)
						if emptied {
							st.coreB = dropLevel(st.coreB, j)
						}
						w.research(x, bNew, bNew)
						return
					}
					w.research(x, 0, bNew-1)
					return
				}
				// The answer stands; t may fall with the removed clause.
				st.tValid = false
			} else if emptied {
				st.t--
			}
			st.b = int32(bNew)
			if emptied {
				st.coreB = dropLevel(st.coreB, j)
				st.coreT = dropLevel(st.coreT, j)
			}
		})
	})
}

// commitInsert makes m current, where m is the current hypothesis with c
// inserted at position p. Only examples with 2b ≤ p can change (the
// invariant of scoreExample); the others keep their state, shifted when a
// new level was created. Adding a formula never lowers a boundary.
func (e *drowning) commitInsert(c logic.Clause, p int) {
	e.entailedFor(e.hyp)
	m := e.hyp.Insert(c, p)
	e.hyp = m
	newLevel := p%2 == 0
	parallel(e.workers, func(w *possWorker) {
		w.compileSel(m)
		w.act = e.active(c, w.act)
		w.each(func(x int) {
			st := &e.st[x]
			for s := range int(st.n) {
				st.lv[s] = int32(levelAfterInsert(int(st.lv[s]), p, c, e.slot(x, s)))
			}
			b := int(st.b) // a lower bound for the new boundary, in new indices
			if newLevel && b > p/2 {
				b++
			}
			if newLevel {
				// Cores stay cores under a larger cut; only their levels
				// are renumbered.
				var ok bool
				if st.coreB, ok = addLevel(st.coreB, p/2); !ok {
					st.coreBOK = false
				}
				if st.coreT, ok = addLevel(st.coreT, p/2); !ok {
					st.coreTOK = false
				}
			}
			if !w.mayChange(int(e.grp[x])) {
				// c holds in every world of H ∪ α (entailed.go): every
				// cut keeps its worlds, so the boundary, the answer and
				// the cores stand, in the new indices.
				st.b = int32(b)
				if newLevel && int(st.t) >= p/2 {
					st.t++
				}
				return
			}
			if !e.ex[x].hardOK || 2*int(st.b) <= p {
				st.b = int32(b)
				w.research(x, b, b)
				return
			}
			st.b = int32(b)
			if newLevel {
				st.t++
			}
		})
	})
}
