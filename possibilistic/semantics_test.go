package possibilistic

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

func TestSemanticsNames(t *testing.T) {
	for _, s := range AllSemantics {
		got, err := ParseSemantics(s.String())
		if err != nil || got != s {
			t.Fatalf("ParseSemantics(%q) = %v, %v", s, got, err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back Semantics
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Fatalf("JSON round trip of %v: %s -> %v, %v", s, b, back, err)
		}
	}
	if _, err := ParseSemantics("drowning"); err == nil {
		t.Fatal("unknown name accepted")
	}
	var zero Semantics
	if zero != Poss {
		t.Fatal("zero value is not Poss")
	}
}

// TestLexCountsARepeatedFormulaTwice: a level is a multiset under lex, so
// {(a, 0.5), (¬a, 0.5), (¬a, 0.5)} prefers the world violating a alone
// (one violation) to the one violating ¬a twice, and entails ¬a; written
// as ¬a ∨ ¬a, a different formula, it always did.
func TestLexCountsARepeatedFormulaTwice(t *testing.T) {
	for _, src := range []string{"0.5: a\n0.5: !a\n0.5: !a\n", "0.5: a\n0.5: !a\n0.5: !a | !a\n", "0.5: !a\n0.5: a\n0.5: !a\n"} {
		th, err := ReadText(context.Background(), strings.NewReader(src), "d.theory", nil)
		if err != nil {
			t.Fatal(err)
		}
		rs := reasoner(t, th)
		notA := logic.Not(logic.AtomF(th.Vocab.Intern("a")))
		if !rs.entails(Lex, logic.True(), notA) {
			t.Errorf("%s: lex does not entail !a", src)
		}
		if v := rs.decide(Lex, logic.True(), notA); !slices.Equal(v.Violations, []int{1}) {
			t.Errorf("%s: least violations %v, want [1]", src, v.Violations)
		}
	}
}
