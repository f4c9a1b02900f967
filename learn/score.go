package learn

import (
	"context"
	"sync"

	"github.com/strata-logic/strata/logic"
)

// score returns Σ over covered examples of +count (positive) or −count
// (negative): covered positives minus covered negatives, the quantity the
// learner maximises (it differs from the accuracy by a constant).
func (e *store) score() int64 {
	var s int64
	for i := range e.ex {
		if e.st[i].covered {
			s += e.ex[i].sign * e.ex[i].weight
		}
	}
	return s
}

// covered returns whether the current hypothesis covers each example, in
// the order of the Examples the engine was built from.
func (e *store) covered() []bool {
	out := make([]bool, len(e.ex))
	for i := range e.ex {
		out[e.orig[i]] = e.st[i].covered
	}
	return out
}

// commit makes m the current hypothesis and re-decides every example.
func (e *drowning) commit(m *Hypothesis) {
	e.hyp = m
	parallel(e.workers, func(w *possWorker) {
		w.compileSel(m)
		w.each(w.refresh)
	})
}

// scoreCandidates returns, for each clause, the change of score when it is
// inserted at each position 0..2k of the current hypothesis. When ctx is
// cancelled it stops early and the result is meaningless.
func (e *drowning) scoreCandidates(ctx context.Context, cands []logic.Clause) [][]int64 {
	e.entailedFor(e.hyp)
	return scoreEach(ctx, &e.store, e.workers, cands, nil, (*possWorker).scoreGroup)
}

// scoreCandidates is drowning.scoreCandidates under linear or lex.
func (e *drowningFree) scoreCandidates(ctx context.Context, cands []logic.Clause) [][]int64 {
	e.entailedFor(e.hyp)
	return scoreEach(ctx, &e.store, e.workers, cands, func(w *freeWorker, c logic.Clause) {
		w.fa = e.freeAtoms(e.hyp, c, w.fa)
	}, (*freeWorker).scoreGroupSem)
}

// scoreEach returns, for each clause, the change of score when it is
// inserted at each position, adding up score(w, g, c, act) over every
// group g of the share of every worker of ws: the groups of examples with
// one antecedent (under poss they share the drowning boundary, under
// linear and lex every level's decision). prep, if not nil, readies a
// worker for a candidate before its groups are scored.
func scoreEach[W engineWorker](ctx context.Context, e *store, ws []W, cands []logic.Clause, prep func(w W, c logic.Clause), score func(w W, gi int, c logic.Clause, act logic.Lit)) [][]int64 {
	np := e.hyp.Positions()
	parts := make([][][]int64, len(ws))
	parallel(ws, func(ew W) {
		w := ew.common()
		out := make([][]int64, len(cands))
		for ci, c := range cands {
			out[ci] = make([]int64, np)
			if ctx.Err() != nil {
				continue
			}
			w.delta = out[ci]
			w.cm = e.mask(c)
			if prep != nil {
				prep(ew, c)
			}
			act := logic.Pos(w.s.NewVar())
			w.s.AddClause(append(append(make([]logic.Lit, 0, len(c)+1), c...), act.Not())...)
			w.act = e.active(c, w.act)
			w.eachShare(w.act, func(_, g int) bool {
				score(ew, g, c, act)
				return true
			})
			w.s.AddClause(act.Not())
		}
		parts[w.id] = out
	})
	res := parts[0]
	for _, p := range parts[1:] {
		for ci := range res {
			for k := range res[ci] {
				res[ci][k] += p[ci][k]
			}
		}
	}
	return res
}

// groupFacts are what the examples of one antecedent α share when a
// candidate c is scored: they have the same boundary b, so whether the cut
// at b stays consistent with c and α, and if not the lowest j > b whose cut
// is (jStar), are decided once for all of them.
type groupFacts struct {
	gi    int // the group's index
	known bool
	cons  bool
	jStar int
}

// scoreGroup adds to w.delta the changes of the examples of one antecedent
// (g) when c, activated by act, is inserted at each position.
func (w *possWorker) scoreGroup(gi int, c logic.Clause, act logic.Lit) {
	g := w.d.groups[gi]
	f := groupFacts{gi: gi}
	for _, x := range g {
		w.scoreExample(int(x), g, c, act, &f)
	}
}

