package benchgen

import (
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestNames checks that a vocabulary of Names gives atom i the name a(i+1).
func TestNames(t *testing.T) {
	v := logic.NewVocabulary(Names()...)
	if v.Len() != Atoms {
		t.Fatalf("%d atoms, want %d", v.Len(), Atoms)
	}
	for _, c := range []struct {
		a    logic.Atom
		name string
	}{{0, "a1"}, {9, "a10"}, {Atoms - 1, "a16"}} {
		if got := v.Name(c.a); got != c.name {
			t.Errorf("atom %d is %s, want %s", c.a, got, c.name)
		}
	}
}
