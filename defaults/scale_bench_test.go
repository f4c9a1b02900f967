package defaults

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkScaleRules computes the Z-ordering (closure) of n planted
// defaults over 100 atoms (see plantedBase) and decides one query under
// System P with Explain, as strata entails does. (Lexicographic closure is
// an optimisation problem whose cost depends on the query's optimum more
// than on n; see BenchmarkEntails.)
// The Z-ordering makes up to one solver call per default and level, and
// System P recomputes it for the base with the query's negation, so both
// grow with defaults × levels calls over the whole base.
func BenchmarkScaleRules(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		base, _ := plantedBase(n, 6, uint64(n))
		var calls int64
		b.Run(fmt.Sprintf("closure/%d", n), func(b *testing.B) {
			for b.Loop() {
				o, err := ZOrdering(bgctx, base)
				if err != nil {
					b.Fatal(err)
				}
				calls = o.Calls
			}
			b.ReportMetric(float64(calls), "calls")
		})
		rs, err := NewReasoner(bgctx, base)
		if err != nil {
			b.Fatal(err)
		}
		q := randBenchDefault(rand.New(rand.NewPCG(5, 5)), nil)
		b.Run(fmt.Sprintf("p/%d", n), func(b *testing.B) {
			for b.Loop() {
				explain(b, rs, SystemP, q)
			}
		})
	}
}
