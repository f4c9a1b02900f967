package learn

import (
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

// The drowning-free engines (linear and lex) share the example data, the
// stored models and the worker pool of the poss engine, but none of its
// shortcuts: the boundary b and the 2b invariant rest on drowning. Per
// example they keep, for the current model with k levels:
//   - covered, the answer;
//   - dec[i][j] for every level j: linear, 1 if the walk down from the top
//     keeps level j and 0 if it skips it; lex, the least number of clauses of
//     level j violated by a model of H ∪ α that is lexicographically optimal
//     on the levels above j (so dec[i] is the optimal violation vector V*);
//   - stored models of H ∪ α; lv[s] = 0 marks a witness of the current
//     decision (linear: it satisfies every kept level; lex: its violation
//     vector is V*), 1 any other model.
//
// The invariant that makes scoring a candidate clause c cheap: if some
// witness satisfies c (a stored one, or one SAT call finds it), then
//   - linear: inserting c into a kept level or as a new level keeps exactly
//     the levels kept before, plus c (every kept level stays consistent
//     with c, every skipped level stays inconsistent with a superset of what
//     made it skipped); inserting c into a skipped level changes nothing;
//   - lex: wherever c goes, the optimal models afterwards are the optimal
//     models before that satisfy c (each model's vector grows by [¬c] at c's
//     level, and V* stays reachable);
//
// so one entailment test, the same for all positions, gives the answer.
// Otherwise (c is violated by every witness) one walk down from the least
// level whose decisions above admit c answers every position from there up
// (slowSem in semscore.go says why); a changed model is re-decided only
// below the top levels it shares with the current one (sameTop).
// TestDrowningFreeMatchesBruteForce checks both engines against
// enumerating worlds on random small models.

// compileLex builds the worker's solver for m under lex: one violation
// literal per clause and a totalizer per level that counts them.
func (w *worker) compileLex(m *Model) {
	w.s = sat.New()
	for range w.e.n {
		w.s.NewVar()
	}
	for _, c := range m.Hard {
		w.s.AddClause(c...)
	}
	w.sel = w.sel[:0]
	w.tot = w.tot[:0]
	for _, l := range m.Levels {
		ys := make([]logic.Lit, len(l))
		for i, c := range l {
			ys[i] = logic.Pos(w.s.NewVar())
			w.s.AddClause(append(slices.Clone(c), ys[i])...)
		}
		w.tot = append(w.tot, totalizer(w.s, ys))
	}
}

// totalizer returns literals o with o[r] true whenever at least r+1 of xs
// are true (only that direction is encoded: a solver may set o[r] without
// cause, which only makes "at most" assumptions stricter for that model).
func totalizer(s *sat.Solver, xs []logic.Lit) []logic.Lit {
	if len(xs) == 1 {
		return xs
	}
	a := totalizer(s, xs[:len(xs)/2])
	b := totalizer(s, xs[len(xs)/2:])
	out := make([]logic.Lit, len(a)+len(b))
	for r := range out {
		out[r] = logic.Pos(s.NewVar())
	}
	for i, x := range a {
		s.AddClause(x.Not(), out[i])
		for j, y := range b {
			s.AddClause(x.Not(), y.Not(), out[i+j+1])
		}
	}
	for j, y := range b {
		s.AddClause(y.Not(), out[j])
	}
	return out
}

// atMost appends to a the assumption that at most v clauses of level j are
// violated (lex).
func (w *worker) atMost(a []logic.Lit, j, v int) []logic.Lit {
	if v < len(w.tot[j]) {
		a = append(a, w.tot[j][v].Not())
	}
	return a
}

// try solves under base and extra, built in w.assume (base must not alias
// it beyond its own prefix).
func (w *worker) try(base []logic.Lit, extra ...logic.Lit) bool {
	a := append(append(w.assume[:0], base...), extra...)
	w.assume = a
	return w.sat(a)
}

// sat solves under the assumptions a (and the hard rules) and on a model
// copies it into w.m.
func (w *worker) sat(a []logic.Lit) bool {
	if !w.s.Solve(a...) {
		return false
	}
	clear(w.m)
	for v := range w.e.n {
		if w.s.Value(logic.Atom(v)) {
			w.m[v>>6] |= 1 << (v & 63)
		}
	}
	return true
}

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

// startModel puts into w.m a stored model of example i to start a walk
// from: a witness of the current decision when the walk reuses decisions
// (witness true; one that falsifies β first, which settles a walk that
// keeps no more than the witnesses satisfy), any model of H ∪ α otherwise.
// It reports false when none is stored.
func (w *worker) startModel(i int, witness bool) bool {
	st := &w.e.st[i]
	found := false
	for s := range int(st.n) {
		if !witness || st.lv[s] == 0 {
			if !found || st.bf[s] {
				copy(w.m, w.e.slot(i, s))
				found = true
			}
			if !witness || st.bf[s] {
				break
			}
		}
	}
	return found
}

// sameTop returns the number of top levels that m and n share clause for
// clause: a level's decision depends only on α and the levels above it, so
// those levels keep their decisions from one model to the other.
func sameTop(m, n *Model) int {
	t := 0
	for km, kn := len(m.Levels), len(n.Levels); t < km && t < kn; t++ {
		if !slices.EqualFunc(m.Levels[km-1-t], n.Levels[kn-1-t], slices.Equal) {
			break
		}
	}
	return t
}

// decideSem decides example i under m (compiled in w), taking the
// decisions of m's top same levels from the example's decisions under the
// current model (they share those levels) and walking down the others. dec,
// if not nil, receives every level's decision. On return w.m holds a
// witness of the decision.
func (w *worker) decideSem(i int, m *Model, same int, dec []int32) bool {
	e := w.e
	k, ko := len(m.Levels), len(e.model.Levels)
	a := slices.Clone(e.ex[i].alpha)
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
	}
	have := w.startModel(i, same > 0)
	if e.sem == possibilistic.Lex {
		if !have && !w.sat(a) {
			return false // H ∪ α inconsistent: not covered
		}
		return w.lexBelow(i, m.Levels, a, slices.Clone(w.m), k-same, dec)
	}
	return w.linBelow(i, m.Levels, a, k-same, have, dec)
}

