package learn

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestMentionsSorted: mentions answers by binary search in a sorted term
// as by a look at every literal.
func TestMentionsSorted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var term logic.Term
		for range r.IntN(30) {
			term = append(term, logic.MkLit(logic.Atom(r.IntN(20)), r.IntN(2) == 0))
		}
		term = slices.Compact(slices.Sorted(slices.Values(term)))
		a := logic.Atom(r.IntN(22))
		want := slices.ContainsFunc(term, func(l logic.Lit) bool { return l.Atom() == a })
		if mentions(term, a) != want {
			t.Fatalf("%v %d", term, a)
		}
	}
}
