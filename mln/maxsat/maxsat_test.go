package maxsat

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/crillab/gophersat/maxsat"
	"github.com/strata-logic/strata/logic"
)

func randLits(r *rand.Rand, n, k int) []logic.Lit {
	ls := make([]logic.Lit, k)
	for i := range ls {
		ls[i] = logic.MkLit(logic.Atom(r.IntN(n)), r.IntN(2) == 0)
	}
	return ls
}

// randProblem returns a random problem with clauses and terms of 0 to 4
// literals (repeats and complementary pairs included) and a few hard clauses.
func randProblem(r *rand.Rand, n int) *Problem {
	p := &Problem{NumVars: n}
	for i := r.IntN(3 * n); i > 0; i-- {
		p.Soft = append(p.Soft, Soft{Lits: randLits(r, n, r.IntN(5)), Term: r.IntN(2) == 0, Cost: 1 + r.Int64N(20)})
	}
	for i := r.IntN(4); i > 0; i-- {
		p.Hard = append(p.Hard, randLits(r, n, 1+r.IntN(3)))
	}
	return p
}

func TestExactAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for it := 0; it < 400; it++ {
		n := 1 + r.IntN(12)
		p := randProblem(r, n)
		ex, err := NewExact(p)
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 3; q++ {
			ev := randLits(r, n, r.IntN(3))
			_, want, wantOK := p.brute(ev)
			got, ok, err := ex.Solve(t.Context(), ev, math.MaxInt64)
			if err != nil || ok != wantOK || ok && got != want {
				t.Fatalf("problem %d query %d: exact %d %v %v, brute force %d %v\n%+v\nevidence %v", it, q, got, ok, err, want, wantOK, p, ev)
			}
			if !ok {
				continue
			}
			m := ex.Model()
			c, hard := p.Cost(m)
			if !hard || c != got || !logic.Term(ev).Holds(m) {
				t.Fatalf("problem %d: model %v costs %d (hard %v), solver says %d", it, m, c, hard, got)
			}
			if _, ok, _ := ex.Solve(t.Context(), ev, got); ok {
				t.Fatalf("problem %d: found a model cheaper than the optimum %d", it, got)
			}
			if c2, ok, _ := ex.Solve(t.Context(), ev, got+1); !ok || c2 != got {
				t.Fatalf("problem %d: bound optimum+1 gave %d %v", it, c2, ok)
			}
		}
	}
}

func TestWalkSATNeverBeatsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	hits := 0
	for it := 0; it < 300; it++ {
		n := 1 + r.IntN(12)
		p := randProblem(r, n)
		ex, _ := NewExact(p)
		ws, err := NewWalkSAT(p, rand.New(rand.NewPCG(uint64(it), 1)))
		if err != nil {
			t.Fatal(err)
		}
		ws.Flips = 2000
		ev := randLits(r, n, r.IntN(3))
		opt, okE, _ := ex.Solve(t.Context(), ev, math.MaxInt64)
		c, ok, err := ws.Solve(ev)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			m := ws.Model()
			mc, hard := p.Cost(m)
			if !okE || !hard || mc != c || !logic.Term(ev).Holds(m) {
				t.Fatalf("problem %d: walksat model costs %d hard %v, reported %d; exact %v", it, mc, hard, c, okE)
			}
			if c < opt {
				t.Fatalf("problem %d: walksat %d beats the exact optimum %d", it, c, opt)
			}
			if c == opt {
				hits++
			}
		}
	}
	if hits < 250 {
		t.Fatalf("walksat reached the optimum on only %d of 300 tiny problems", hits)
	}
}

// TestExactAgainstGophersat compares with an independent MaxSAT solver on
// larger problems than brute force can take, terms being written as clauses
// over fresh selector variables.
func TestExactAgainstGophersat(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for it := 0; it < 40; it++ {
		n := 20 + r.IntN(20)
		p := randProblem(r, n)
		ex, _ := NewExact(p)
		got, ok, err := ex.Solve(t.Context(), nil, math.MaxInt64)
		if err != nil {
			t.Fatal(err)
		}
		want, wantOK := gophersatOptimum(p)
		if ok != wantOK || ok && got != want {
			t.Fatalf("problem %d: exact %d %v, gophersat %d %v", it, got, ok, want, wantOK)
		}
	}
}

