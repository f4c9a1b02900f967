package possibilistic

import (
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestConclude: under every semantics, Conclude lists exactly the
// literals Entails entails, each with the necessity Decide gives it, on the
// drowning example (penguin drowns !bird | wings under poss and linear,
// not under lex).
func TestConclude(t *testing.T) {
	v := &logic.Vocabulary{}
	th := mustTheory(t, v, "1: !penguin | bird\n1: !penguin | !flies\n0.5: !bird | flies\n0.5: !bird | wings")
	alpha, err := logic.ParseEvidence(v, "penguin")
	if err != nil {
		t.Fatal(err)
	}
	wings, _ := v.Lookup("wings")
	r := reasoner(t, th)
	for _, sem := range AllSemantics {
		cs := r.conclude(sem, alpha)
		var want []logic.Lit
		for a := range v.Len() {
			for _, l := range []logic.Lit{logic.Pos(logic.Atom(a)), logic.Neg(logic.Atom(a))} {
				if r.entails(sem, alpha, logic.LitF(l)) {
					want = append(want, l)
				}
			}
		}
		if !litsEqual(lits(cs), want) {
			t.Fatalf("%v: conclusions %v, entailed literals %v", sem, lits(cs), want)
		}
		hasWings := false
		for _, c := range cs {
			if n := r.decide(sem, alpha, logic.LitF(c.Lit)).Necessity; c.Necessity != n {
				t.Errorf("%v: necessity of %s is %v, Decide %v", sem, v.LitString(c.Lit), c.Necessity, n)
			}
			hasWings = hasWings || c.Lit == logic.Pos(wings)
		}
		if hasWings != (sem == Lex) {
			t.Errorf("%v: wings among the conclusions of penguin: %v", sem, hasWings)
		}
	}
}
