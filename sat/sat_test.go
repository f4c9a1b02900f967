package sat

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	gophersat "github.com/crillab/gophersat/solver"
	"github.com/strata-logic/strata/internal/brute"
	"github.com/strata-logic/strata/logic"
)

// randomCNF draws clauses of 1 to 5 literals over n variables, with a clause
// count around the satisfiability threshold so that both answers occur.
func randomCNF(r *rand.Rand, n int) [][]logic.Lit {
	width := 2 + r.IntN(3)
	ratio := map[int]float64{2: 1.0, 3: 4.26, 4: 9.9}[width] * (0.6 + 0.8*r.Float64())
	m := int(ratio*float64(n)) + 1
	cnf := make([][]logic.Lit, m)
	for i := range cnf {
		w := width
		if r.IntN(10) == 0 {
			w = 1 + r.IntN(5)
		}
		for range w {
			cnf[i] = append(cnf[i], logic.MkLit(logic.Atom(r.IntN(n)), r.IntN(2) == 0))
		}
	}
	return cnf
}

func dimacs(cnf [][]logic.Lit, extra ...logic.Lit) [][]int {
	out := make([][]int, 0, len(cnf)+len(extra))
	for _, c := range cnf {
		d := make([]int, len(c))
		for i, l := range c {
			d[i] = int(l.Atom()) + 1
			if l.IsNeg() {
				d[i] = -d[i]
			}
		}
		out = append(out, d)
	}
	for _, l := range extra {
		out = append(out, dimacs([][]logic.Lit{{l}})[0])
	}
	return out
}

func reference(n int, cnf [][]logic.Lit, extra ...logic.Lit) bool {
	pb := gophersat.ParseSliceNb(dimacs(cnf, extra...), n)
	return gophersat.New(pb).Solve() == gophersat.Sat
}

func checkModel(t *testing.T, s *Solver, cnf [][]logic.Lit, assumptions []logic.Lit) {
	t.Helper()
	for _, c := range cnf {
		ok := false
		for _, l := range c {
			if s.Value(l.Atom()) != l.IsNeg() {
				ok = true
			}
		}
		if !ok {
			t.Fatalf("model violates clause %v", c)
		}
	}
	for _, a := range assumptions {
		if s.Value(a.Atom()) == a.IsNeg() {
			t.Fatalf("model violates assumption %v", a)
		}
	}
}

// TestAgainstGophersat compares satisfiability with gophersat on 10,000
// random CNFs of 5 to 60 variables, then solves each again under random
// assumptions, checking models and the failed-assumption subsets.
func TestAgainstGophersat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var nSat, nUnsat, nAssumeUnsat int
	for i := range 10000 {
		n := 5 + r.IntN(56)
		cnf := randomCNF(r, n)
		s := New()
		for _, c := range cnf {
			s.AddClause(c...)
		}
		want := reference(n, cnf)
		if got := solve(t, s); got != want {
			t.Fatalf("cnf #%d (%d vars, %d clauses): got %v, gophersat %v", i, n, len(cnf), got, want)
		}
		if !want {
			nUnsat++
			continue
		}
		nSat++
		checkModel(t, s, cnf, nil)
		for range 3 {
			as := make([]logic.Lit, 1+r.IntN(6))
			for j := range as {
				as[j] = logic.MkLit(logic.Atom(r.IntN(n)), r.IntN(2) == 0)
			}
			want := reference(n, cnf, as...)
			if got := solve(t, s, as...); got != want {
				t.Fatalf("cnf #%d under %v: got %v, gophersat %v", i, as, got, want)
			}
			if want {
				checkModel(t, s, cnf, as)
				continue
			}
			nAssumeUnsat++
			failed := append([]logic.Lit(nil), s.Failed()...)
			if len(failed) == 0 || reference(n, cnf, failed...) {
				t.Fatalf("cnf #%d under %v: failed assumptions %v are not inconsistent", i, as, failed)
			}
			for _, f := range failed {
				found := false
				for _, a := range as {
					found = found || a == f
				}
				if !found {
					t.Fatalf("failed literal %v is not an assumption of %v", f, as)
				}
			}
		}
	}
	t.Logf("%d satisfiable, %d unsatisfiable, %d unsatisfiable under assumptions", nSat, nUnsat, nAssumeUnsat)
	if nSat < 2000 || nUnsat < 2000 || nAssumeUnsat < 1000 {
		t.Fatalf("unbalanced sample: %d sat, %d unsat, %d unsat under assumptions", nSat, nUnsat, nAssumeUnsat)
	}
}

