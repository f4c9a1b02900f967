package lp

import (
	"context"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// maxDet is the largest determinant of an n×n matrix with entries in
// {−1, 0, 1}. A system with such coefficients and right-hand sides 0 or 1
// that has a solution x ≥ 0 has a vertex solving n independent tight rows
// (some of them x_j ≥ 0); Cramer's rule scaled by the determinant gives an
// integer solution whose entries are determinants of such matrices, so
// there is an integer solution in [0, maxDet[n]]^n.
var maxDet = []int{1, 1, 2, 4, 16}

// bruteFeasible enumerates the integer points of [0, maxDet[n]]^n: a
// system with coefficients in {−1, 0, 1} and right-hand sides 0 or 1 has
// a solution iff it has one there (maxDet).
func bruteFeasible(n int, rows []Row) bool {
	x := make([]int64, n)
	for {
		ok := true
		for _, r := range rows {
			var s int64
			for j, a := range r.A {
				s += a * x[j]
			}
			if s < r.B {
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

// randRow draws a row with coefficients in {−1, 0, 1} and a right-hand
// side 0 or 1, the rows of c-representations and of maxDet's bound.
func randRow(r *rand.Rand, n int) Row {
	row := Row{A: make([]int64, n), B: int64(r.IntN(2))}
	for j := range row.A {
		row.A[j] = int64(r.IntN(3) - 1)
	}
	return row
}

// TestSimplex checks the exact simplex, its Farkas supports and its
// multipliers against enumeration on random small systems.
func TestSimplex(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	ctx := context.Background()
	feasible := 0
	for it := range 300 {
		n := 1 + r.IntN(4)
		rows := make([]Row, 1+r.IntN(7))
		for i := range rows {
			rows[i] = randRow(r, n)
		}
		want := bruteFeasible(n, rows)
		x, sup, ok, err := solveSupport(ctx, n, rows, nil)
		if err != nil || ok != want {
			t.Fatalf("system %d %v: exact simplex %v (%v), enumeration %v", it, rows, ok, err, want)
		}
		y, err := farkas(ctx, n, rows)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			feasible++
			if !satisfiesRows(x, rows) {
				t.Fatalf("system %d: a solution violates the rows", it)
			}
			if y != nil {
				t.Fatalf("system %d: multipliers %v for a feasible system", it, y)
			}
			continue
		}
		if !refutes(n, rows, sup) {
			t.Fatalf("system %d %v: support %v is not infeasible", it, rows, sup)
		}
		if !isCertificate(n, rows, y) {
			t.Fatalf("system %d %v: %v is not a Farkas certificate", it, rows, y)
		}
	}
	if feasible < 30 || feasible > 270 {
		t.Errorf("%d of 300 random systems feasible: the test does not exercise both answers", feasible)
	}
}

// refutes reports whether the rows sup of rows, a support, are not
// empty and have no solution (by enumeration).
func refutes(n int, rows []Row, sup []int) bool {
	sub := make([]Row, len(sup))
	for k, i := range sup {
		sub[k] = rows[i]
	}
	return len(sup) > 0 && !bruteFeasible(n, sub)
}

// isCertificate reports whether y ≥ 0 has y·A ≤ 0 on every column and
// y·b > 0, in exact arithmetic: then the rows have no solution x ≥ 0.
func isCertificate(n int, rows []Row, y []*big.Rat) bool {
	if len(y) != len(rows) {
		return false
	}
	yb := new(big.Rat)
	for k, r := range rows {
		if y[k].Sign() < 0 {
			return false
		}
		yb.Add(yb, new(big.Rat).Mul(y[k], big.NewRat(r.B, 1)))
	}
	for j := range n {
		s := new(big.Rat)
		for k, r := range rows {
			s.Add(s, new(big.Rat).Mul(y[k], big.NewRat(r.A[j], 1)))
		}
		if s.Sign() > 0 {
			return false
		}
	}
	return yb.Sign() > 0
}

// bruteOptimum returns the least c·x over the rows and x ≥ 0 by
// enumerating vertices: every choice of n constraints (rows or x_j ≥ 0)
// tight, solved by Gaussian elimination, kept if it satisfies the rest.
// With c ≥ 0 the optimum, if the rows have a solution, is at a vertex (the
// region lies in x ≥ 0, so it has one). ok is false when there is no
// vertex, that is no solution.
func bruteOptimum(n int, rows []Row, c []int64) (opt *big.Rat, ok bool) {
	cons := slices.Clone(rows)
	for j := range n {
		e := Row{A: make([]int64, n)}
		e.A[j] = 1
		cons = append(cons, e)
	}
	pick := make([]int, n)
	var rec func(k, from int)
	rec = func(k, from int) {
		if k == n {
			x, unique := solveSquare(n, cons, pick)
			if !unique || slices.ContainsFunc(x, func(v *big.Rat) bool { return v.Sign() < 0 }) || !satisfiesRows(x, rows) {
				return
			}
			v := new(big.Rat)
			for j, cj := range c {
				v.Add(v, new(big.Rat).Mul(x[j], big.NewRat(cj, 1)))
			}
			if !ok || v.Cmp(opt) < 0 {
				opt, ok = v, true
			}
			return
		}
		for i := from; i < len(cons); i++ {
			pick[k] = i
			rec(k+1, i+1)
		}
	}
	rec(0, 0)
	return opt, ok
}

// solveSquare solves the rows pick of cons as equations, if they have a
// unique solution.
func solveSquare(n int, cons []Row, pick []int) ([]*big.Rat, bool) {
	m := make([][]*big.Rat, n)
	for i, k := range pick {
		m[i] = make([]*big.Rat, n+1)
		for j := range n {
			m[i][j] = big.NewRat(cons[k].A[j], 1)
		}
		m[i][n] = big.NewRat(cons[k].B, 1)
	}
	for col := range n {
		p := -1
		for i := col; i < n; i++ {
			if m[i][col].Sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			return nil, false
		}
		m[col], m[p] = m[p], m[col]
		for i := range n {
			if i == col || m[i][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(m[i][col], m[col][col])
			for j := col; j <= n; j++ {
				m[i][j].Sub(m[i][j], new(big.Rat).Mul(f, m[col][j]))
			}
		}
	}
	x := make([]*big.Rat, n)
	for j := range n {
		x[j] = new(big.Rat).Quo(m[j][n], m[j][j])
	}
	return x, true
}

// TestMinimize checks the optimum of the exact simplex, on all rows at
// once and by row generation, against vertex enumeration on random
// systems with more rows than the first round of row generation takes.
func TestMinimize(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	ctx := context.Background()
	feasible, generated := 0, 0
	for it := range 200 {
		n := 1 + r.IntN(3)
		// Half the systems are planted: every row holds at a point p.
		planted := r.IntN(2) == 0
		p := make([]int64, n)
		for j := range p {
			p[j] = int64(r.IntN(4))
		}
		rows := make([]Row, 1+r.IntN(24))
		for i := range rows {
			rows[i] = Row{A: make([]int64, n), B: int64(r.IntN(4) - 2)}
			var ap int64
			for j := range rows[i].A {
				rows[i].A[j] = int64(r.IntN(5) - 2)
				ap += rows[i].A[j] * p[j]
			}
			if planted {
				rows[i].B = min(rows[i].B+ap, ap)
			}
		}
		c := make([]int64, n)
		for j := range c {
			c[j] = int64(r.IntN(4))
		}
		want, wantOK := bruteOptimum(n, rows, c)
		value := func(x []*big.Rat) *big.Rat {
			v := new(big.Rat)
			for j, cj := range c {
				v.Add(v, new(big.Rat).Mul(x[j], big.NewRat(cj, 1)))
			}
			return v
		}
		x, _, ok, err := solveSupport(ctx, n, rows, c)
		if err != nil || ok != wantOK {
			t.Fatalf("system %d %v: simplex %v (%v), enumeration %v", it, rows, ok, err, wantOK)
		}
		lx, lok, err := minimize(ctx, n, rows, c)
		if err != nil || lok != wantOK {
			t.Fatalf("system %d %v: row generation %v (%v), enumeration %v", it, rows, lok, err, wantOK)
		}
		if !ok {
			continue
		}
		feasible++
		if len(rows) > 2*n+8 {
			generated++
		}
		for _, x := range [][]*big.Rat{x, lx} {
			if !satisfiesRows(x, rows) || value(x).Cmp(want) != 0 {
				t.Fatalf("system %d %v, costs %v: solution %v of value %v, enumeration %v", it, rows, c, x, value(x), want)
			}
		}
	}
	if feasible < 50 || feasible > 170 || generated < 30 {
		t.Errorf("%d of 200 random systems feasible, %d of them large enough for row generation: the test does not exercise both answers", feasible, generated)
	}
	t.Logf("%d of 200 feasible, %d of them large enough for row generation", feasible, generated)
}

// TestIncremental checks the incremental simplex against enumeration: rows are
// added one to three at a time and the program decided after each batch,
// resuming from the previous search, together with the exact point
// checks it relies on.
func TestIncremental(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	ctx := context.Background()
	feasible, infeasible, switched := 0, 0, 0
	for it := range 300 {
		n := 1 + r.IntN(4)
		p := newIncremental(n)
		var rows []Row
		for len(rows) < 9 {
			for range 1 + r.IntN(3) {
				row := randRow(r, n)
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
					if pt.slack(row).Cmp(new(big.Rat).Sub(dot(x, row.A), new(big.Rat).SetInt64(row.B))) != 0 {
						t.Fatalf("system %d: slack of %v at %v wrong", it, row, x)
					}
				}
				continue
			}
			infeasible++
			if r.IntN(2) == 0 {
				// Switch rows off and on at random, as choiceLP does, and
				// decide the active ones again from the same search.
				var act []Row
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
					for _, i := range sup {
						if !slices.Contains(idx, i) {
							t.Fatalf("system %d: support %v names an inactive row", it, sup)
						}
					}
					if !refutes(n, rows, sup) {
						t.Fatalf("system %d: support %v of the active rows is not infeasible", it, sup)
					}
				}
				switched++
				break
			}
			if !refutes(n, rows, sup) {
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

// TestFeasible checks the DPLL(T) search, with its certificate
// generalisation (certify), against enumeration of every choice on random
// small disjunctive systems, and that the generalisation fires.
func TestFeasible(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	ctx := context.Background()
	feasible, generalised, combined := 0, 0, 0
	for it := range 2000 {
		n := 1 + r.IntN(3)
		var fixed []Row
		for range r.IntN(3) {
			fixed = append(fixed, randRow(r, n))
		}
		groups := make([]Group, 1+r.IntN(4))
		for g := range groups {
			k := 1 + r.IntN(2)
			for range 1 + r.IntN(4) {
				var opt []Row
				for range k {
					opt = append(opt, randRow(r, n))
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
		x, ok, err := Feasible(ctx, n, fixed, groups)
		if err != nil || ok != want {
			t.Fatalf("system %d: Feasible %v (%v), enumeration %v", it, ok, err, want)
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
		cert, x2, err := newChoiceLP(n).solve(ctx, fixed, groups, chosen)
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

// TestLeastSum checks the branch and bound against enumeration on random
// disjunctive systems, half of them with an auxiliary variable of weight 0
// bounded by a row Σ_S x − aux ≥ 0 (as the minima of c-representations
// are). When the system has a solution it has one in [0, maxDet[n]]^n
// (maxDet), whose weighted sum is at most k·maxDet[n] for k weighted
// variables; so every weighted entry of a least-sum solution is at most
// W = k·maxDet[n], and the auxiliary one at most k·W. Enumerating that box
// finds the least sum.
func TestLeastSum(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	ctx := context.Background()
	feasible, positive, aux := 0, 0, 0
	for it := range 600 {
		k := 1 + r.IntN(3)
		n := k
		var w []int64 // nil: every variable has weight 1
		if k < 3 && r.IntN(2) == 0 {
			n = k + 1
			w = make([]int64, n)
			for j := range k {
				w[j] = 1
			}
		}
		var fixed []Row
		for range r.IntN(4) {
			fixed = append(fixed, randRow(r, n))
		}
		if n > k {
			bound := Row{A: make([]int64, n)}
			bound.A[k] = -1
			for j := range k {
				bound.A[j] = int64(r.IntN(2))
			}
			bound.A[r.IntN(k)] = 1
			fixed = append(fixed, bound)
		}
		groups := make([]Group, r.IntN(3))
		for g := range groups {
			for range 1 + r.IntN(3) {
				var opt []Row
				for range 1 + r.IntN(2) {
					row := randRow(r, n)
					if n > k && r.IntN(2) == 0 {
						row.A[k], row.B = 1, 1 // η_i + f_i − Σ_T η ≥ 1, as in CR(Δ)
					}
					opt = append(opt, row)
				}
				groups[g] = append(groups[g], opt)
			}
		}
		solves := func(x []*big.Rat) bool {
			return satisfiesRows(x, fixed) && violatedGroup(x, groups) < 0
		}
		weight := func(x []int64) int64 {
			var sum int64
			for _, v := range x[:k] {
				sum += v
			}
			return sum
		}
		top := make([]int64, n)
		for j := range top {
			top[j] = int64(k * maxDet[n])
			if j >= k {
				top[j] *= int64(k)
			}
		}
		best := int64(-1)
		x := make([]int64, n)
		for {
			rx := make([]*big.Rat, n)
			for j, v := range x {
				rx[j] = big.NewRat(v, 1)
			}
			if sum := weight(x); (best < 0 || sum < best) && solves(rx) {
				best = sum
			}
			p := 0
			for p < n && x[p] == top[p] {
				x[p] = 0
				p++
			}
			if p == n {
				break
			}
			x[p]++
		}
		got, ok, err := LeastSum(ctx, n, w, fixed, groups)
		if err != nil || ok != (best >= 0) {
			t.Fatalf("system %d %v %v: LeastSum %v (%v), enumeration %v", it, fixed, groups, ok, err, best >= 0)
		}
		if !ok {
			continue
		}
		feasible++
		rx := make([]*big.Rat, n)
		for j, v := range got {
			rx[j] = big.NewRat(v, 1)
		}
		if sum := weight(got); !solves(rx) || sum != best {
			t.Fatalf("system %d %v %v: LeastSum %v of weighted sum %d, enumeration least sum %d", it, fixed, groups, got, sum, best)
		}
		if best > 0 {
			positive++
		}
		if n > k && best > 0 {
			aux++
		}
	}
	if feasible < 120 || feasible > 540 || positive < 60 || aux < 20 {
		t.Errorf("%d of 600 feasible, %d with a positive least sum, %d of them with an auxiliary variable: the test does not exercise the search", feasible, positive, aux)
	}
	t.Logf("%d of 600 feasible, %d with a positive least sum, %d of them with an auxiliary variable", feasible, positive, aux)
}

// TestCheck checks that both entry points refuse rows they cannot decide
// exactly in integers: a row over the wrong number of variables, and a
// negative right-hand side (its scaled rational solution need not hold).
func TestCheck(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		fixed  []Row
		groups []Group
		want   string
	}{
		{[]Row{{A: []int64{1}, B: 1}}, nil, "1 coefficients for 2 variables"},
		{nil, []Group{{{{A: []int64{1, 1}, B: -1}}}}, "negative right-hand side -1"},
	} {
		leastSum := func(ctx context.Context, n int, fixed []Row, groups []Group) ([]int64, bool, error) {
			return LeastSum(ctx, n, nil, fixed, groups)
		}
		for name, f := range map[string]func(context.Context, int, []Row, []Group) ([]int64, bool, error){"Feasible": Feasible, "LeastSum": leastSum} {
			if _, _, err := f(ctx, 2, c.fixed, c.groups); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s(%v, %v): error %v, want %q", name, c.fixed, c.groups, err, c.want)
			}
		}
	}
}

// covered returns, per group of the certificate of an infeasible choice,
// the other options that the same Farkas multipliers refute when they
// replace the chosen one (the rest of the choice unchanged): the swaps of
// certify.
func covered(ctx context.Context, n int, fixed []Row, groups []Group, chosen []int, cert []rowRef) (map[int][]int, error) {
	c, err := certify(ctx, n, fixed, groups, chosen, cert)
	if c == nil {
		return nil, err
	}
	out := map[int][]int{}
	for g, sw := range c.swaps {
		for _, x := range sw {
			out[g] = append(out[g], x.o)
		}
	}
	return out, nil
}
