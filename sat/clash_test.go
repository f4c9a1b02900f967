package sat

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/internal/brute"
	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
)

// TestClashIsMinimal checks Clash against enumeration on random sets of
// formulas over at most 4 atoms: nil exactly when some world satisfies them
// all, else a subset that no world satisfies and from which dropping any
// one formula leaves a satisfiable set.
func TestClashIsMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	unsat := 0
	for i := range 2000 {
		n := 1 + r.IntN(4)
		fs := make([]*logic.Formula, 1+r.IntN(6))
		for j := range fs {
			fs[j] = logictest.Formula(r, n, 2)
		}
		sat := func(idx []int) bool {
			var sub []*logic.Formula
			for _, k := range idx {
				sub = append(sub, fs[k])
			}
			return !brute.Entails(n, sub, logic.False())
		}
		all := make([]int, len(fs))
		for k := range all {
			all[k] = k
		}
		clash, err := Clash(context.Background(), fs)
		if err != nil {
			t.Fatal(err)
		}
		if sat(all) {
			if clash != nil {
				t.Fatalf("#%d: satisfiable, clash %v", i, clash)
			}
			continue
		}
		unsat++
		if len(clash) == 0 || !slices.IsSorted(clash) || sat(clash) {
			t.Fatalf("#%d: clash %v is not an unsatisfiable subset", i, clash)
		}
		for k := range clash {
			if !sat(slices.Delete(slices.Clone(clash), k, k+1)) {
				t.Fatalf("#%d: clash %v is not minimal", i, clash)
			}
		}
	}
	if unsat < 200 {
		t.Fatalf("only %d unsatisfiable sets", unsat)
	}
}
