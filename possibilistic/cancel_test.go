package possibilistic

import (
	stdctx "context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/strata-logic/strata/internal/benchgen"
	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
)

// TestContextStopsHardQuery checks that every …Context entry point gives
// up on a query the solver cannot finish, soon after the deadline, with
// the context's error.
func TestContextStopsHardQuery(t *testing.T) {
	v := &logic.Vocabulary{}
	th := mustTheory(t, v, benchgen.Pigeonhole(11))
	rule := logictest.Rule(t, v, "a -> b")
	calls := map[string]func(ctx stdctx.Context, r *Reasoner) error{
		"DecideUnder": func(ctx stdctx.Context, r *Reasoner) error {
			_, err := r.DecideUnderContext(ctx, Poss, rule.Antecedent, rule.Consequent)
			return err
		},
		"Decide": func(ctx stdctx.Context, r *Reasoner) error {
			_, err := r.DecideContext(ctx, rule.Antecedent, rule.Consequent)
			return err
		},
		"Explain": func(ctx stdctx.Context, r *Reasoner) error {
			_, err := r.ExplainContext(ctx, Lex, rule.Antecedent, rule.Consequent)
			return err
		},
		"ConcludeUnder": func(ctx stdctx.Context, r *Reasoner) error {
			_, err := r.ConcludeUnderContext(ctx, Linear, rule.Antecedent)
			return err
		},
		"Inconsistency": func(ctx stdctx.Context, r *Reasoner) error {
			_, err := r.InconsistencyContext(ctx, rule.Antecedent)
			return err
		},
		"MostPlausibleWorldUnder": func(ctx stdctx.Context, r *Reasoner) error {
			_, _, err := r.MostPlausibleWorldUnderContext(ctx, Poss, rule.Antecedent)
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			r := NewReasoner(th)
			ctx, cancel := stdctx.WithTimeout(stdctx.Background(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			err := call(ctx, r)
			if !errors.Is(err, stdctx.DeadlineExceeded) {
				t.Fatalf("err = %v, want the deadline's", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("stopped %v after a 50ms deadline", d)
			}
			if r.stop != nil || r.track || len(r.retire) > 0 {
				t.Error("the reasoner keeps the cancelled query's state")
			}
		})
	}
}

// TestContextReasonerUsable checks that a reasoner whose query was
// cancelled answers later queries as a fresh one does, and that a context
// never done changes nothing.
func TestContextReasonerUsable(t *testing.T) {
	v := &logic.Vocabulary{}
	th := mustTheory(t, v, "1: !penguin | bird\n1: !penguin | !flies\n0.5: !bird | flies\n0.25: !bird | wings\n0.25: !penguin | swims | !flies")
	r, fresh := NewReasoner(th), NewReasoner(th)
	done, cancel := stdctx.WithCancel(stdctx.Background())
	cancel()
	for _, q := range []string{"penguin -> !flies", "bird -> flies", "penguin -> wings", "penguin & bird -> swims | wings", "penguin | bird -> flies"} {
		rule := logictest.Rule(t, v, q)
		for _, sem := range AllSemantics {
			if _, err := r.ExplainContext(done, sem, rule.Antecedent, rule.Consequent); !errors.Is(err, stdctx.Canceled) {
				t.Fatalf("%s under %s with a cancelled context: %v", q, sem, err)
			}
			got, err := r.ExplainContext(stdctx.Background(), sem, rule.Antecedent, rule.Consequent)
			if err != nil {
				t.Fatal(err)
			}
			want := fresh.Explain(sem, rule.Antecedent, rule.Consequent)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s under %s after a cancelled query:\n got %v\nwant %v", q, sem, got, want)
			}
		}
	}
}
