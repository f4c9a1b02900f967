package logictest

import (
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestFormulaAtoms checks that random formulas stay over the first n atoms
// and that depth 0 gives a literal.
func TestFormulaAtoms(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 1 + r.IntN(4)
		if _, ok := Formula(r, n, 0).AsLit(); !ok {
			t.Fatal("depth 0 gave no literal")
		}
		for _, a := range Formula(r, n, 3).Atoms() {
			if int(a) >= n {
				t.Fatalf("atom %d of %d", a, n)
			}
		}
	}
}

func TestRule(t *testing.T) {
	v := &logic.Vocabulary{}
	if r := Rule(t, v, "bird -> flies"); r.String(v) != "bird -> flies" {
		t.Errorf("rule %s", r.String(v))
	}
}
