package possibilistic

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
)

// refPropagateUnits is PropagateUnits as it was before the queue: passes
// over all entries, each unit applied to every entry (units × entries per
// pass), the reference the queue must reproduce exactly.
func refPropagateUnits(t *Theory) *Theory {
	es := t.entries()
	for changed := true; changed; {
		changed = false
		for _, u := range es {
			if u.gone || u.clause == nil || len(u.clause) > 1 {
				continue
			}
			for _, e := range es {
				if e == u || e.gone || e.weight > u.weight {
					continue
				}
				if len(u.clause) == 0 {
					e.gone = true
					changed = true
					continue
				}
				if e.clause == nil {
					continue
				}
				l := u.clause[0]
				switch {
				case e.clause.Contains(l):
					e.gone = true
					changed = true
				case e.clause.Contains(l.Not()):
					e.clause = e.clause.Without(l.Not())
					e.f = logic.ClauseF(e.clause)
					changed = true
				}
			}
		}
	}
	return rebuild(t, es)
}

// TestPropagateUnitsMatchesReference: the queue gives the theory the passes
// give, formula for formula, on random theories rich in units, clashing
// units and non-clausal formulas.
func TestPropagateUnitsMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 3000 {
		n := 2 + r.IntN(5)
		th := randTheory(r, n, 4, 14, i%4 == 0)
		for range r.IntN(6) {
			th.AddClause(logic.Clause{logictest.Lit(r, n)}, weightChoices[r.IntN(len(weightChoices))])
		}
		if got, want := th.PropagateUnits().String(), refPropagateUnits(th).String(); got != want {
			t.Fatalf("#%d\n%s\npropagated\n%s\nwant\n%s", i, th, got, want)
		}
	}
}

// TestPropagateUnitsChain: a chain of units, each derived from the one
// before, is propagated with few entry visits (the passes made one per
// unit and entry).
func TestPropagateUnitsChain(t *testing.T) {
	const n = 3000
	th := New(nil)
	for i := range n {
		th.Vocab.Intern(fmt.Sprintf("p%d", i))
	}
	// Listed backwards, so that every pass of the reference derives one unit.
	for i := n - 2; i >= 0; i-- {
		th.AddClause(logic.Clause{logic.Neg(logic.Atom(i)), logic.Pos(logic.Atom(i + 1))}, 0.5)
	}
	th.AddClause(logic.Clause{logic.Pos(0)}, 0.5)
	got := th.PropagateUnits()
	if f, _ := got.Size(); f != n {
		t.Fatalf("%d formulas after propagation, want the %d units", f, n)
	}
}
