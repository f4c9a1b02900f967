package learn

import (
	"slices"

	"github.com/strata-logic/strata/logic"
)

// Unit propagation settles many of the engine's questions without the
// solver. On the poker data four in five of the candidates that no stored
// model satisfies contradict the cut at the boundary, and propagation from
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

// unitIndex lists the clauses of one model with their levels (k for the
// hard rules) and, per literal l, the clauses containing ¬l, which
// deriving l may make unit. It is built once per model and then only read.
type unitIndex struct {
	model *Model
	ok    bool // the model is small enough, with at most 64 levels
	cls   []logic.Clause
	level []int32
	start []int32 // clauses of level j: cls[start[j]:start[j+1]] (j < k)
	occ   [][]int32
}

// unitFacts are what unit propagation derives from α, the hard rules and
// the cuts of the model, for one antecedent group.
type unitFacts struct {
	model *Model // the model they were derived under (nil: never)
	// at[l] is the highest level j such that propagation derives literal l
	// from the cut at j with α (k: from the hard rules and α alone), −1 if
	// none; a literal derived at j is derived at every lower cut, which
	// contains the cut at j (levels fit: at most 64). core[a] are the levels
	// of the clauses the derivation of atom a's derived literal used.
	at   []int8
	core []uint64
	// conflict is the highest level whose cut propagation refutes with α
	// (−1: none), and conflictCore the levels it used.
	conflict     int16
	conflictCore uint64
	queue        []logic.Lit // while computing: the worker's scratch
}

// unitIndexFor returns the index of m, building it once.
func (e *engine) unitIndexFor(m *Model) *unitIndex {
	e.unitMu.Lock()
	defer e.unitMu.Unlock()
	if e.unitIdx != nil && e.unitIdx.model == m {
		return e.unitIdx
	}
	x := &unitIndex{model: m}
	e.unitIdx = x
	k := len(m.Levels)
	if k > 64 || len(m.Hard)+m.NumClauses() > maxUnitClauses || !within(m, 2*e.n) {
		return x
	}
	x.ok = true
	x.occ = make([][]int32, 2*e.n)
	add := func(c logic.Clause, j int) {
		id := int32(len(x.cls))
		x.cls = append(x.cls, c)
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

// units returns the unit facts of group gi under the current model,
// computing them the first time they are needed; nil when the model is too
// large. Only the worker that handles gi may call it.
func (w *worker) units(gi int) *unitFacts { return w.unitsUnder(gi, w.e.model) }

// unitsUnder is units under model m; the facts kept are those of the last
// model asked for.
func (w *worker) unitsUnder(gi int, m *Model) *unitFacts {
	e := w.e
	f := &e.units[gi]
	if f.model == m {
		if f.at == nil {
			return nil
		}
		return f
	}
	x := e.unitIndexFor(m)
	f.model = m
	if !x.ok {
		f.at, f.core = nil, nil
		return nil
	}
	if len(f.at) != 2*e.n {
		f.at, f.core = make([]int8, 2*e.n), make([]uint64, e.n)
	}
	for l := range f.at {
		f.at[l] = -1 // core is read only where at is set
	}
	f.conflict, f.conflictCore = -1, 0
	k := len(m.Levels)
	f.queue = w.unitQ[:0]
	defer func() { w.unitQ, f.queue = f.queue[:0], nil }()
	for _, l := range e.ex[e.groups[gi][0]].alpha {
		if f.at[l.Not()] >= 0 {
			f.conflict = int16(k)
			return f
		}
		if f.at[l] < 0 {
			f.at[l], f.core[l.Atom()] = int8(k), 0
			f.queue = append(f.queue, l)
		}
	}
	// The hard rules, then level after level from the top: at level j the
	// cut at j is active.
	for j := k; j >= 0; j-- {
		var first, end int32
		if j == k {
			first, end = 0, int32(len(m.Hard))
		} else {
			first, end = x.start[k-1-j], x.start[k-j]
		}
		for id := first; id < end; id++ {
			if !f.examine(x, id, j) {
				return f
			}
		}
		if !f.propagate(x, j) {
			return f
		}
	}
	return f
}

// examine derives the unit of clause id if the literals derived so far
// refute all its others, at level j; false on a conflict (recorded).
func (f *unitFacts) examine(x *unitIndex, id int32, j int) bool {
	var unit logic.Lit
	free := 0
	var core uint64
	if lv := x.level[id]; int(lv) < 64 && int(lv) != len(x.model.Levels) {
		core = 1 << lv
	}
	for _, l := range x.cls[id] {
		switch {
		case f.at[l] >= 0:
			return true // satisfied
		case f.at[l.Not()] >= 0:
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
		f.conflict, f.conflictCore = int16(j), core
		return false
	}
	f.at[unit], f.core[unit.Atom()] = int8(j), core
	f.queue = append(f.queue, unit)
	return true
}

// propagate examines the active clauses (levels ≥ j) that the queued
// literals may have made unit, until none is left; false on a conflict.
func (f *unitFacts) propagate(x *unitIndex, j int) bool {
	for len(f.queue) > 0 {
		l := f.queue[len(f.queue)-1]
		f.queue = f.queue[:len(f.queue)-1]
		for _, id := range x.occ[l] {
			if int(x.level[id]) >= j && !f.examine(x, id, j) {
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
	r := int(f.conflict)
	if len(c) == 0 {
		return r
	}
	low := int(^uint(0) >> 1)
	for _, l := range c {
		low = min(low, int(f.at[l.Not()]))
	}
	return max(r, low)
}

// derives returns the highest level at which propagation derives a literal
// of β (−1: none), and the levels that derivation used: every cut at or
// below it entails β with α.
func (f *unitFacts) derives(beta logic.Clause) (int, uint64) {
	best, core := -1, uint64(0)
	for _, l := range beta {
		if int(f.at[l]) > best {
			best, core = int(f.at[l]), f.core[l.Atom()]
		}
	}
	return best, core
}

// entails reports whether propagation proves that the cut at j, with α and
// c, entails β: β is derived there, or every literal of c that is not
// refuted there is a literal of β.
func (f *unitFacts) entails(c, beta logic.Clause, j int) bool {
	if at, _ := f.derives(beta); at >= j {
		return true
	}
	for _, l := range c {
		if int(f.at[l.Not()]) < j && !slices.Contains(beta, l) {
			return false
		}
	}
	return true
}

// within reports whether every literal of m is below n.
func within(m *Model, n int) bool {
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
