package learn

import (
	"context"
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
// Otherwise (c is violated by every witness) each position is re-decided by
// walking down from c's level, taking the decisions above it from dec;
// inserting into a skipped level still changes nothing under linear.
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

// vlevel is one level of a model with a candidate inserted, as the walks
// visit them (top first): orig is the level's index in the model (−1 for a
// new level made of the candidate alone), withC whether it holds the
// candidate.
type vlevel struct {
	orig  int
	withC bool
}

// walkOrder lists the levels of m with c at position p (p < 0: no
// candidate), top first, restricted to the levels at or below the
// candidate's (all levels when p < 0).
func walkOrder(buf []vlevel, k, p int) []vlevel {
	buf = buf[:0]
	if p < 0 {
		for j := k - 1; j >= 0; j-- {
			buf = append(buf, vlevel{orig: j})
		}
		return buf
	}
	j := p / 2
	if p%2 == 1 {
		buf = append(buf, vlevel{orig: j, withC: true})
	} else {
		buf = append(buf, vlevel{orig: -1, withC: true})
	}
	for l := j - 1; l >= 0; l-- {
		buf = append(buf, vlevel{orig: l})
	}
	return buf
}

// startModel puts into w.m a stored model of example i to start a walk
// from: a witness of the current decision when the walk reuses the
// decisions above (witness true), any model of H ∪ α otherwise. It reports
// false when none is stored.
func (w *worker) startModel(i int, witness bool) bool {
	st := &w.e.st[i]
	for s := range int(st.n) {
		if !witness || st.lv[s] == 0 {
			copy(w.m, w.e.slot(i, s))
			return true
		}
	}
	return false
}

// decideSem decides example i under m (compiled in w) with c, activated by
// act, inserted at position p (p < 0: no candidate, and every level is
// decided afresh; then dec, if not nil, receives the decisions). With a
// candidate, the levels above it take their decisions from the example's
// state, which must be that of m. On return w.m holds a witness of the
// decision.
func (w *worker) decideSem(i int, m *Model, p int, c logic.Clause, act logic.Lit, dec []int32) bool {
	if w.e.sem == possibilistic.Lex {
		return w.decideLex(i, m, p, c, act, dec)
	}
	return w.decideLinear(i, m, p, c, act, dec)
}

func (w *worker) decideLinear(i int, m *Model, p int, c logic.Clause, act logic.Lit, dec []int32) bool {
	e := w.e
	d := &e.ex[i]
	k := len(m.Levels)
	a := append(w.assume[:0], d.alpha...)
	above := k
	if p >= 0 {
		above = (p + 1) / 2 // levels from here up keep their decisions
		for j := k - 1; j >= above; j-- {
			if e.dec[i][j] == 1 {
				a = append(a, w.sel[j])
			}
		}
	}
	have := w.startModel(i, p >= 0)
	w.order = walkOrder(w.order, k, p)
	for _, v := range w.order {
		n := len(a)
		if v.orig >= 0 {
			a = append(a, w.sel[v.orig])
		}
		if v.withC {
			a = append(a, act)
		}
		ok := have && (v.orig < 0 || satisfiesAll(m.Levels[v.orig], w.m)) && (!v.withC || holds(c, w.m))
		if !ok && w.sat(a) {
			ok, have = true, true
		}
		if !ok {
			a = a[:n]
		}
		if dec != nil && v.orig >= 0 {
			dec[v.orig] = 0
			if ok {
				dec[v.orig] = 1
			}
		}
	}
	w.assume = a
	return w.entailed(i, a, have)
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

// lexCtx is one part of the set of models still optimal during a lex walk:
// the assumptions that define it and a model of them.
type lexCtx struct {
	a []logic.Lit
	m []uint64
}

func (w *worker) decideLex(i int, m *Model, p int, c logic.Clause, act logic.Lit, dec []int32) bool {
	e := w.e
	d := &e.ex[i]
	k := len(m.Levels)
	a := slices.Clone(d.alpha)
	if p >= 0 {
		for j := k - 1; j >= (p+1)/2; j-- {
			a = w.atMost(a, j, int(e.dec[i][j]))
		}
	}
	if !w.startModel(i, p >= 0) && !w.sat(a) {
		return false
	}
	ctxs := []lexCtx{{a: a, m: slices.Clone(w.m)}}
	w.order = walkOrder(w.order, k, p)
	for _, v := range w.order {
		var next []lexCtx
		best := -1
		add := func(x lexCtx, val int) {
			switch {
			case best < 0 || val < best:
				best, next = val, append(next[:0], x)
			case val == best:
				next = append(next, x)
			}
		}
		for _, x := range ctxs {
			switch {
			case v.orig < 0: // the candidate alone
				if holds(c, x.m) {
					add(lexCtx{a: append(slices.Clone(x.a), act), m: x.m}, 0)
				} else if w.try(x.a, act) {
					add(lexCtx{a: append(slices.Clone(x.a), act), m: slices.Clone(w.m)}, 0)
				} else {
					add(x, 1)
				}
			case !v.withC:
				u, mm := w.minViolated(x, m.Levels[v.orig], v.orig, -1)
				add(lexCtx{a: w.atMost(slices.Clone(x.a), v.orig, u), m: mm}, u)
			default:
				// Count c with level j: either c holds and at most u of the
				// level are violated, or c fails and at most u−1 are.
				ua, ma := -1, []uint64(nil)
				if holds(c, x.m) {
					ua, ma = w.minViolated(x, m.Levels[v.orig], v.orig, act)
				} else if w.try(x.a, act) {
					ua, ma = w.minViolated(lexCtx{a: x.a, m: slices.Clone(w.m)}, m.Levels[v.orig], v.orig, act)
				}
				ub, mb := w.minViolated(x, m.Levels[v.orig], v.orig, -1)
				val := ub + 1
				if ua >= 0 {
					val = min(val, ua)
				}
				if ua == val {
					add(lexCtx{a: w.atMost(append(slices.Clone(x.a), act), v.orig, ua), m: ma}, val)
				}
				if ub+1 == val {
					add(lexCtx{a: w.atMost(slices.Clone(x.a), v.orig, ub), m: mb}, val)
				}
			}
		}
		ctxs = next
		if dec != nil && v.orig >= 0 {
			dec[v.orig] = int32(best)
		}
	}
	covered := true
	for _, x := range ctxs {
		copy(w.m, x.m)
		if !w.entailed(i, x.a, true) {
			covered = false
			break
		}
	}
	if covered {
		copy(w.m, ctxs[0].m)
	}
	return covered
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

// refreshSem re-decides example i under the compiled current model and
// marks the stored models that witness the decision.
func (w *worker) refreshSem(i int) {
	e := w.e
	st := &e.st[i]
	k := len(e.model.Levels)
	e.dec[i] = slices.Grow(e.dec[i][:0], k)[:k]
	st.covered = false
	if !e.ex[i].hardOK {
		return
	}
	st.covered = w.decideSem(i, e.model, -1, nil, -1, e.dec[i])
	wit := slices.Clone(w.m)
	for s := range int(st.n) {
		st.lv[s] = 1
		if w.isWitness(i, e.slot(i, s)) {
			st.lv[s] = 0
		}
	}
	copy(w.m, wit)
	w.keep(i, 0)
}

// isWitness reports whether m witnesses example i's current decision.
func (w *worker) isWitness(i int, m []uint64) bool {
	e := w.e
	for j, l := range e.model.Levels {
		if e.sem == possibilistic.Lex {
			if violated(l, m) != int(e.dec[i][j]) {
				return false
			}
		} else if e.dec[i][j] == 1 && !satisfiesAll(l, m) {
			return false
		}
	}
	return true
}

// scoreExampleSem adds to w.delta the change of example i's contribution
// when c (activated by act) is inserted at each position; see the invariant
// above.
func (w *worker) scoreExampleSem(i int, c logic.Clause, act logic.Lit) {
	e := w.e
	st := &e.st[i]
	d := &e.ex[i]
	if !d.hardOK {
		return
	}
	k := len(e.model.Levels)
	add := func(p int, ans bool) {
		if ans != st.covered {
			if ans {
				w.delta[p] += d.sign * d.weight
			} else {
				w.delta[p] -= d.sign * d.weight
			}
		}
	}
	skipped := func(p int) bool {
		return e.sem == possibilistic.Linear && p%2 == 1 && e.dec[i][p/2] == 0
	}
	// Is some witness consistent with c?
	cons, counter := false, false
	for s := range int(st.n) {
		if st.lv[s] == 0 && holds(c, e.slot(i, s)) {
			cons = true
			counter = counter || st.bf[s]
		}
	}
	a := w.current(i)
	if !cons {
		if w.sat(append(a, act)) {
			cons = true
			w.keep(i, 1)
		}
		w.assume = a
	}
	if cons {
		ans := st.covered
		if !ans && !counter {
			a = append(a, act)
			a = append(a, d.negBeta...)
			w.assume = a
			ans = !w.sat(a)
			if !ans {
				w.keep(i, 1)
			}
		}
		if ans != st.covered {
			for p := range 2*k + 1 {
				if !skipped(p) {
					add(p, ans)
				}
			}
		}
		return
	}
	w.slowSem(i, c, act, add, skipped)
}

// slowSem scores c for example i when no witness satisfies c. Let Q(j)
// say that some model of α and of the decisions of the levels ≥ j
// satisfies c (Q(0) is false here; Q(j) implies Q(j+1)), and g the least j
// with Q(j) (k+1 if none). Then
//   - a new level at 2j with j < g is skipped (linear) or violated by every
//     model still optimal (lex): nothing changes;
//   - at 2j and 2j+1 with j ≥ g the levels from g up decide as before with
//     c added (linear: a kept level l ≥ g stays consistent by Q(l), a
//     skipped one stays inconsistent; lex: the models of A_g ∩ c are
//     optimal on the levels from g up, A_j being those optimal on the
//     levels from j up), so every such position has the answer of one walk
//     down from g;
//   - at 2j+1 with j < g, linear skips level j and walks down from it
//     without it; lex compares the models of A_{j+1} ∩ c with j's count
//     one above optimal against the old optimum, level by level below j.
func (w *worker) slowSem(i int, c logic.Clause, act logic.Lit, add func(int, bool), skipped func(int) bool) {
	e := w.e
	st := &e.st[i]
	k := len(e.model.Levels)
	lo, hi := 1, k+1
	var gm []uint64
	for s := range int(st.n) {
		if m := e.slot(i, s); holds(c, m) {
			if j := w.memberFrom(i, m); j < hi {
				hi, gm = j, slices.Clone(m)
			}
		}
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if w.try(w.prefix(i, mid), act) {
			hi, gm = mid, slices.Clone(w.m)
			w.keep(i, 1)
		} else {
			lo = mid + 1
		}
	}
	g := hi
	ansW := st.covered
	if g <= k {
		a := append(slices.Clone(w.prefix(i, g)), act)
		if e.sem == possibilistic.Lex {
			ansW = w.lexBelow(i, e.model.Levels, a, gm, g)
		} else {
			copy(w.m, gm)
			ansW = w.linBelow(i, e.model.Levels, a, g, true)
		}
	}
	for p := range 2*k + 1 {
		j := p / 2
		switch {
		case skipped(p):
		case j >= g:
			add(p, ansW)
		case p%2 == 1 && e.sem == possibilistic.Lex:
			add(p, w.lexInto(i, j, act))
		case p%2 == 1:
			a := slices.Clone(w.prefix(i, j+1))
			add(p, w.linBelow(i, e.model.Levels, a, j, w.startModel(i, true)))
		}
	}
}

// prefix returns α and the decisions of the levels ≥ j, built in w.assume.
func (w *worker) prefix(i, j int) []logic.Lit {
	e := w.e
	a := append(w.assume[:0], e.ex[i].alpha...)
	for l := len(e.model.Levels) - 1; l >= j; l-- {
		if e.sem == possibilistic.Lex {
			a = w.atMost(a, l, int(e.dec[i][l]))
		} else if e.dec[i][l] == 1 {
			a = append(a, w.sel[l])
		}
	}
	w.assume = a
	return a
}

// memberFrom returns the least j such that m (a model of H ∪ α) satisfies
// the decisions of every level ≥ j.
func (w *worker) memberFrom(i int, m []uint64) int {
	e := w.e
	j := len(e.model.Levels)
	for ; j > 0; j-- {
		l := e.model.Levels[j-1]
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

// linBelow walks the levels from−1 down to 0 of levels under linear from
// the kept assumptions a (w.m a model of them when have) and decides β.
func (w *worker) linBelow(i int, levels [][]logic.Clause, a []logic.Lit, from int, have bool) bool {
	for l := from - 1; l >= 0; l-- {
		if have && satisfiesAll(levels[l], w.m) || w.try(a, w.sel[l]) {
			a, have = append(a, w.sel[l]), true
		}
	}
	return w.entailed(i, a, have)
}

// lexBelow minimises, level by level from from−1 down to 0, the violations
// of the models of a (m one of them) and decides β on the optimal ones.
func (w *worker) lexBelow(i int, levels [][]logic.Clause, a []logic.Lit, m []uint64, from int) bool {
	x := lexCtx{a: a, m: m}
	for l := from - 1; l >= 0; l-- {
		u, mm := w.minViolated(x, levels[l], l, -1)
		x.a, x.m = w.atMost(x.a, l, u), mm
	}
	copy(w.m, x.m)
	return w.entailed(i, x.a, true)
}

// lexInto decides example i with c (act) inserted into level j when no
// model of A_j satisfies c: the new optimum at level j is its old count
// plus one, reached by A_j (all violating c) and by S, the models of
// A_{j+1} ∩ c with one violation more at level j. Below j, S wins, loses
// or ties against the old optimum.
func (w *worker) lexInto(i, j int, act logic.Lit) bool {
	e := w.e
	st := &e.st[i]
	dec := e.dec[i]
	a := append(slices.Clone(w.prefix(i, j+1)), act)
	a = w.atMost(a, j, int(dec[j])+1)
	if !w.try(a) {
		return st.covered
	}
	m := slices.Clone(w.m)
	for l := j - 1; l >= 0; l-- {
		lv, v := e.model.Levels[l], int(dec[l])
		if violated(lv, m) > v {
			if !w.try(w.atMost(a, l, v)) {
				return st.covered // S loses
			}
			m = slices.Clone(w.m)
		}
		if violated(lv, m) < v || v > 0 && w.try(w.atMost(a, l, v-1)) {
			if violated(lv, m) >= v {
				m = slices.Clone(w.m)
			}
			u, mm := w.minViolated(lexCtx{a: a, m: m}, lv, l, -1)
			return w.lexBelow(i, e.model.Levels, w.atMost(a, l, u), mm, l) // S wins
		}
		a = w.atMost(a, l, v)
	}
	if !st.covered { // a tie: the old optimal models stay
		return false
	}
	copy(w.m, m)
	return w.entailed(i, a, true)
}

// current returns the assumptions that define the current decision of
// example i: α and the kept levels (linear) or the optimal counts (lex).
func (w *worker) current(i int) []logic.Lit {
	e := w.e
	a := append(w.assume[:0], e.ex[i].alpha...)
	for j := range e.model.Levels {
		if e.sem == possibilistic.Lex {
			a = w.atMost(a, j, int(e.dec[i][j]))
		} else if e.dec[i][j] == 1 {
			a = append(a, w.sel[j])
		}
	}
	w.assume = a
	return a
}

// scoreRemovalSem re-decides every example under the current model without
// clause i of level j.
func (e *engine) scoreRemovalSem(j, i int) int64 {
	m := e.model.Remove(j, i)
	parts := make([]int64, len(e.workers))
	e.parallel(func(w *worker) {
		w.compile(m)
		var delta int64
		for x := w.id; x < len(e.ex); x += len(e.workers) {
			d := &e.ex[x]
			if !d.hardOK {
				continue
			}
			if now := w.decideSem(x, m, -1, nil, -1, nil); now != e.st[x].covered {
				if now {
					delta += d.sign * d.weight
				} else {
					delta -= d.sign * d.weight
				}
			}
		}
		parts[w.id] = delta
	})
	var s int64
	for _, p := range parts {
		s += p
	}
	return s
}

// scoreCandidatesSem is scoreCandidates for linear and lex.
func (e *engine) scoreCandidatesSem(ctx context.Context, cands []logic.Clause) [][]int64 {
	np := e.model.Positions()
	parts := make([][][]int64, len(e.workers))
	e.parallel(func(w *worker) {
		out := make([][]int64, len(cands))
		for ci, c := range cands {
			out[ci] = make([]int64, np)
			if ctx.Err() != nil {
				continue
			}
			w.delta = out[ci]
			act := logic.Pos(w.s.NewVar())
			w.s.AddClause(append(append(make([]logic.Lit, 0, len(c)+1), c...), act.Not())...)
			for i := w.id; i < len(e.ex); i += len(e.workers) {
				w.scoreExampleSem(i, c, act)
			}
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
