package learn

import (
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestEntailedSkipsNothing checks entailed.go against enumerating worlds:
// every literal propagation derives from H ∪ α holds in every world of
// H ∪ α (and a refuted H ∪ α has none), and a clause sharing a literal with
// them, inserted at any position, changes no example of the group under
// any semantics.
func TestEntailedSkipsNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 17))
	var skipped, scored int
	for iter := range 300 {
		n := 3 + r.IntN(5)
		ws := worlds(n)
		ex := randExamples(r, n, 30)
		m := randModel(r, n)
		for range r.IntN(6) {
			m.Hard = append(m.Hard, randClause(r, n, 2))
		}
		e := newEngine(n, ex, m.Hard, 1+iter%2, possibilistic.Poss).(*drowning)
		e.commit(m)
		if !e.entailedFor(m) {
			t.Fatalf("#%d: no masks for hard rules over the atoms", iter)
		}
		for gi, g := range e.groups {
			alpha := e.ex[g[0]].alpha
			var base [][]bool
			for _, w := range ws {
				if consistentWith(w, alpha, m.Hard) {
					base = append(base, w)
				}
			}
			for a := range n {
				for _, l := range []logic.Lit{logic.Pos(logic.Atom(a)), logic.Neg(logic.Atom(a))} {
					if inSet(e.active(logic.Clause{l}, nil), gi) {
						continue
					}
					for _, w := range base {
						if !l.Holds(w) {
							t.Fatalf("#%d: group %d: %v derived, false in a world of H ∪ α", iter, gi, l)
						}
					}
				}
			}
			for range 4 {
				c := randClause(r, n, 3)
				if inSet(e.active(c, nil), gi) {
					scored++
					continue
				}
				skipped++
				for _, sem := range possibilistic.AllSemantics {
					for p := range m.Positions() {
						mc := m.Insert(c, p)
						for _, x := range g {
							d := &e.ex[x]
							if bruteCovered(mc, sem, d.alpha, d.beta, ws) != bruteCovered(m, sem, d.alpha, d.beta, ws) {
								t.Fatalf("#%d: %v: inserting %v at %d changes an example of group %d", iter, sem, c, p, gi)
							}
						}
					}
				}
			}
		}
	}
	if skipped == 0 || scored == 0 {
		t.Fatalf("%d skipped and %d scored groups: the problems do not test what they should", skipped, scored)
	}
}

// consistentWith reports whether world w satisfies α and the hard rules.
func consistentWith(w []bool, alpha logic.Term, hard []logic.Clause) bool {
	for _, l := range alpha {
		if !l.Holds(w) {
			return false
		}
	}
	for _, c := range hard {
		if !worldHolds(c, w) {
			return false
		}
	}
	return true
}

// inSet reports whether group i is in an active set (nil: all groups).
func inSet(set []uint64, i int) bool { return set == nil || set[i>>6]>>(i&63)&1 == 1 }
