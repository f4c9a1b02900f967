package server

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-logic/strata/defaults"
)

// TestBaseWorkerKeptAfterBudget checks that a base's worker whose query
// ran out of its budget (a context done during the query, not a clock)
// goes back to the pool with what it compiled, and answers the next
// request; a theory's does not.
func TestBaseWorkerKeptAfterBudget(t *testing.T) {
	s, _ := New(Config{})
	bg := context.Background()
	e, err := s.parseBase(bg, loadRequest{source: source{Text: birdsCL}})
	if err != nil {
		t.Fatal(err)
	}
	u := e.usage("c", false)
	ctx, cancel := context.WithCancel(bg)
	var first *worker
	_, err = e.with(ctx, u, func(w *worker) (any, error) {
		first = w
		cancel() // the budget runs out as the query starts
		return e.decideBase(ctx, w, defaults.CInference, "(f|p)", false)
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a query past its budget: %v", err)
	}
	if len(e.pools[u]) != 1 {
		t.Fatalf("%d idle workers after the cut query, want its worker", len(e.pools[u]))
	}
	v, err := e.with(bg, u, func(w *worker) (any, error) {
		if w != first {
			t.Error("the next request got a fresh worker")
		}
		return e.decideBase(bg, w, defaults.CInference, "(f|p)", false)
	})
	if a, ok := v.(*answerView); err != nil || !ok || a.Word != "no" {
		t.Errorf("the kept worker answers %+v, %v; want no", v, err)
	}

	th, err := s.parseTheory(bg, source{Text: penguin})
	if err != nil {
		t.Fatal(err)
	}
	q, err := th.querier("poss")
	if err != nil {
		t.Fatal(err)
	}
	tu := th.usage("poss", false)
	ctx, cancel = context.WithCancel(bg)
	th.with(ctx, tu, func(w *worker) (any, error) {
		cancel()
		return q(ctx, w, "penguin -> !flies", false)
	})
	if len(th.pools[tu]) != 0 {
		t.Errorf("a theory's worker cut short was pooled")
	}
}
