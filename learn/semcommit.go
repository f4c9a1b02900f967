package learn

import (
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// This file commits a hypothesis under linear and lex: each antecedent is
// decided again below the top levels the new hypothesis shares with the
// current one, and a change of one clause (change) keeps the decisions,
// answers and proofs it cannot alter.

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

// commitInsert makes current the hypothesis with c inserted at position p.
func (e *drowningFree) commitInsert(c logic.Clause, p int) {
	e.commitChange(e.hyp.Insert(c, p), change{kind: insertion, pos: p, c: c})
}
