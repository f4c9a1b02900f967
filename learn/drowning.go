package learn

import (
	"sync"

	"github.com/strata-logic/strata/logic"
)

// This file holds the drowning engine, the coverage engine of ⊢poss: its
// state, its workers and how a worker decides an example; score.go and
// scorebound.go score candidates, commit.go commits changes and tries
// removals.
//
// Per example the engine keeps, for the current hypothesis with k levels:
//   - b, the boundary: the cut of levels b..k−1 plus the hard rules is the
//     lowest cut consistent with α (hard rules and α are always in it);
//   - covered, whether that cut entails β;
//   - t, the largest j such that the cut at j, with α, entails β (computed
//     when first needed; t ≥ b−1, since cuts below b are inconsistent);
//   - a few worlds of H ∪ α (H: the hard rules), each with the lowest level
//     from which it satisfies every level of the hypothesis, and whether it
//     falsifies β. A world satisfying the cut at j proves that cut
//     consistent; if it also falsifies β it proves β not entailed there.
//
// The invariant that makes scoring incremental: adding a clause c at a
// position strictly below 2b (into a drowned level, or as a new level under
// a drowned one) cannot change the answer, and at every position from 2b up
// the answer depends only on whether the cut at b stays consistent with c,
// on the lowest j > b whose cut is consistent with c and α, and on t. So one
// or two solver calls per example give its answer at all 2k+1 positions,
// and a stored world that satisfies c often makes them unnecessary.
// TestIncrementalMatchesFullEvaluation checks this against re-deciding every
// example from scratch on random hypotheses.
//
// Two more facts save solver calls without changing any answer. Examples
// with the same α have the same b, so a candidate's consistency with the
// cut at b (and the lowest consistent cut above) is decided once per α,
// with every stored world of those examples. And each example keeps the
// levels of an unsatisfiable core of the cut at b−1 and, when covered, of
// the cut at b with ¬β: removing a clause of a level outside both cores
// leaves its boundary and answer as they are, so pruning re-decides only
// the examples whose cores used that level.
//
// Four more save most of the remaining calls, again without
// changing an answer. A search that meets an unsatisfiable cut goes on above
// the lowest level of its core, not just above the cut (coreLow). Unit
// propagation from α through the cuts, once per antecedent and hypothesis, finds
// boundaries, covered examples and candidates that contradict a cut, with
// the levels each derivation used as cores (propagate.go). Candidates are
// scored from the highest upper bound on their gain down, and one stops
// being scored once what it has changed so far plus the bounds of the
// examples left cannot reach the best (scoreAbove). Pruning stops deciding
// a removal's examples once the sign of its change is settled
// (removalHarmless). Then three more that leave the solver almost nothing
// on poker: a question whose answer is a world (a cut, with α and perhaps
// a candidate, is consistent) is first put to repair, which mends a stored
// world and checks it (repair.go); propagation after a hypothesis change resumes
// below the top levels the hypotheses share; and the examples are numbered by
// antecedent, so that scoring reads memory in order.

// drowning is the coverage engine of ⊢poss (drowning.go, score.go,
// scorebound.go, commit.go, entailed.go, propagate.go, repair.go).
type drowning struct {
	store
	workers  []*possWorker
	units    []unitFacts // per group, see propagate.go
	unitMu   sync.Mutex
	unitIdx  *unitIndex
	unitOnce sync.Once
	unitSlab struct {
		depth []int8
		core  []uint64
		trail []logic.Lit
	}
}

// possWorker is a worker of the drowning engine.
type possWorker struct {
	worker
	d     *drowning
	unitQ []logic.Lit // scratch for units
	// sharedTop's last answer: hypotheses topA and topB share topN top levels.
	topA, topB *Hypothesis
	topN       int
	ux         *unitIndex // the last hypothesis's, for repair
	// pending holds the examples a trial removal left to decide
	// (removalHarmless), kept from one trial to the next.
	pending []trialPending
}

// newDrowning returns the drowning engine for the examples ex, with the
// hard rules and no learned level as its hypothesis.
func newDrowning(nAtoms int, ex *Examples, hard []logic.Clause, threads int) *drowning {
	d := &drowning{}
	e := &d.store
	e.init(nAtoms, ex, hard)
	d.units = make([]unitFacts, len(e.groups))
	d.workers = hire(e, threads, func(w worker) *possWorker { return &possWorker{worker: w, d: d} })
	parallel(d.workers, func(w *possWorker) {
		w.compileSel(e.hyp)
		w.each(func(i int) {
			w.initExample(i)
			// The empty hypothesis may already cover an example: the
			// hard rules, or α itself, can entail β.
			w.research(i, 0, -1)
		})
	})
	return d
}

