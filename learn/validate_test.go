package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

func TestOneStandardError(t *testing.T) {
	hist := []Iteration{{TestAccuracy: 0.6}, {TestAccuracy: 0.78}, {TestAccuracy: 0.8}, {TestAccuracy: 0.79}}
	chosen, best, se := OneStandardError(hist, 100)
	if best != 3 || math.Abs(se-0.04) > 1e-12 || chosen != 2 {
		t.Fatalf("chosen %d, best %d, se %v; want 2, 3, 0.04", chosen, best, se)
	}
	if c, b, _ := OneStandardError(nil, 10); c != 0 || b != 0 {
		t.Fatal("empty history")
	}
}

func TestHoldOutAndChoose(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	th := hiddenTheory(r, 9, 4)
	p, q := Generate(th, atomsUpTo(9), 200, 200, 3, 0.1, r)
	all := Merge(p, q)
	fit, held := HoldOut(all, 0.3, 7)
	if fit.Total()+held.Total() != all.Total() || held.Total() < all.Total()/5 || held.Total() > all.Total()*2/5 {
		t.Fatalf("split %d + %d of %d", fit.Total(), held.Total(), all.Total())
	}
	seen := map[string]bool{}
	for _, e := range fit.List {
		seen[key(e.Alpha, nil, true)] = true
	}
	for _, e := range held.List {
		if seen[key(e.Alpha, nil, true)] {
			t.Fatal("an antecedent is on both sides of the hold-out split")
		}
	}
	s, err := ChooseIterations(context.Background(), th.Vocab, fit, held, nil, Options{Seed: 1, Iterations: 40, Patience: -1}, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Chosen < 1 || s.Chosen > s.Best || s.ChosenAccuracy < s.BestAccuracy-s.StdErr {
		t.Fatalf("selection %+v", s)
	}
	if s.Stop == StopNoGain && len(s.History) != s.Best+5 {
		t.Fatalf("stopped for no gain after %d iterations, best at %d", len(s.History), s.Best)
	}
}
