package learn

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// oracleScore decides every example of ex under m and sem without the
// engine: possibilistic.Reasoner for poss, worlds enumerated for linear and
// lex.
func oracleScore(m *Hypothesis, sem possibilistic.Semantics, ex *Examples, n int) int64 {
	if sem == possibilistic.Poss {
		return fullScore(m, ex, vocab(n))
	}
	return bruteScore(m, sem, ex, worlds(n))
}

// TestPruneSupportAgainstOracle checks Supports against removing each
// clause and re-deciding every example without the engine, and that
// PruneSupport leaves a sub-theory of the hypothesis (same levels, in order)
// whose every clause has a support above the threshold, with every clause
// kept when the threshold is below the least support.
func TestPruneSupportAgainstOracle(t *testing.T) {
	ctx := context.Background()
	for _, sem := range []possibilistic.Semantics{possibilistic.Poss, possibilistic.Linear, possibilistic.Lex} {
		r := rand.New(rand.NewPCG(uint64(sem), 23))
		for iter := range 60 {
			n := 3 + r.IntN(4)
			ex := randExamples(r, n, 40)
			m := randModel(r, n)
			p := Problem{Vocab: vocab(n), Train: ex, Hard: m.Hard}
			s := Settings{Threads: 1 + iter%2, Semantics: sem}
			sup, err := Supports(ctx, p, m, s)
			if err != nil {
				t.Fatal(err)
			}
			base := oracleScore(m, sem, ex, n)
			k := 0
			least := int64(1 << 40)
			for j, lv := range m.Levels {
				for i := range lv {
					want := base - oracleScore(m.Remove(j, i), sem, ex, n)
					if sup[k] != want {
						t.Fatalf("%v #%d: support of clause %d of level %d: %d, oracle %d", sem, iter, i, j, sup[k], want)
					}
					least = min(least, sup[k])
					k++
				}
			}
			if k != len(sup) {
				t.Fatalf("%v #%d: %d supports for %d clauses", sem, iter, len(sup), k)
			}
			for _, maxLoss := range []int64{least - 1, 0, 1, 2} {
				got, err := PruneSupport(ctx, p, m, s, maxLoss)
				if err != nil {
					t.Fatal(err)
				}
				if !subTheory(got, m) {
					t.Fatalf("%v #%d: pruned hypothesis is not a sub-theory of the hypothesis", sem, iter)
				}
				if maxLoss < least && got.NumClauses() != m.NumClauses() {
					t.Fatalf("%v #%d: threshold %d below the least support %d removed clauses", sem, iter, maxLoss, least)
				}
				now := oracleScore(got, sem, ex, n)
				for j, lv := range got.Levels {
					for i := range lv {
						if loss := now - oracleScore(got.Remove(j, i), sem, ex, n); loss <= maxLoss {
							t.Fatalf("%v #%d: threshold %d kept a clause of support %d", sem, iter, maxLoss, loss)
						}
					}
				}
			}
		}
	}
}

// subTheory reports whether sub is m with some clauses removed (empty
// levels dropped), everything else in order.
func subTheory(sub, m *Hypothesis) bool {
	j := 0
	for _, lv := range sub.Levels {
		for j < len(m.Levels) && !keepsOrder(lv, m.Levels[j]) {
			j++
		}
		if j == len(m.Levels) {
			return false
		}
		j++
	}
	return true
}

// keepsOrder reports whether a is a subsequence of b.
func keepsOrder(a, b []logic.Clause) bool {
	k := 0
	for _, c := range b {
		if k < len(a) && slices.Equal(a[k], c) {
			k++
		}
	}
	return k == len(a) && len(a) > 0
}

func TestThresholds(t *testing.T) {
	for _, c := range []struct {
		most int64
		want []int64
	}{{-1, []int64{0, 1}}, {0, []int64{0, 1}}, {1, []int64{0, 1}}, {2, []int64{0, 1, 2}}, {12, []int64{0, 1, 2, 3, 5, 8}}} {
		if got := thresholds(c.most); !slices.Equal(got, c.want) {
			t.Errorf("thresholds(%d) = %v, want %v", c.most, got, c.want)
		}
	}
}
