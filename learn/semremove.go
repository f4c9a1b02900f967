package learn

import "slices"

// This file tries removals under linear and lex (scoreRemoval) and keeps
// what a trial decided, which committing the same removal (commitRemove)
// takes instead of deciding it again.

// pendKey names a trial removal: clause i of level j of hypothesis from.
type pendKey struct {
	from *Hypothesis
	j, i int
}

// pendingRemoval is what scoreRemoval decided: the hypothesis without clause
// i of level j of from, and per example and group the new state.
type pendingRemoval struct {
	from, to *Hypothesis
	j, i     int
	covered  []bool
	core     []uint64 // per example, an entailment proof's levels (coreT)
	coreOK   []bool
	dec      [][]int32  // per group
	wit      [][]uint64 // per group: a witness of the decisions
}

// scoreRemoval decides every antecedent under the current hypothesis without
// clause i of level j, below the top levels the two share, and keeps what
// it decided for commitRemove.
func (e *drowningFree) scoreRemoval(j, i int) int64 {
	m := e.hyp.Remove(j, i)
	same := sameTop(e.hyp, m)
	ch := change{kind: removal, j: j, emptied: len(m.Levels) < len(e.hyp.Levels), c: e.hyp.Levels[j][i]}
	fa := e.freeAtoms(e.hyp, ch.c, nil)
	var act []uint64
	if e.entailedFor(e.hyp) {
		act = e.active(ch.c, nil)
	}
	pr := &pendingRemoval{from: e.hyp, to: m, j: j, i: i,
		covered: make([]bool, len(e.ex)), core: make([]uint64, len(e.ex)), coreOK: make([]bool, len(e.ex)), dec: make([][]int32, len(e.groups)), wit: make([][]uint64, len(e.groups))}
	parts := make([]int64, len(e.workers))
	parallel(e.workers, func(w *freeWorker) {
		w.compileFree(m)
		var delta int64
		for gi := w.id; gi < len(e.groups); gi += len(e.workers) {
			g := e.groups[gi]
			if !e.ex[g[0]].hardOK {
				continue
			}
			if e.unchanged(gi, fa, act) && w.freeWitness(g, gi, ch, fa) {
				// Nothing changes for the group (free.go, entailed.go).
				for _, xi := range g {
					st := &e.st[xi]
					core, ok := ch.freeCore(st.coreT)
					pr.covered[xi], pr.core[xi], pr.coreOK[xi] = st.covered, core, ok && st.coreTOK && st.covered
				}
				pr.dec[gi], pr.wit[gi] = ch.freeDecisions(e.sem, e.dec[g[0]]), slices.Clone(w.m)
				continue
			}
			dec := make([]int32, len(m.Levels))
			a := w.walkGroup(g, m, ch, same, dec, nil)
			pool := append(w.sx.pool[:0], w.m...)
			lk := w.walkLook()
			kept := ch.keeps(e.sem, e.dec[g[0]], dec)
			for _, xi := range g {
				x := int(xi)
				d := &e.ex[x]
				st := &e.st[x]
				now := st.covered
				core, ok := ch.mapCore(e.sem, st.coreT, e.dec[g[0]], dec)
				ok = ok && st.coreTOK && st.covered
				if !w.settled(g, x, kept) && !ok {
					now, core, ok, pool = w.entails(x, a, pool, w.lexProp(), lk)
				}
				pr.core[x], pr.coreOK[x] = core, ok && now
				pr.covered[x] = now
				if now != e.st[x].covered {
					if now {
						delta += d.sign * d.weight
					} else {
						delta -= d.sign * d.weight
					}
				}
			}
			pr.dec[gi], pr.wit[gi] = dec, slices.Clone(pool[:e.words])
			w.sx.pool = pool
			w.poolKeep(gi, pool)
		}
		parts[w.id] = delta
	})
	sx := &e.semx
	for k := range sx.pend {
		if k.from != e.hyp {
			clear(sx.pend) // made on another hypothesis: seldom useful again
			break
		}
	}
	if sx.pend == nil {
		sx.pend = map[pendKey]*pendingRemoval{}
	}
	sx.pend[pendKey{e.hyp, j, i}] = pr
	var s int64
	for _, p := range parts {
		s += p
	}
	return s
}

// removalHarmless reports whether removing clause i of level j keeps the
// score at least as high; the trial removal's decisions are kept for
// commitRemove. Unlike poss's, the trial does not give up once the removal
// is proved harmful: re-insertion, which follows pruning, commits the
// removal of every clause and takes this trial's decisions while the
// hypothesis stays the same, which a trial cut short would not leave, so
// a bound costs more than it saves (30 iterations of pendigits under lex
// are slower with it; the CHANGELOG has the comparison).
func (e *drowningFree) removalHarmless(j, i int) bool { return e.scoreRemoval(j, i) >= 0 }

// commitRemove makes current the hypothesis without clause i of level j,
// taking the decisions of the trial removal of that clause when it was the
// last one scored on the current hypothesis.
func (e *drowningFree) commitRemove(j, i int) {
	pr := e.semx.pend[pendKey{e.hyp, j, i}]
	if pr == nil {
		m := e.hyp.Remove(j, i)
		e.commitChange(m, change{kind: removal, j: j, emptied: len(m.Levels) < len(e.hyp.Levels), c: e.hyp.Levels[j][i]})
		return
	}
	m := pr.to
	k := len(m.Levels)
	parallel(e.workers, func(w *freeWorker) {
		w.compileFree(m)
		for gi := w.id; gi < len(e.groups); gi += len(e.workers) {
			g := e.groups[gi]
			if !e.ex[g[0]].hardOK {
				e.setUndecided(g, k)
				continue
			}
			for _, x := range g {
				st := &e.st[x]
				st.covered, st.coreT, st.coreTOK = pr.covered[x], pr.core[x], pr.coreOK[x]
			}
			w.markWitnesses(g, m, pr.dec[gi], pr.wit[gi])
		}
	})
	e.semx.move.from, e.semx.move.to = e.hyp, m
	e.semx.move.ch = change{kind: removal, j: j, emptied: k < len(e.hyp.Levels), c: e.hyp.Levels[j][i]}
	e.hyp = m
}
