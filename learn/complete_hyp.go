package learn

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

// This file keeps the complete engine's hypothesis: its clauses by id, each
// evaluated on every group, its levels by stable id (a level keeps its id
// while levels come and go around it, so that the decisions stored per
// group need no renumbering), the clauses that apply to each group, and
// the changes since a save.

func (e *complete) examples() *layout       { return &e.layout }
func (e *complete) hypothesis() *Hypothesis { return e.hyp }
func (e *complete) covers(i int) bool       { return e.cov[i] }
func (e *complete) score() int64            { return e.sc }
func (e *complete) recompile()              {}

// minPosition is the drowning engine's under poss and the drowning-free
// one's under linear and lex.
func (e *complete) minPosition(m *Hypothesis, c logic.Clause) int {
	if e.sem == possibilistic.Poss {
		return minPosition(m, c, &e.hs)
	}
	return minPositionFree(m, c, &e.hs)
}

// admits reports whether the engine can decide hypotheses with clause c:
// every atom of c is one a world assigns, and a closed atom appears with
// the sign its value makes true.
func (e *complete) admits(c logic.Clause) bool {
	for _, l := range c {
		a := int(l.Atom())
		if a >= e.n || !e.proj[a] || e.closed[a] && l.IsNeg() == e.closedValue(a) {
			return false
		}
	}
	return true
}

// admitsAll reports whether the engine admits every learned clause of h.
func (e *complete) admitsAll(h *Hypothesis) bool {
	for _, lv := range h.Levels {
		for _, c := range lv {
			if !e.admits(c) {
				return false
			}
		}
	}
	return true
}

// evaluate evaluates c on every group, into ev (whose memory it reuses).
func (e *complete) evaluate(c logic.Clause, ev *evaluation) {
	if !e.admits(c) {
		panic(fmt.Sprintf("learn: internal error: the complete engine was not built for clause %v", c))
	}
	ev.m = slices.Grow(ev.m[:0], len(e.shapes))[:len(e.shapes)]
	for s := range e.shapes {
		sh := &e.shapes[s]
		var m uint64
		for _, l := range c {
			m |= sh.lit(l)
		}
		ev.m[s] = m
	}
	// The groups where no literal of c is true: over every word for the
	// first literals, then over the words left once they are few (a long
	// clause applies to few groups after its first literals).
	ev.act = slices.Grow(ev.act[:0], e.gw)[:e.gw]
	copy(ev.act, e.valid)
	sparse := false
	for k, l := range c {
		b := e.fixed[l]
		switch {
		case b == nil:
		case !sparse:
			for w, x := range b {
				ev.act[w] &^= x
			}
			if k%4 == 3 && k+1 < len(c) {
				ev.words = ev.words[:0]
				for w, x := range ev.act {
					if x != 0 {
						ev.words = append(ev.words, int32(w))
					}
				}
				sparse = 4*len(ev.words) < e.gw
			}
		default:
			kept := ev.words[:0]
			for _, w := range ev.words {
				if ev.act[w] &^= b[w]; ev.act[w] != 0 {
					kept = append(kept, w)
				}
			}
			ev.words = kept
		}
	}
	e.dropCovering(ev)
}

// dropCovering takes out of ev's groups those of the shapes whose every
// world satisfies the clause, and counts the groups left.
func (e *complete) dropCovering(ev *evaluation) {
	for s := range e.shapes {
		if sh := &e.shapes[s]; sh.k > 0 && ev.m[s] == sh.all {
			if sh.groups == nil {
				clear(ev.act) // one shape: the clause holds everywhere
				break
			}
			for w, x := range sh.groups {
				ev.act[w] &^= x
			}
		}
	}
	ev.count = 0
	for _, x := range ev.act {
		ev.count += bits.OnesCount64(x)
	}
}

