package learn

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

// The drowning-free engines (linear and lex) share the example data, the
// stored worlds and the worker pool of the poss engine, but none of its
// shortcuts: the boundary b and the 2b invariant rest on drowning. Per
// example they keep, for the current hypothesis with k levels:
//   - covered, the answer;
//   - dec[i][j] for every level j: linear, 1 if the walk down from the top
//     keeps level j and 0 if it skips it; lex, the least number of clauses of
//     level j violated by a world of H ∪ α that is lexicographically optimal
//     on the levels above j (so dec[i] is the optimal violation vector V*);
//   - stored worlds of H ∪ α; lv[s] = 0 marks a witness of the current
//     decision (linear: it satisfies every kept level; lex: its violation
//     vector is V*), 1 any other world. Under lex the antecedent's pool
//     (lexpool.go), with each world's vector, takes this part: a witness
//     is a pool world whose vector is V*.
//
// The invariant that makes scoring a candidate clause c cheap: if some
// witness satisfies c (a stored one, or one SAT call finds it), then
//   - linear: inserting c into a kept level or as a new level keeps exactly
//     the levels kept before, plus c (every kept level stays consistent
//     with c, every skipped level stays inconsistent with a superset of what
//     made it skipped); inserting c into a skipped level changes nothing;
//   - lex: wherever c goes, the optimal worlds afterwards are the optimal
//     worlds before that satisfy c (each world's vector grows by [¬c] at c's
//     level, and V* stays reachable);
//
// so one entailment test, the same for all positions, gives the answer.
// Otherwise (c is violated by every witness) one walk down from the least
// level whose decisions above admit c answers every position from there up
// (slowSem in semscore.go says why); a changed hypothesis is re-decided only
// below the top levels it shares with the current one (sameTop).
//
// Four facts save solver calls without changing any answer. A decision
// depends only on α, so the examples of one antecedent are decided
// together (walkGroup, scoreGroupSem): one walk, then β per example, and a
// counter-world of one example's β often settles another's. Each example
// keeps the levels of its entailment proof (levelCore): a change that
// keeps those levels' clauses and strengthens their assumptions keeps the
// proof (mapCore, coreBelow). When an antecedent's decisions come out as
// before, an insertion only narrows its optimal worlds and a removal only
// widens them (change.keeps), and walks from narrowed sets of worlds are bounded
// by the old decisions (lexWalk, linWalk). And a trial removal keeps what
// it decided, which committing that removal then takes (pruning tries
// every clause, re-insertion removes every clause in turn). Under lex,
// unit propagation answers many of the remaining calls first: lower bounds
// on a level's count, conclusions, and candidates no optimal world can
// satisfy (lexprop.go); and the worlds that earlier candidates' walks
// found for an antecedent reach most bounds and refute most β of the next
// candidate's walk (lexpool.go).
// Before all of these, a clause that is free for an antecedent (a literal
// on an atom neither α nor β mentions, whose complement no clause has)
// changes none of its decisions or answers wherever it goes in or comes
// out, so scoring, trial removals and commits skip that antecedent
// (free.go); on answer tables most clauses are free for most antecedents.
// TestDrowningFreeMatchesBruteForce checks both engines against
// enumerating worlds on random small hypotheses.

// compileLex builds the worker's solver for m under lex: one violation
// literal per clause and a totalizer per level that counts them. A worker
// keeps the solvers of the last two hypotheses it compiled: pruning scores a
// trial removal on its own hypothesis and then returns to the current one, and
// re-insertion returns to the hypothesis it started from, so most compiles find
// their solver built (with what it learnt; the clauses of candidates it
// scored are switched off for good).
func (w *freeWorker) compileLex(m *Hypothesis) {
	c := &w.sx.solvers
	switch m {
	case c[0].hyp:
	case c[1].hyp:
		c[0], c[1] = c[1], c[0]
	default:
		c[0], c[1] = c[1], c[0]
		w.newSolver(m)
		tot := make([][]logic.Lit, 0, len(m.Levels))
		for _, l := range m.Levels {
			ys := make([]logic.Lit, len(l))
			for i, c := range l {
				ys[i] = logic.Pos(w.s.NewVar())
				w.s.AddClause(append(slices.Clone(c), ys[i])...)
			}
			tot = append(tot, totalizer(w.s, ys))
		}
		// The level of each totalizer output, to read cores (levelCore).
		var totLv []int32
		for j, o := range tot {
			for _, l := range o {
				a := int(l.Atom()) - w.f.n
				for len(totLv) <= a {
					totLv = append(totLv, -1)
				}
				totLv[a] = int32(j)
			}
		}
		c[0] = lexSolver{hyp: m, s: w.s, tot: tot, totLv: totLv}
	}
	w.s, w.tot, w.sx.totLv = c[0].s, c[0].tot, c[0].totLv
	w.sel = w.sel[:0]
}

