package learn

import (
	"math/bits"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// Unit propagation settles many of the engine's questions without the
// solver. On the poker data four in five of the candidates that no stored
// world satisfies contradict the cut at the boundary, and propagation from
// α through the cut finds it: α fixes the situation's descriptors, the
// clauses whose antecedents α fulfils become units on the actions, and the
// hard rules exclude the others. Propagation also finds most boundaries
// (the cut below is refuted) and most covered examples (β is derived).
// Every literal it derives is entailed, and each derivation records the
// levels of the clauses it used, which make an unsatisfiable core as the
// solver's would; propagation is not complete, so what it does not settle
// still goes to the solver.

// maxUnitClauses bounds the clauses (hard rules and levels) over which
// units are propagated; beyond it (a hard rule in CNF with thousands of
// clauses) the solver alone decides.
const maxUnitClauses = 512

// unitIndex lists the clauses of one hypothesis with their levels (k for the
// hard rules) and, per literal l, the clauses containing ¬l, which
// deriving l may make unit. It is built once per hypothesis and then only read.
type unitIndex struct {
	hyp *Hypothesis
	ok  bool // the hypothesis is small enough, with at most 64 levels
	cls []logic.Clause
	// mask holds each clause as a clauseMask, pos then neg, words each
	// (see clause), for checking worlds (repair.go).
	mask  []uint64
	words int
	level []int32
	start []int32 // clauses of level k−1−r: cls[start[r]:start[r+1]]
	occ   [][]int32
}

// unitFacts are what unit propagation derives from α, the hard rules and
// the cuts of the hypothesis, for one antecedent group.
//
// Levels are counted from the top (depth d: the cut at level k−d, depth 0:
// the hard rules and α alone), so that a change of the hypothesis below its top
// s levels leaves every fact of depth ≤ s as it is, even when levels are
// added or removed underneath: propagation resumes at depth s+1 instead of
// starting over (unitsUnder). Propagation goes from the top down, so the
// facts of depth ≤ s are exactly what it had derived when it left depth s.
type unitFacts struct {
	hyp *Hypothesis // the hypothesis they were derived under (nil: never)
	k   int         // its number of levels
	// depth[l] is the least depth d such that propagation derives literal
	// l from the cut at depth d with α, −1 if none; a literal derived at d
	// is derived at every greater depth, whose cut contains it (levels fit:
	// at most 64). core[a] are the levels of the clauses the derivation of
	// atom a's derived literal used, as bits from the top (bit r: level
	// k−1−r).
	depth []int8
	core  []uint64
	// trail lists the derived literals in the order derived, so by depth.
	trail []logic.Lit
	// conflict is the least depth at which propagation refutes the cut
	// with α (−1: none), and conflictCore the levels it used.
	conflict     int16
	conflictCore uint64
	queue        []logic.Lit // while computing: the worker's scratch
}

// at returns the highest level whose cut propagation derives l from (k:
// the hard rules and α alone), −1 if none.
func (f *unitFacts) at(l logic.Lit) int {
	if d := f.depth[l]; d >= 0 {
		return f.k - int(d)
	}
	return -1
}

// levels turns a core of levels counted from the top into one of level
// indices (bit j: level j).
func (f *unitFacts) levels(core uint64) uint64 {
	if f.k == 0 {
		return 0
	}
	return bits.Reverse64(core) >> (64 - f.k)
}

// conflictAt returns the highest level whose cut propagation refutes with α
// (−1: none) and the levels that refutation used.
func (f *unitFacts) conflictAt() (int, uint64) {
	if f.conflict < 0 {
		return -1, 0
	}
	return f.k - int(f.conflict), f.levels(f.conflictCore)
}

// unitIndexFor returns the index of m, building it once.
func (e *drowning) unitIndexFor(m *Hypothesis) *unitIndex {
	e.unitMu.Lock()
	defer e.unitMu.Unlock()
	if e.unitIdx != nil && e.unitIdx.hyp == m {
		return e.unitIdx
	}
	x := &unitIndex{hyp: m}
	e.unitIdx = x
	k := len(m.Levels)
	if k > 64 || len(m.Hard)+m.NumClauses() > maxUnitClauses || !within(m, 2*e.n) {
		return x
	}
	x.ok = true
	x.words = e.words
	x.occ = make([][]int32, 2*e.n)
	add := func(c logic.Clause, j int) {
		id := int32(len(x.cls))
		x.cls = append(x.cls, c)
		cm := e.mask(c)
		x.mask = append(append(x.mask, cm.pos...), cm.neg...)
		x.level = append(x.level, int32(j))
		for _, l := range c {
			x.occ[l.Not()] = append(x.occ[l.Not()], id)
		}
	}
	for _, c := range m.Hard {
		add(c, k)
	}
	for j := k - 1; j >= 0; j-- {
		x.start = append(x.start, int32(len(x.cls)))
		for _, c := range m.Levels[j] {
			add(c, j)
		}
	}
	x.start = append(x.start, int32(len(x.cls)))
	return x
}

// units returns the unit facts of group gi under the current hypothesis,
// computing them the first time they are needed; nil when the hypothesis is too
// large. Only the worker that handles gi may call it.
func (w *possWorker) units(gi int) *unitFacts { return w.unitsUnder(gi, w.d.hyp) }

// unitsUnder is units under hypothesis m; the facts kept are those of the last
// hypothesis asked for. When that hypothesis shares its top levels with m (the
// learner changes one level at a time), the facts derived from them are
// kept and propagation resumes below them.
func (w *possWorker) unitsUnder(gi int, m *Hypothesis) *unitFacts {
	e := w.d
	f := &e.units[gi]
	if f.hyp == m {
		if f.depth == nil {
			return nil
		}
		return f
	}
	x := e.unitIndexFor(m)
	old := f.hyp
	f.hyp = m
	if !x.ok {
		f.depth, f.core, f.trail = nil, nil, f.trail[:0]
		return nil
	}
	keep := -1 // the depth down to which the facts stand
	if f.depth != nil {
		keep = w.sharedTop(old, m)
	}
	if len(f.depth) != 2*e.n {
		// The facts of all groups lie in three slabs, in the groups'
		// order, which the workers follow: computing them touches memory
		// in order. A trail holds at most one literal per atom.
		e.unitOnce.Do(func() {
			g := len(e.groups)
			e.unitSlab.depth = make([]int8, 2*e.n*g)
			e.unitSlab.core = make([]uint64, e.n*g)
			e.unitSlab.trail = make([]logic.Lit, e.n*g)
		})
		d, a := 2*e.n*gi, e.n*gi
		f.depth = e.unitSlab.depth[d : d+2*e.n : d+2*e.n]
		f.core = e.unitSlab.core[a : a+e.n : a+e.n]
		f.trail = e.unitSlab.trail[a : a : a+e.n]
		for l := range f.depth {
			f.depth[l] = -1 // core is read only where depth is set
		}
	}
	f.k = len(m.Levels)
	if f.conflict >= 0 && int(f.conflict) <= keep {
		return f // propagation stopped above the change
	}
	f.conflict, f.conflictCore = -1, 0
	n := len(f.trail)
	for n > 0 && int(f.depth[f.trail[n-1]]) > keep {
		n--
		f.depth[f.trail[n]] = -1
	}
	f.trail = f.trail[:n]
	f.queue = w.unitQ[:0]
	defer func() { w.unitQ, f.queue = f.queue[:0], nil }()
	if keep < 0 {
		for _, l := range e.ex[e.groups[gi][0]].alpha {
			if f.depth[l.Not()] >= 0 {
				f.conflict = 0
				return f
			}
			if f.depth[l] < 0 {
				f.derive(l, 0, 0)
			}
		}
	}
	// The hard rules (depth 0), then level after level from the top: at
	// depth d the cut at level k−d is active.
	k := f.k
	for d := keep + 1; d <= k; d++ {
		var first, end int32
		if d == 0 {
			first, end = 0, int32(len(m.Hard))
		} else {
			first, end = x.start[d-1], x.start[d]
		}
		for id := first; id < end; id++ {
			if !f.examine(x, id, d) {
				return f
			}
		}
		if !f.propagate(x, d) {
			return f
		}
	}
	return f
}

// sharedTop returns how many top levels hypotheses a and b have in common
// (the same clauses in the same order, and the same hard rules), −1 if not
// even the hard rules: propagation's facts of depth up to it are the same
// under both. The worker remembers the last pair asked about, which the
// groups it handles after one hypothesis change all ask about.
func (w *possWorker) sharedTop(a, b *Hypothesis) int {
	if w.topA == a && w.topB == b {
		return w.topN
	}
	n := -1
	if a != nil && slices.EqualFunc(a.Hard, b.Hard, slices.Equal) {
		n = 0
		for n < len(a.Levels) && n < len(b.Levels) &&
			slices.EqualFunc(a.Levels[len(a.Levels)-1-n], b.Levels[len(b.Levels)-1-n], slices.Equal) {
			n++
		}
	}
	w.topA, w.topB, w.topN = a, b, n
	return n
}

// derive records literal l as derived at depth d with the given core.
func (f *unitFacts) derive(l logic.Lit, d int, core uint64) {
	f.depth[l], f.core[l.Atom()] = int8(d), core
	f.trail = append(f.trail, l)
	f.queue = append(f.queue, l)
}

// examine derives the unit of clause id if the literals derived so far
// refute all its others, at depth d; false on a conflict (recorded).
func (f *unitFacts) examine(x *unitIndex, id int32, d int) bool {
	var unit logic.Lit
	free := 0
	var core uint64
	if lv := int(x.level[id]); lv < f.k {
		core = 1 << (f.k - 1 - lv)
	}
	for _, l := range x.cls[id] {
		switch {
		case f.depth[l] >= 0:
			return true // satisfied
		case f.depth[l.Not()] >= 0:
			core |= f.core[l.Atom()]
		default:
			free++
			unit = l
			if free > 1 {
				return true
			}
		}
	}
	if free == 0 {
		f.conflict, f.conflictCore = int16(d), core
		return false
	}
	f.derive(unit, d, core)
	return true
}

// propagate examines the active clauses (levels ≥ k−d) that the queued
// literals may have made unit, until none is left; false on a conflict.
func (f *unitFacts) propagate(x *unitIndex, d int) bool {
	j := f.k - d
	for len(f.queue) > 0 {
		l := f.queue[len(f.queue)-1]
		f.queue = f.queue[:len(f.queue)-1]
		for _, id := range x.occ[l] {
			if int(x.level[id]) >= j && !f.examine(x, id, d) {
				return false
			}
		}
	}
	return true
}

// refuted returns the highest level j such that propagation refutes c at
// the cut at j (every literal of c is refuted there, or the cut itself
// is), −1 if none: c is inconsistent with every cut at or below it.
func (f *unitFacts) refuted(c logic.Clause) int {
	r, _ := f.conflictAt()
	if len(c) == 0 {
		return r
	}
	low := int(^uint(0) >> 1)
	for _, l := range c {
		low = min(low, f.at(l.Not()))
	}
	return max(r, low)
}

// derives returns the highest level at which propagation derives a literal
// of β (−1: none), and the levels that derivation used: every cut at or
// below it entails β with α.
func (f *unitFacts) derives(beta logic.Clause) (int, uint64) {
	best, core := -1, uint64(0)
	for _, l := range beta {
		if at := f.at(l); at > best {
			best, core = at, f.core[l.Atom()]
		}
	}
	return best, f.levels(core)
}

// entails reports whether propagation proves that the cut at j, with α and
// c, entails β: β is derived there, or every literal of c that is not
// refuted there is a literal of β, or all but one, u, whose derivation
// makes a clause of the cut or the hard rules (x's) unit on β. The last
// is the hard rules' "exactly one class": c's open literal says "not
// class a" and β says "class b" of a binary label, or c says "class a"
// and β "not class b"; without it each such example goes to the solver
// (TestEntailsLookahead).
func (f *unitFacts) entails(c, beta logic.Clause, j int, x *unitIndex) bool {
	if at, _ := f.derives(beta); at >= j {
		return true
	}
	u, open := logic.Lit(0), 0
	for _, l := range c {
		if f.at(l.Not()) < j && !slices.Contains(beta, l) {
			u, open = l, open+1
			if open > 1 {
				return false
			}
		}
	}
	return open == 0 || f.forces(x, u, beta, j)
}

// forces reports whether a clause of the cut at j or of the hard rules
// holds ¬u and otherwise only literals of β and literals that propagation
// refutes at j: with u, that clause derives β (or refutes u).
func (f *unitFacts) forces(x *unitIndex, u logic.Lit, beta logic.Clause, j int) bool {
	if x == nil || !x.ok || int(u) >= len(x.occ) {
		return false
	}
next:
	for _, id := range x.occ[u] {
		if int(x.level[id]) < j {
			continue
		}
		for _, l := range x.cls[id] {
			if l != u.Not() && f.at(l.Not()) < j && !slices.Contains(beta, l) {
				continue next
			}
		}
		return true
	}
	return false
}

// within reports whether every literal of m is below n.
func within(m *Hypothesis, n int) bool {
	for _, c := range m.Hard {
		for _, l := range c {
			if int(l) >= n {
				return false
			}
		}
	}
	for _, lv := range m.Levels {
		for _, c := range lv {
			for _, l := range c {
				if int(l) >= n {
					return false
				}
			}
		}
	}
	return true
}
