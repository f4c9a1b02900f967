package learn

import (
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// A clause c is free for an antecedent α (and the consequents β of its
// examples) under a hypothesis H that contains it when c has a literal l
// whose atom neither α nor any of those β mentions and whose complement ¬l
// occurs in no clause of H and no hard rule. Then making l true, in any
// world, violates no clause that the world satisfied and satisfies c, so:
//   - lex: every world's violation vector is at least that of its copy with
//     l true, which satisfies c; an optimal world therefore satisfies c,
//     the optimal vectors with and without c are the same (c's level counts
//     one more clause that no optimal world violates), and β (not
//     mentioning l) holds in every optimal world with c iff it does without;
//   - linear: a set of levels is consistent with α with c iff without it,
//     so the same levels are kept and they entail the same β;
//   - poss: the same cuts are consistent and entail the same β.
//
// Inserting or removing a free clause thus changes no decision and no answer
// of the examples of α: the engines skip those antecedents, keeping their
// states (decisions mapped to the new levels, proofs whose levels still
// prove, a witness made to satisfy c). Data described by the descriptors
// that hold (crowd situations, table rows), whose clauses mention
// descriptors only negatively, make most clauses free for most antecedents:
// a clause matters only where its conditions all hold.
// TestFreeClauseChangesNothing checks the claim against brute force.

// groupAtoms returns the atoms of group gi's antecedent and consequents,
// as a mask of e.words words, computed for every group on first use.
func (e *store) groupAtoms(gi int) []uint64 {
	e.gaOnce.Do(func() {
		e.gatoms = make([]uint64, len(e.groups)*e.words)
		for g, xs := range e.groups {
			m := e.gatoms[g*e.words : (g+1)*e.words]
			for _, x := range xs {
				for _, l := range e.ex[x].alpha {
					m[l.Atom()>>6] |= 1 << (l.Atom() & 63)
				}
				for _, l := range e.ex[x].beta {
					m[l.Atom()>>6] |= 1 << (l.Atom() & 63)
				}
			}
		}
	})
	return e.gatoms[gi*e.words : (gi+1)*e.words]
}

// freeAtoms returns into buf the atoms of the literals of c whose
// complements occur in no clause of h (its levels and hard rules): a group
// whose atoms miss one of them has c free (see above). h must hold every
// clause of the hypothesis c is in or goes into, apart from c itself.
func (e *store) freeAtoms(h *Hypothesis, c logic.Clause, buf []uint64) []uint64 {
	buf = slices.Grow(buf[:0], e.words)[:e.words]
	clear(buf)
	for _, l := range c {
		if int(l.Atom()) < e.n {
			buf[l.Atom()>>6] |= 1 << (l.Atom() & 63)
		}
	}
	drop := func(d logic.Clause) {
		for _, l := range d {
			if slices.Contains(c, l.Not()) {
				buf[l.Atom()>>6] &^= 1 << (l.Atom() & 63)
			}
		}
	}
	for _, d := range h.Hard {
		drop(d)
	}
	for _, lv := range h.Levels {
		for _, d := range lv {
			drop(d)
		}
	}
	return buf
}

// isFree reports whether a clause whose free atoms are fa is free for
// group gi.
func (e *store) isFree(gi int, fa []uint64) bool {
	if fa == nil {
		return false
	}
	ga := e.groupAtoms(gi)
	for k, a := range fa {
		if a&^ga[k] != 0 {
			return true
		}
	}
	return false
}

// freeLit returns a literal of c that makes it free for group gi.
func (e *store) freeLit(gi int, c logic.Clause, fa []uint64) logic.Lit {
	ga := e.groupAtoms(gi)
	for _, l := range c {
		a := l.Atom()
		if fa[a>>6]>>(a&63)&1 == 1 && ga[a>>6]>>(a&63)&1 == 0 {
			return l
		}
	}
	panic("learn: freeLit of a clause that is not free")
}

// freeDecisions returns the decisions old of an antecedent, for which the
// changed clause is free, in the levels of the changed hypothesis: a new
// level of that clause alone is kept (linear) or violated nowhere (lex),
// and a level it alone made up goes.
func (ch change) freeDecisions(sem possibilistic.Semantics, old []int32) []int32 {
	switch {
	case ch.kind == insertion && ch.pos%2 == 0:
		v := int32(0)
		if sem == possibilistic.Linear {
			v = 1
		}
		return slices.Insert(slices.Clone(old), ch.pos/2, v)
	case ch.kind == removal && ch.emptied:
		return slices.Delete(slices.Clone(old), ch.j, ch.j+1)
	}
	return slices.Clone(old)
}

// freeCore returns, in the levels of the changed hypothesis, the levels of
// an entailment proof of an example for which the changed clause is free,
// and whether it still fits in a mask: the proof still holds (an inserted
// clause only strengthens a level; without a removed one, a counter-model
// would give one with it, made true by its free literal), but a level that
// the removed clause alone made up leaves it.
func (ch change) freeCore(core uint64) (uint64, bool) {
	switch {
	case ch.kind == insertion && ch.pos%2 == 0:
		j := uint(ch.pos / 2)
		if core>>63 != 0 {
			return 0, false
		}
		low := core & (1<<j - 1)
		return low | (core&^(1<<j-1))<<1, true
	case ch.kind == removal && ch.emptied:
		j := uint(ch.j)
		low := core & (1<<j - 1)
		return low | (core>>(j+1))<<j, true
	}
	return core, true
}

// unchanged reports whether a change of a clause c, whose free atoms are fa
// and whose active groups are act (entailed.go), changes nothing for group
// gi: c is free for it, or holds in every world of H ∪ α.
func (e *store) unchanged(gi int, fa, act []uint64) bool {
	return e.isFree(gi, fa) || act != nil && act[gi>>6]>>(gi&63)&1 == 0
}

// freeWitness puts into w.m a witness of group g's decisions under the
// changed hypothesis, for which ch's clause c changes nothing (unchanged),
// and reports false if no witness of the current decisions is at hand: a
// witness of the current decisions with c's free literal made true (an
// inserted clause that is free) or as it is (an inserted clause that every
// world of H ∪ α satisfies, or a removed one, which it satisfies or which a
// skipped level held).
func (w *freeWorker) freeWitness(g []int32, gi int, ch change, fa []uint64) bool {
	if !w.groupWorld(g, true) {
		return false
	}
	if ch.kind == insertion && w.f.isFree(gi, fa) {
		l := w.f.freeLit(gi, ch.c, fa)
		a := l.Atom()
		if l.IsNeg() {
			w.m[a>>6] &^= 1 << (a & 63)
		} else {
			w.m[a>>6] |= 1 << (a & 63)
		}
	}
	return true
}

// keepFree makes the examples of group g, for which ch's clause changes
// nothing (unchanged), keep their answers under the changed hypothesis m,
// with their decisions and proofs mapped to its levels and a witness, and
// reports false (having changed nothing) when it has no witness to keep.
func (w *freeWorker) keepFree(g []int32, gi int, m *Hypothesis, ch change, fa []uint64) bool {
	e := w.f
	if !w.freeWitness(g, gi, ch, fa) {
		return false
	}
	dec := ch.freeDecisions(e.sem, e.dec[g[0]])
	for _, x := range g {
		st := &e.st[x]
		if st.coreTOK {
			st.coreT, st.coreTOK = ch.freeCore(st.coreT)
		}
	}
	wit := slices.Clone(w.m)
	w.markWitnesses(g, m, dec, wit)
	return true
}
