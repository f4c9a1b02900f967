package learn

import "math"

// VCBound returns the paper's upper bound on the VC dimension of the
// stratifications of n formulas into at most k levels (Proposition 1):
// n·log2 k. One level admits a single hypothesis, hence 0.
func VCBound(n, k int) float64 {
	if n <= 0 || k <= 1 {
		return 0
	}
	return float64(n) * math.Log2(float64(k))
}

// ErrorBound returns Vapnik's VC bound on the expected error (Vapnik,
// Statistical Learning Theory, 1998): with probability at least 1−δ over an
// iid sample of m examples, every hypothesis of a class of VC dimension d
// satisfies
//
//	err_p(h) ≤ err_S(h) + sqrt((d·(ln(2m/d) + 1) + ln(4/δ)) / m).
//
// For d = 0 the class has one hypothesis and the term d·(…) vanishes. The
// bound says nothing (1) when d ≥ m, and the result is capped at 1.
func ErrorBound(trainError, d float64, m int, delta float64) float64 {
	if m <= 0 || d >= float64(m) {
		return 1
	}
	mf := float64(m)
	c := math.Log(4 / delta)
	if d > 0 {
		c += d * (math.Log(2*mf/d) + 1)
	}
	return math.Min(1, trainError+math.Sqrt(c/mf))
}

// Generalisation summarises the bounds for a learned hypothesis: n formulas
// (hard rules excluded, since they are given), k levels, the VC bound and the
// error bound at confidence 1−δ.
type Generalisation struct {
	Formulas, Levels int
	VC               float64
	TrainError       float64
	Examples         int
	Delta            float64
	Bound            float64
}

// Generalise computes the bounds for m on its training set.
func Generalise(m *Hypothesis, trainError float64, examples int, delta float64) Generalisation {
	n, k := m.NumClauses(), len(m.Levels)
	vc := VCBound(n, k)
	return Generalisation{
		Formulas: n, Levels: k, VC: vc, TrainError: trainError, Examples: examples,
		Delta: delta, Bound: ErrorBound(trainError, vc, examples, delta),
	}
}
