package defaults

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

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
		if _, err := r.Entails(done, Rational, q.Antecedent, q.Consequent); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v", src, err)
		}
		if _, err := r.Explain(done, Rational, NewDefault(q.Antecedent, q.Consequent)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s explained with a cancelled context: %v", src, err)
		}
		got, err := r.Entails(context.Background(), Rational, q.Antecedent, q.Consequent)
		if err != nil {
			t.Fatal(err)
		}
		if want := src != "penguin -> flies"; got != want {
			t.Errorf("%s after cancelled queries: %v, want %v", src, got, want)
		}
	}
}

// TestCancelStopsWork checks that a cancelled context stops the work of
// System P, lexicographic closure and the Z-ordering on a base that takes
// them hundreds of solver calls. Each run is cancelled at a tenth of the
// calls the same run makes uncancelled (counted by the engine's hook, not
// timed): it must return the context's error, make no solver call from
// then on and try at most a couple more (its loops end instead of running
// through the defaults left), and the reasoner must then answer as it did
// uncancelled.
func TestCancelStopsWork(t *testing.T) {
	b, _ := plantedBase(500, 5, 11)
	q := randBenchDefault(rand.New(rand.NewPCG(1, 3)), nil)
	type outcome struct {
		entailed bool
		detail   string
	}
	// query explains q on a reasoner of b that reasons with e, whose
	// Z-ordering is that of b.
	query := func(sem Semantics) func(ctx context.Context, e *engine) (outcome, error) {
		return func(ctx context.Context, e *engine) (outcome, error) {
			r := mustReasoner(t, b)
			r.e = e
			a, err := r.Explain(ctx, sem, q)
			return outcome{a.Entailed, fmt.Sprint(a.NegLevel, a.Clash, a.Violations)}, err
		}
	}
	for _, c := range []struct {
		name string
		run  func(ctx context.Context, e *engine) (outcome, error)
	}{
		{"z-ordering", func(ctx context.Context, e *engine) (outcome, error) {
			o, err := e.zOrdering(ctx, b)
			if err != nil {
				return outcome{}, err
			}
			return outcome{detail: fmt.Sprint(o.Levels)}, nil
		}},
		{"p", query(SystemP)},
		{"lex", query(Lexicographic)},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The engine is built apart so that its hook is set before the
			// run; for the queries it is ordered first, uncounted.
			fresh := func() *engine {
				e := newEngine(b)
				if c.name != "z-ordering" {
					if _, err := e.zOrdering(context.Background(), b); err != nil {
						t.Fatal(err)
					}
				}
				return e
			}
			e := fresh()
			var tries int
			e.onSolve = func() { tries++ }
			want, err := c.run(context.Background(), e)
			if err != nil {
				t.Fatal(err)
			}
			full := tries
			if full < 50 {
				t.Fatalf("the run makes %d solver calls: too few to test cancelling it", full)
			}

			e = fresh()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stopAt := full / 10
			tries = 0
			e.onSolve = func() {
				if tries++; tries == stopAt {
					cancel()
				}
			}
			solves0 := e.solves()
			if _, err := c.run(ctx, e); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled at call %d of %d: error %v, want context.Canceled", stopAt, full, err)
			}
			if n := e.solves() - solves0; n >= int64(stopAt) {
				t.Errorf("cancelled at call %d of %d: %d solver calls made", stopAt, full, n)
			}
			if tries > stopAt+2 {
				t.Errorf("cancelled at call %d of %d: %d calls tried", stopAt, full, tries)
			}

			e.onSolve = nil
			got, err := c.run(context.Background(), e)
			if err != nil || got != want {
				t.Errorf("after the cancelled run: %+v, %v; want %+v", got, err, want)
			}
		})
	}
}

// TestCancelInsideSolverCall checks that a context done while one solver
// call runs stops that call: the background knowledge says that 11
// pigeons sit in 10 holes, so the first tolerance test of the Z-ordering is
// a refutation no resolution solver finishes in any useful time.
func TestCancelInsideSolverCall(t *testing.T) {
	const holes = 10
	var bg []string
	for i := range holes + 1 {
		var c []string
		for j := range holes {
			c = append(c, fmt.Sprintf("p%d_%d", i, j))
		}
		bg = append(bg, strings.Join(c, " | "))
	}
	for j := range holes {
		for i := range holes + 1 {
			for k := i + 1; k <= holes; k++ {
				bg = append(bg, fmt.Sprintf("!p%d_%d | !p%d_%d", i, j, k, j))
			}
		}
	}
	b := mustBase(t, penguins, bg...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := newEngine(b)
	e.onSolve = func() {
		e.onSolve = nil
		time.AfterFunc(20*time.Millisecond, cancel) // once the call is under way
	}
	done := make(chan error, 1)
	go func() {
		_, err := e.zOrdering(ctx, b)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
		if n := e.solves(); n != 1 {
			t.Errorf("%d solver calls, want the one cancelled", n)
		}
	case <-time.After(time.Minute):
		t.Fatal("the solver call ran on a minute after its context was cancelled")
	}
}
