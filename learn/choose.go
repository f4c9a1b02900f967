package learn

import (
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// litSet is the set of literals that the clauses of an engine's hypotheses
// may contain, as two flags per atom (bit 0: the atom, bit 1: its
// negation). It is what lets the complete engine fix an atom the evidence
// leaves open: an atom that hypotheses mention with one sign only, as the
// hard rules do, can be given the value that satisfies all of them
// (complete.go).
type litSet []uint8

// add adds the literal l.
func (s *litSet) add(l logic.Lit) {
	a := int(l.Atom())
	for len(*s) <= a {
		*s = append(*s, 0)
	}
	if l.IsNeg() {
		(*s)[a] |= 2
	} else {
		(*s)[a] |= 1
	}
}

// has reports whether l is in the set.
func (s litSet) has(l logic.Lit) bool {
	a := int(l.Atom())
	if a >= len(s) {
		return false
	}
	if l.IsNeg() {
		return s[a]&2 != 0
	}
	return s[a]&1 != 0
}

// literalsOf returns the literals of the clauses.
func literalsOf(levels ...[]logic.Clause) litSet {
	var s litSet
	for _, lv := range levels {
		for _, c := range lv {
			for _, l := range c {
				s.add(l)
			}
		}
	}
	return s
}

// learnable returns the literals of the clauses the heuristic learner can
// build from the examples ex: the negation of every literal of an α (the
// conditions of a sampled, grown, specialised or tally candidate) and
// both literals of every atom of a β (a sampled consequent, the
// negated consequent of a negative example, a unit of unitLevel, a tally's
// answer). TestLearnableCoversCandidates checks it against the clauses a
// run proposes.
func learnable(ex *Examples) litSet {
	var s litSet
	for _, e := range ex.List {
		for _, l := range e.Alpha {
			s.add(l.Not())
		}
		for _, l := range e.Beta {
			s.add(l)
			s.add(l.Not())
		}
	}
	return s
}

// union returns the literals of s and t.
func (s litSet) union(t litSet) litSet {
	out := make(litSet, max(len(s), len(t)))
	copy(out, s)
	for a, f := range t {
		out[a] |= f
	}
	return out
}

// engineFor returns the coverage engine for the examples ex under sem, of
// hypotheses whose clauses have literals of lits only: the complete
// engine where every example's evidence leaves its worlds few enough to
// list (complete.go), else the general engine of sem (newEngine).
func engineFor(nAtoms int, ex *Examples, hard []logic.Clause, threads int, sem possibilistic.Semantics, lits litSet) coverage {
	if e, ok := newComplete(nAtoms, ex, hard, threads, sem, lits); ok {
		return e
	}
	return newEngine(nAtoms, ex, hard, threads, sem)
}

// build builds the learner's engines for its training and test examples:
// those engineFor chooses, or the general ones when the settings ask for
// them.
func (l *Learner) build() {
	engine := func(ex *Examples) coverage {
		if l.opts.general {
			return newEngine(l.n, ex, l.hard, l.opts.Threads, l.opts.Semantics)
		}
		return engineFor(l.n, ex, l.hard, l.opts.Threads, l.opts.Semantics, l.lits)
	}
	l.c = engine(l.train)
	l.e = l.c.examples()
	l.tc = nil
	if l.test != nil {
		l.tc = engine(l.test)
	}
}

// admit makes the learner's engines able to decide m: a complete engine
// built for other literals than m's is built again with them, at the
// hypothesis it had (a hypothesis the learner did not learn: a checkpoint's,
// a caller's).
func (l *Learner) admit(m *Hypothesis) {
	c, ok := l.c.(*complete)
	if !ok || c.admitsAll(m) {
		return
	}
	own := l.c.hypothesis()
	l.lits = l.lits.union(literalsOf(m.Levels...))
	l.build()
	l.c.commit(own)
	if l.tc != nil {
		l.tc.commit(own)
	}
}