// evaluationOf returns the evaluation of a clause of the hypothesis, from
// the cache when the clause was evaluated before.
func (e *complete) evaluationOf(c logic.Clause) *evaluation {
	k := key(nil, c, true)
	if ev, ok := e.evals[k]; ok {
		return ev
	}
	if len(e.evals) > 4*len(e.clauses)+64 {
		// Keep the evaluations of the hypothesis's clauses only.
		keep := map[string]*evaluation{}
		for _, lv := range e.levels {
			for _, id := range lv {
				cl := &e.clauses[id]
				keep[key(nil, cl.c, true)] = cl.ev
			}
		}
		e.evals = keep
	}
	ev := &evaluation{}
	e.evaluate(c, ev)
	e.evals[k] = ev
	return ev
}

// newLevel inserts an empty level at index j and returns its id.
func (e *complete) newLevel(j int) int32 {
	var id int32
	if n := len(e.freeLvl); n > 0 {
		id, e.freeLvl = e.freeLvl[n-1], e.freeLvl[:n-1]
	} else {
		id = int32(len(e.levelIdx))
		e.levelIdx = append(e.levelIdx, -1)
	}
	e.levels = slices.Insert(e.levels, j, nil)
	e.levelID = slices.Insert(e.levelID, j, id)
	e.renumber()
	return id
}

// dropLevel removes the empty level at index j.
func (e *complete) dropLevel(j int) {
	id := e.levelID[j]
	e.levels = slices.Delete(e.levels, j, j+1)
	e.levelID = slices.Delete(e.levelID, j, j+1)
	e.levelIdx[id] = -1
	e.freeLvl = append(e.freeLvl, id)
	e.renumber()
}

func (e *complete) renumber() {
	for j, id := range e.levelID {
		e.levelIdx[id] = int32(j)
	}
}

// insertAt puts clause c at index i of level j, in a new level there when
// fresh, and moves the groups it applies to into their new classes.
func (e *complete) insertAt(c logic.Clause, j, i int, fresh bool) {
	if fresh {
		e.newLevel(j)
	}
	var id int32
	if n := len(e.freeCls); n > 0 {
		id, e.freeCls = e.freeCls[n-1], e.freeCls[:n-1]
	} else {
		id = int32(len(e.clauses))
		e.clauses = append(e.clauses, cclause{})
	}
	ev := e.evaluationOf(c)
	e.clauses[id] = cclause{c: c, ev: ev, lvl: e.levelID[j]}
	e.levels[j] = slices.Insert(e.levels[j], i, id)
	e.reclass(ev, e.levelID[j], +1)
}

// removeAt removes clause i of level j, and the level when it empties, and
// moves the groups the clause applied to into their new classes.
func (e *complete) removeAt(j, i int) {
	id := e.levels[j][i]
	e.reclass(e.clauses[id].ev, e.levelID[j], -1)
	e.levels[j] = slices.Delete(e.levels[j], i, i+1)
	e.clauses[id] = cclause{}
	e.freeCls = append(e.freeCls, id)
	if len(e.levels[j]) == 0 {
		e.dropLevel(j)
	}
}

// eachActive calls fn on every group the evaluation applies to, in order.
func (e *complete) eachActive(ev *evaluation, fn func(g int)) { e.eachActiveIn(ev, 0, e.ng, fn) }

// eachActiveIn is eachActive on the groups lo..hi−1, lo a multiple of 64.
func (e *complete) eachActiveIn(ev *evaluation, lo, hi int, fn func(g int)) {
	for w := lo >> 6; w < (hi+63)>>6; w++ {
		for x := ev.act[w]; x != 0; x &= x - 1 {
			fn(w<<6 | bits.TrailingZeros64(x))
		}
	}
}

// undoOp is a change of the hypothesis since a save, to be undone by
// restore: a clause inserted at index i of level j (fresh: in a new
// level), a clause removed from there, or a whole hypothesis committed
// over prev.
type undoOp struct {
	kind  uint8
	j, i  int
	fresh bool
	c     logic.Clause
	prev  *Hypothesis
}

const (
	undoInsert uint8 = iota
	undoRemove
	undoCommit
)

func (e *complete) log(op undoOp) {
	if e.saving {
		e.undo = append(e.undo, op)
	}
}

// commit makes h the current hypothesis and decides every group again.
func (e *complete) commit(h *Hypothesis) {
	e.log(undoOp{kind: undoCommit, prev: e.hyp})
	e.load(h)
}

