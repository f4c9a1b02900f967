package defaults

import (
	"context"
	"math"
	"math/big"
)

// A floating-point simplex guides the exact one (lp.go). Its answers are
// never trusted as they stand: a solution is turned into rationals (the
// best approximations with small denominators, which recover the vertices
// of these small-coefficient systems) and checked exactly against every
// row; an infeasibility is confirmed by the exact simplex on the rows of
// its certificate alone, a handful. Whenever a check fails the exact
// simplex decides the whole program.

const fEps = 1e-9

// lpFloat is lpSolveSupport in float64 with Dantzig's rule (Bland's rule
// after many degenerate steps, so it cannot cycle).
func lpFloat(ctx context.Context, n int, rows []lpRow) (x []float64, support []int, ok bool, err error) {
	m := len(rows)
	nArt := 0
	for _, r := range rows {
		if r.b > 0 {
			nArt++
		}
	}
	cols := n + m + nArt
	art := n + m
	t := make([][]float64, m)
	rhs := make([]float64, m)
	basis := make([]int, m)
	k := 0
	for i, r := range rows {
		row := make([]float64, cols)
		sign := 1.0
		if r.b <= 0 {
			sign = -1
		}
		for j, v := range r.a {
			row[j] = sign * float64(v)
		}
		if r.b <= 0 {
			row[n+i] = 1
			basis[i] = n + i
		} else {
			row[n+i] = -1
			row[art+k] = 1
			basis[i] = art + k
			k++
		}
		t[i] = row
		rhs[i] = sign * float64(r.b)
	}
	d := make([]float64, cols)
	for j := art; j < cols; j++ {
		d[j] = 1
	}
	z := 0.0
	for i, bv := range basis {
		if bv >= art {
			for j := range d {
				d[j] -= t[i][j]
			}
			z += rhs[i]
		}
	}
	degenerate := 0
	for iter := 0; ; iter++ {
		if iter%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, false, err
			}
		}
		if iter > 50000 {
			return nil, nil, false, errFloat
		}
		enter := -1
		for j := range cols {
			if d[j] < -fEps && (enter < 0 || degenerate > 50 || d[j] < d[enter]) {
				enter = j
				if degenerate > 50 {
					break // Bland: the first improving column
				}
			}
		}
		if enter < 0 {
			break
		}
		leave := -1
		best := math.Inf(1)
		for i := range t {
			if t[i][enter] > fEps {
				ratio := rhs[i] / t[i][enter]
				if ratio < best-fEps || ratio < best+fEps && leave >= 0 && basis[i] < basis[leave] {
					leave, best = i, ratio
				}
			}
		}
		if leave < 0 {
			return nil, nil, false, errFloat
		}
		if best < fEps {
			degenerate++
		} else {
			degenerate = 0
		}
		p := t[leave][enter]
		row := t[leave]
		for j := range row {
			row[j] /= p
		}
		rhs[leave] /= p
		for i := range t {
			if i == leave || t[i][enter] == 0 {
				continue
			}
			f := t[i][enter]
			for j, v := range row {
				if v != 0 {
					t[i][j] -= f * v
				}
			}
			rhs[i] -= f * rhs[leave]
		}
		f := d[enter]
		for j, v := range row {
			if v != 0 {
				d[j] -= f * v
			}
		}
		z += f * rhs[leave]
		basis[leave] = enter
	}
	if z > 1e-7 {
		for i := range rows {
			if math.Abs(d[n+i]) > fEps {
				support = append(support, i)
			}
		}
		return nil, support, false, nil
	}
	x = make([]float64, n)
	for i, bv := range basis {
		if bv < n {
			x[bv] = math.Max(0, rhs[i])
		}
	}
	return x, nil, true, nil
}

type floatError struct{}

func (floatError) Error() string { return "floating-point simplex gave up" }

var errFloat error = floatError{}

// lpGuided is lpSolveSupport for feasibility, guided by lpFloat and exact
// in its answers.
func lpGuided(ctx context.Context, n int, rows []lpRow) (x []*big.Rat, support []int, ok bool, err error) {
	fx, fsup, fok, ferr := lpFloat(ctx, n, rows)
	if ferr != nil && ferr != errFloat {
		return nil, nil, false, ferr
	}
	if ferr == nil && fok {
		x := make([]*big.Rat, n)
		for j, v := range fx {
			x[j] = rationalize(v)
		}
		if satisfiesRows(x, rows) {
			return x, nil, true, nil
		}
	}
	if ferr == nil && !fok && len(fsup) > 0 {
		sub := make([]lpRow, len(fsup))
		for k, i := range fsup {
			sub[k] = rows[i]
		}
		if sup, refuted, err := refuteExactly(ctx, n, sub, fsup); err != nil || refuted {
			return nil, sup, false, err
		}
	}
	return lpSolveSupport(ctx, n, rows, nil)
}

// refuteExactly decides exactly whether the rows sub, the support of a
// floating-point refutation (rows fsup[k] of a larger program), are
// infeasible, and if so returns their exact support in the larger
// program's numbering: a float certificate is never trusted as it stands.
func refuteExactly(ctx context.Context, n int, sub []lpRow, fsup []int) (support []int, refuted bool, err error) {
	_, sup, ok, err := lpSolveSupport(ctx, n, sub, nil)
	if err != nil || ok {
		return nil, false, err
	}
	for _, k := range sup {
		support = append(support, fsup[k])
	}
	return support, true, nil
}

// rationalize returns the best rational approximation of v with a
// denominator of at most 10^6 (continued fractions).
func rationalize(v float64) *big.Rat {
	if v <= 0 {
		return new(big.Rat)
	}
	const maxDen = 1_000_000
	h0, h1 := int64(0), int64(1)
	k0, k1 := int64(1), int64(0)
	x := v
	for range 64 {
		a := int64(math.Floor(x))
		h2, k2 := a*h1+h0, a*k1+k0
		if k2 > maxDen || h2 > 1<<50 {
			break
		}
		h0, h1, k0, k1 = h1, h2, k1, k2
		frac := x - float64(a)
		if frac < 1e-12 || math.Abs(float64(h1)/float64(k1)-v) < 1e-12*math.Max(1, v) {
			break
		}
		x = 1 / frac
	}
	if k1 == 0 {
		return new(big.Rat)
	}
	return big.NewRat(h1, k1)
}
