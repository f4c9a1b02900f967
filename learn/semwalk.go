package learn

import (
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// This file walks the levels of a hypothesis down from the top for one
// antecedent group under linear and lex (walkGroup, linWalk, lexWalk),
// and decides its examples' β on the walk's assumptions (entails).

// violated counts the clauses of l that m falsifies.
func violated(l []logic.Clause, m []uint64) int {
	n := 0
	for _, c := range l {
		if !holds(c, m) {
			n++
		}
	}
	return n
}

func satisfiesAll(l []logic.Clause, m []uint64) bool {
	for _, c := range l {
		if !holds(c, m) {
			return false
		}
	}
	return true
}

// groupWorld puts into w.m a stored world of the antecedent of group g:
// a witness of the current decision when the walk reuses decisions
// (witness true), any world of H ∪ α otherwise. The examples of one
// antecedent share their decisions, so a witness of one is a witness of
// all. It reports false when none is stored.
func (w *freeWorker) groupWorld(g []int32, witness bool) bool {
	if w.f.sem == possibilistic.Lex {
		return w.poolWorld(int(w.f.grp[g[0]]), witness)
	}
	for _, x := range g {
		st := &w.f.st[x]
		for s := range int(st.n) {
			if !witness || st.lv[s] == 0 {
				copy(w.m, w.f.slot(int(x), s))
				return true
			}
		}
	}
	return false
}

// sameTop returns the number of top levels that m and n share clause for
// clause: a level's decision depends only on α and the levels above it, so
// those levels keep their decisions from one hypothesis to the other.
func sameTop(m, n *Hypothesis) int {
	t := 0
	for km, kn := len(m.Levels), len(n.Levels); t < km && t < kn; t++ {
		if !slices.EqualFunc(m.Levels[km-1-t], n.Levels[kn-1-t], slices.Equal) {
			break
		}
	}
	return t
}

// walkGroup decides the levels of m for the antecedent of group g (H ∪ α
// consistent; m compiled in w), taking the decisions of m's top same levels
// from the decisions under the current hypothesis (they share those levels) and
// walking down the others. dec, if not nil, receives every level's
// decision. It returns the assumptions that define the decision, with a
// world of them in w.m. A decision depends only on α, so the examples of
// one antecedent share it and only decide their β on it (entails).
//
// bound, if not nil, are lower bounds (lex) or skips (linear) for the
// levels below the shared ones (see lexWalk and linWalk).
func (w *freeWorker) walkGroup(g []int32, m *Hypothesis, ch change, same int, dec, bound []int32) []logic.Lit {
	e := w.f
	i := int(g[0])
	k, ko := len(m.Levels), len(e.hyp.Levels)
	// The assumptions are built in w.sx.wa: the caller is done with the
	// last group's before it walks the next.
	a := append(w.sx.wa[:0], e.ex[i].alpha...)
	p := &w.sx.prop
	w.resetProp(p, int(e.grp[i]), m.Hard, nil)
	for t := range same {
		l, v := k-1-t, e.dec[i][ko-1-t]
		if dec != nil {
			dec[l] = v
		}
		if e.sem == possibilistic.Lex {
			a = w.atMost(a, l, int(v))
		} else if v == 1 {
			a = append(a, w.sel[l])
		}
		p.decided(e.sem, m.Levels[l], l, int(v))
	}
	have := w.groupWorld(g, same > 0)
	if e.sem == possibilistic.Lex {
		if !have {
			w.sat(a) // consistent: H ∪ α is, and so are decisions taken from it
		}
		if dec != nil {
			w.sx.walk = w.lookUnder(int(e.grp[i]), m, ch, dec)
			defer func() { w.sx.walk = nil }()
		}
		a = w.lexWalk(m.Levels, a, slices.Clone(w.m), k-same, dec, bound, 0, p)
	} else {
		a = w.linWalk(m.Levels, a, k-same, have, dec, bound, p)
	}
	w.sx.wa = a
	return a
}

// entails decides whether the assumptions a (consistent; pool holds worlds
// of them, one after another) entail example i's β. A counter-world it
// finds joins the pool, which it returns: the examples of one antecedent
// decide their β on the same assumptions, and one's counter-world often
// settles another's. When β is entailed, core has the levels whose
// assumptions the proof used (coreOK false: not known).
//
// p, if not nil, is what propagation knows about the worlds of a:
// a β it proves needs no solver call. lk, if not nil, has more worlds of
// a (lex, lexpool.go), which the first example that needs them takes into
// the pool.
func (w *freeWorker) entails(i int, a []logic.Lit, pool []uint64, p *lexProp, lk *poolLook) (ok bool, core uint64, coreOK bool, _ []uint64) {
	d := &w.f.ex[i]
	for o := 0; o < len(pool); o += w.f.words {
		if !holds(d.beta, pool[o:o+w.f.words]) {
			return false, 0, false, pool
		}
	}
	if p != nil {
		if ok, core, coreOK := p.entails(d.beta); ok {
			return true, core, coreOK, pool
		}
	}
	if lk != nil && !lk.done {
		n := len(pool)
		pool = lk.final(pool)
		for o := n; o < len(pool); o += w.f.words {
			if !holds(d.beta, pool[o:o+w.f.words]) {
				return false, 0, false, pool
			}
		}
	}
	if w.try(a, d.negBeta...) {
		return false, 0, false, append(pool, w.m...)
	}
	core, coreOK = w.levelCore()
	return true, core, coreOK, pool
}

// lexCtx is a set of worlds during a lex walk: the assumptions that define
// it and a world of them.
type lexCtx struct {
	a []logic.Lit
	m []uint64
}

// minViolated returns the least number of clauses of level j (clauses l)
// violated by a world of x's assumptions, with such a world, given that
// it is at least lb. It tries the counts from lb up, not from x.m's count
// down: lower bounds from propagation (lexprop.go) are most often the
// least count or near it, and a count that admits a world needs no proof
// that it is least when the one below it admits none.
func (w *freeWorker) minViolated(x lexCtx, l []logic.Clause, j, lb int) (int, []uint64) {
	u := violated(l, x.m)
	for v := lb; v < u; v++ {
		a := append(w.assume[:0], x.a...)
		a = w.atMost(a, j, v)
		w.assume = a
		if w.sat(a) {
			return v, slices.Clone(w.m)
		}
	}
	return u, x.m
}

// linWalk walks the levels from−1 down to 0 of levels under linear from
// the kept assumptions a (w.m a world of them when have) and returns the
// assumptions of the levels kept, with a world of them in w.m; dec, if not
// nil, receives the decisions. H ∪ α must be consistent. bound, if not
// nil, are decisions of a hypothesis whose kept worlds at from include the
// walk's (see nested); a level it skipped stays skipped while the walk
// decides as it did.
//
// p, if not nil, knows by propagation the worlds of a: a level it refutes
// is skipped without a solver call (most levels a walk skips contradict a
// kept level's class through the hard rules), and each kept level's
// clauses join it, for the levels below and for β (entails).
func (w *freeWorker) linWalk(levels [][]logic.Clause, a []logic.Lit, from int, have bool, dec, bound []int32, p *lexProp) []logic.Lit {
	nested := bound != nil
	for l := from - 1; l >= 0; l-- {
		var keep bool
		switch {
		case nested && bound[l] == 0:
		case have && satisfiesAll(levels[l], w.m):
			keep = true
		case p != nil && p.refutesLevel(levels[l], l):
		default:
			keep = w.try(a, w.sel[l])
		}
		if keep {
			a, have = append(a, w.sel[l]), true
			if p != nil {
				p.decided(possibilistic.Linear, levels[l], l, 1)
			}
		}
		if dec != nil {
			dec[l] = 0
			if keep {
				dec[l] = 1
			}
		}
		nested = nested && keep == (bound[l] == 1)
	}
	if !have {
		w.sat(a) // a holds α and decisions taken from it: consistent
	}
	return a
}

// lexWalk minimises, level by level from from−1 down to 0, the violations
// of the worlds of a (m one of them) and returns the assumptions that
// define the optimal worlds, with one of them in w.m; dec, if not nil,
// receives the least counts. bound, if not nil, are the counts of a hypothesis
// whose optimal worlds at from include the walk's, each level's clauses
// among the walk's: while the walk's counts equal them, the walk's worlds
// stay among that hypothesis's, so their counts are lower bounds and a witness
// that reaches one needs no proof that it is least. first is a lower bound
// on the count of level from−1 that the caller knows (0: none).
//
// p knows, by propagation, the worlds of a (see lexprop.go); the walk
// bounds each level's count from below by it and tells it each count.
// w.sx.walk, if not nil, holds worlds of a from the antecedent's pool
// (lexpool.go): one that reaches a level's bound spares the call.
func (w *freeWorker) lexWalk(levels [][]logic.Clause, a []logic.Lit, m []uint64, from int, dec, bound []int32, first int, p *lexProp) []logic.Lit {
	x := lexCtx{a: a, m: m}
	nested := bound != nil
	for l := from - 1; l >= 0; l-- {
		f := p.forced(levels[l])
		lb := f
		if nested {
			lb = max(lb, int(bound[l]))
		}
		if l == from-1 {
			lb = max(lb, first)
		}
		// A world at hand that reaches lb needs no finer bound.
		if violated(levels[l], x.m) > lb {
			lb = max(lb, p.lowerBound(levels[l], l, f))
			if lk := w.sx.walk; lk != nil && violated(levels[l], x.m) > lb {
				if pm := lk.find(l, lb, dec); pm != nil {
					x.m = pm
				}
			}
		}
		u, mm := w.minViolated(x, levels[l], l, lb)
		x.a, x.m = w.atMost(x.a, l, u), mm
		p.bound(levels[l], l, u)
		if dec != nil {
			dec[l] = int32(u)
		}
		nested = nested && bound[l] == int32(u)
	}
	copy(w.m, x.m)
	return x.a
}

// lexProp returns what propagation knows about the assumptions of the
// last walk (walkGroup, slowSem).
func (w *freeWorker) lexProp() *lexProp { return &w.sx.prop }