// load makes h the current hypothesis: by its changes from the current one
// when they are few (a hypothesis an iteration's insertion, pruning and
// moves made, which the test examples' engine and poss's simplification
// commit whole), from scratch otherwise.
func (e *complete) load(h *Hypothesis) {
	if !e.sameHard(h.Hard) {
		panic("learn: internal error: the complete engine was built for other hard rules")
	}
	if !e.loadChanges(h) {
		e.loadAll(h)
	}
	e.hyp = h
}

// loadAll builds the hypothesis h from scratch.
func (e *complete) loadAll(h *Hypothesis) {
	e.levels, e.levelID, e.levelIdx, e.freeLvl = e.levels[:0], e.levelID[:0], e.levelIdx[:0], e.freeLvl[:0]
	e.clauses, e.freeCls = e.clauses[:0], e.freeCls[:0]
	for j, lv := range h.Levels {
		id := e.newLevel(j)
		for _, c := range lv {
			cid := int32(len(e.clauses))
			e.clauses = append(e.clauses, cclause{c: c, ev: e.evaluationOf(c), lvl: id})
			e.levels[j] = append(e.levels[j], cid)
		}
	}
	e.reclassAll()
}

// loadChanges turns the current hypothesis into h by removing and inserting
// clauses: the levels of both are aligned by a longest common subsequence of
// levels that share a clause, and each aligned pair differs by the clauses
// of one and not the other. It reports false, changing nothing, when more
// than half the clauses would move.
func (e *complete) loadChanges(h *Hypothesis) bool {
	cur := make([][]string, len(e.levels))
	total := 0
	for j, lv := range e.levels {
		for _, id := range lv {
			cur[j] = append(cur[j], key(nil, e.clauses[id].c, true))
		}
		total += len(lv)
	}
	tgt := make([][]string, len(h.Levels))
	for j, lv := range h.Levels {
		for _, c := range lv {
			tgt[j] = append(tgt[j], key(nil, c, true))
		}
		total += len(lv)
	}
	match := alignLevels(cur, tgt)
	changes := 0
	for j := range cur {
		if match[j] < 0 {
			changes += len(cur[j])
			continue
		}
		changes += multisetDiff(cur[j], tgt[match[j]]) + multisetDiff(tgt[match[j]], cur[j])
	}
	matched := make([]bool, len(tgt))
	for _, t := range match {
		if t >= 0 {
			matched[t] = true
		}
	}
	for t := range tgt {
		if !matched[t] {
			changes += len(tgt[t])
		}
	}
	if 2*changes > total {
		return false
	}
	// Remove, from the top down so that indices below stay, what the
	// target does not keep; unmatched levels go whole.
	for j := len(cur) - 1; j >= 0; j-- {
		want := map[string]int{}
		if match[j] >= 0 {
			for _, k := range tgt[match[j]] {
				want[k]++
			}
		}
		for i := len(cur[j]) - 1; i >= 0; i-- {
			if want[cur[j][i]] > 0 {
				want[cur[j][i]]--
				continue
			}
			e.removeAt(j, i)
		}
	}
	// The levels left are the matched ones, in order: add the target's
	// others and the clauses they lack, then take the target's order.
	for t, lv := range h.Levels {
		if !matched[t] {
			e.newLevel(t)
		}
		have := map[string]int{}
		for _, id := range e.levels[t] {
			have[key(nil, e.clauses[id].c, true)]++
		}
		for i, c := range lv {
			if have[tgt[t][i]] > 0 {
				have[tgt[t][i]]--
				continue
			}
			e.insertAt(c, t, len(e.levels[t]), false)
		}
		ids := e.levels[t]
		byKey := map[string][]int32{}
		for _, id := range ids {
			k := key(nil, e.clauses[id].c, true)
			byKey[k] = append(byKey[k], id)
		}
		for i := range lv {
			k := tgt[t][i]
			ids[i], byKey[k] = byKey[k][0], byKey[k][1:]
			e.clauses[ids[i]].c = lv[i]
		}
	}
	return true
}

