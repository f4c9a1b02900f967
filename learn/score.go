package learn

import (
	"context"

	"github.com/strata-logic/strata/logic"
)

// This file scores candidate clauses under poss, one antecedent group at
// a time, at every insertion position (the invariant in drowning.go);
// scoreEach runs either general engine's scoring over its workers.

// scoreCandidates returns, for each clause, the change of score when it is
// inserted at each position 0..2k of the current hypothesis. When ctx is
// cancelled it stops early and the result is meaningless.
func (e *drowning) scoreCandidates(ctx context.Context, cands []logic.Clause) [][]int64 {
	e.entailedFor(e.hyp)
	return scoreEach(ctx, &e.store, e.workers, cands, nil, (*possWorker).scoreGroup)
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
// drowning.go. g is i's antecedent group and f its facts, filled on first use.
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
