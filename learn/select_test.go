package learn

import (
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestHardSubsumer: the index of the hard rules by first literal answers
// as asking every hard rule, as hard rules change between calls.
func TestHardSubsumer(t *testing.T) {
	r := rand.New(rand.NewPCG(48, 3))
	var hs hardSubsumer
	for iter := range 2000 {
		n := 3 + r.IntN(6)
		var hard []logic.Clause
		for range r.IntN(6) {
			hard = append(hard, randClause(r, n, 3))
		}
		if r.IntN(50) == 0 {
			hard = append(hard, logic.Clause{})
		}
		for range 10 {
			c := randClause(r, n, 6)
			want := false
			for _, h := range hard {
				want = want || h.Subsumes(c)
			}
			if got := hs.of(hard).subsumes(c); got != want {
				t.Fatalf("#%d: %v under %v: %v, want %v", iter, c, hard, got, want)
			}
		}
	}
}