// alignLevels returns, for each level of a, the level of b it is aligned
// with (−1: none): a longest common subsequence of the levels, two levels
// going together when they share a clause.
func alignLevels(a, b [][]string) []int {
	shares := func(x, y []string) bool {
		for _, k := range x {
			if slices.Contains(y, k) {
				return true
			}
		}
		return false
	}
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case shares(a[i], b[j]):
				lcs[i][j] = lcs[i+1][j+1] + 1
			case lcs[i+1][j] >= lcs[i][j+1]:
				lcs[i][j] = lcs[i+1][j]
			default:
				lcs[i][j] = lcs[i][j+1]
			}
		}
	}
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case shares(a[i], b[j]) && lcs[i][j] == lcs[i+1][j+1]+1:
			out[i] = j
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// multisetDiff returns how many elements of a are not matched by one of b.
func multisetDiff(a, b []string) int {
	have := map[string]int{}
	for _, k := range b {
		have[k]++
	}
	n := 0
	for _, k := range a {
		if have[k] > 0 {
			have[k]--
		} else {
			n++
		}
	}
	return n
}

// sameHard reports whether hard rules have the models of those the engine
// was built for: the same clauses, or, checked with a solver, equivalent
// ones (the learner's simplification of a poss hypothesis propagates the
// hard rules' units through them, TestResumeHardRules).
func (e *complete) sameHard(hard []logic.Clause) bool {
	if len(hard) == len(e.hard) && (len(hard) == 0 || &hard[0] == &e.hard[0]) {
		return true
	}
	if len(hard) > 0 && len(e.okHard) > 0 && &hard[0] == &e.okHard[0] && len(hard) == len(e.okHard) {
		return true
	}
	a := slices.SortedFunc(slices.Values(hard), compareClauses)
	b := slices.SortedFunc(slices.Values(e.hard), compareClauses)
	if !slices.EqualFunc(a, b, func(x, y logic.Clause) bool { return slices.Equal(x, y) }) &&
		!(implies(e.n, e.hard, hard) && implies(e.n, hard, e.hard)) {
		return false
	}
	e.okHard = hard
	return true
}

func compareClauses(x, y logic.Clause) int { return slices.Compare(x, y) }

// implies reports whether the clauses a entail every clause of b.
func implies(n int, a, b []logic.Clause) bool {
	s := sat.New()
	for range n {
		s.NewVar()
	}
	for _, c := range a {
		s.AddClause(slices.Clone(c)...)
	}
	for _, c := range b {
		if ok, _ := s.Solve(context.Background(), c.Negate()...); ok {
			return false
		}
	}
	return true
}

// commitInsert makes current the hypothesis with c at position p.
func (e *complete) commitInsert(c logic.Clause, p int) {
	j := p / 2
	fresh := p%2 == 0
	i := 0
	if !fresh {
		i = len(e.levels[j])
	}
	e.log(undoOp{kind: undoInsert, j: j, i: i, fresh: fresh})
	e.hyp = e.hyp.Insert(c, p)
	e.insertAt(c, j, i, fresh)
}

// commitRemove makes current the hypothesis without clause i of level j.
func (e *complete) commitRemove(j, i int) {
	c := e.clauses[e.levels[j][i]].c
	e.log(undoOp{kind: undoRemove, j: j, i: i, fresh: len(e.levels[j]) == 1, c: c})
	e.hyp = e.hyp.Remove(j, i)
	e.removeAt(j, i)
}

// save starts recording the changes to undo (restore); the snapshot marks
// where.
func (e *complete) save() snapshot {
	e.undo = e.undo[:0]
	e.saving = true
	return snapshot{}
}

// restore undoes the changes since the save, returning to hypothesis m.
func (e *complete) restore(m *Hypothesis, _ snapshot) {
	e.saving = false
	for k := len(e.undo) - 1; k >= 0; k-- {
		op := e.undo[k]
		switch op.kind {
		case undoInsert:
			e.removeAt(op.j, op.i)
		case undoRemove:
			e.insertAt(op.c, op.j, op.i, op.fresh)
		case undoCommit:
			e.load(op.prev)
		}
	}
	e.undo = e.undo[:0]
	e.hyp = m
}

// forget stops recording: the last save will not be restored.
func (e *complete) forget() {
	e.saving = false
	e.undo = e.undo[:0]
}
