package mln

import (
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestWCNFAuxiliary: the variables a WCNF file that names its atoms leaves
// unnamed are auxiliary (Network.IsAuxiliary), however the reader names
// them, and an atom the file names is not, whatever its name: a user's
// atom _y is shown like any other.
func TestWCNFAuxiliary(t *testing.T) {
	n, err := ReadWCNF(strings.NewReader("c atom 1 _y\nc atom 3 b\np wcnf 3 3 10\n3 1 0\n2 2 0\n1 -3 0\n"), "x.wcnf")
	if err != nil {
		t.Fatal(err)
	}
	for a, want := range []bool{false, true, false} {
		if got := n.IsAuxiliary(logic.Atom(a)); got != want {
			t.Errorf("atom %d (%s): auxiliary %v, want %v", a+1, n.Vocab.Name(logic.Atom(a)), got, want)
		}
	}
	al, err := ReadAlchemy(strings.NewReader("_x\nb\n2 _x\n1 b\n"), "u.mln")
	if err != nil {
		t.Fatal(err)
	}
	if al.IsAuxiliary(0) || al.IsAuxiliary(1) {
		t.Error("an Alchemy file's atoms are auxiliary")
	}
}
