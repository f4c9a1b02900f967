package learn

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// passesOverAll is propagate as passes over every clause, alternating in
// direction until one assigns nothing: the plain algorithm that propagate's
// shortcuts (starting each pass at the clause of the last assignment, the
// first at from) must follow assignment for assignment.
func passesOverAll(val []int8, cls []logic.Clause) bool {
	for pass, changed := 0, true; changed; pass++ {
		changed = false
		for i := range cls {
			c := cls[i]
			if pass%2 == 1 {
				c = cls[len(cls)-1-i]
			}
			var unit logic.Lit
			open, sat := 0, false
			for _, l := range c {
				switch litVal(val, l) {
				case 1:
					sat = true
				case 0:
					open++
					unit = l
				}
			}
			switch {
			case sat || open > 1:
			case open == 0:
				return false
			default:
				setLit(val, unit)
				changed = true
			}
		}
	}
	return true
}

// TestPropagateMatchesPasses checks propagate against passesOverAll on
// random clauses split anywhere between base and cls: from a fixpoint of
// the first clauses with more added (from at the first added one, as
// lexProp.add calls it), and from an arbitrary assignment (from 0). The
// values must be equal even after a conflict, which shows the assignments
// came in the same order.
func TestPropagateMatchesPasses(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	clause := func(n int) logic.Clause {
		c := make(logic.Clause, 1+r.IntN(3))
		for i := range c {
			c[i] = logic.MkLit(logic.Atom(r.IntN(n)), r.IntN(2) == 0)
		}
		return c
	}
	var conflicts, assigned int
	for trial := range 3000 {
		n := 4 + r.IntN(12)
		all := make([]logic.Clause, 2+r.IntN(20))
		for i := range all {
			all[i] = clause(n)
		}
		val := make([]int8, n)
		for range r.IntN(3) {
			setLit(val, logic.MkLit(logic.Atom(r.IntN(n)), r.IntN(2) == 0))
		}
		from := 0
		if trial%2 == 1 {
			// A fixpoint of the first clauses, then the rest added.
			from = r.IntN(len(all))
			if !passesOverAll(val, all[:from]) {
				continue
			}
		}
		split := r.IntN(len(all) + 1)
		want, got := slices.Clone(val), slices.Clone(val)
		okWant := passesOverAll(want, all)
		okGot := propagate(got, all[:split], all[split:], from)
		if okGot != okWant || !slices.Equal(got, want) {
			t.Fatalf("trial %d (from %d, split %d, clauses %v, start %v): propagate %v %v, passes over all %v %v", trial, from, split, all, val, okGot, got, okWant, want)
		}
		if !okWant {
			conflicts++
		}
		if !slices.Equal(val, want) {
			assigned++
		}
	}
	if conflicts < 100 || assigned < 500 {
		t.Fatalf("%d conflicts and %d trials that assigned: the test checks too little", conflicts, assigned)
	}
}
