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

// TestEntailsLookahead checks unitFacts.entails against enumeration: when
// it says that the cut at j with α and c entails β, every world of the hard
// rules, the cut, α and c satisfies β. The hard rules include an "exactly
// one" of three atoms, as a class has on a table, and the test fails unless
// the one-step lookahead (forces) decides some of the cases that the
// literals of c alone do not.
func TestEntailsLookahead(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 23))
	ws := worlds(6)
	exactlyOne := []logic.Clause{
		{logic.Pos(0), logic.Pos(1), logic.Pos(2)},
		{logic.Pos(0).Not(), logic.Pos(1).Not()},
		{logic.Pos(0).Not(), logic.Pos(2).Not()},
		{logic.Pos(1).Not(), logic.Pos(2).Not()},
	}
	lookahead := 0
	for iter := range 400 {
		n := 6
		ex := &Examples{}
		for range 8 {
			var alpha logic.Term
			for range 1 + r.IntN(3) {
				alpha = append(alpha, logic.MkLit(logic.Atom(3+r.IntN(3)), r.IntN(2) == 0))
			}
			ex.Add(alpha, logic.Clause{logic.MkLit(logic.Atom(r.IntN(3)), r.IntN(2) == 0)}, true, 1)
		}
		m := randModel(r, n)
		m.Hard = append(m.Hard, exactlyOne...)
		e := newEngine(n, ex, m.Hard, 1, possibilistic.Poss).(*drowning)
		w := e.workers[0]
		x := e.unitIndexFor(m)
		for gi, g := range e.groups {
			f := w.unitsUnder(gi, m)
			if f == nil {
				t.Fatalf("#%d: no unit facts", iter)
			}
			d := &e.ex[g[0]]
			for range 6 {
				c := randClause(r, n, 3)
				j := r.IntN(len(m.Levels) + 1)
				beta := d.beta
				if !f.entails(c, beta, j, x) {
					continue
				}
				if !entailsByWorlds(m, j, d.alpha, c, beta, ws) {
					t.Fatalf("#%d: entails says the cut at %d with α %v and c %v entails β %v; a world says not\n%v", iter, j, d.alpha, c, beta, m)
				}
				if f.entails(c, beta, j, nil) {
					continue
				}
				lookahead++
			}
		}
	}
	if lookahead == 0 {
		t.Fatal("the lookahead decided no case")
	}
}

// entailsByWorlds reports whether every world of the hard rules of m, its
// levels at or above j, α and c satisfies β.
func entailsByWorlds(m *Hypothesis, j int, alpha logic.Term, c, beta logic.Clause, ws [][]bool) bool {
	for _, w := range ws {
		ok := worldHolds(c, w)
		for _, l := range alpha {
			ok = ok && l.Holds(w)
		}
		for _, h := range m.Hard {
			ok = ok && worldHolds(h, w)
		}
		for _, lv := range m.Levels[j:] {
			for _, h := range lv {
				ok = ok && worldHolds(h, w)
			}
		}
		if ok && !worldHolds(beta, w) {
			return false
		}
	}
	return true
}
