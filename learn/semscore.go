package learn

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// This file scores candidate clauses under linear and lex, one antecedent
// group at a time (scoreGroupSem, slowSem; the invariant in semengine.go).

// scoreCandidates is drowning.scoreCandidates under linear or lex.
func (e *drowningFree) scoreCandidates(ctx context.Context, cands []logic.Clause) [][]int64 {
	e.entailedFor(e.hyp)
	return scoreEach(ctx, &e.store, e.workers, cands, func(w *freeWorker, c logic.Clause) {
		w.fa = e.freeAtoms(e.hyp, c, w.fa)
	}, (*freeWorker).scoreGroupSem)
}

// scoreGroupSem adds to w.delta the change of the contributions of the
// examples of antecedent group gi when c (activated by act) is inserted at
// each position; see the invariant in semengine.go. The examples share
// their decisions, so whether a witness satisfies c, and otherwise the walk
// from g, are settled once for all of them.
func (w *freeWorker) scoreGroupSem(gi int, c logic.Clause, act logic.Lit) {
	e := w.f
	g := e.groups[gi]
	i0 := int(g[0])
	if !e.ex[i0].hardOK || e.isFree(gi, w.fa) {
		return // a free candidate changes nothing for the group (free.go)
	}
	// Witnesses that satisfy c: stored ones of the whole group, and those
	// found below (pool). Each is a world of the decision and of c.
	words := e.words
	pool := w.sx.pool[:0]
	const unknown, yes, no = 0, 1, 2
	cons := unknown
	var gp *groupProp
	if e.sem == possibilistic.Lex {
		w.poolFor(gi) // its vectors under the current hypothesis find witnesses
	}
	switch {
	case w.storedWitness(g, &w.cm, nil):
		cons = yes
	default:
		// Propagation often shows that no world meeting the decisions
		// satisfies c, which the loop below would prove with solver calls.
		gp = w.groupProp(gi)
		if gp.refutes(0, c, &w.sx.ptmp) {
			cons = no
		}
	}
	cur := w.current(i0)
	found := func(x int) {
		pool = append(pool, w.m...)
		w.keep(x, 0)
	}
	for _, xi := range g {
		if cons == no {
			break
		}
		x := int(xi)
		st := &e.st[x]
		d := &e.ex[x]
		if cons == unknown {
			w.extra = append(append(w.extra[:0], act), d.negBeta...)
			if !st.covered && !w.propEntails(gi, &gp, c, d.beta) && w.try(cur, w.extra...) {
				// One call settles the common case: a witness of c and
				// ¬β; the example stays uncovered.
				cons = yes
				found(x)
				continue
			}
			// Covered, or no witness of c and ¬β: a witness of c keeps
			// the answer (a covered example stays covered; an uncovered
			// one with no world of c and ¬β becomes covered).
			if !w.try(cur, act) {
				cons = no
				break
			}
			cons = yes
			found(x)
			w.addAll(x, true)
			continue
		}
		if st.covered {
			continue // a witness of c keeps it covered
		}
		bm := e.betaMask(x)
		ans := !w.storedWitness(g, &w.cm, &bm)
		for o := 0; ans && o < len(pool); o += words {
			ans = holds(d.beta, pool[o:o+words])
		}
		if ans && !w.propEntails(gi, &gp, c, d.beta) {
			w.extra = append(append(w.extra[:0], act), d.negBeta...)
			if w.try(cur, w.extra...) {
				found(x)
				ans = false
			}
		}
		w.addAll(x, ans)
	}
	w.sx.pool = pool
	w.poolKeep(gi, pool)
	if cons == no {
		w.slowSem(gi, c, act, gp)
	}
}

// propEntails reports whether propagation shows that every optimal
// world of group gi that satisfies c satisfies beta; *gp is the group's
// propagation, found on first use.
func (w *freeWorker) propEntails(gi int, gp **groupProp, c, beta logic.Clause) bool {
	if *gp == nil {
		*gp = w.groupProp(gi)
	}
	return (*gp).entails(c, beta, &w.sx.ptmp)
}

