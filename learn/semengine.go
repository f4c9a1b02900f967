package learn

import (
	"context"
	"slices"
	"sync"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

// This file holds the drowning-free engine, the coverage engine of linear
// and lex: its state, its workers and their solvers. The drowning-free
// engines (linear and lex) share the example data and the stored worlds of
// the poss engine (store.go) and what its workers have in common
// (worker.go), but none of its shortcuts: the boundary b and the 2b
// invariant rest on drowning. Per example they keep, for the current
// hypothesis with k levels:
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

// drowningFree is the coverage engine of linear and lex entailment
// (semengine.go, semwalk.go, semscore.go, semcommit.go, semremove.go,
// lexpool.go, lexprop.go, lexmasks.go, free.go).
type drowningFree struct {
	store
	workers []*freeWorker
	sem     possibilistic.Semantics // Linear or Lex
	dec     [][]int32               // per example, per level (see above)
	semx    semExtra
}

// semExtra is what the drowning-free engines keep beside the state they
// share with poss.
type semExtra struct {
	once sync.Once
	// skip caches, for linear, per example and level j, the answer when
	// level j (kept) is skipped and the walk goes on below it (0: not known,
	// 1: not covered, 2: covered). It depends on the hypothesis alone, not on
	// the candidate, so it holds while skipFor[g] is the current hypothesis (g
	// the example's antecedent group; each group is scored by one worker).
	skip    [][]int8
	skipFor []*Hypothesis
	// pend are the outcomes of the trial removals on the hypothesis they were
	// made on (pruning tries every clause), which commitRemove takes
	// instead of deciding every example again: re-insertion removes every
	// clause in turn from the same hypothesis, returning to it after each.
	pend map[pendKey]*pendingRemoval
	// gprop is, per group under lex, what propagation knows about its
	// decisions (groupProp in lexprop.go).
	gonce sync.Once
	gprop []groupProp
	// base is, per group, the fixpoint of propagation from H ∪ α under
	// the hard rules baseHard (resetProp in lexprop.go); nil when too large.
	bonce    sync.Once
	base     []baseProp
	baseHard []logic.Clause
	// pools are, per group under lex, worlds its walks found (lexpool.go).
	ponce   sync.Once
	pools   []worldPool
	poolCap int // worlds per pool (0: poolSize); tests make it small
	// move is the last commit: from the hypothesis it left to the one it made,
	// by the change ch (pools derive their vectors along it).
	move struct {
		from, to *Hypothesis
		ch       change
	}
}

// freeWorker is a worker of the drowning-free engine.
type freeWorker struct {
	worker
	f     *drowningFree
	tot   [][]logic.Lit // lex: per level, the totalizer's outputs
	extra []logic.Lit   // scratch assumptions
	sx    semScratch
	pot   []int64  // gain bounds of the worker's groups (scoreShareBoundedSem)
	fa    []uint64 // the free atoms of the candidate being scored (free.go)
}

// semScratch holds a worker's buffers for the drowning-free engines.
type semScratch struct {
	cur, pre   []logic.Lit // assumptions
	wa         []logic.Lit // walkGroup's assumptions
	pool, skip []uint64    // worlds, one after another
	gm         []uint64
	totLv      []int32   // lex: the level of each totalizer output, from variable n
	prop       lexProp   // lex: what propagation knows in the last walk
	look       poolLook  // lex: the pool worlds of slowSem's candidate
	walk       *poolLook // lex: what the walk may take from the pool
	pfrom      []int32
	masks      [2]levelMasks // lex: of the last two hypotheses (masksOf)
	solvers    [2]lexSolver  // lex: of the last two hypotheses (compileLex)
	ptmp       []int8
	seen       []seenWorld
}

// newDrowningFree returns the drowning-free engine of sem (linear or lex)
// for the examples ex, with the hard rules and no learned level as its
// hypothesis.
func newDrowningFree(nAtoms int, ex *Examples, hard []logic.Clause, threads int, sem possibilistic.Semantics) *drowningFree {
	f := &drowningFree{sem: sem}
	e := &f.store
	e.init(nAtoms, ex, hard)
	f.dec = make([][]int32, len(e.ex))
	f.workers = hire(e, threads, func(w worker) *freeWorker { return &freeWorker{worker: w, f: f} })
	parallel(f.workers, func(w *freeWorker) {
		w.compileFree(e.hyp)
		w.each(func(i int) {
			w.initExample(i)
			w.decideEmpty(i)
		})
	})
	return f
}

// compileFree builds the worker's solver for m under the drowning-free
// engine's semantics.
func (w *freeWorker) compileFree(m *Hypothesis) {
	if w.f.sem == possibilistic.Lex {
		w.compileLex(m)
		return
	}
	w.compileSel(m)
}

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

// decideEmpty decides example i under a hypothesis without learned levels,
// where every semantics agrees: H ∪ α entails β or not. Its stored world
// (initExample) may settle it; a proof's levels are none.
func (w *freeWorker) decideEmpty(i int) {
	e := w.e
	st := &e.st[i]
	if !e.ex[i].hardOK {
		st.b, st.covered, st.t, st.tValid = 1, false, 0, true
		return
	}
	st.coreB, st.coreBOK = 0, true
	st.covered = true
	for s := range int(st.n) {
		if st.bf[s] && st.lv[s] <= 0 {
			st.covered = false
			return
		}
	}
	if w.solve(i, 0, true, -1) {
		w.keep(i, 0)
		st.covered = false
		return
	}
	st.coreT, st.coreTOK = w.core()
}

// recompile rebuilds the workers' solvers for the current hypothesis, whose
// states are already up to date.
func (e *drowningFree) recompile() {
	parallel(e.workers, func(w *freeWorker) { w.compileFree(e.hyp) })
}

// save is store.save with the examples' decisions.
func (e *drowningFree) save() snapshot {
	s := e.store.save()
	s.dec = slices.Grow(s.dec[:0], len(e.dec))[:len(e.dec)]
	for i, d := range e.dec {
		s.dec[i] = append(s.dec[i][:0], d...)
	}
	e.spare.dec = s.dec
	return s
}

// restore returns to hypothesis m and the example states and decisions
// saved with it.
func (e *drowningFree) restore(m *Hypothesis, s snapshot) {
	e.restoreStates(m, s)
	for i, d := range s.dec {
		e.dec[i] = append(e.dec[i][:0], d...)
	}
	e.recompile()
}
