package learn

import (
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// crowdProblem draws problems shaped as answer tables: atoms 0 and 1 are
// actions that the hard rule ¬a0 ∨ ¬a1 excludes from each other, the
// others descriptors; an antecedent lists descriptors that hold, a
// consequent is an action, and a clause says an action (or its absence)
// under descriptors, which it mentions negatively except now and then, so
// that most clauses are free for most antecedents (free.go) and some are
// not for want of purity.
func crowdProblem(r *rand.Rand) (int, *Examples, *Hypothesis, func(int) logic.Clause) {
	n := 4 + r.IntN(4)
	desc := func() logic.Atom { return logic.Atom(2 + r.IntN(n-2)) }
	clause := func(maxLen int) logic.Clause {
		for {
			c := logic.Clause{logic.MkLit(logic.Atom(r.IntN(2)), r.IntN(3) == 0)}
			for range r.IntN(maxLen) {
				c = append(c, logic.MkLit(desc(), r.IntN(8) != 0))
			}
			c, taut := logic.Normalize(c)
			if !taut {
				return c
			}
		}
	}
	ex := &Examples{}
	for range 30 {
		var alpha logic.Term
		for range r.IntN(4) {
			alpha = append(alpha, logic.Pos(desc()))
		}
		alpha, _ = logic.Normalize(alpha)
		ex.Add(alpha, logic.Clause{logic.Pos(logic.Atom(r.IntN(2)))}, r.IntN(2) == 0, 1+r.IntN(3))
	}
	m := &Hypothesis{Hard: []logic.Clause{{logic.Neg(0), logic.Neg(1)}}}
	for range r.IntN(5) {
		var l []logic.Clause
		for range 1 + r.IntN(3) {
			l = append(l, clause(3))
		}
		m.Levels = append(m.Levels, l)
	}
	return n, ex, m, clause
}

// TestFreeClauseChangesNothing runs the brute-force checks of the
// drowning-free engines on problems where most clauses are free for most
// antecedents, so that the engines skip them (free.go): every score,
// profile, trial removal, proof and commit must still agree with
// enumerating the worlds.
func TestFreeClauseChangesNothing(t *testing.T) {
	for _, sem := range []possibilistic.Semantics{possibilistic.Linear, possibilistic.Lex} {
		checkAgainstBruteForce(t, sem, rand.New(rand.NewPCG(uint64(sem), 23)), 200, crowdProblem)
	}
	// The problems do make clauses free for some groups and not for others.
	r := rand.New(rand.NewPCG(1, 23))
	var free, bound int
	for range 50 {
		n, ex, m, clause := crowdProblem(r)
		e := newEngine(n, ex, m.Hard, 1, possibilistic.Lex).(*drowningFree)
		e.commit(m)
		c := clause(3)
		fa := e.freeAtoms(m, c, nil)
		for gi := range e.groups {
			if e.isFree(gi, fa) {
				free++
			} else {
				bound++
			}
		}
	}
	if free == 0 || bound == 0 {
		t.Fatalf("%d free and %d bound groups: the problems do not test what they should", free, bound)
	}
}