// storedWitness reports whether a stored witness of group g's decision
// satisfies c (if not nil) and falsifies beta (if not nil), both given as
// masks.
func (w *freeWorker) storedWitness(g []int32, c, beta *clauseMask) bool {
	e := w.f
	if e.sem == possibilistic.Lex {
		return w.poolWitness(int(e.grp[g[0]]), c, beta)
	}
	for _, x := range g {
		st := &e.st[x]
		for s := range int(st.n) {
			if m := e.slot(int(x), s); st.lv[s] == 0 && (c == nil || c.holds(m)) && (beta == nil || !beta.holds(m)) {
				return true
			}
		}
	}
	return false
}

// addAll adds to w.delta the change of example x's contribution when its
// answer becomes ans at every position that is not inside a skipped level
// (there nothing changes).
func (w *freeWorker) addAll(x int, ans bool) {
	e := w.f
	if ans == e.st[x].covered {
		return
	}
	for p := range len(w.delta) {
		if !w.skipped(x, p) {
			w.add(x, p, ans)
		}
	}
}

// add adds to w.delta[p] the change of example x's contribution when its
// answer at position p becomes ans.
func (w *freeWorker) add(x, p int, ans bool) {
	d := &w.f.ex[x]
	switch {
	case ans == w.f.st[x].covered:
	case ans:
		w.delta[p] += d.sign * d.weight
	default:
		w.delta[p] -= d.sign * d.weight
	}
}

// skipped reports whether position p is inside a level that linear skips
// for example x: a clause added there changes nothing.
func (w *freeWorker) skipped(x, p int) bool {
	return w.f.sem == possibilistic.Linear && p%2 == 1 && w.f.dec[x][p/2] == 0
}

