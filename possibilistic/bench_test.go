package possibilistic_test

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/strata-logic/strata/internal/benchgen"
	"github.com/strata-logic/strata/internal/cputime"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// BenchmarkEntailsGiven measures one (Θ, α) ⊢ β query under each semantics
// on the setting (internal/benchgen): 8 levels, 40 clauses of 1 to
// 4 literals over 16 atoms, random α of up to 5 literals, random literal β.
// Every variant asks EntailsClause, the learner's hot path; bench/peer asks
// the poss queries of SAT4j. Besides the wall-clock ns/op it reports cpu-ns/op, the
// CPU time of the benchmark's thread per query, which a loaded machine
// inflates much less, and the number of SAT solver calls per query.
func BenchmarkEntailsGiven(b *testing.B) {
	for _, s := range possibilistic.AllSemantics {
		b.Run(s.String(), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			th := possibilistic.New(logic.NewVocabulary(benchgen.Names()...))
			for _, c := range benchgen.Theory(r) {
				th.AddClause(c.Clause, c.Weight)
			}
			ctx := context.Background()
			rs, err := possibilistic.NewReasoner(ctx, th)
			if err != nil {
				b.Fatal(err)
			}
			qs := benchgen.Queries(r, 4096)
			for _, q := range qs { // warm up: learnt clauses, buffers, totalizers
				rs.EntailsClause(ctx, s, q.Alpha, q.Beta)
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			b.ResetTimer()
			calls0 := rs.Calls()
			cpu0, ok := cputime.Thread()
			for i := 0; i < b.N; i++ {
				q := qs[i%len(qs)]
				rs.EntailsClause(ctx, s, q.Alpha, q.Beta)
			}
			if cpu1, ok1 := cputime.Thread(); ok && ok1 {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
			b.ReportMetric(float64(rs.Calls()-calls0)/float64(b.N), "sat-calls/op")
		})
	}
}
