package learn

import (
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestUnitsResumeMatchesFresh checks that the unit facts a group keeps
// across hypothesis changes, resumed below the levels the hypotheses share, are the
// facts propagation derives from scratch: the same levels for every literal,
// the same cores and the same conflict.
func TestUnitsResumeMatchesFresh(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 16))
	for iter := range 300 {
		n := 3 + r.IntN(5)
		ex := &Examples{}
		for range 12 {
			var alpha logic.Term
			for range r.IntN(4) {
				alpha = append(alpha, randLit(r, n))
			}
			ex.Add(alpha, randClause(r, n, 2), true, 1)
		}
		m := randModel(r, n)
		e := newEngine(n, ex, m.Hard, 1, possibilistic.Poss).(*drowning)
		w := e.workers[0]
		seen := []*Hypothesis{m}
		for step := range 12 {
			switch k := r.IntN(10); {
			case k < 4:
				m = m.Insert(randClause(r, n, 2), r.IntN(m.Positions()))
			case k < 8 && len(m.Levels) > 0:
				j := r.IntN(len(m.Levels))
				m = m.Remove(j, r.IntN(len(m.Levels[j])))
			case k == 8:
				m = seen[r.IntN(len(seen))] // back to an earlier hypothesis
			default:
				m = m.Clone() // the same levels under another pointer
				if r.IntN(2) == 0 {
					m.Hard = append(m.Hard[:len(m.Hard):len(m.Hard)], randClause(r, n, 2))
				}
			}
			seen = append(seen, m)
			fresh := newEngine(n, ex, m.Hard, 1, possibilistic.Poss).(*drowning)
			for g := range e.groups {
				got := w.unitsUnder(g, m)
				want := fresh.workers[0].unitsUnder(g, m)
				if (got == nil) != (want == nil) {
					t.Fatalf("#%d.%d group %d: resumed facts %v, fresh %v", iter, step, g, got != nil, want != nil)
				}
				if got == nil {
					continue
				}
				if a, ac := got.conflictAt(); true {
					if b, bc := want.conflictAt(); a != b || ac != bc {
						t.Fatalf("#%d.%d group %d: resumed conflict at %d (core %b), fresh at %d (core %b)", iter, step, g, a, ac, b, bc)
					}
				}
				for l := range logic.Lit(2 * n) {
					a, ac := got.derives(logic.Clause{l})
					b, bc := want.derives(logic.Clause{l})
					if a != b || ac != bc {
						t.Fatalf("#%d.%d group %d: literal %d resumed at %d (core %b), fresh at %d (core %b)\n%v", iter, step, g, l, a, ac, b, bc, m)
					}
				}
			}
		}
	}
}
