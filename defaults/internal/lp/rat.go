package lp

import (
	"math"
	"math/big"
)

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

// satisfiesRows reports whether x satisfies every row.
func satisfiesRows(x []*big.Rat, rows []Row) bool {
	sum, tmp := new(big.Rat), new(big.Rat)
	for _, r := range rows {
		sum.SetInt64(0)
		for j, v := range r.A {
			if v != 0 {
				sum.Add(sum, tmp.Mul(x[j], tmp.SetInt64(v)))
			}
		}
		if sum.Cmp(tmp.SetInt64(r.B)) < 0 {
			return false
		}
	}
	return true
}

// integral scales a non-negative rational solution of rows with
// non-negative right-hand sides to integers: multiplying by the common
// denominator keeps every row, as the factor is at least 1.
func integral(x []*big.Rat) []int64 {
	l, _ := denominatorLCM(x, 0)
	out := make([]int64, len(x))
	for j, v := range x {
		p := new(big.Int).Mul(v.Num(), new(big.Int).Quo(l, v.Denom()))
		out[j] = p.Int64()
	}
	return out
}

// denominatorLCM returns the least common multiple of the denominators of
// x; ok is false when it grows past maxBits bits (0: no limit).
func denominatorLCM(x []*big.Rat, maxBits int) (l *big.Int, ok bool) {
	l = big.NewInt(1)
	g := new(big.Int)
	for _, v := range x {
		d := v.Denom()
		g.GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
		if maxBits > 0 && l.BitLen() > maxBits {
			return l, false
		}
	}
	return l, true
}

// floorRat returns ⌊v⌋.
func floorRat(v *big.Rat) int64 {
	q := new(big.Int)
	m := new(big.Int)
	q.DivMod(v.Num(), v.Denom(), m) // Euclidean: floor for a positive denominator
	return q.Int64()
}

// ceilRat returns ⌈v⌉.
func ceilRat(v *big.Rat) int64 {
	f := floorRat(v)
	if v.IsInt() {
		return f
	}
	return f + 1
}
