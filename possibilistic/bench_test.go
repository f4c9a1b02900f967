package possibilistic

import (
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// benchTheory is the benchmark setting: 8 levels, 40 clauses of 1 to
// 4 literals over 16 atoms.
func benchTheory(r *rand.Rand) *Theory {
	th := New(nil)
	for i := range 16 {
		th.Vocab.Intern("a" + string(rune('A'+i)))
	}
	for i := range 40 {
		c := make(logic.Clause, 1+r.IntN(4))
		for j := range c {
			c[j] = randLit(r, 16)
		}
		th.AddClause(c, float64(i%8+1)/8)
	}
	return th
}

type query struct {
	alpha logic.Term
	beta  logic.Clause
}

func benchQueries(r *rand.Rand, n int) []query {
	qs := make([]query, n)
	for i := range qs {
		qs[i] = query{alpha: randTerm(r, 16, 5), beta: logic.Clause{randLit(r, 16)}}
	}
	return qs
}

// BenchmarkEntailsGiven measures one (Θ, α) ⊢poss β query: random α of up to
// 5 literals, random literal β.
func BenchmarkEntailsGiven(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	rs := NewReasoner(benchTheory(r))
	qs := benchQueries(r, 4096)
	for _, q := range qs { // warm up: learnt clauses, buffers
		rs.EntailsClause(q.alpha, q.beta)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		rs.EntailsClause(q.alpha, q.beta)
	}
}
