package logic_test

import (
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestFresh: auxiliary atoms are named by one rule, _PURPOSE and the next
// number whose name the vocabulary does not hold, so that a user's atom
// of such a name keeps its own atom, and ClausesNamed names the parts of a
// hard rule by it.
func TestFresh(t *testing.T) {
	v := logic.NewVocabulary("a", "_h1", "_h3")
	fresh := logic.Fresh(v, "h")
	var names []string
	for range 3 {
		names = append(names, v.Name(fresh()))
	}
	if want := []string{"_h2", "_h4", "_h5"}; names[0] != want[0] || names[1] != want[1] || names[2] != want[2] {
		t.Fatalf("fresh atoms %v, want %v", names, want)
	}
	if a, _ := v.Lookup("_h1"); a != 1 {
		t.Fatal("the user's _h1 lost its atom")
	}
	w := logic.NewVocabulary("_h1")
	var fs []*logic.Formula
	f, err := logic.ParseFormula(w, "(a0 & b0) | (a1 & b1) | (a2 & b2) | (a3 & b3) | (a4 & b4) | (a5 & b5) | (a6 & b6) | (a7 & b7)")
	if err != nil {
		t.Fatal(err)
	}
	fs = append(fs, f)
	cs, named := logic.ClausesNamed(w, fs, "h")
	if !named || len(cs) == 0 {
		t.Fatalf("named %v, %d clauses", named, len(cs))
	}
	for _, c := range cs {
		for _, l := range c {
			if l.Atom() == 0 {
				t.Fatalf("the user's _h1 is in the clauses of a rule that does not name it: %s", c.String(w))
			}
		}
	}
}
