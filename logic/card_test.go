package logic_test

import (
	"context"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// TestTotalizer checks both strengths of logic.Totalizer against counting,
// for every assignment of up to seven inputs: the outputs that count the
// true inputs are a model, an output below the count cannot be false, and
// with full an output above it cannot be true either.
func TestTotalizer(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 7; n++ {
		for _, full := range []bool{false, true} {
			s := sat.New()
			in := make([]logic.Lit, n)
			for i := range in {
				in[i] = logic.Pos(s.NewVar())
			}
			out := logic.Totalizer(in, s.NewVar, func(c ...logic.Lit) { s.AddClause(c...) }, full)
			if len(out) != n {
				t.Fatalf("%d inputs: %d outputs", n, len(out))
			}
			for mask := range 1 << n {
				var a []logic.Lit
				count := 0
				for i, x := range in {
					if mask&(1<<i) != 0 {
						a, count = append(a, x), count+1
					} else {
						a = append(a, x.Not())
					}
				}
				exact := append([]logic.Lit(nil), a...)
				for r, o := range out {
					if r < count {
						exact = append(exact, o)
					} else {
						exact = append(exact, o.Not())
					}
				}
				if ok, _ := s.Solve(ctx, exact...); !ok {
					t.Fatalf("n %d full %v, %d true: the counting outputs are no model", n, full, count)
				}
				for r, o := range out {
					below, _ := s.Solve(ctx, append(append([]logic.Lit(nil), a...), o.Not())...)
					above, _ := s.Solve(ctx, append(append([]logic.Lit(nil), a...), o)...)
					if r < count && below || full && r >= count && above {
						t.Fatalf("n %d full %v, %d true: output %d can be %v", n, full, count, r, r >= count)
					}
				}
			}
		}
	}
}
