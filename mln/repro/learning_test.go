package repro

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
)

// randomExamples draws groups of examples sharing an evidence formula, as
// mln.Generate does; some evidence formulas come back later in another
// order of literals.
func randomExamples(r *rand.Rand, n int) []mln.Example {
	var exs []mln.Example
	var seen []logic.Term
	for len(exs) < n {
		var alpha logic.Term
		if len(seen) > 0 && r.IntN(5) == 0 {
			alpha = slices.Clone(seen[r.IntN(len(seen))])
			r.Shuffle(len(alpha), func(i, j int) { alpha[i], alpha[j] = alpha[j], alpha[i] })
		} else {
			for _, a := range r.Perm(8)[:1+r.IntN(4)] {
				alpha = append(alpha, logic.MkLit(logic.Atom(a), r.IntN(2) == 0))
			}
			seen = append(seen, alpha)
		}
		for range 1 + r.IntN(10) {
			exs = append(exs, mln.Example{Evidence: alpha, Conclusion: logic.Pos(logic.Atom(8 + r.IntN(4))), Positive: r.IntN(2) == 0})
		}
	}
	return exs
}

func same(a, b mln.Example) bool {
	return slices.Equal(a.Evidence, b.Evidence) && a.Conclusion == b.Conclusion && a.Positive == b.Positive
}

func evidenceKey(e mln.Example) string {
	return fmt.Sprint(slices.Sorted(slices.Values(e.Evidence)))
}

// TestHoldOut checks the validation split: every example lands in exactly
// one part, in its original order; no evidence formula (in any order of its
// literals) is on both sides; the held-out share is about the one asked
// for; and the split is a function of the seed.
func TestHoldOut(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 200; it++ {
		exs := randomExamples(r, 20+r.IntN(300))
		share := 0.1 + 0.5*r.Float64()
		seed := r.Uint64()
		fit, held, groups := holdOut(exs, share, seed)
		if len(fit)+len(held) != len(exs) {
			t.Fatalf("%d + %d of %d examples", len(fit), len(held), len(exs))
		}
		// Merging the parts by their order gives the examples back.
		i, j := 0, 0
		inHeld := map[string]bool{}
		for _, e := range exs {
			switch {
			case j < len(held) && same(held[j], e):
				inHeld[evidenceKey(e)] = true
				j++
			case i < len(fit) && same(fit[i], e):
				i++
			default:
				t.Fatal("the parts do not keep the examples' order")
			}
		}
		for _, e := range fit {
			if inHeld[evidenceKey(e)] {
				t.Fatalf("evidence %v is both learned from and held out", e.Evidence)
			}
		}
		if len(inHeld) != groups {
			t.Errorf("%d evidence formulas held out, reported %d", len(inHeld), groups)
		}
		// Whole groups of at most 10 examples each: the last one taken can
		// overshoot the share by fewer than 10 examples (duplicated
		// evidence formulas make bigger groups, hence the slack).
		want := share * float64(len(exs))
		if float64(len(held)) < want-0.5 || float64(len(held)) > want+30 {
			t.Errorf("held out %d of %d for share %.2f", len(held), len(exs), share)
		}
		fit2, held2, _ := holdOut(exs, share, seed)
		if len(fit2) != len(fit) || len(held2) != len(held) {
			t.Error("the same seed gives another split")
		}
	}
}

func TestOneStdErr(t *testing.T) {
	hist := func(acc ...float64) []learn.Iteration {
		var h []learn.Iteration
		for i, a := range acc {
			h = append(h, learn.Iteration{Iteration: i + 1, TestAccuracy: a})
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
	} {
		chosen, best, se := oneStdErr(hist(tc.acc...), tc.n)
		if chosen != tc.chosen || best != tc.best {
			t.Errorf("%v on %d: chose %d (best %d, se %.4f), want %d (best %d)", tc.acc, tc.n, chosen, best, se, tc.chosen, tc.best)
		}
		if best > 0 && math.Abs(se-math.Sqrt(tc.acc[best-1]*(1-tc.acc[best-1])/float64(tc.n))) > 1e-12 {
			t.Errorf("se %v", se)
		}
	}
}

func TestCells(t *testing.T) {
	// 78.05 prints as 78.0 (its binary value is below 78.05): not a tie.
	got := cells([]float64{78.14, 69.6, 78.05, math.NaN(), 78.1})
	want := []string{"**78.1**", "69.6", "78.0", "–", "**78.1**"}
	if !slices.Equal(got, want) {
		t.Errorf("cells = %q, want %q", got, want)
	}
}

func TestMajority(t *testing.T) {
	for _, tc := range []struct {
		c    ExampleCounts
		want float64
	}{
		{ExampleCounts{TrainPos: 6, TrainNeg: 4, TestPos: 3, TestNeg: 7}, 0.3},
		{ExampleCounts{TrainPos: 4, TrainNeg: 6, TestPos: 3, TestNeg: 7}, 0.7},
		{ExampleCounts{}, 0},
	} {
		if got := tc.c.majority(); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%+v: majority %v, want %v", tc.c, got, tc.want)
		}
	}
}
