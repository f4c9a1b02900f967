package defaults

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-logic/strata/internal/logictest"
)

// TestRationalContext checks that rational closure consults its context:
// with one already cancelled it gives up with the context's error, and the
// reasoner then answers as before (penguins do not fly, birds do).
func TestRationalContext(t *testing.T) {
	b := mustBase(t, "bird -> flies\npenguin -> bird\npenguin -> !flies")
	r := mustReasoner(t, b)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, src := range []string{"penguin -> !flies", "bird -> flies", "penguin -> flies"} {
		q := logictest.Rule(t, b.Vocab, src)
		if _, err := r.EntailsContext(done, Rational, q.Antecedent, q.Consequent); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v", src, err)
		}
		if _, err := r.ExplainContext(done, Rational, NewDefault(q.Antecedent, q.Consequent)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s explained with a cancelled context: %v", src, err)
		}
		got, err := r.EntailsContext(context.Background(), Rational, q.Antecedent, q.Consequent)
		if err != nil {
			t.Fatal(err)
		}
		if want := src != "penguin -> flies"; got != want {
			t.Errorf("%s after cancelled queries: %v, want %v", src, got, want)
		}
	}
}