// coreLow returns the lowest level whose selector is in the solver's last
// unsatisfiable core, or the number of levels if none is. Every cut at or
// below that level contains the core, so all of them are inconsistent with
// the same assumptions: a search for the lowest consistent cut can go on
// above it, not just above the cut it tried.
func (w *possWorker) coreLow() int {
	low := len(w.sel)
	first := logic.Atom(w.e.n)
	for _, l := range w.s.Failed() {
		a := l.Atom()
		if l.IsNeg() || a < first || int(a-first) >= len(w.sel) {
			continue
		}
		low = min(low, int(a-first))
	}
	return low
}

// dropLevel renumbers a core once level j is gone, leaving level j out:
// only a core that needs none of level j's clauses stays a core.
func dropLevel(m uint64, j int) uint64 {
	low := m & (1<<j - 1)
	return low | m>>(j+1)<<j
}

// addLevel renumbers a core once a new level is inserted at index j; false
// if a level no longer fits.
func addLevel(m uint64, j int) (uint64, bool) {
	if m>>63 != 0 {
		return 0, false
	}
	low := m & (1<<j - 1)
	return low | m>>j<<(j+1), true
}

// refresh re-decides example i under the worker's compiled hypothesis: it
// recomputes the levels of the stored worlds, then searches the boundary.
func (w *possWorker) refresh(i int) {
	e := w.d
	st := &e.st[i]
	k := len(e.hyp.Levels)
	for s := range int(st.n) {
		st.lv[s] = int32(lowestSatisfied(e.hyp.Levels, e.slot(i, s), k))
	}
	st.coreBOK, st.coreTOK = false, false
	w.research(i, 0, -1)
}

// research re-decides example i given sound levels of its stored worlds:
// it binary-searches the boundary between lo (known inconsistent below) and
// the best stored world, then decides β at the boundary. probe, if in the
// search range, is tried first: callers that know where the boundary most
// likely is (where it was before a small change) settle it in one call
// instead of log k.
func (w *possWorker) research(i, lo, probe int) {
	e := w.d
	st := &e.st[i]
	d := &e.ex[i]
	k := len(e.hyp.Levels)
	st.tValid = false
	// A core for the cut at lo−1 carries over when the caller's lower
	// bound is the boundary it was recorded for (commitInsert).
	coreB, coreBOK := st.coreB, st.coreBOK && int(st.b) == lo
	st.coreBOK, st.coreTOK = false, false
	if !d.hardOK {
		st.b, st.covered, st.t, st.tValid = int32(k+1), false, int32(k), true
		return
	}
	hi := k
	for s := range int(st.n) {
		hi = min(hi, int(st.lv[s]))
	}
	f := w.units(int(e.grp[i]))
	if f != nil {
		if at, core := f.conflictAt(); at >= lo && at < hi {
			// Propagation refutes the cuts up to at.
			lo, coreB, coreBOK = at+1, core, true
		}
	}
	if hi < lo {
		lo, coreBOK = hi, false
	}
	for first := true; lo < hi; first = false {
		mid := (lo + hi) / 2
		if first && lo <= probe && probe < hi {
			mid = probe
		}
		if !w.repair(int(e.grp[i]), mid, e.hyp, nil, nil, f, w.index(e.hyp)) && !w.solve(i, mid, false, -1) {
			lo = min(max(mid, w.coreLow())+1, hi)
			coreB, coreBOK = w.core()
			continue
		}
		lv := lowestSatisfied(e.hyp.Levels, w.m, mid)
		w.keep(i, lv)
		hi = lv
	}
	st.b = int32(hi)
	st.coreB, st.coreBOK = coreB, coreBOK || hi == 0
	st.covered = true
	for s := range int(st.n) {
		if st.bf[s] && st.lv[s] <= st.b {
			st.covered = false
			return
		}
	}
	if f != nil {
		if at, core := f.derives(d.beta); at >= hi {
			st.coreT, st.coreTOK = core, true // propagation derives β
			return
		}
	}
	if w.solve(i, hi, true, -1) {
		w.keep(i, lowestSatisfied(e.hyp.Levels, w.m, hi))
		st.covered = false
		return
	}
	st.coreT, st.coreTOK = w.core()
}

