package server

import (
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestLitString checks the worker's kept literal texts against the
// vocabulary's, asked twice (the second answer is the kept one), also for
// an atom the vocabulary has not interned and one interned after a
// literal of it was written.
func TestLitString(t *testing.T) {
	v := logic.NewVocabulary("penguin", "bird", "flies")
	w := &worker{vocab: v}
	for round := 0; round < 2; round++ {
		for a := logic.Atom(0); a < 5; a++ {
			for _, neg := range []bool{false, true} {
				l := logic.MkLit(a, neg)
				if got, want := w.litString(l), v.LitString(l); got != want {
					t.Errorf("round %d: litString(%v) = %q, want %q", round, l, got, want)
				}
			}
		}
		v.Intern("wings")
		v.Intern("swims")
	}
}
