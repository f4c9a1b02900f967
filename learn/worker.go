package learn

import (
	"context"
	"math/bits"
	"sync"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// This file holds the common part of the two general engines' workers
// (worker), how an engine starts and runs its workers (hire, parallel),
// and what a worker's solver decides for either engine.

// worker is what the workers of both general engines have in common:
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

// engineWorker is a worker of one of the general engines, as the
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

// eachShare calls fn on the groups of the worker's share (groups w.id,
// w.id+W, ... of W workers) that are in act, or on all of them when act is
// nil, in order, with n the group's index in the share; it stops when fn
// returns false.
func (w *worker) eachShare(act []uint64, fn func(n, g int) bool) {
	e := w.e
	nw := len(e.common)
	if act == nil {
		for n, g := 0, w.id; g < len(e.groups); n, g = n+1, g+nw {
			if !fn(n, g) {
				return
			}
		}
		return
	}
	for k, v := range act {
		for v != 0 {
			g := k<<6 | bits.TrailingZeros64(v)
			v &= v - 1
			if g%nw == w.id && !fn((g-w.id)/nw, g) {
				return
			}
		}
	}
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
