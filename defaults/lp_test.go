package defaults

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bruteFeasible enumerates the integer points of [0, maxDet[n]]^n: by the
// determinant bound of cinf.go, a homogeneous system with coefficients in
// {−1, 0, 1} and right-hand sides 0 or 1 has an integer solution iff it
// has one there.
func bruteFeasible(n int, rows []lpRow) bool {
	x := make([]int64, n)
	for {
		ok := true
		for _, r := range rows {
			var s int64
			for j, a := range r.a {
				s += a * x[j]
			}
			if s < r.b {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
		p := 0
		for p < n && x[p] == int64(maxDet[n]) {
			x[p] = 0
			p++
		}
		if p == n {
			return false
		}
		x[p]++
	}
}

// TestLP checks the exact simplex, the float-guided one and their Farkas
// supports against enumeration on random small systems.
func TestLP(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	ctx := context.Background()
	feasible := 0
	for it := range 300 {
		n := 1 + r.IntN(4)
		rows := make([]lpRow, 1+r.IntN(7))
		for i := range rows {
			rows[i] = lpRow{a: make([]int64, n), b: int64(r.IntN(2))}
			for j := range rows[i].a {
				rows[i].a[j] = int64(r.IntN(3) - 1)
			}
		}
		want := bruteFeasible(n, rows)
		x, sup, ok, err := lpSolveSupport(ctx, n, rows, nil)
		if err != nil || ok != want {
			t.Fatalf("system %d %v: exact simplex %v (%v), enumeration %v", it, rows, ok, err, want)
		}
		gx, gsup, gok, err := lpGuided(ctx, n, rows)
		if err != nil || gok != want {
			t.Fatalf("system %d %v: guided simplex %v (%v), enumeration %v", it, rows, gok, err, want)
		}
		if ok {
			feasible++
			if !satisfiesRows(x, rows) || !satisfiesRows(gx, rows) {
				t.Fatalf("system %d: a solution violates the rows", it)
			}
			continue
		}
		for _, s := range [][]int{sup, gsup} {
			sub := make([]lpRow, len(s))
			for k, i := range s {
				sub[k] = rows[i]
			}
			if len(s) == 0 || bruteFeasible(n, sub) {
				t.Fatalf("system %d %v: support %v is not infeasible", it, rows, s)
			}
		}
	}
	if feasible < 30 || feasible > 270 {
		t.Errorf("%d of 300 random systems feasible: the test does not exercise both answers", feasible)
	}
}

// TestIncLP checks the incremental simplex against enumeration: rows are
// added one to three at a time and the program decided after each batch,
// resuming from the previous search, together with the exact point
// checks it relies on.
func TestIncLP(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	ctx := context.Background()
	feasible, infeasible := 0, 0
	for it := range 300 {
		n := 1 + r.IntN(4)
		p := newIncLP(n)
		var rows []lpRow
		for len(rows) < 9 {
			for range 1 + r.IntN(3) {
				row := lpRow{a: make([]int64, n), b: int64(r.IntN(2))}
				for j := range row.a {
					row.a[j] = int64(r.IntN(3) - 1)
				}
				rows = append(rows, row)
				p.add(row)
			}
			want := bruteFeasible(n, rows)
			x, sup, ok, err := p.solve(ctx)
			if err != nil || ok != want {
				t.Fatalf("system %d %v: incremental simplex %v (%v), enumeration %v", it, rows, ok, err, want)
			}
			if ok {
				feasible++
				pt := newPoint(x)
				if !satisfiesRows(x, rows) || !pt.satisfies(rows) {
					t.Fatalf("system %d: a solution violates the rows", it)
				}
				for _, row := range rows {
					if pt.slack(row).Cmp(new(big.Rat).Sub(dot(x, row.a), new(big.Rat).SetInt64(row.b))) != 0 {
						t.Fatalf("system %d: slack of %v at %v wrong", it, row, x)
					}
				}
				continue
			}
			infeasible++
			sub := make([]lpRow, len(sup))
			for k, i := range sup {
				sub[k] = rows[i]
			}
			if len(sup) == 0 || bruteFeasible(n, sub) {
				t.Fatalf("system %d %v: support %v is not infeasible", it, rows, sup)
			}
			break
		}
	}
	if feasible < 100 || infeasible < 50 {
		t.Errorf("%d feasible and %d infeasible checks: the test does not exercise both answers", feasible, infeasible)
	}
}

func dot(x []*big.Rat, a []int64) *big.Rat {
	s := new(big.Rat)
	for j, v := range a {
		s.Add(s, new(big.Rat).Mul(x[j], new(big.Rat).SetInt64(v)))
	}
	return s
}
