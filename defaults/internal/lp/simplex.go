package lp

import (
	"context"
	"errors"
	"math/big"
)

var errUnbounded = errors.New("lp: unbounded linear program")

// The exact simplex: a dense two-phase tableau in math/big rationals with
// Bland's rule, so it neither rounds nor cycles: a "feasible" answer comes
// with an exact solution and an "infeasible" one is a proof (the phase-1
// optimum is positive), whose Farkas multipliers are read off the final
// tableau. It decides every answer of the package; the incremental
// floating-point search (incremental.go) only proposes.

type simplex struct {
	n, m, cols int // variables, rows, columns (variables, slacks, artificials)
	t          [][]*big.Rat
	rhs        []*big.Rat
	basis      []int
	art        int // first artificial column
	d          []*big.Rat
	z          *big.Rat
}

// solveSupport minimises c·x (feasibility only when c is nil) subject to
// the rows and x ≥ 0 (the objective is bounded below, since c ≥ 0 for every
// caller). When the rows have no solution it reports ok false and
// returns the support of a Farkas certificate: rows that have no solution
// by themselves. They are the rows with a non-zero simplex multiplier y at
// the positive phase-1 optimum (y·A ≤ 0 on every column, y·b > 0), read
// off the reduced costs of their slack and artificial columns.
func solveSupport(ctx context.Context, n int, rows []Row, c []int64) (x []*big.Rat, support []int, ok bool, err error) {
	x, y, ok, err := solveDual(ctx, n, rows, c)
	for i, v := range y {
		if v.Sign() != 0 {
			support = append(support, i)
		}
	}
	return x, support, ok, err
}

// farkas returns the Farkas multipliers y ≥ 0 of rows without a
// solution (y·A ≤ 0 on every column, y·b > 0), nil if they have one.
func farkas(ctx context.Context, n int, rows []Row) ([]*big.Rat, error) {
	_, y, _, err := solveDual(ctx, n, rows, nil)
	return y, err
}

// solveDual is solveSupport returning the multipliers themselves.
func solveDual(ctx context.Context, n int, rows []Row, c []int64) (x []*big.Rat, y []*big.Rat, ok bool, err error) {
	m := len(rows)
	nArt := 0
	for _, r := range rows {
		if r.B > 0 {
			nArt++
		}
	}
	s := &simplex{n: n, m: m, cols: n + m + nArt, art: n + m}
	s.t = make([][]*big.Rat, m)
	s.rhs = make([]*big.Rat, m)
	s.basis = make([]int, m)
	k := 0
	for i, r := range rows {
		row := make([]*big.Rat, s.cols)
		sign := int64(1)
		if r.B <= 0 {
			sign = -1 // −a·x + s = −b ≥ 0: the slack is a feasible basic variable
		}
		for j := range row {
			row[j] = new(big.Rat)
		}
		for j, v := range r.A {
			row[j].SetInt64(sign * v)
		}
		if r.B <= 0 {
			row[n+i].SetInt64(1)
			s.basis[i] = n + i
		} else {
			row[n+i].SetInt64(-1)
			row[s.art+k].SetInt64(1)
			s.basis[i] = s.art + k
			k++
		}
		s.t[i] = row
		s.rhs[i] = new(big.Rat).SetInt64(sign * r.B)
	}
	// Phase 1: minimise the sum of the artificial variables.
	cost := make([]int64, s.cols)
	for j := s.art; j < s.cols; j++ {
		cost[j] = 1
	}
	if err := s.optimise(ctx, cost, s.cols); err != nil {
		return nil, nil, false, err
	}
	if s.z.Sign() > 0 {
		// y_i is read off the reduced cost of row i's slack column, ∓e_i
		// at cost 0: with the phase-1 duals π, d = π_i for a row
		// a·x − s = b > 0, and d = −π_i for a row negated to
		// −a·x + s = −b, whose multiplier as a·x ≥ b is −π_i. So y = d
		// on the slack columns in both cases.
		y = make([]*big.Rat, len(rows))
		for i := range rows {
			y[i] = new(big.Rat).Set(s.d[n+i])
		}
		return nil, y, false, nil
	}
	s.driveOutArtificials()
	if c != nil {
		cost = make([]int64, s.cols)
		copy(cost, c)
		if err := s.optimise(ctx, cost, s.art); err != nil {
			return nil, nil, false, err
		}
	}
	x = make([]*big.Rat, n)
	for j := range x {
		x[j] = new(big.Rat)
	}
	for i, bv := range s.basis {
		if bv < n {
			x[bv].Set(s.rhs[i])
		}
	}
	return x, nil, true, nil
}