// slowSem scores c for the examples of group gi when no witness satisfies
// c. Let Q(j) say that some world of α and of the decisions of the levels
// ≥ j satisfies c (Q(0) is false here; Q(j) implies Q(j+1)), and g the
// least j with Q(j) (k+1 if none). Then
//   - a new level at 2j with j < g is skipped (linear) or violated by every
//     world still optimal (lex): nothing changes;
//   - at 2j and 2j+1 with j ≥ g the levels from g up decide as before with
//     c added (linear: a kept level l ≥ g stays consistent by Q(l), a
//     skipped one stays inconsistent; lex: the worlds of A_g ∩ c are
//     optimal on the levels from g up, A_j being those optimal on the
//     levels from j up), so every such position has the answer of one walk
//     down from g;
//   - at 2j+1 with j < g, linear skips level j and walks down from it
//     without it (the answer does not depend on c: skipAnswer caches it);
//     lex compares S, the worlds of A_{j+1} ∩ c with j's count one above
//     optimal, against the old optimum, level by level below j. S is
//     empty, and nothing changes, unless Q(j+1), that is j = g−1; then S is
//     what the walk from g keeps after level g−1 if its least count there
//     is one above optimal (else S is empty), and the walk's counts below
//     say whether S wins, loses or ties (lexInto).
//
// Q, g and the walk depend only on α, so the group shares them.
//
// gp, if not nil, is what propagation knows about the group's decisions:
// a level from which it refutes c is below g.
func (w *freeWorker) slowSem(gi int, c logic.Clause, act logic.Lit, gp *groupProp) {
	e := w.f
	grp := e.groups[gi]
	i0 := int(grp[0])
	k := len(e.hyp.Levels)
	lo, hi := 1, k+1
	var gm []uint64
	var lk *poolLook
	if e.sem == possibilistic.Lex {
		// The pool has the worlds worth trying.
		var j int
		var pm []uint64
		if lk, j, pm = w.lookFor(gi, c, e.dec[i0]); j < hi {
			hi, gm = j, append(w.sx.gm[:0], pm...)
		}
	} else {
		for _, x := range grp {
			st := &e.st[x]
			for s := range int(st.n) {
				if m := e.slot(int(x), s); w.cm.holds(m) {
					if j := w.memberFrom(i0, m); j < hi {
						hi, gm = j, append(w.sx.gm[:0], m...)
					}
				}
			}
		}
	}
	for gp != nil && lo < hi && gp.refutes(lo, c, &w.sx.ptmp) {
		lo++
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if w.try(w.prefix(i0, mid), act) {
			hi, gm = mid, append(w.sx.gm[:0], w.m...)
			w.keep(i0, 1)
		} else {
			lo = mid + 1
		}
	}
	g := hi
	var u []int32
	var aW []logic.Lit
	pool := w.sx.pool[:0]
	// asBefore: the walk below g decides as the current hypothesis does, so
	// its optimal worlds are among the old ones (see change.keeps) and a
	// covered example stays covered.
	asBefore := false
	if g <= k {
		a := append(append(w.sx.pre[:0], w.prefix(i0, g)...), act)
		w.sx.pre = a
		u = make([]int32, g)
		p := &w.sx.prop
		if gp == nil {
			gp = w.groupProp(gi)
		}
		if gp.start {
			p.resetFrom(gp, c)
		} else {
			w.resetProp(p, gi, e.hyp.Hard, c)
		}
		for l := k - 1; l >= g; l-- {
			p.decided(e.sem, e.hyp.Levels[l], l, int(e.dec[i0][l]))
		}
		if e.sem == possibilistic.Lex {
			// Q(g−1) is false: level g−1 violates at least one more clause
			// than before.
			lk.narrow(g, w.sx.pfrom)
			w.sx.walk = lk
			aW = w.lexWalk(e.hyp.Levels, a, slices.Clone(gm), g, u, e.dec[i0][:g], int(e.dec[i0][g-1])+1, p)
			w.sx.walk = nil
		} else {
			copy(w.m, gm)
			aW = w.linWalk(e.hyp.Levels, a, g, true, u, e.dec[i0][:g], p)
		}
		pool = append(pool, w.m...)
		if lk != nil {
			lk.u, lk.done = u, false
		}
		asBefore = slices.Equal(u, e.dec[i0][:g])
	}
	if gm != nil {
		w.sx.gm = gm
	}
	for _, xi := range grp {
		x := int(xi)
		covered := e.st[x].covered
		ansW, into := covered, covered // into: lex at 2(g−1)+1
		if g <= k && !(covered && (asBefore || w.coreBelow(x, g, u))) {
			ansW, _, _, pool = w.entails(x, aW, pool, w.lexProp(), lk)
			if e.sem == possibilistic.Lex {
				into = lexInto(e.dec[x], u, g-1, covered, ansW)
			}
		}
		for p := range 2*k + 1 {
			j := p / 2
			switch {
			case w.skipped(x, p):
			case j >= g:
				w.add(x, p, ansW)
			case p%2 == 1 && e.sem == possibilistic.Lex:
				if j == g-1 { // below, A_{j+1} ∩ c is empty: nothing changes
					w.add(x, p, into)
				}
			case p%2 == 1:
				w.add(x, p, w.skipAnswer(gi, x, j))
			}
		}
	}
	w.sx.pool = pool
	if e.sem == possibilistic.Lex {
		if gm != nil {
			w.poolAdd(gi, gm)
		}
		w.poolAdd(gi, pool)
	}
}

// coreBelow reports whether example x's entailment proof (covered, under
// the current hypothesis) still holds for the walk from g with the candidate:
// the levels from g up keep their assumptions, and each level of the proof
// below g keeps at least as strong a one in u (linear: kept; lex: bounded
// no higher).
func (w *freeWorker) coreBelow(x, g int, u []int32) bool {
	e := w.f
	st := &e.st[x]
	if !st.coreTOK {
		return false
	}
	for l := 0; l < g && l < 64; l++ {
		if st.coreT>>l&1 == 0 {
			continue
		}
		if e.sem == possibilistic.Lex && u[l] > e.dec[x][l] || e.sem == possibilistic.Linear && u[l] != 1 {
			return false
		}
	}
	return true
}