// lexSolver is a worker's solver compiled for a hypothesis under lex, with the
// outputs of its totalizers and their levels.
type lexSolver struct {
	hyp   *Hypothesis
	s     *sat.Solver
	tot   [][]logic.Lit
	totLv []int32
}

// totalizer returns literals o with o[r] true whenever at least r+1 of xs
// are true, one direction only (logic.Totalizer).
func totalizer(s *sat.Solver, xs []logic.Lit) []logic.Lit {
	return logic.Totalizer(xs, s.NewVar, func(c ...logic.Lit) { s.AddClause(c...) }, false)
}

// atMost appends to a the assumption that at most v clauses of level j are
// violated (lex).
func (w *freeWorker) atMost(a []logic.Lit, j, v int) []logic.Lit {
	if v < len(w.tot[j]) {
		a = append(a, w.tot[j][v].Not())
	}
	return a
}

// try solves under base and extra, built in w.assume (base must not alias
// it beyond its own prefix).
func (w *freeWorker) try(base []logic.Lit, extra ...logic.Lit) bool {
	a := append(append(w.assume[:0], base...), extra...)
	w.assume = a
	return w.sat(a)
}

// sat solves under the assumptions a (and the hard rules) and on a world
// copies it into w.m.
func (w *freeWorker) sat(a []logic.Lit) bool {
	if ok, _ := w.s.Solve(context.Background(), a...); !ok {
		return false
	}
	clear(w.m)
	for v := range w.f.n {
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

// levelCore returns the levels whose assumptions (linear: the selector;
// lex: the bound on its violations) are in the solver's last
// unsatisfiable core, and false if one does not fit in a mask. A proof
// that uses the levels L holds in any hypothesis whose levels L have at least
// their clauses and at least as strong assumptions: the other levels'
// clauses can always be switched off (a selector false, a violation
// literal true).
func (w *freeWorker) levelCore() (uint64, bool) {
	var m uint64
	for _, l := range w.s.Failed() {
		j := w.levelOf(l.Atom())
		if j < 0 {
			continue
		}
		if j >= 64 {
			return 0, false
		}
		m |= 1 << j
	}
	return m, true
}

// levelOf returns the level whose assumption variable a is, or −1.
func (w *freeWorker) levelOf(a logic.Atom) int {
	x := int(a) - w.f.n
	if x < 0 {
		return -1
	}
	if w.f.sem == possibilistic.Lex {
		if x < len(w.sx.totLv) {
			return int(w.sx.totLv[x])
		}
		return -1
	}
	if x < len(w.sel) { // compileSel makes the selectors n, n+1, …
		return x
	}
	return -1
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

// commit makes m current under linear or lex, re-deciding every
// antecedent below the top levels m shares with the current hypothesis, and
// marks the stored worlds that witness the new decisions.
func (e *drowningFree) commit(m *Hypothesis) { e.commitChange(m, change{}) }

// commitChange is commit for m, the current hypothesis changed as ch says.
func (e *drowningFree) commitChange(m *Hypothesis, ch change) {
	same := sameTop(e.hyp, m)
	k := len(m.Levels)
	var fa, act []uint64 // the changed clause's free atoms (free.go) and active groups (entailed.go)
	switch ch.kind {
	case insertion:
		fa = e.freeAtoms(m, ch.c, nil)
	case removal:
		fa = e.freeAtoms(e.hyp, ch.c, nil)
	}
	if ch.kind != 0 && e.entailedFor(e.hyp) {
		act = e.active(ch.c, nil)
	}
	parallel(e.workers, func(w *freeWorker) {
		w.compileFree(m)
		dec := make([]int32, k)
		for gi := w.id; gi < len(e.groups); gi += len(e.workers) {
			g := e.groups[gi]
			if !e.ex[g[0]].hardOK {
				e.setUndecided(g, k)
				continue
			}
			if e.unchanged(gi, fa, act) && w.keepFree(g, gi, m, ch, fa) {
				continue
			}
			old := e.dec[g[0]]
			a := w.walkGroup(g, m, ch, same, dec, ch.expected(e.sem, old))
			pool := append(w.sx.pool[:0], w.m...)
			lk := w.walkLook()
			kept := ch.keeps(e.sem, old, dec)
			for _, xi := range g {
				x := int(xi)
				st := &e.st[x]
				core, ok := ch.mapCore(e.sem, st.coreT, old, dec)
				ok = ok && st.coreTOK && st.covered
				switch {
				case w.settled(g, x, kept) || ok:
					st.coreT, st.coreTOK = core, ok
				default:
					st.covered, st.coreT, st.coreTOK, pool = w.entails(x, a, pool, w.lexProp(), lk)
				}
			}
			w.sx.pool = pool
			w.poolKeep(gi, pool)
			w.markWitnesses(g, m, dec, pool[:e.words])
		}
	})
	e.semx.move.from, e.semx.move.to, e.semx.move.ch = e.hyp, m, ch
	e.hyp = m
}

// change says how a hypothesis differs from the current one: by a clause
// inserted at position pos, or removed from level j (emptied: the level
// went with it), or unknown (the zero value).
type change struct {
	kind    int // 0 unknown, insertion or removal
	pos, j  int
	emptied bool
	c       logic.Clause // the clause inserted or removed
}

const (
	insertion = 1 + iota
	removal
)

// Which answers a changed hypothesis keeps when an antecedent's decisions come
// out as before (mapped to the new levels):
const (
	keepNone      = iota
	keepCovered   // an insertion: the new optimal worlds are among the old
	keepUncovered // a removal: the old optimal worlds are among the new
)

// keeps compares the decisions dec of an antecedent under the changed
// hypothesis with its decisions old under the current one. If they are the same
// (a new level kept by linear, violated nowhere by lex), an insertion only
// narrows the optimal worlds (those of the old that satisfy the clause,
// where it is kept or counted: a world violating it would have a larger
// count, or make linear skip the level), and a removal only widens them (a
// world that was optimal satisfied the clause or it could now do better,
// and it still meets every decision), so a covered example stays covered
// after an insertion, and an uncovered one stays uncovered after a removal
// if a witness of the old decisions falsifies its β.
func (ch change) keeps(sem possibilistic.Semantics, old, dec []int32) int {
	switch ch.kind {
	case insertion:
		if ch.pos%2 == 1 {
			if slices.Equal(old, dec) {
				return keepCovered
			}
			return keepNone
		}
		j := ch.pos / 2
		want := int32(0) // lex: the new level's clause holds
		if sem == possibilistic.Linear {
			want = 1 // linear: the new level is kept
		}
		if len(dec) == len(old)+1 && dec[j] == want && slices.Equal(dec[:j], old[:j]) && slices.Equal(dec[j+1:], old[j:]) {
			return keepCovered
		}
	case removal:
		if !ch.emptied && slices.Equal(old, dec) {
			return keepUncovered
		}
		j := ch.j
		if ch.emptied && len(dec)+1 == len(old) && slices.Equal(dec[:j], old[:j]) && slices.Equal(dec[j:], old[j+1:]) {
			return keepUncovered
		}
	}
	return keepNone
}

// expected returns, for an insertion, the decisions old of an antecedent
// mapped to the changed hypothesis's levels (a new level: violated nowhere by
// lex, kept by linear), nil otherwise. The insertion narrows the worlds
// that each level's decision starts from while the decisions above are as
// before, so they bound the walk (lexWalk, linWalk).
func (ch change) expected(sem possibilistic.Semantics, old []int32) []int32 {
	if ch.kind != insertion {
		return nil
	}
	if ch.pos%2 == 1 {
		return old
	}
	j := ch.pos / 2
	v := int32(0)
	if sem == possibilistic.Linear {
		v = 1
	}
	return slices.Insert(slices.Clone(old), j, v)
}

// mapCore returns, in the levels of the changed hypothesis, the levels core of
// an entailment proof under the current hypothesis, and whether the proof still
// holds there: none of its levels lost a clause, and each keeps at least
// as strong an assumption (dec against old: linear keeps the level, lex
// bounds its violations no higher). Cores are kept in the example state's
// coreT (coreTOK), which only poss uses otherwise.
func (ch change) mapCore(sem possibilistic.Semantics, core uint64, old, dec []int32) (uint64, bool) {
	var out uint64
	for l := 0; l < 64 && core>>l != 0; l++ {
		if core>>l&1 == 0 {
			continue
		}
		n := l
		switch ch.kind {
		case insertion:
			if ch.pos%2 == 0 && l >= ch.pos/2 {
				n++
			}
		case removal:
			if l == ch.j && (sem != possibilistic.Lex || ch.emptied) {
				return 0, false
			}
			if ch.emptied && l > ch.j {
				n--
			}
		default:
			return 0, false
		}
		if n >= 64 || n >= len(dec) || l >= len(old) {
			return 0, false
		}
		bound := old[l]
		if ch.kind == removal && l == ch.j {
			// Under lex the level that lost a clause keeps the proof if
			// its bound fell by one: at most v−1 violations among the
			// other clauses imply at most v among all.
			bound--
		}
		if sem == possibilistic.Lex && dec[n] > bound || sem == possibilistic.Linear && dec[n] != 1 {
			return 0, false
		}
		out |= 1 << n
	}
	return out, true
}

// settled reports whether example x of group g keeps its answer by kept
// (see change.keeps); stored witnesses still mark the old decisions.
func (w *freeWorker) settled(g []int32, x, kept int) bool {
	st := &w.f.st[x]
	switch kept {
	case keepCovered:
		return st.covered
	case keepUncovered:
		bm := w.f.betaMask(x)
		return !st.covered && w.storedWitness(g, nil, &bm)
	}
	return false
}

// setUndecided records the examples of g, whose α the hard rules refute, as
// not covered, with no decisions.
func (e *drowningFree) setUndecided(g []int32, k int) {
	for _, x := range g {
		e.st[x].covered = false
		e.dec[x] = slices.Grow(e.dec[x][:0], k)[:k]
		clear(e.dec[x])
	}
}

// markWitnesses records dec as the decisions of the examples of g under m
// and marks which of their stored worlds witness them; wit, a witness,
// is kept.
func (w *freeWorker) markWitnesses(g []int32, m *Hypothesis, dec []int32, wit []uint64) {
	e := w.f
	if e.sem == possibilistic.Lex {
		// The antecedent's pool has its witnesses (poolWitness).
		for _, x := range g {
			e.dec[x] = append(e.dec[x][:0], dec...)
		}
		w.poolAdd(int(e.grp[g[0]]), wit)
		return
	}
	// The examples of g often store the same worlds (each keeps the
	// group's witness): decide each distinct world once.
	seen := w.sx.seen[:0]
	for _, x := range g {
		i := int(x)
		e.dec[i] = append(e.dec[i][:0], dec...)
		st := &e.st[i]
		for s := range int(st.n) {
			mod := e.slot(i, s)
			h := hashWorld(mod)
			known := -1
			for _, v := range seen {
				if v.h == h && slices.Equal(e.slot(int(v.x), int(v.s)), mod) {
					known = int(v.lv)
					break
				}
			}
			if known < 0 {
				known = 1
				if w.isWitness(i, m, mod) {
					known = 0
				}
				seen = append(seen, seenWorld{h: h, x: x, s: int32(s), lv: int32(known)})
			}
			st.lv[s] = int32(known)
		}
	}
	w.sx.seen = seen
	for _, x := range g {
		copy(w.m, wit)
		w.keep(int(x), 0)
	}
}

// seenWorld is a stored world already marked: slot s of example x.
type seenWorld struct {
	h     uint64
	x     int32
	s, lv int32
}

// hashWorld mixes the words of a world.
func hashWorld(m []uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, w := range m {
		h = (h ^ w) * 1099511628211
		h ^= h >> 29
	}
	return h
}

// isWitness reports whether x witnesses example i's decisions under m
// (in e.dec).
func (w *freeWorker) isWitness(i int, m *Hypothesis, x []uint64) bool {
	e := w.f
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