// TestIncremental interleaves clause additions and solves, the way a theory
// grows in the learner, and compares each answer with a fresh reference.
func TestIncremental(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for i := range 300 {
		n := 5 + r.IntN(30)
		all := randomCNF(r, n)
		s := New()
		var added [][]logic.Lit
		for _, c := range all {
			s.AddClause(c...)
			added = append(added, c)
			if r.IntN(4) != 0 {
				continue
			}
			as := []logic.Lit{logic.MkLit(logic.Atom(r.IntN(n)), r.IntN(2) == 0)}
			if got, want := solve(t, s, as...), reference(n, added, as...); got != want {
				t.Fatalf("run %d after %d clauses: got %v, want %v", i, len(added), got, want)
			}
		}
	}
}

func TestBasics(t *testing.T) {
	var s Solver // the zero value is usable
	if !solve(t, &s) {
		t.Fatal("empty solver unsatisfiable")
	}
	a, b := logic.Pos(0), logic.Pos(1)
	s.AddClause(a, b)
	s.AddClause(a.Not(), b)
	if !solve(t, &s) || !s.Value(1) {
		t.Fatal("b must be true")
	}
	if solve(t, &s, b.Not()) {
		t.Fatal("satisfiable under !b")
	}
	if f := s.Failed(); len(f) != 1 || f[0] != b.Not() {
		t.Fatalf("failed = %v, want [!b]", f)
	}
	if solve(t, &s, a, a.Not(), b) || len(s.Failed()) == 0 {
		t.Fatal("contradictory assumptions without failed set")
	}
	if s.AddClause(b.Not()) {
		t.Fatal("AddClause(!b) should make the solver unsatisfiable")
	}
	if solve(t, &s) || s.ok {
		t.Fatal("solver should stay unsatisfiable")
	}
}

func TestSelectorsAndSimplify(t *testing.T) {
	// Clauses guarded by selectors, retired by unit clauses, as the learner does.
	s := New()
	sel := []logic.Lit{logic.Pos(10), logic.Pos(11)}
	s.AddClause(logic.Pos(0), sel[0].Not())
	s.AddClause(logic.Neg(0), sel[1].Not())
	if solve(t, s, sel...) {
		t.Fatal("x and !x both active: must be unsatisfiable")
	}
	s.AddClause(sel[0].Not())
	if !solve(t, s, sel[1]) || s.Value(0) {
		t.Fatal("after retiring the first selector, x must be false")
	}
}

func FuzzSolve(f *testing.F) {
	f.Add([]byte{1, 2, 3, 250, 4, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		const n = 8
		var cnf [][]logic.Lit
		var cur []logic.Lit
		for _, b := range data {
			if b >= 240 {
				cnf = append(cnf, cur)
				cur = nil
				continue
			}
			cur = append(cur, logic.MkLit(logic.Atom(b%n), b&16 != 0))
		}
		cnf = append(cnf, cur)
		s := New()
		for _, c := range cnf {
			s.AddClause(c...)
		}
		cs := make([]logic.Clause, len(cnf))
		for i, c := range cnf {
			cs[i] = c
		}
		if got, want := solve(t, s), brute.Satisfiable(n, cs); got != want {
			t.Fatalf("got %v, brute force %v", got, want)
		}
		if len(data) > 0 {
			a := logic.MkLit(logic.Atom(data[0]%n), data[0]&1 != 0)
			cs = append(cs, logic.Clause{a})
			if got, want := solve(t, s, a), brute.Satisfiable(n, cs); got != want {
				t.Fatalf("under %v: got %v, brute force %v", a, got, want)
			}
		}
	})
}

// solve is s.Solve under a context never done, which gives no error.
func solve(t *testing.T, s *Solver, assumptions ...logic.Lit) bool {
	t.Helper()
	ok, err := s.Solve(context.Background(), assumptions...)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// TestSolveCancelled: under a done context Solve gives up with its error,
// and the solver, still usable, then proves the pigeonhole formula (7
// pigeons, 6 holes) unsatisfiable.
func TestSolveCancelled(t *testing.T) {
	const pigeons, holes = 7, 6
	s := New()
	in := func(p, h int) logic.Lit { return logic.Pos(logic.Atom(p*holes + h)) }
	for p := range pigeons {
		var c []logic.Lit
		for h := range holes {
			c = append(c, in(p, h))
		}
		s.AddClause(c...)
	}
	for h := range holes {
		for p := range pigeons {
			for q := p + 1; q < pigeons; q++ {
				s.AddClause(in(p, h).Not(), in(q, h).Not())
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ok, err := s.Solve(ctx); ok || !errors.Is(err, context.Canceled) {
		t.Fatalf("under a cancelled context: %v, %v", ok, err)
	}
	if solve(t, s) {
		t.Fatal("the pigeonhole formula satisfiable")
	}
}