// removalKeeps reports whether removing a clause of level j leaves example
// i's answer and boundary as they are, proved by its cores and stored
// worlds alone; lv are the stored worlds' levels after the removal and bNew
// the boundary in the new indices. It assumes b ≤ j+1 (above, nothing can
// change) and H ∪ α consistent. The cut at b−1 stays inconsistent if its
// core has no clause of level j; a covered example stays covered if its
// core at b has none either, and an uncovered one keeps a stored
// counter-world, since a smaller cut keeps every world.
func (e *drowning) removalKeeps(i, j, bNew int, lv []int32) bool {
	st := &e.st[i]
	if st.b > 0 && (!st.coreBOK || st.coreB>>j&1 != 0) {
		return false
	}
	if st.covered {
		return st.coreTOK && st.coreT>>j&1 == 0
	}
	for s, l := range lv {
		if st.bf[s] && int(l) <= bNew {
			return true
		}
	}
	return false
}

// removalKeepsUnder is removalKeeps for a trial removal that leaves the
// stored worlds' levels as they are: it computes their levels under m,
// the hypothesis without the clause (emptied: level j went with it), only where
// the answer needs them.
func (e *drowning) removalKeepsUnder(i, j, bNew int, emptied bool, m *Hypothesis, c logic.Clause) bool {
	st := &e.st[i]
	if st.b > 0 && (!st.coreBOK || st.coreB>>j&1 != 0) {
		return false
	}
	if st.covered {
		return st.coreTOK && st.coreT>>j&1 == 0
	}
	for s := range int(st.n) {
		if st.bf[s] && levelAfterRemoval(int(st.lv[s]), j, emptied, m, c, e.slot(i, s)) <= bNew {
			return true
		}
	}
	return false
}

// levelAfterRemoval returns the level of a stored world once clause c of
// level j is removed (m is the hypothesis after removal; emptied says whether
// level j disappeared): only a world whose lowest violated level was j can
// go lower, and only if c was the clause of that level it violated.
func levelAfterRemoval(lv, j int, emptied bool, m *Hypothesis, c logic.Clause, slot []uint64) int {
	switch {
	case lv <= j:
		return lv
	case lv == j+1 && emptied:
		return lowestSatisfied(m.Levels, slot, j)
	case lv == j+1 && holds(c, slot):
		return lv // it violates another clause of level j
	case lv == j+1:
		return lowestSatisfied(m.Levels, slot, j+1)
	case emptied:
		return lv - 1
	}
	return lv
}

// levelAfterInsert returns the level of a stored world once c is inserted
// at position p.
func levelAfterInsert(lv, p int, c logic.Clause, slot []uint64) int {
	j := p / 2
	switch {
	case p%2 == 0 && lv > j:
		return lv + 1
	case lv <= j && !holds(c, slot):
		return j + 1
	}
	return lv
}

// threshold returns t for example i: the largest j with the cut at j, and α,
// entailing β. Cuts below b are inconsistent and entail everything.
func (w *possWorker) threshold(i int) int {
	e := w.d
	st := &e.st[i]
	if st.tValid {
		return int(st.t)
	}
	b := int(st.b)
	t := b - 1
	if st.covered {
		lo, up := b, len(e.hyp.Levels)
		for s := range int(st.n) {
			if st.bf[s] {
				up = min(up, int(st.lv[s])-1)
			}
		}
		if f := w.units(int(e.grp[i])); f != nil {
			// Every cut up to where propagation derives β entails it.
			at, _ := f.derives(e.ex[i].beta)
			lo = max(lo, min(at, up))
		}
		for lo < up {
			mid := (lo + up + 1) / 2
			if w.solve(i, mid, true, -1) {
				lv := lowestSatisfied(e.hyp.Levels, w.m, mid)
				w.keep(i, lv)
				up = lv - 1
			} else {
				// Every cut up to the core's lowest level entails β.
				lo = min(max(mid, w.coreLow()), up)
			}
		}
		t = lo
	}
	st.t, st.tValid = int32(t), true
	return t
}

// recompile rebuilds the workers' solvers for the current hypothesis, whose
// states are already up to date.
func (e *drowning) recompile() {
	parallel(e.workers, func(w *possWorker) { w.compileSel(e.hyp) })
}

// restore returns to hypothesis m and the example states saved with it.
func (e *drowning) restore(m *Hypothesis, s snapshot) {
	e.restoreStates(m, s)
	e.recompile()
}
