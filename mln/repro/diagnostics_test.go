package repro

import (
	"math"
	"testing"
)

func TestSizeBound(t *testing.T) {
	// 4 atoms with 0, 3, 1, 4 positive examples of 20 test examples.
	d := Diagnostics{Positives: []int{0, 3, 1, 4}, Consistent: 15, Inconsistent: 5}
	for _, tc := range []struct {
		literals   int
		mean, best float64
		ok         bool
	}{
		{4, 0, 0, false},
		{9, 0, 0, false},
		// One atom left out: on average 8/4 = 2 positives lost, at best 0.
		{3, 1 - 2.0/20, 1, true},
		// Two: on average 4 lost, at best the atoms with 0 and 1.
		{2, 1 - 4.0/20, 1 - 1.0/20, true},
		{0, 1 - 8.0/20, 1 - 8.0/20, true},
	} {
		mean, best, ok := d.SizeBound(tc.literals)
		if ok != tc.ok || math.Abs(mean-tc.mean) > 1e-12 || math.Abs(best-tc.best) > 1e-12 {
			t.Errorf("%d literals: %v, %v, %v; want %v, %v, %v", tc.literals, mean, best, ok, tc.mean, tc.best, tc.ok)
		}
	}
	if _, _, ok := (Diagnostics{Positives: []int{1, 2}}).SizeBound(0); ok {
		t.Error("a bound without test examples")
	}
}
