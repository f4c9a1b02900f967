package possibilistic

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/internal/benchgen"
	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
)

// TestContextStopsHardQuery checks that every question gives up on a
// query the solver cannot finish (for hours: returning at all is stopping
// at the deadline) with the context's error, and leaves no state of the
// query behind.
func TestContextStopsHardQuery(t *testing.T) {
	v := &logic.Vocabulary{}
	th := mustTheory(t, v, benchgen.Pigeonhole(11))
	rule := logictest.Rule(t, v, "a -> b")
	alpha, beta := rule.Antecedent, rule.Consequent
	term, _ := alpha.AsTerm()
	clause, _ := beta.AsClause()
	calls := map[string]func(ctx context.Context, r *Reasoner) error{}
	for _, s := range AllSemantics {
		calls["Entails/"+s.String()] = func(ctx context.Context, r *Reasoner) error {
			_, err := r.Entails(ctx, s, alpha, beta)
			return err
		}
		calls["EntailsClause/"+s.String()] = func(ctx context.Context, r *Reasoner) error {
			_, err := r.EntailsClause(ctx, s, term, clause)
			return err
		}
		calls["Decide/"+s.String()] = func(ctx context.Context, r *Reasoner) error {
			_, err := r.Decide(ctx, s, alpha, beta)
			return err
		}
		calls["Explain/"+s.String()] = func(ctx context.Context, r *Reasoner) error {
			_, err := r.Explain(ctx, s, alpha, beta)
			return err
		}
		calls["Conclude/"+s.String()] = func(ctx context.Context, r *Reasoner) error {
			_, err := r.Conclude(ctx, s, alpha)
			return err
		}
		calls["MostPlausibleWorld/"+s.String()] = func(ctx context.Context, r *Reasoner) error {
			_, err := r.MostPlausibleWorld(ctx, s, alpha)
			return err
		}
	}
	calls["Inconsistency"] = func(ctx context.Context, r *Reasoner) error {
		_, err := r.Inconsistency(ctx, alpha)
		return err
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			r := reasoner(t, th).Reasoner
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			err := call(ctx, r)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want the deadline's", err)
			}
			if r.track || len(r.retire) > 0 {
				t.Error("the reasoner keeps the cancelled query's state")
			}
		})
	}
}

// TestContextStopsLoading checks that reading and compiling a theory give
// up with the context's error once it is done.
func TestContextStopsLoading(t *testing.T) {
	var b strings.Builder
	for i := range 3 * pollEvery {
		fmt.Fprintf(&b, "0.5: a%d | !b%d\n", i, i)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadText(done, strings.NewReader(b.String()), "t", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadText with a cancelled context: %v", err)
	}
	th := mustTheory(t, nil, b.String())
	if _, err := NewReasoner(done, th); !errors.Is(err, context.Canceled) {
		t.Errorf("NewReasoner with a cancelled context: %v", err)
	}
}

// TestContextReasonerUsable checks that a reasoner whose query was
// cancelled answers later queries as a fresh one does, and that a context
// never done changes nothing.
func TestContextReasonerUsable(t *testing.T) {
	v := &logic.Vocabulary{}
	th := mustTheory(t, v, "1: !penguin | bird\n1: !penguin | !flies\n0.5: !bird | flies\n0.25: !bird | wings\n0.25: !penguin | swims | !flies")
	r, fresh := reasoner(t, th), reasoner(t, th)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, q := range []string{"penguin -> !flies", "bird -> flies", "penguin -> wings", "penguin & bird -> swims | wings", "penguin | bird -> flies"} {
		rule := logictest.Rule(t, v, q)
		for _, sem := range AllSemantics {
			if _, err := r.Explain(done, sem, rule.Antecedent, rule.Consequent); !errors.Is(err, context.Canceled) {
				t.Fatalf("%s under %s with a cancelled context: %v", q, sem, err)
			}
			got := r.explain(sem, rule.Antecedent, rule.Consequent)
			want := fresh.explain(sem, rule.Antecedent, rule.Consequent)
			if fmt.Sprint(got) != fmt.Sprint(want) || got.Reason() != want.Reason() {
				t.Errorf("%s under %s after a cancelled query:\n got %v\nwant %v", q, sem, got, want)
			}
		}
	}
}