// entailed decides whether the assumptions a (consistent; w.m a model of
// them when have) entail β, leaving a model of a in w.m.
func (w *worker) entailed(i int, a []logic.Lit, have bool) bool {
	d := &w.e.ex[i]
	if have && !holds(d.beta, w.m) {
		return false
	}
	if !have && !w.sat(a) {
		return true // cannot happen: a is consistent when hardOK
	}
	save := slices.Clone(w.m)
	if w.try(a, d.negBeta...) {
		return false
	}
	copy(w.m, save)
	return true
}

// lexCtx is a set of models during a lex walk: the assumptions that define
// it and a model of them.
type lexCtx struct {
	a []logic.Lit
	m []uint64
}

// minViolated returns the least number of clauses of level j (clauses l)
// violated by a model of x's assumptions (and act, if act ≥ 0; x.m must
// then satisfy the candidate), with such a model.
func (w *worker) minViolated(x lexCtx, l []logic.Clause, j int, act logic.Lit) (int, []uint64) {
	mm := x.m
	u := violated(l, mm)
	for u > 0 {
		a := append(w.assume[:0], x.a...)
		if act >= 0 {
			a = append(a, act)
		}
		a = w.atMost(a, j, u-1)
		w.assume = a
		if !w.sat(a) {
			break
		}
		mm = slices.Clone(w.m)
		u = violated(l, mm)
	}
	return u, mm
}

// commitSem makes m current under linear or lex, re-deciding every example
// below the top levels m shares with the current model, and marks the
// stored models that witness the new decisions.
func (e *engine) commitSem(m *Model) {
	same := sameTop(e.model, m)
	k := len(m.Levels)
	e.parallel(func(w *worker) {
		w.compile(m)
		dec := make([]int32, k)
		for i := w.id; i < len(e.ex); i += len(e.workers) {
			st := &e.st[i]
			st.covered = false
			if e.ex[i].hardOK {
				st.covered = w.decideSem(i, m, same, dec)
			}
			e.dec[i] = append(e.dec[i][:0], dec...)
			if !e.ex[i].hardOK {
				continue
			}
			wit := slices.Clone(w.m)
			for s := range int(st.n) {
				st.lv[s] = 1
				if w.isWitness(i, m, e.slot(i, s)) {
					st.lv[s] = 0
				}
			}
			copy(w.m, wit)
			w.keep(i, 0)
		}
	})
	e.model = m
}

// isWitness reports whether x witnesses example i's decisions under m
// (in e.dec).
func (w *worker) isWitness(i int, m *Model, x []uint64) bool {
	e := w.e
	for j, l := range m.Levels {
		if e.sem == possibilistic.Lex {
			if violated(l, x) != int(e.dec[i][j]) {
				return false
			}
		} else if e.dec[i][j] == 1 && !satisfiesAll(l, x) {
			return false
		}
	}
	return true
}

// linBelow walks the levels from−1 down to 0 of levels under linear from
// the kept assumptions a (w.m a model of them when have) and decides β;
// dec, if not nil, receives the decisions.
func (w *worker) linBelow(i int, levels [][]logic.Clause, a []logic.Lit, from int, have bool, dec []int32) bool {
	for l := from - 1; l >= 0; l-- {
		keep := have && satisfiesAll(levels[l], w.m) || w.try(a, w.sel[l])
		if keep {
			a, have = append(a, w.sel[l]), true
		}
		if dec != nil {
			dec[l] = 0
			if keep {
				dec[l] = 1
			}
		}
	}
	return w.entailed(i, a, have)
}

// lexBelow minimises, level by level from from−1 down to 0, the violations
// of the models of a (m one of them) and decides β on the optimal ones;
// dec, if not nil, receives the least counts.
func (w *worker) lexBelow(i int, levels [][]logic.Clause, a []logic.Lit, m []uint64, from int, dec []int32) bool {
	x := lexCtx{a: a, m: m}
	for l := from - 1; l >= 0; l-- {
		u, mm := w.minViolated(x, levels[l], l, -1)
		x.a, x.m = w.atMost(x.a, l, u), mm
		if dec != nil {
			dec[l] = int32(u)
		}
	}
	copy(w.m, x.m)
	return w.entailed(i, x.a, true)
}
