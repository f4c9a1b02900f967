package lp

import (
	"context"
	"errors"
	"math"
	"math/big"
)

// fEps is the tolerance of the floating-point search.
const fEps = 1e-9

// errFloat reports that the floating-point search gave up (too many
// steps, or no pivot where one must exist): the exact simplex decides.
var errFloat = errors.New("floating-point simplex gave up")

// incremental is a feasibility program in floating point, the
// general simplex of Dutertre and de Moura (2006): every row a·x ≥ b gets
// a slack variable s = a·x with the lower bound b, the tableau expresses
// the basic variables in the n non-basic ones (an m×n array, where the
// textbook tableau has m + n + artificial columns), and a row added later
// is rewritten in the current non-basic variables, so the search resumes
// from the last solution instead of starting again. Bland's rule (the
// least violated basic variable, the least entering variable) ends it.
// Non-basic variables always sit at their lower bounds, so a solution is
// a vertex, which rationalize recovers exactly.
//
// Its answers are never trusted as they stand (solve): a solution is
// turned into rationals (the best approximations with small denominators,
// which recover the vertices of these small-coefficient systems) and
// checked exactly against every row, an infeasibility is confirmed by the
// exact simplex on the rows of its certificate, a handful, and the exact
// simplex decides the whole program when a check fails.
type incremental struct {
	n     int
	rows  []Row
	t     [][]float64 // one row per basic variable, over the columns
	basic []int       // variable of each tableau row
	col   []int       // variable of each column
	where []int       // tableau row of a basic variable, −1−column of a non-basic one
	val   []float64   // current value of every variable
	lo    []float64   // lower bound of every variable
	off   []bool      // rows switched off (their slack unbounded)
	iters int
}

// setActive switches row k on or off. An inactive row's slack loses its
// bound, so it never conflicts and the search may move it freely; its
// current value is kept, so a solution is still a basic solution of a
// system of the rows (some taken as equalities), which rationalize
// recovers.
func (p *incremental) setActive(k int, on bool) {
	p.off[k] = !on
	if on {
		p.lo[p.n+k] = float64(p.rows[k].B)
	} else {
		p.lo[p.n+k] = math.Inf(-1)
	}
}

// activeRows returns the indices of the rows switched on.
func (p *incremental) activeRows() []int {
	var out []int
	for k, off := range p.off {
		if !off {
			out = append(out, k)
		}
	}
	return out
}

func newIncremental(n int) *incremental {
	p := &incremental{n: n, col: make([]int, n), where: make([]int, n), val: make([]float64, n), lo: make([]float64, n)}
	for j := range n {
		p.col[j] = j
		p.where[j] = -1 - j
	}
	return p
}

// add appends row r; its index is the number of rows added before.
func (p *incremental) add(r Row) {
	row := make([]float64, p.n)
	v := 0.0
	for j, a := range r.A {
		if a == 0 {
			continue
		}
		f := float64(a)
		v += f * p.val[j]
		if w := p.where[j]; w < 0 {
			row[-1-w] += f
		} else {
			for c, x := range p.t[w] {
				if x != 0 {
					row[c] += f * x
				}
			}
		}
	}
	p.rows = append(p.rows, r)
	p.off = append(p.off, false)
	p.where = append(p.where, len(p.t))
	p.t = append(p.t, row)
	p.basic = append(p.basic, p.n+len(p.rows)-1)
	p.val = append(p.val, v)
	p.lo = append(p.lo, float64(r.B))
}

// check searches for a solution of the rows added so far, from the last
// one. It returns the support of a certificate (row indices) when there
// is none, and errFloat when it gives up.
func (p *incremental) check(ctx context.Context) (ok bool, support []int, err error) {
	for {
		if p.iters++; p.iters%64 == 0 {
			if err := ctx.Err(); err != nil {
				return false, nil, err
			}
		}
		if p.iters > 200000 {
			return false, nil, errFloat
		}
		r := -1
		for i, v := range p.basic {
			if p.val[v] < p.lo[v]-fEps && (r < 0 || v < p.basic[r]) {
				r = i
			}
		}
		if r < 0 {
			return true, nil, nil
		}
		c := -1
		for k, a := range p.t[r] {
			v := p.col[k]
			if (a > fEps || a < -fEps && p.val[v] > p.lo[v]+fEps) && (c < 0 || v < p.col[c]) {
				c = k
			}
		}
		if c < 0 {
			// The row's basic variable is below its bound and cannot rise:
			// its bound and the bounds of the columns in its row conflict.
			if v := p.basic[r]; v >= p.n {
				support = append(support, v-p.n)
			}
			for k, a := range p.t[r] {
				if v := p.col[k]; v >= p.n && math.Abs(a) > fEps {
					support = append(support, v-p.n)
				}
			}
			return false, support, nil
		}
		p.pivotAndUpdate(r, c)
	}
}

// pivotAndUpdate raises the basic variable of row r to its bound by
// moving the variable of column c, and exchanges the two.
func (p *incremental) pivotAndUpdate(r, c int) {
	xi, xj := p.basic[r], p.col[c]
	row := p.t[r]
	a := row[c]
	theta := (p.lo[xi] - p.val[xi]) / a
	p.val[xj] += theta
	p.val[xi] = p.lo[xi]
	for i, tr := range p.t {
		if i != r && tr[c] != 0 {
			p.val[p.basic[i]] += tr[c] * theta
		}
	}
	// Row r, xi = a·xj + Σ row·rest, solved for xj.
	inv := 1 / a
	for k := range row {
		if k == c {
			row[k] = inv
		} else if row[k] != 0 {
			row[k] = -row[k] * inv
		}
	}
	for i, tr := range p.t {
		if i == r || tr[c] == 0 {
			continue
		}
		f := tr[c]
		for k, x := range row {
			if k == c {
				tr[k] = f * x
			} else if x != 0 {
				tr[k] += f * x
			}
		}
	}
	p.basic[r], p.col[c] = xj, xi
	p.where[xj], p.where[xi] = r, -1-c
}