// skipAnswer returns, under linear, example x's answer when its kept level
// j is skipped and the walk goes on below it, from the cache when it holds
// for the current hypothesis; the walk is shared by x's group gi.
func (w *freeWorker) skipAnswer(gi, x, j int) bool {
	e := w.f
	sx := &e.semx
	sx.once.Do(func() {
		sx.skip = make([][]int8, len(e.ex))
		sx.skipFor = make([]*Hypothesis, len(e.groups))
	})
	grp := e.groups[gi]
	k := len(e.hyp.Levels)
	if sx.skipFor[gi] != e.hyp {
		for _, y := range grp {
			sx.skip[y] = slices.Grow(sx.skip[y][:0], k)[:k]
			clear(sx.skip[y])
		}
		sx.skipFor[gi] = e.hyp
	}
	if v := sx.skip[x][j]; v != 0 {
		return v == 2
	}
	a := slices.Clone(w.prefix(int(grp[0]), j+1))
	have := w.groupWorld(grp, true) // a witness keeps the levels above j
	a = w.linWalk(e.hyp.Levels, a, j, have, nil, nil, nil)
	pool := append(w.sx.skip[:0], w.m...)
	for _, y := range grp {
		var ans bool
		ans, _, _, pool = w.entails(int(y), a, pool, nil, nil)
		sx.skip[y][j] = 1
		if ans {
			sx.skip[y][j] = 2
		}
	}
	w.sx.skip = pool
	return sx.skip[x][j] == 2
}

// prefix returns α and the decisions of the levels ≥ j, built in w.assume.
func (w *freeWorker) prefix(i, j int) []logic.Lit {
	e := w.f
	a := append(w.assume[:0], e.ex[i].alpha...)
	for l := len(e.hyp.Levels) - 1; l >= j; l-- {
		if e.sem == possibilistic.Lex {
			a = w.atMost(a, l, int(e.dec[i][l]))
		} else if e.dec[i][l] == 1 {
			a = append(a, w.sel[l])
		}
	}
	w.assume = a
	return a
}

// memberFrom returns the least j such that m (a world of H ∪ α) satisfies
// the decisions of every level ≥ j.
func (w *freeWorker) memberFrom(i int, m []uint64) int {
	e := w.f
	j := len(e.hyp.Levels)
	for ; j > 0; j-- {
		l := e.hyp.Levels[j-1]
		if e.sem == possibilistic.Lex {
			if violated(l, m) > int(e.dec[i][j-1]) {
				break
			}
		} else if e.dec[i][j-1] == 1 && !satisfiesAll(l, m) {
			break
		}
	}
	return j
}

// lexInto answers for c inserted into level j = g−1 under lex, given the
// old optimal counts v, the counts u of the walk over A_g ∩ c below g, and
// the answers before (covered) and of that walk (ansW).
func lexInto(v, u []int32, j int, covered, ansW bool) bool {
	if u[j] != v[j]+1 {
		return covered // S is empty
	}
	for l := j - 1; l >= 0; l-- {
		switch {
		case u[l] < v[l]:
			return ansW // S wins
		case u[l] > v[l]:
			return covered // S loses
		}
	}
	return covered && ansW // a tie: both optima stay
}

// current returns the assumptions that define the current decision of
// example i: α and the kept levels (linear) or the optimal counts (lex),
// built in w.sx.cur (not w.assume, which try overwrites).
func (w *freeWorker) current(i int) []logic.Lit {
	e := w.f
	a := append(w.sx.cur[:0], e.ex[i].alpha...)
	for j := range e.hyp.Levels {
		if e.sem == possibilistic.Lex {
			a = w.atMost(a, j, int(e.dec[i][j]))
		} else if e.dec[i][j] == 1 {
			a = append(a, w.sel[j])
		}
	}
	w.sx.cur = a
	return a
}
