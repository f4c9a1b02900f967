package learn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestOneStandardErrorRule(t *testing.T) {
	hist := []Iteration{{TestAccuracy: 0.6}, {TestAccuracy: 0.78}, {TestAccuracy: 0.8}, {TestAccuracy: 0.79}}
	chosen, best, se := oneStandardError(hist, 100)
	if best != 3 || math.Abs(se-0.04) > 1e-4 || chosen != 2 {
		t.Fatalf("chosen %d, best %d, se %v; want 2, 3, 0.04", chosen, best, se)
	}
	if c, b, _ := oneStandardError(nil, 10); c != 0 || b != 0 {
		t.Fatal("empty history")
	}
}

func TestHoldOutAndChoose(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	th := hiddenTheory(r, 9, 4)
	p, q := Generate(th, atomsUpTo(9), 200, 200, 3, 0.1, r)
	hp, hq := Generate(th, atomsUpTo(9), 80, 80, 3, 0.1, r)
	fit, held := Merge(p, q), Merge(hp, hq)
	var calls []int
	val := Validation{Problem: Problem{Vocab: th.Vocab, Train: fit, Test: held}, Settings: Settings{Seed: 1, Iterations: 40, Patience: -1},
		Patience: 5, OnIteration: func(it Iteration) { calls = append(calls, it.Iteration) }}
	s, err := ChooseIterations(context.Background(), val)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != len(s.History) {
		t.Fatalf("the caller's OnIteration saw %d of %d iterations", len(calls), len(s.History))
	}
	if s.Chosen < 1 || s.Chosen > s.Best || s.ChosenAccuracy < s.BestAccuracy-s.StdErr {
		t.Fatalf("selection %+v", s)
	}
	if s.Stop == StopNoGain && len(s.History) != s.Best+5 {
		t.Fatalf("stopped for no gain after %d iterations, best at %d", len(s.History), s.Best)
	}
}

func TestOneStandardErrorTable(t *testing.T) {
	hist := func(acc ...float64) []Iteration {
		var h []Iteration
		for i, a := range acc {
			h = append(h, Iteration{Iteration: i + 1, TestAccuracy: a})
		}
		return h
	}
	for _, tc := range []struct {
		acc          []float64
		n            int
		chosen, best int
	}{
		{nil, 100, 0, 0},
		{[]float64{0.5}, 100, 1, 1},
		// se of 0.8 on 100 examples is 0.04: 0.77 is within it, 0.75 not.
		{[]float64{0.6, 0.75, 0.77, 0.8, 0.79}, 100, 3, 4},
		// On 10000 examples se is 0.004: only the best itself.
		{[]float64{0.6, 0.75, 0.77, 0.8, 0.79}, 10000, 4, 4},
		// Ties go to the earliest best.
		{[]float64{0.9, 0.9, 0.9}, 1000000, 1, 1},
		// Only iterations up to the best count.
		{[]float64{0.5, 0.9, 0.2}, 100, 2, 2},
		// 298 of 300 is within one error (0.0041) of 299, which the
		// plain estimate (0.0033) would not allow; 297 is not.
		{[]float64{296. / 300, 298. / 300, 299. / 300}, 300, 2, 3},
		{[]float64{296. / 300, 297. / 300, 299. / 300}, 300, 3, 3},
	} {
		chosen, best, se := oneStandardError(hist(tc.acc...), tc.n)
		if chosen != tc.chosen || best != tc.best {
			t.Errorf("%v on %d: chose %d (best %d, se %.4f), want %d (best %d)", tc.acc, tc.n, chosen, best, se, tc.chosen, tc.best)
		}
		if best > 0 && math.Abs(se-accuracyStdErr(tc.acc[best-1], tc.n)) > 1e-15 {
			t.Errorf("se %v", se)
		}
	}
}

// TestAccuracyStdErr: the adjusted estimate agrees with the plain one,
// sqrt(p(1-p)/n), where that one is sound, and stays positive at the ends.
func TestAccuracyStdErr(t *testing.T) {
	for _, n := range []int{50, 300, 1000, 10000} {
		for _, x := range []int{n / 4, n / 3, n / 2, 2 * n / 3, 3 * n / 4} {
			p := float64(x) / float64(n)
			plain := math.Sqrt(p * (1 - p) / float64(n))
			if se := accuracyStdErr(p, n); math.Abs(se-plain) > 0.01*plain {
				t.Errorf("%d of %d: se %v, the plain estimate %v", x, n, se, plain)
			}
		}
		for _, p := range []float64{0, 1} {
			se := accuracyStdErr(p, n)
			// Half an example of n+1 either way: sqrt(0.5(n+0.5))/(n+1)^1.5.
			m := float64(n) + 1
			if want := math.Sqrt(0.5*(float64(n)+0.5)) / (m * math.Sqrt(m)); se <= 0 || math.Abs(se-want) > 1e-15 {
				t.Errorf("accuracy %v of %d: se %v, want %v", p, n, se, want)
			}
		}
	}
	if se := accuracyStdErr(0.5, 0); se != 0 {
		t.Errorf("no examples: se %v", se)
	}
}

// TestChooseIterationsCancelled: a cancelled context or a passed deadline
// is the caller's error, never a selection that stopped for no gain.
func TestChooseIterationsCancelled(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	th := hiddenTheory(r, 9, 4)
	p, q := Generate(th, atomsUpTo(9), 200, 200, 3, 0.1, r)
	tp, tq := Generate(th, atomsUpTo(9), 100, 100, 3, 0.1, r)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	val := Validation{Problem: Problem{Vocab: th.Vocab, Train: Merge(p, q), Test: Merge(tp, tq)}, Settings: Settings{Seed: 1, Iterations: 40, Patience: -1},
		Patience: 1000, OnIteration: func(it Iteration) {
			if it.Iteration == 2 {
				cancel()
			}
		}}
	if s, err := ChooseIterations(ctx, val); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled validation: selection %+v, error %v; want context.Canceled", s, err)
	}
	dctx, dcancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer dcancel()
	if s, err := ChooseIterations(dctx, val); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("validation past its deadline: selection %+v, error %v; want context.DeadlineExceeded", s, err)
	}
	if _, err := ChooseIterations(context.Background(), Validation{Problem: Problem{Vocab: th.Vocab, Train: Merge(p, q)}}); err == nil {
		t.Fatal("a validation without held-out examples ran")
	}
}
