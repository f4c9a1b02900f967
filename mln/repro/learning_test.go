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

// TestHoldOut checks the validation split by evidence formulas
// (learn.SplitGroups with the group evidence): every example lands in
// exactly one part, in its original order; no evidence formula (in any
// order of its literals) is on both sides; the held-out share is about the
// one asked for; and the split is a function of the seed.
func TestHoldOut(t *testing.T) {
	holdOut := func(exs []mln.Example, share float64, seed uint64) (fit, held []mln.Example, groups []string) {
		s, err := learn.SplitGroups(exs, evidence, 1, share, learn.RandFor(seed, learn.ForValidationSplit))
		if err != nil {
			t.Fatal(err)
		}
		fit, held = learn.Part(s, exs, 0)
		return fit, held, s.Held
	}
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
		if len(inHeld) != len(groups) {
			t.Errorf("%d evidence formulas held out, reported %d", len(inHeld), len(groups))
		}
		for _, a := range groups {
			if !inHeld[a] {
				t.Errorf("reported evidence %v is not held out", a)
			}
		}
		if len(fit) == 0 {
			t.Fatal("every example is held out")
		}
		want := share * float64(len(exs))
		lastGroup := len(fit) == len(exs)-len(held) && len(groups) == len(inHeld) && func() bool {
			// all groups but one held out: the split may stop short
			rest := map[string]bool{}
			for _, e := range fit {
				rest[evidenceKey(e)] = true
			}
			return len(rest) == 1
		}()
		size := map[string]int{}
		biggest := 0
		for _, e := range exs {
			size[evidenceKey(e)]++
			biggest = max(biggest, size[evidenceKey(e)])
		}
		// Groups are taken while the share is not reached: the last one
		// overshoots it by less than a group.
		if (float64(len(held)) < want-0.5 && !lastGroup) || float64(len(held)) > want+float64(biggest) {
			t.Errorf("held out %d of %d for share %.2f", len(held), len(exs), share)
		}
		fit2, held2, _ := holdOut(exs, share, seed)
		if !slices.EqualFunc(fit, fit2, same) || !slices.EqualFunc(held, held2, same) {
			t.Error("the same seed gives another split")
		}
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
