package learn

import (
	"context"
	"slices"
	"sync"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

// A coverage engine decides whether the current hypothesis Θ covers every
// example, under the semantics the learner was given, and scores tentative
// changes of Θ without re-deciding what cannot change. There are two, over
// one store of the examples, their states and stored worlds (store), behind
// one interface (coverage), because the shortcut that makes poss fast rests
// on drowning:
//   - drowning, the engine of poss, keeps the boundary b and the threshold
//     t below, and its invariant: a clause inserted strictly below position
//     2b changes nothing, and above it the answer depends only on b, t and
//     the lowest level consistent with the clause;
//   - drowningFree, the engine of linear and lex: linear keeps, per level,
//     whether the walk down from the top keeps it, and lex the least
//     violation count of each level among the worlds optimal above it
//     (semengine.go). Their invariants: a level's decision
//     depends only on α and the levels above it, so a changed hypothesis is
//     re-decided only below the top levels it shares with the current one;
//     a candidate satisfied by some witness of the current decision has one
//     answer at every position (linear: except inside skipped levels, where
//     nothing changes); a candidate violated by every witness has one
//     answer at every position from 2g up, g the least level whose
//     decisions above admit it, changes nothing at new levels below 2g, and
//     under lex nothing inside levels below g−1 (slowSem proves each).
//
// The drowning engine in detail:
//
// Per example it keeps, for the current hypothesis with k levels:
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

const slots = 12 // worlds kept per example

type exData struct {
	alpha, beta, negBeta []logic.Lit
	weight               int64 // multiplicity
	sign                 int64 // +1 positive, −1 negative
	hardOK               bool  // H ∪ α is consistent
}

type exState struct {
	b       int32
	t       int32 // valid when tValid
	tValid  bool
	covered bool
	n       uint8 // worlds stored
	next    uint8 // round-robin victim
	lv      [slots]int32
	bf      [slots]bool // world falsifies β
	// Cores, as sets of levels (bit j: level j), valid when the flag is
	// set: coreB the levels of an unsatisfiable core of the cut at b−1 with
	// α, coreT of the cut at b with α and ¬β (covered). Removing a clause
	// of a level outside a core keeps what the core proves, so the
	// example's answer stands without a solver call (see removalKeeps).
	coreB, coreT     uint64
	coreBOK, coreTOK bool
}

// layout is what every coverage engine keeps of its examples: the
// examples numbered antecedent group after antecedent group, so that the
// examples of one α, which every engine decides together, lie together in
// memory, with the maps to and from the caller's order.
type layout struct {
	n     int // atoms: solver variables 0..n−1
	words int
	// ex holds the examples in the engine's order, for the general
	// engines; the complete engine reads them from src through orig (a
	// table of a million rows saves a copy of two million examples) and
	// their groups' consistency from ok.
	ex  []exData
	src []Example
	ok  []bool
	// groups lists the examples by antecedent: examples with the same α
	// share their boundary, and their stored worlds are worlds of H ∪ α.
	groups [][]int32
	grp    []int32 // each example's group
	// orig[i] is the position of example i in the Examples the engine was
	// built from, and index the inverse.
	orig, index []int32
	// The examples' weight, and the negatives' (accuracy).
	total, neg int64
	weighed    bool
}

// store is what the general coverage engines keep: the layout, the
// examples' states under the current hypothesis and their stored worlds,
// and the common part of the workers that decide them.
type store struct {
	layout
	st     []exState
	worlds []uint64 // example i, slot s at ((i*slots)+s)*words
	hyp    *Hypothesis
	common []*worker // each of the engine's workers' (hire)
	spare  snapshot  // the memory of the last save
	// logging is set from save to restore or forget: keep logs what it
	// overwrites.
	logging bool
	// betaMasks holds each example's β as a clause mask: pos then neg,
	// words each (see betaMask).
	betaMasks []uint64
	negBetas  []logic.Lit // the examples' negated βs (negBeta)
	hs        hardSubsumer
	// gatoms holds each group's atoms (groupAtoms, free.go).
	gaOnce sync.Once
	gatoms []uint64
	// ent holds what propagation derives from H ∪ α per group
	// (entailed.go).
	ent entailedSet
}

// coverage is a coverage engine: it decides, under its semantics, which
// examples the current hypothesis covers, and what inserting or removing a
// clause would change. The drowning engine decides ⊢poss, the
// drowning-free one linear and lex entailment, both with a solver over
// stored worlds; the complete engine decides any of the three by
// evaluation where every example's evidence fixes its worlds to a few
// (complete.go). The learner, the greedy stratifier and pruning run on
// any of them.
type coverage interface {
	// examples returns the examples as the engine numbers them.
	examples() *layout
	// hypothesis returns the current hypothesis, covers whether it covers
	// example i (in the engine's numbering), and score the covered
	// positives' weight less the covered negatives'.
	hypothesis() *Hypothesis
	covers(i int) bool
	score() int64
	// commit makes h the current hypothesis and re-decides every example;
	// commitInsert and commitRemove do so for the current one changed by
	// a clause, re-deciding only what the change may alter.
	commit(h *Hypothesis)
	commitInsert(c logic.Clause, p int)
	commitRemove(j, i int)
	// scoreCandidates returns, for each clause, the change of score when
	// it is inserted at each position 0..2k of the current hypothesis;
	// scoreAbove only for the candidates that may change it by need or
	// more at some position from[ci] on other than except (-1: none; see
	// bestAbove and reinsert).
	scoreCandidates(ctx context.Context, cands []logic.Clause) [][]int64
	scoreAbove(ctx context.Context, cands []logic.Clause, from []int, need int64, except int) [][]int64
	// scoreRemoval returns the change of score if clause i of level j
	// were removed, removalHarmless whether it is at least 0; both leave
	// the workers compiled for the smaller hypothesis (commitRemove or
	// recompile next).
	scoreRemoval(j, i int) int64
	removalHarmless(j, i int) bool
	// minPosition returns the lowest position of h at which c is not
	// redundant, or −1 when no position changes anything.
	minPosition(h *Hypothesis, c logic.Clause) int
	// save, restore and forget go back to a hypothesis and its states, or
	// give up going back (see store.save); recompile rebuilds the
	// workers' solvers.
	save() snapshot
	restore(h *Hypothesis, s snapshot)
	forget()
	recompile()
}

// coveredOf returns whether e's hypothesis covers each example, in the
// order of the Examples e was built from.
func coveredOf(e coverage) []bool {
	x := e.examples()
	out := make([]bool, x.count())
	for i := range out {
		out[x.orig[i]] = e.covers(i)
	}
	return out
}

// accuracy turns a score into the fraction of examples classified correctly.
func (e *layout) accuracy(score int64) float64 {
	if !e.weighed {
		for i := range e.count() {
			d := e.data(i)
			e.total += d.weight
			if d.sign < 0 {
				e.neg += d.weight
			}
		}
		e.weighed = true
	}
	if e.total == 0 {
		return 1
	}
	return float64(score+e.neg) / float64(e.total)
}

// drowning is the coverage engine of ⊢poss (engine.go, score.go,
// scorebound.go, entailed.go, propagate.go, repair.go).
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

// drowningFree is the coverage engine of linear and lex entailment
// (semengine.go, semscore.go, lexpool.go, lexprop.go, lexmasks.go).
type drowningFree struct {
	store
	workers []*freeWorker
	sem     possibilistic.Semantics // Linear or Lex
	dec     [][]int32               // per example, per level (see semengine.go)
	semx    semExtra                // see semscore.go
}

func (e *store) examples() *layout       { return &e.layout }
func (e *store) hypothesis() *Hypothesis { return e.hyp }
func (e *store) covers(i int) bool       { return e.st[i].covered }

// worker is what the workers of both solver-based engines have in common:
// each decides its share of the examples (whole antecedent groups) with its
// own solver, and an engine keeps its workers (possWorker, freeWorker),
// each around one of these.
type worker struct {
	e      *store
	id     int
	s      *sat.Solver
	sel    []logic.Lit
	assume []logic.Lit
	m      []uint64   // scratch world
	delta  []int64    // per-position score change of the candidate being scored
	cm     clauseMask // the mask of the candidate being scored
	act    []uint64   // the groups active for the candidate being scored (entailed.go)
	// undoAt and undoM log the stored worlds keep overwrote since the
	// last save (slot index, then the world), for restore.
	undoAt []int32
	undoM  []uint64
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

// freeWorker is a worker of the drowning-free engine.
type freeWorker struct {
	worker
	f     *drowningFree
	tot   [][]logic.Lit // lex: per level, the totalizer's outputs
	extra []logic.Lit   // scratch assumptions
	sx    semScratch    // semscore.go
	pot   []int64       // gain bounds of the worker's groups (scoreShareBoundedSem)
	fa    []uint64      // the free atoms of the candidate being scored (free.go)
}

// engineWorker is a worker of one of the solver-based engines, as the
// loops they share (parallel, scoreEach, scoreBounded) drive it.
type engineWorker interface {
	common() *worker
}

// common returns the worker's common part.
func (w *worker) common() *worker { return w }

// hire starts the workers of an engine over e, threads of them (at least
// one), each made by mk around its common part, which e.common lists.
func hire[W engineWorker](e *store, threads int, mk func(w worker) W) []W {
	ws := make([]W, max(threads, 1))
	for id := range ws {
		ws[id] = mk(worker{e: e, id: id, m: make([]uint64, e.words)})
		e.common = append(e.common, ws[id].common())
	}
	return ws
}

// newEngine returns the coverage engine of sem for the examples ex, with
// the hard rules and no learned level as its hypothesis.
func newEngine(nAtoms int, ex *Examples, hard []logic.Clause, threads int, sem possibilistic.Semantics) coverage {
	if sem == possibilistic.Poss {
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

// init numbers the examples group after group.
func (e *store) init(nAtoms int, ex *Examples, hard []logic.Clause) {
	e.layout.init(nAtoms, ex, true)
	for i := range e.ex {
		e.ex[i].negBeta = e.negBeta(i)
	}
	e.betaMasks = make([]uint64, 0, 2*e.words*len(e.ex))
	for _, d := range e.ex {
		k := e.mask(d.beta)
		e.betaMasks = append(append(e.betaMasks, k.pos...), k.neg...)
	}
	e.st = make([]exState, len(e.ex))
	e.worlds = make([]uint64, len(e.ex)*slots*e.words)
	e.hyp = &Hypothesis{Hard: hard}
}

// init numbers the examples of ex group after group; with copy, it copies
// them into the engine's order (ex), as the general engines read them.
func (e *layout) init(nAtoms int, ex *Examples, copy bool) {
	e.n, e.words = nAtoms, (nAtoms+63)/64
	e.groups = groupByAlpha(ex.List)
	e.orig = make([]int32, 0, len(ex.List))
	e.index = make([]int32, len(ex.List))
	e.src = ex.List
	for g, xs := range e.groups {
		for n, x := range xs {
			e.index[x] = int32(len(e.orig))
			e.orig = append(e.orig, x)
			xs[n] = e.index[x]
		}
		e.groups[g] = xs
	}
	e.grp = make([]int32, len(e.orig))
	for g, xs := range e.groups {
		for _, x := range xs {
			e.grp[x] = int32(g)
		}
	}
	if !copy {
		e.ok = make([]bool, len(e.groups))
		return
	}
	e.ok = make([]bool, len(e.groups)) // all false: data reads src
	data := make([]exData, len(e.orig))
	for i := range data {
		data[i] = e.data(i)
	}
	e.ex, e.ok = data, nil
}

// count returns the number of examples.
func (e *layout) count() int { return len(e.orig) }

// data returns example i.
func (e *layout) data(i int) exData {
	if e.ex != nil {
		return e.ex[i]
	}
	src := &e.src[e.orig[i]]
	d := exData{alpha: src.Alpha, beta: src.Beta, weight: int64(src.Count), sign: 1, hardOK: e.ok[e.grp[i]]}
	if !src.Positive {
		d.sign = -1
	}
	return d
}

// negBeta returns the negation of example i's β, the literals of all of
// the general engines' examples in one array.
func (e *store) negBeta(i int) []logic.Lit {
	if e.negBetas == nil {
		n := 0
		for _, x := range e.src {
			n += len(x.Beta)
		}
		e.negBetas = make([]logic.Lit, 0, n)
	}
	start := len(e.negBetas)
	for _, l := range e.ex[i].beta {
		e.negBetas = append(e.negBetas, l.Not())
	}
	return e.negBetas[start:len(e.negBetas):len(e.negBetas)]
}

// groupByAlpha lists the examples of each antecedent (as a set of
// literals), in order of first appearance. Antecedents are found by a hash
// of their literals, checked literal by literal, and an example whose α
// is the previous one's slice (a table row's default and non-default
// share it) joins its group without either.
func groupByAlpha(ex []Example) [][]int32 {
	var groups [][]int32
	index := make(map[uint64]int32, len(ex)/2+1)
	var next []int32      // per group: the next group of its hash, −1 none
	var sets []logic.Term // per group: its α as a set
	last := int32(-1)
	for i, d := range ex {
		if i > 0 && last >= 0 && sameSlice(d.Alpha, ex[i-1].Alpha) {
			groups[last] = append(groups[last], int32(i))
			continue
		}
		a := d.Alpha
		if !strictlyIncreasing(a) {
			a = slices.Compact(slices.Sorted(slices.Values(d.Alpha)))
		}
		h := hashTerm(a)
		g, ok := index[h]
		found := int32(-1)
		for x := g; ok && x >= 0; x = next[x] {
			if slices.Equal(sets[x], a) {
				found = x
				break
			}
		}
		if found < 0 {
			found = int32(len(groups))
			groups = append(groups, nil)
			sets = append(sets, a)
			if ok {
				next = append(next, g)
			} else {
				next = append(next, -1)
			}
			index[h] = found
		}
		groups[found] = append(groups[found], int32(i))
		last = found
	}
	return groups
}

// sameSlice reports whether a and b are the same slice of memory.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// hashTerm hashes a set of literals (FNV-1a over their values).
func hashTerm(t logic.Term) uint64 {
	h := uint64(14695981039346656037)
	for _, l := range t {
		h ^= uint64(uint32(l))
		h *= 1099511628211
	}
	return h
}

// strictlyIncreasing reports whether a is sorted without repeats, as a set
// of literals is stored (a situation of a table always is).
func strictlyIncreasing(a logic.Term) bool {
	for i := 1; i < len(a); i++ {
		if a[i] <= a[i-1] {
			return false
		}
	}
	return true
}

// each calls fn on the worker's share of the examples: whole antecedent
// groups, so that a group's unit facts (propagate.go) have one writer.
func (w *worker) each(fn func(i int)) {
	e := w.e
	for g := w.id; g < len(e.groups); g += len(e.common) {
		for _, x := range e.groups[g] {
			fn(int(x))
		}
	}
}

// parallel runs fn on every worker of ws, each on its own goroutine.
func parallel[W any](ws []W, fn func(w W)) {
	if len(ws) == 1 {
		fn(ws[0])
		return
	}
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w)
		}()
	}
	wg.Wait()
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

// newSolver gives the worker a fresh solver over the atoms with m's hard
// rules, and no level selectors yet.
func (w *worker) newSolver(m *Hypothesis) {
	w.s = sat.New()
	for range w.e.n {
		w.s.NewVar()
	}
	for _, c := range m.Hard {
		w.s.AddClause(c...)
	}
	w.sel = w.sel[:0]
}

// compileSel builds the solver for poss and linear: hard rules permanent,
// each level's clauses guarded by the level's selector.
func (w *worker) compileSel(m *Hypothesis) {
	w.newSolver(m)
	for _, l := range m.Levels {
		sel := logic.Pos(w.s.NewVar())
		w.sel = append(w.sel, sel)
		for _, c := range l {
			w.s.AddClause(append(append(make([]logic.Lit, 0, len(c)+1), c...), sel.Not())...)
		}
	}
}

// solve decides the cut at b with α, optionally ¬β, and optionally the
// activation literal of a candidate clause (act < 0: none). On a world it
// copies the world into w.m.
func (w *worker) solve(i, b int, negBeta bool, act logic.Lit) bool {
	d := &w.e.ex[i]
	a := w.assume[:0]
	for j, s := range w.sel {
		if j >= b {
			a = append(a, s)
		} else {
			a = append(a, s.Not())
		}
	}
	a = append(a, d.alpha...)
	if negBeta {
		a = append(a, d.negBeta...)
	}
	if act >= 0 {
		a = append(a, act)
	}
	w.assume = a
	if ok, _ := w.s.Solve(context.Background(), a...); !ok {
		return false
	}
	for k := range w.m {
		w.m[k] = 0
	}
	for v := range w.e.n {
		if w.s.Value(logic.Atom(v)) {
			w.m[v>>6] |= 1 << (v & 63)
		}
	}
	return true
}

// core returns the levels whose selectors are in the solver's last
// unsatisfiable core, and false if one of them does not fit in a mask.
func (w *worker) core() (uint64, bool) {
	var m uint64
	first := logic.Atom(w.e.n)
	for _, l := range w.s.Failed() {
		a := l.Atom()
		if l.IsNeg() || a < first || int(a-first) >= len(w.sel) {
			continue
		}
		j := int(a - first)
		if j >= 64 {
			return 0, false
		}
		m |= 1 << j
	}
	return m, true
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

// clauseMask is a clause as bit masks over the atoms of a world: a world
// (as stored, one bit per atom) satisfies the clause if it shares a bit
// with pos or misses one of neg. The scoring scans test one candidate
// against thousands of stored worlds, a few words each instead of a loop
// over literals.
type clauseMask struct{ pos, neg []uint64 }

// mask returns c's mask; c's atoms must be below e.n.
func (e *store) mask(c logic.Clause) clauseMask {
	k := clauseMask{pos: make([]uint64, e.words), neg: make([]uint64, e.words)}
	for _, l := range c {
		a := l.Atom()
		if l.IsNeg() {
			k.neg[a>>6] |= 1 << (a & 63)
		} else {
			k.pos[a>>6] |= 1 << (a & 63)
		}
	}
	return k
}

// betaMask returns example i's β as a clause mask.
func (e *store) betaMask(i int) clauseMask {
	o := 2 * e.words * i
	return clauseMask{pos: e.betaMasks[o : o+e.words], neg: e.betaMasks[o+e.words : o+2*e.words]}
}

// holds reports whether world m satisfies the clause.
func (k *clauseMask) holds(m []uint64) bool {
	for i, w := range m {
		if w&k.pos[i]|^w&k.neg[i] != 0 {
			return true
		}
	}
	return false
}

func holds(c []logic.Lit, m []uint64) bool {
	for _, l := range c {
		a := l.Atom()
		if (m[a>>6]>>(a&63)&1 == 1) != l.IsNeg() {
			return true
		}
	}
	return false
}

// lowestSatisfied returns the smallest j ≤ from such that m satisfies every
// clause of levels j..from−1.
func lowestSatisfied(levels [][]logic.Clause, m []uint64, from int) int {
	for j := from - 1; j >= 0; j-- {
		for _, c := range levels[j] {
			if !holds(c, m) {
				return j + 1
			}
		}
	}
	return 0
}

func (e *store) slot(i, s int) []uint64 {
	o := (i*slots + s) * e.words
	return e.worlds[o : o+e.words]
}

// keep stores w.m as a world of example i (a world of H ∪ α that satisfies
// the levels from lv up). The best witness and the best counter-world are
// never evicted.
func (w *worker) keep(i, lv int) {
	e := w.e
	st := &e.st[i]
	bf := !holds(e.ex[i].beta, w.m)
	var s int
	if int(st.n) < slots {
		s = int(st.n)
		st.n++
	} else {
		bestW, bestC := -1, -1
		for k := range slots {
			if bestW < 0 || st.lv[k] < st.lv[bestW] {
				bestW = k
			}
			if st.bf[k] && (bestC < 0 || st.lv[k] < st.lv[bestC]) {
				bestC = k
			}
		}
		for {
			s = int(st.next)
			st.next = (st.next + 1) % slots
			if s != bestW && s != bestC {
				break
			}
		}
	}
	if e.logging {
		w.undoAt = append(w.undoAt, int32(i*slots+s))
		w.undoM = append(w.undoM, e.slot(i, s)...)
	}
	copy(e.slot(i, s), w.m)
	st.lv[s] = int32(lv)
	st.bf[s] = bf
}

// initExample checks H ∪ α once (it never changes) and keeps the world.
func (w *worker) initExample(i int) {
	st := &w.e.st[i]
	*st = exState{}
	d := &w.e.ex[i]
	if !w.solve(i, 0, false, -1) {
		d.hardOK = false
		st.b = 0
		return
	}
	d.hardOK = true
	w.keep(i, 0)
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

// recompile rebuilds the workers' solvers for the current hypothesis, whose
// states are already up to date.
func (e *drowningFree) recompile() {
	parallel(e.workers, func(w *freeWorker) { w.compileFree(e.hyp) })
}

// snapshot is the examples' states (and under linear and lex their
// decisions) saved with a hypothesis.
type snapshot struct {
	st  []exState
	dec [][]int32
}

// save returns the examples' states. The snapshot reuses the memory of the
// previous one (re-insertion saves once per clause, megabytes each time on
// large example sets), so it is valid until the next save. The stored
// worlds, most of the memory, are not copied: until restore or forget,
// keep notes in its worker's undo log what each one it overwrites held.
func (e *store) save() snapshot {
	s := snapshot{st: append(e.spare.st[:0], e.st...), dec: e.spare.dec}
	e.spare = s
	e.forget()
	e.logging = true
	return s
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

// forget stops logging overwritten worlds: the last snapshot will not be
// restored.
func (e *store) forget() {
	e.logging = false
	for _, w := range e.common {
		w.undoAt, w.undoM = w.undoAt[:0], w.undoM[:0]
	}
}

// restoreStates returns to hypothesis m and the example states saved with
// it, and stops logging.
func (e *store) restoreStates(m *Hypothesis, s snapshot) {
	e.hyp = m
	copy(e.st, s.st)
	for _, w := range e.common {
		// Latest first, so that a slot overwritten twice ends as saved.
		for n := len(w.undoAt) - 1; n >= 0; n-- {
			o := int(w.undoAt[n]) * e.words
			copy(e.worlds[o:o+e.words], w.undoM[n*e.words:(n+1)*e.words])
		}
	}
	e.forget()
}

// restore returns to hypothesis m and the example states saved with it.
func (e *drowning) restore(m *Hypothesis, s snapshot) {
	e.restoreStates(m, s)
	e.recompile()
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