// scoreExample adds to w.delta the change of example i's contribution when
// c (activated by act) is inserted at each position; see the invariant in
// engine.go. g is i's antecedent group and f its facts, filled on first use.
func (w *possWorker) scoreExample(i int, g []int32, c logic.Clause, act logic.Lit, f *groupFacts) {
	e := w.d
	st := &e.st[i]
	d := &e.ex[i]
	k := len(e.hyp.Levels)
	b := int(st.b)
	if !d.hardOK || b > k {
		return
	}
	var was int64
	if st.covered {
		was = 1
	}
	add := func(p int, ans bool) {
		var now int64
		if ans {
			now = 1
		}
		w.delta[p] += d.sign * d.weight * (now - was)
	}
	if !f.known {
		f.cons, f.jStar = w.consistency(i, f.gi, c, act)
		f.known = true
	}
	if f.cons {
		a1 := w.entailsWith(i, g, b, c, act)
		if a1 != st.covered {
			for p := 2 * b; p <= 2*k; p++ {
				add(p, a1)
			}
		}
		return
	}
	jStar := f.jStar
	var a2 bool
	if jStar <= k {
		a2 = w.entailsWith(i, g, jStar, c, act)
	}
	t := w.threshold(i)
	for p := 2*b + 1; p <= 2*k; p++ {
		m := p / 2
		var ans bool
		switch {
		case jStar <= m:
			ans = a2
		case p%2 == 1:
			ans = m+1 <= t
		default:
			ans = m <= t
		}
		add(p, ans)
	}
}

// consistency decides whether the cut at example i's boundary b stays
// consistent with c and α, and if not, finds the lowest j > b whose cut is
// consistent with c and α (k+1: none). The stored worlds of every example
// of i's antecedent group g are worlds of H ∪ α, so all of them can settle
// it.
func (w *possWorker) consistency(i, gi int, c logic.Clause, act logic.Lit) (bool, int) {
	e := w.d
	g := e.groups[gi]
	b := int(e.st[i].b)
	k := len(e.hyp.Levels)
	for _, x := range g {
		st := &e.st[x]
		for s := range int(st.n) {
			if int(st.lv[s]) <= b && w.cm.holds(e.slot(int(x), s)) {
				return true, 0
			}
		}
	}
	// Unit propagation refutes c at the cuts up to some level (often b
	// and above); the solver is asked only above it.
	lo := b
	f := w.units(gi)
	if f != nil {
		lo = max(lo, f.refuted(c)+1)
	}
	if lo == b {
		if w.repair(gi, b, e.hyp, c, &w.cm, f, w.index(e.hyp)) || w.solve(i, b, false, act) {
			w.keep(i, lowestSatisfied(e.hyp.Levels, w.m, b))
			return true, 0
		}
		// Every cut up to the lowest level of the core is inconsistent too.
		lo = max(b, w.coreLow()) + 1
	}
	hi := k + 1
	for _, x := range g {
		st := &e.st[x]
		for s := range int(st.n) {
			if w.cm.holds(e.slot(int(x), s)) {
				hi = min(hi, max(int(st.lv[s]), b+1))
			}
		}
	}
	lo = min(lo, hi)
	for first := true; lo < hi; first = false {
		mid := (lo + hi) / 2
		if first {
			mid = lo // the lowest cut not refuted is the likeliest
		}
		if mid > k {
			lo = mid + 1
			continue
		}
		if !w.repair(gi, mid, e.hyp, c, &w.cm, f, w.index(e.hyp)) && !w.solve(i, mid, false, act) {
			lo = min(max(mid, w.coreLow())+1, hi)
			continue
		}
		lv := lowestSatisfied(e.hyp.Levels, w.m, mid)
		w.keep(i, lv)
		hi = max(lv, b+1)
	}
	return false, hi
}

// entailsWith decides whether the cut at j, with c and α, entails β, given
// that it is consistent. Stored worlds of i's antecedent group g that
// satisfy the cut and c but not β settle it without a solver call.
func (w *possWorker) entailsWith(i int, g []int32, j int, c logic.Clause, act logic.Lit) bool {
	e := w.d
	st := &e.st[i]
	if j == int(st.b) && st.covered {
		return true // a larger cut entails at least as much
	}
	for s := range int(st.n) {
		if st.bf[s] && int(st.lv[s]) <= j && w.cm.holds(e.slot(i, s)) {
			return false
		}
	}
	beta := e.ex[i].beta
	bm := e.betaMask(i)
	for _, x := range g {
		if int(x) == i {
			continue
		}
		o := &e.st[x]
		for s := range int(o.n) {
			if m := e.slot(int(x), s); int(o.lv[s]) <= j && w.cm.holds(m) && !bm.holds(m) {
				return false
			}
		}
	}
	if f := w.units(int(e.grp[i])); f != nil && f.entails(c, beta, j, w.index(e.hyp)) {
		return true
	}
	if w.solve(i, j, true, act) {
		w.keep(i, lowestSatisfied(e.hyp.Levels, w.m, j))
		return false
	}
	return true
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