// solve decides the rows added so far exactly, guided by check: it
// returns a solution satisfying every row, or the support of a Farkas
// certificate confirmed by the exact simplex.
func (p *incremental) solve(ctx context.Context) (x []*big.Rat, support []int, ok bool, err error) {
	act := p.activeRows()
	rows := make([]Row, len(act))
	for k, i := range act {
		rows[k] = p.rows[i]
	}
	fok, fsup, ferr := p.check(ctx)
	if ferr != nil && ferr != errFloat {
		return nil, nil, false, ferr
	}
	if ferr == nil && fok {
		x := make([]*big.Rat, p.n)
		for j := range x {
			x[j] = rationalize(p.val[j])
		}
		if newPoint(x).satisfies(rows) {
			return x, nil, true, nil
		}
	}
	if ferr == nil && !fok && len(fsup) > 0 {
		sub := make([]Row, len(fsup))
		for k, i := range fsup {
			sub[k] = p.rows[i] // a certificate of any rows, active or not, is one of the program only if they are active
			if p.off[i] {
				sub = nil
				break
			}
		}
		if sub != nil {
			if sup, refuted, err := refuteExactly(ctx, p.n, sub, fsup); err != nil || refuted {
				return nil, sup, false, err
			}
		}
	}
	if ferr == errFloat {
		// Start the float search afresh on the next call.
		q := newIncremental(p.n)
		for k, r := range p.rows {
			q.add(r)
			q.setActive(k, !p.off[k])
		}
		*p = *q
	}
	x, sup, ok, err := solveSupport(ctx, p.n, rows, nil)
	for _, k := range sup {
		support = append(support, act[k])
	}
	return x, support, ok, err
}

// refuteExactly decides exactly whether the rows sub, the support of a
// floating-point refutation (rows fsup[k] of a larger program), are
// infeasible, and if so returns their exact support in the larger
// program's numbering: a float certificate is never trusted as it stands.
func refuteExactly(ctx context.Context, n int, sub []Row, fsup []int) (support []int, refuted bool, err error) {
	_, sup, ok, err := solveSupport(ctx, n, sub, nil)
	if err != nil || ok {
		return nil, false, err
	}
	for _, k := range sup {
		support = append(support, fsup[k])
	}
	return support, true, nil
}

// point is an exact solution prepared for checking many rows: x = num/den
// with a common denominator, in int64 when every entry and the
// denominator fit in 2^40 (see scaledSlack), in big rationals otherwise.
type point struct {
	x     []*big.Rat
	num   []int64
	den   int64
	small bool
}

func newPoint(x []*big.Rat) point {
	p := point{x: x}
	l, ok := denominatorLCM(x, 40)
	if !ok {
		return p
	}
	p.num = make([]int64, len(x))
	for j, v := range x {
		n := new(big.Int).Mul(v.Num(), new(big.Int).Quo(l, v.Denom()))
		if n.BitLen() > 40 {
			return p
		}
		p.num[j] = n.Int64()
	}
	p.den, p.small = l.Int64(), len(x) < 1<<12
	return p
}

// cmp returns the sign of a·x − b.
func (p point) cmp(r Row) int {
	if s, ok := p.scaledSlack(r); ok {
		switch {
		case s < 0:
			return -1
		case s > 0:
			return 1
		}
		return 0
	}
	return satisfiesSign(p.x, r)
}

// slack returns a·x − b, exactly.
func (p point) slack(r Row) *big.Rat {
	if s, ok := p.scaledSlack(r); ok {
		return big.NewRat(s, p.den)
	}
	sum, tmp := new(big.Rat), new(big.Rat)
	for j, v := range r.A {
		if v != 0 {
			sum.Add(sum, tmp.Mul(p.x[j], tmp.SetInt64(v)))
		}
	}
	return sum.Sub(sum, tmp.SetInt64(r.B))
}

// scaledSlack is (a·x − b)·den in int64 when no overflow is possible:
// entries and den below 2^40, coefficients and b below 2^10 and 2^20,
// fewer than 2^12 variables.
func (p point) scaledSlack(r Row) (int64, bool) {
	if !p.small || r.B >= 1<<20 || r.B <= -(1<<20) {
		return 0, false
	}
	var s int64
	for j, v := range r.A {
		if v != 0 {
			if v >= 1<<10 || v <= -(1<<10) {
				return 0, false
			}
			s += v * p.num[j]
		}
	}
	return s - r.B*p.den, true
}

// satisfies reports whether x satisfies every row.
func (p point) satisfies(rows []Row) bool {
	for _, r := range rows {
		if p.cmp(r) < 0 {
			return false
		}
	}
	return true
}

// satisfiesSign returns the sign of a·x − b in big rationals.
func satisfiesSign(x []*big.Rat, r Row) int {
	sum, tmp := new(big.Rat), new(big.Rat)
	for j, v := range r.A {
		if v != 0 {
			sum.Add(sum, tmp.Mul(x[j], tmp.SetInt64(v)))
		}
	}
	return sum.Cmp(tmp.SetInt64(r.B))
}
