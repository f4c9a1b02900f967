package possibilistic

import (
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestConcludeUnder: under every semantics, ConcludeUnder lists exactly
// ConclusionsUnder with the necessity NecessityUnder gives each, on the
// drowning example (penguin drowns !bird | wings under poss and linear, not
// under lex).
func TestConcludeUnder(t *testing.T) {
	v := &logic.Vocabulary{}
	th := mustTheory(t, v, "1: !penguin | bird\n1: !penguin | !flies\n0.5: !bird | flies\n0.5: !bird | wings")
	alpha, err := logic.ParseEvidence(v, "penguin")
	if err != nil {
		t.Fatal(err)
	}
	wings, _ := v.Lookup("wings")
	r := NewReasoner(th)
	for _, sem := range AllSemantics {
		cs := r.ConcludeUnder(sem, alpha)
		lits := r.ConclusionsUnder(sem, alpha)
		if len(cs) != len(lits) {
			t.Fatalf("%v: %d conclusions, ConclusionsUnder %d", sem, len(cs), len(lits))
		}
		hasWings := false
		for i, c := range cs {
			if c.Lit != lits[i] {
				t.Fatalf("%v: conclusion %d is %s, want %s", sem, i, v.LitString(c.Lit), v.LitString(lits[i]))
			}
			if n := r.NecessityUnder(sem, alpha, logic.LitF(c.Lit)); c.Necessity != n {
				t.Errorf("%v: necessity of %s is %v, NecessityUnder %v", sem, v.LitString(c.Lit), c.Necessity, n)
			}
			hasWings = hasWings || c.Lit == logic.Pos(wings)
		}
		if hasWings != (sem == Lex) {
			t.Errorf("%v: wings among the conclusions of penguin: %v", sem, hasWings)
		}
	}
}
