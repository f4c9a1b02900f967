package possibilistic

import (
	"context"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// testReasoner asks a Reasoner's questions with a context that is never
// done, failing the test on any error, which none of them may then
// return.
type testReasoner struct {
	*Reasoner
	t testing.TB
}

// reasoner compiles th for a test.
func reasoner(t testing.TB, th *Theory) testReasoner {
	t.Helper()
	r, err := NewReasoner(context.Background(), th)
	if err != nil {
		t.Fatal(err)
	}
	return testReasoner{r, t}
}

func (r testReasoner) must(err error) {
	r.t.Helper()
	if err != nil {
		r.t.Fatal(err)
	}
}

func (r testReasoner) entails(s Semantics, alpha, beta *logic.Formula) bool {
	r.t.Helper()
	ok, err := r.Entails(context.Background(), s, alpha, beta)
	r.must(err)
	return ok
}

func (r testReasoner) entailsClause(s Semantics, alpha logic.Term, beta logic.Clause) bool {
	r.t.Helper()
	ok, err := r.EntailsClause(context.Background(), s, alpha, beta)
	r.must(err)
	return ok
}

func (r testReasoner) decide(s Semantics, alpha, beta *logic.Formula) Verdict {
	r.t.Helper()
	v, err := r.Decide(context.Background(), s, alpha, beta)
	r.must(err)
	return v
}

func (r testReasoner) explain(s Semantics, alpha, beta *logic.Formula) Explanation {
	r.t.Helper()
	e, err := r.Explain(context.Background(), s, alpha, beta)
	r.must(err)
	return e
}

func (r testReasoner) conclude(s Semantics, alpha *logic.Formula) []Conclusion {
	r.t.Helper()
	cs, err := r.Conclude(context.Background(), s, alpha)
	r.must(err)
	return cs
}

func (r testReasoner) world(s Semantics, alpha *logic.Formula) []bool {
	r.t.Helper()
	w, err := r.MostPlausibleWorld(context.Background(), s, alpha)
	r.must(err)
	return w
}

func (r testReasoner) inconsistency(alpha *logic.Formula) float64 {
	r.t.Helper()
	inc, err := r.Inconsistency(context.Background(), alpha)
	r.must(err)
	return inc
}

// lits returns the literals of conclusions.
func lits(cs []Conclusion) []logic.Lit {
	out := make([]logic.Lit, len(cs))
	for i, c := range cs {
		out[i] = c.Lit
	}
	return out
}