// minimize is solveSupport with an objective, by row generation: it
// solves the program on a few rows, adds the rows the solution violates,
// and repeats. A solution satisfying every row is one of the whole
// program, and optimal for it, as its optimum over fewer rows cannot be
// worse; an infeasible subset makes the whole infeasible. The constraint
// systems of c-representations have many rows but few variables, and a
// handful of rows usually decides them.
func minimize(ctx context.Context, n int, rows []Row, c []int64) (x []*big.Rat, ok bool, err error) {
	active := []int{}
	in := make([]bool, len(rows))
	for i := range rows {
		if len(active) >= 2*n+8 {
			break
		}
		if i%max(1, len(rows)/(2*n+8)) == 0 {
			active = append(active, i)
			in[i] = true
		}
	}
	for {
		sub := make([]Row, len(active))
		for k, i := range active {
			sub[k] = rows[i]
		}
		x, _, ok, err := solveSupport(ctx, n, sub, c)
		if err != nil || !ok {
			return nil, false, err
		}
		added := 0
		for i, r := range rows {
			if !in[i] && !satisfiesRows(x, []Row{r}) {
				active = append(active, i)
				in[i] = true
				if added++; added >= n+8 {
					break
				}
			}
		}
		if added == 0 {
			return x, true, nil
		}
	}
}

// optimise runs the simplex with costs c, letting only columns below
// limit enter the basis.
func (s *simplex) optimise(ctx context.Context, c []int64, limit int) error {
	s.d = make([]*big.Rat, s.cols)
	s.z = new(big.Rat)
	tmp := new(big.Rat)
	for j := range s.d {
		s.d[j] = new(big.Rat).SetInt64(c[j])
	}
	for i, bv := range s.basis {
		if c[bv] == 0 {
			continue
		}
		cb := new(big.Rat).SetInt64(c[bv])
		for j := range s.d {
			if s.t[i][j].Sign() != 0 {
				s.d[j].Sub(s.d[j], tmp.Mul(cb, s.t[i][j]))
			}
		}
		s.z.Add(s.z, tmp.Mul(cb, s.rhs[i]))
	}
	for iter := 0; ; iter++ {
		if iter%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		enter := -1
		for j := 0; j < limit; j++ {
			if s.d[j].Sign() < 0 {
				enter = j
				break
			}
		}
		if enter < 0 {
			return nil
		}
		leave := -1
		var best *big.Rat
		for i := range s.t {
			if s.t[i][enter].Sign() <= 0 {
				continue
			}
			ratio := new(big.Rat).Quo(s.rhs[i], s.t[i][enter])
			if leave < 0 || ratio.Cmp(best) < 0 || ratio.Cmp(best) == 0 && s.basis[i] < s.basis[leave] {
				leave, best = i, ratio
			}
		}
		if leave < 0 {
			return errUnbounded // cannot happen: every caller's costs are non-negative
		}
		s.pivot(leave, enter)
	}
}

// pivot makes column j basic in row r, updating the tableau and the
// reduced costs.
func (s *simplex) pivot(r, j int) {
	tmp := new(big.Rat)
	p := new(big.Rat).Set(s.t[r][j])
	row := s.t[r]
	for k := range row {
		if row[k].Sign() != 0 {
			row[k].Quo(row[k], p)
		}
	}
	s.rhs[r].Quo(s.rhs[r], p)
	elim := func(other []*big.Rat, rhs *big.Rat, f *big.Rat) {
		for k := range other {
			if row[k].Sign() != 0 {
				other[k].Sub(other[k], tmp.Mul(f, row[k]))
			}
		}
		if rhs != nil {
			rhs.Sub(rhs, tmp.Mul(f, s.rhs[r]))
		}
	}
	for i := range s.t {
		if i == r || s.t[i][j].Sign() == 0 {
			continue
		}
		f := new(big.Rat).Set(s.t[i][j])
		elim(s.t[i], s.rhs[i], f)
	}
	if s.d != nil && s.d[j].Sign() != 0 {
		f := new(big.Rat).Set(s.d[j])
		elim(s.d, nil, f)
		// z is c_B·x_B; with reduced costs d = c − c_B·T it moves by f·rhs.
		s.z.Add(s.z, tmp.Mul(f, s.rhs[r]))
	}
	s.basis[r] = j
}

// driveOutArtificials pivots every artificial variable left basic (at
// zero) out of the basis on a non-artificial column, so the second phase
// cannot raise it again; a row with no such column is a redundant copy of
// others and is dropped.
func (s *simplex) driveOutArtificials() {
	for i := 0; i < len(s.t); i++ {
		if s.basis[i] < s.art {
			continue
		}
		col := -1
		for j := 0; j < s.art; j++ {
			if s.t[i][j].Sign() != 0 {
				col = j
				break
			}
		}
		if col >= 0 {
			s.pivot(i, col)
			continue
		}
		s.t = append(s.t[:i], s.t[i+1:]...)
		s.rhs = append(s.rhs[:i], s.rhs[i+1:]...)
		s.basis = append(s.basis[:i], s.basis[i+1:]...)
		i--
	}
	s.m = len(s.t)
}