func gophersatOptimum(p *Problem) (int64, bool) {
	lit := func(l logic.Lit) maxsat.Lit {
		name := "x" + strconv.Itoa(int(l.Atom()))
		if l.IsNeg() {
			return maxsat.Not(name)
		}
		return maxsat.Var(name)
	}
	lits := func(ls []logic.Lit) []maxsat.Lit {
		out := make([]maxsat.Lit, len(ls))
		for i, l := range ls {
			out[i] = lit(l)
		}
		return out
	}
	var cs []maxsat.Constr
	var base int64
	for _, h := range p.Hard {
		cs = append(cs, maxsat.HardClause(lits(h)...))
	}
	for i, s := range p.Soft {
		switch {
		case !s.Term && len(s.Lits) == 0:
			base += s.Cost
		case !s.Term:
			cs = append(cs, maxsat.WeightedClause(lits(s.Lits), int(s.Cost)))
		default:
			y := "y" + strconv.Itoa(i)
			cs = append(cs, maxsat.WeightedClause([]maxsat.Lit{maxsat.Var(y)}, int(s.Cost)))
			for _, l := range s.Lits {
				cs = append(cs, maxsat.HardClause(maxsat.Not(y), lit(l)))
			}
		}
	}
	for v := 0; v < p.NumVars; v++ { // mention every variable
		cs = append(cs, maxsat.HardClause(lit(logic.Pos(logic.Atom(v))), lit(logic.Neg(logic.Atom(v)))))
	}
	m, c := maxsat.New(cs...).Solve()
	if m == nil {
		return 0, false
	}
	return int64(c) + base, true
}

func TestCheck(t *testing.T) {
	bad := []*Problem{
		{NumVars: 1, Soft: []Soft{{Lits: []logic.Lit{logic.Pos(1)}, Cost: 1}}},
		{NumVars: 1, Soft: []Soft{{Lits: []logic.Lit{logic.Pos(0)}, Cost: 0}}},
		{NumVars: 1, Hard: []logic.Clause{{logic.Neg(3)}}},
		{NumVars: 1, Soft: []Soft{{Cost: math.MaxInt64 / 5}, {Cost: math.MaxInt64 / 5}}},
	}
	for i, p := range bad {
		if p.Check() == nil {
			t.Errorf("problem %d passed Check", i)
		}
		if _, err := NewExact(p); err == nil {
			t.Errorf("problem %d accepted by NewExact", i)
		}
	}
}

func TestCoreGuidedAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	for it := 0; it < 400; it++ {
		n := 1 + r.IntN(12)
		p := randProblem(r, n)
		cg, err := NewCoreGuided(p)
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 3; q++ {
			ev := randLits(r, n, r.IntN(3))
			_, want, wantOK := p.brute(ev)
			got, ok, err := cg.Solve(t.Context(), ev, math.MaxInt64)
			if err != nil || ok != wantOK || ok && got != want {
				t.Fatalf("problem %d query %d: core-guided %d %v %v, brute force %d %v\n%+v\nevidence %v", it, q, got, ok, err, want, wantOK, p, ev)
			}
			if !ok {
				continue
			}
			m := cg.Model()
			c, hard := p.Cost(m)
			if !hard || c != got || !logic.Term(ev).Holds(m) {
				t.Fatalf("problem %d: model costs %d (hard %v), solver says %d", it, c, hard, got)
			}
			if ok, _ := cg.Exists(t.Context(), ev, got); ok {
				t.Fatalf("problem %d: a model cheaper than the optimum %d exists", it, got)
			}
			if ok, _ := cg.Exists(t.Context(), ev, got+1); !ok {
				t.Fatalf("problem %d: no model at the optimum %d", it, got)
			}
		}
	}
}

func TestEliminationAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for it := 0; it < 400; it++ {
		n := 1 + r.IntN(12)
		p := randProblem(r, n)
		el, err := NewElimination(p, 12)
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 3; q++ {
			ev := randLits(r, n, r.IntN(3))
			_, want, wantOK := p.brute(ev)
			got, ok, err := el.Solve(t.Context(), ev, math.MaxInt64)
			if err != nil || ok != wantOK || ok && got != want {
				t.Fatalf("problem %d query %d: elimination %d %v %v, brute force %d %v\n%+v\nevidence %v", it, q, got, ok, err, want, wantOK, p, ev)
			}
			if !ok {
				continue
			}
			m := el.Model()
			c, hard := p.Cost(m)
			if !hard || c != got || !logic.Term(ev).Holds(m) {
				t.Fatalf("problem %d: model %v costs %d (hard %v), solver says %d", it, m, c, hard, got)
			}
			if _, ok, _ := el.Solve(t.Context(), ev, got); ok {
				t.Fatalf("problem %d: found a model cheaper than the optimum %d", it, got)
			}
		}
	}
}

func TestEliminationTooWide(t *testing.T) {
	// A clause over 6 variables needs width 5.
	c := []logic.Lit{logic.Pos(0), logic.Neg(1), logic.Pos(2), logic.Pos(3), logic.Neg(4), logic.Pos(5)}
	p := &Problem{NumVars: 6, Soft: []Soft{{Lits: c, Cost: 1}}}
	if _, err := NewElimination(p, 4); !errors.Is(err, ErrTooWide) {
		t.Fatalf("width 5 under a limit of 4: %v", err)
	}
	if e, err := NewElimination(p, 5); err != nil || e.Width() > 5 {
		t.Fatalf("width 5 under a limit of 5: %v", err)
	}
	// Tables of 2^5 costs exceed a limit of 16 costs.
	defer func(n int) { maxTableEntries = n }(maxTableEntries)
	maxTableEntries = 16
	if _, err := NewElimination(p, 5); !errors.Is(err, ErrTooWide) {
		t.Fatalf("tables above the limit: %v", err)
	}
}
