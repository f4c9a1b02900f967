package defaults

import (
	"context"
	"math/big"
	"math/rand/v2"
	"slices"
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
	feasible, infeasible, switched := 0, 0, 0
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
			if r.IntN(2) == 0 {
				// Switch rows off and on at random, as choiceLP does, and
				// decide the active ones again from the same search.
				var act []lpRow
				var idx []int
				for k := range rows {
					on := r.IntN(3) > 0
					p.setActive(k, on)
					if on {
						act = append(act, rows[k])
						idx = append(idx, k)
					}
				}
				x, sup, ok, err := p.solve(ctx)
				if want := bruteFeasible(n, act); err != nil || ok != want {
					t.Fatalf("system %d %v, active %v: incremental simplex %v (%v), enumeration %v", it, rows, idx, ok, err, want)
				}
				if ok && !satisfiesRows(x, act) {
					t.Fatalf("system %d: a solution violates the active rows", it)
				}
				if !ok {
					sub := make([]lpRow, len(sup))
					for k, i := range sup {
						if !slices.Contains(idx, i) {
							t.Fatalf("system %d: support %v names an inactive row", it, sup)
						}
						sub[k] = rows[i]
					}
					if len(sup) == 0 || bruteFeasible(n, sub) {
						t.Fatalf("system %d: support %v of the active rows is not infeasible", it, sup)
					}
				}
				switched++
				break
			}
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
	if feasible < 100 || infeasible < 50 || switched < 20 {
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

// TestCFeasible checks the DPLL(T) search, with its certificate
// generalisation (covered), against enumeration of every choice on random
// small disjunctive systems, and that the generalisation fires.
func TestCFeasible(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	ctx := context.Background()
	randRow := func(n int) lpRow {
		row := lpRow{a: make([]int64, n), b: int64(r.IntN(2))}
		for j := range row.a {
			row.a[j] = int64(r.IntN(3) - 1)
		}
		return row
	}
	feasible, generalised, combined := 0, 0, 0
	for it := range 2000 {
		n := 1 + r.IntN(3)
		var fixed []lpRow
		for range r.IntN(3) {
			fixed = append(fixed, randRow(n))
		}
		groups := make([]cGroup, 1+r.IntN(4))
		for g := range groups {
			k := 1 + r.IntN(2)
			for range 1 + r.IntN(4) {
				var opt []lpRow
				for range k {
					opt = append(opt, randRow(n))
				}
				groups[g] = append(groups[g], opt)
			}
		}
		want := false
		choice := make([]int, len(groups))
		for !want {
			rows := slices.Clone(fixed)
			for g, o := range choice {
				rows = append(rows, groups[g][o]...)
			}
			want = bruteFeasible(n, rows)
			p := 0
			for p < len(groups) && choice[p] == len(groups[p])-1 {
				choice[p] = 0
				p++
			}
			if p == len(groups) {
				break
			}
			choice[p]++
		}
		x, ok, err := cFeasible(ctx, n, fixed, groups)
		if err != nil || ok != want {
			t.Fatalf("system %d: cFeasible %v (%v), enumeration %v", it, ok, err, want)
		}
		if ok {
			feasible++
			rx := make([]*big.Rat, n)
			for j, v := range x {
				rx[j] = big.NewRat(v, 1)
			}
			if !satisfiesRows(rx, fixed) || violatedGroup(rx, groups) >= 0 {
				t.Fatalf("system %d: solution %v violates the system", it, x)
			}
		}
		// The generalisation on the first infeasible choice, if any.
		chosen := make([]int, len(groups))
		cert, x2, err := choiceProgram(ctx, n, fixed, groups, chosen)
		if err != nil {
			t.Fatal(err)
		}
		if x2 == nil {
			cov, err := covered(ctx, n, fixed, groups, chosen, cert)
			if err != nil {
				t.Fatal(err)
			}
			cf, _ := certify(ctx, n, fixed, groups, chosen, cert)
			if cf != nil {
				var in []int
				for _, f := range cert {
					if f.g >= 0 && !slices.Contains(in, f.g) {
						in = append(in, f.g)
					}
				}
				for _, combo := range cf.combos(in, chosen, maxCombos) {
					c := slices.Clone(chosen)
					for k, o := range combo {
						c[in[k]] = o
					}
					rows := slices.Clone(fixed)
					for h, o := range c {
						rows = append(rows, groups[h][o]...)
					}
					if bruteFeasible(n, rows) {
						t.Fatalf("system %d: combination %v wrongly refuted", it, c)
					}
					if slices.ContainsFunc(combo, func(o int) bool { return o != 0 }) {
						combined++
					}
				}
			}
			for g, os := range cov {
				for _, o := range os {
					generalised++
					c := slices.Clone(chosen)
					c[g] = o
					rows := slices.Clone(fixed)
					for h, o := range c {
						rows = append(rows, groups[h][o]...)
					}
					if bruteFeasible(n, rows) {
						t.Fatalf("system %d: option %d of group %d wrongly refuted", it, o, g)
					}
				}
			}
		}
	}
	if feasible < 200 || feasible > 1800 || generalised < 20 || combined < 20 {
		t.Errorf("%d of 2000 feasible, %d options and %d combinations refuted by generalisation: the test does not exercise the search", feasible, generalised, combined)
	}
	t.Logf("%d of 2000 feasible, %d options and %d combinations refuted by generalisation", feasible, generalised, combined)
}
