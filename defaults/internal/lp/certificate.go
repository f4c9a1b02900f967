package lp

import (
	"context"
	"math/big"
	"slices"
)

// maxCombos bounds the combinations of swaps tried per conflict.
const maxCombos = 4096

// rowRef names a row of a choice program: a fixed row (g = −1) or row r
// of the chosen option of group g.
type rowRef struct{ g, r int }

// A swap is an option o of a group that may replace the chosen one in a
// certificate, with the change it makes to y·A and y·b.
type swap struct {
	o  int
	da []int64
	db int64
}

// certificate is the integer Farkas certificate of an infeasible choice
// and the swaps that keep it one on their own. With exact multipliers
// y ≥ 0 of the certificate rows (y·A ≤ 0, y·b > 0), swapping the rows of
// group g for the same-numbered rows of option o leaves a certificate when
// y·A' ≤ 0 and y·b' > 0 still hold: then the swapped rows have no
// solution either, and neither has any choice that contains them. The
// swap is defined whenever o has the rows, and pays when the options of a
// group number their rows alike (Group); checking y·A' and y·b' in exact
// integers keeps the clause sound. Several options are refuted by one
// linear program, so a group with hundreds of options does not cost a
// program each.
type certificate struct {
	ya    []int64
	yb    int64
	swaps map[int][]swap
}

// combos returns the choices of the certificate's groups, one option
// each among the chosen one and its swaps, that the certificate still
// refutes with all swaps made at once (y·A + Σ da ≤ 0, y·b + Σ db > 0),
// or nil when there are more than limit choices to try.
func (c *certificate) combos(groups []int, chosen []int, limit int) [][]int {
	total := 1
	for _, g := range groups {
		total *= 1 + len(c.swaps[g])
		if total > limit {
			return nil
		}
	}
	var out [][]int
	cur := make([]int, len(groups))
	sa := slices.Clone(c.ya)
	var rec func(k int, sb int64)
	rec = func(k int, sb int64) {
		if k == len(groups) {
			if sb > 0 && !slices.ContainsFunc(sa, func(v int64) bool { return v > 0 }) {
				out = append(out, slices.Clone(cur))
			}
			return
		}
		g := groups[k]
		cur[k] = chosen[g]
		rec(k+1, sb)
		for _, x := range c.swaps[g] {
			for j, v := range x.da {
				sa[j] += v
			}
			cur[k] = x.o
			rec(k+1, sb+x.db)
			for j, v := range x.da {
				sa[j] -= v
			}
		}
	}
	rec(0, c.yb)
	return out
}

// certify computes the certificate of the choice's rows cert, nil when
// the multipliers do not scale to small integers (no generalisation).
func certify(ctx context.Context, n int, fixed []Row, groups []Group, chosen []int, cert []rowRef) (*certificate, error) {
	row := func(f rowRef, o int) Row {
		if f.g < 0 {
			return fixed[f.r]
		}
		return groups[f.g][o][f.r]
	}
	rows := make([]Row, len(cert))
	for k, f := range cert {
		if f.g >= 0 {
			rows[k] = row(f, chosen[f.g])
		} else {
			rows[k] = row(f, 0)
		}
	}
	y, err := farkas(ctx, n, rows)
	if err != nil || y == nil {
		return nil, err
	}
	// Scale y to integers; give up (no generalisation) past 2^30.
	l := big.NewInt(1)
	gcd := new(big.Int)
	for _, v := range y {
		gcd.GCD(nil, nil, l, v.Denom())
		l.Mul(l, new(big.Int).Quo(v.Denom(), gcd))
		if l.BitLen() > 30 {
			return nil, nil
		}
	}
	ys := make([]int64, len(y))
	for k, v := range y {
		p := new(big.Int).Mul(v.Num(), new(big.Int).Quo(l, v.Denom()))
		if p.Sign() < 0 || p.BitLen() > 30 {
			return nil, nil
		}
		ys[k] = p.Int64()
	}
	ya := make([]int64, n)
	var yb int64
	for k, r := range rows {
		for j, v := range r.A {
			if v > 1<<10 || v < -(1<<10) {
				return nil, nil
			}
			ya[j] += ys[k] * v
		}
		if r.B > 1<<10 || r.B < -(1<<10) {
			return nil, nil
		}
		yb += ys[k] * r.B
	}
	if yb <= 0 || slices.ContainsFunc(ya, func(v int64) bool { return v > 0 }) {
		return nil, nil // not a certificate: cannot happen, but stay sound
	}
	out := &certificate{ya: ya, yb: yb, swaps: map[int][]swap{}}
	sa := make([]int64, n)
	for g := range groups {
		var ks []int
		for k, f := range cert {
			if f.g == g && ys[k] != 0 {
				ks = append(ks, k)
			}
		}
		if len(ks) == 0 {
			continue
		}
	options:
		for o, opt := range groups[g] {
			if o == chosen[g] {
				continue
			}
			copy(sa, ya)
			sb := yb
			for _, k := range ks {
				if cert[k].r >= len(opt) {
					continue options
				}
				nr := opt[cert[k].r]
				for j, v := range nr.A {
					if v > 1<<10 || v < -(1<<10) {
						continue options
					}
					sa[j] += ys[k] * (v - rows[k].A[j])
				}
				if nr.B > 1<<10 || nr.B < -(1<<10) {
					continue options
				}
				sb += ys[k] * (nr.B - rows[k].B)
			}
			if sb > 0 && !slices.ContainsFunc(sa, func(v int64) bool { return v > 0 }) {
				da := make([]int64, n)
				for j := range da {
					da[j] = sa[j] - ya[j]
				}
				out.swaps[g] = append(out.swaps[g], swap{o, da, sb - yb})
			}
		}
	}
	return out, nil
}
