package defaults

import (
	"testing"

	"github.com/strata-logic/strata/logic"
)

func TestParseQueryAndLooksLikeCL(t *testing.T) {
	v := &logic.Vocabulary{}
	rule, err := ParseQuery(v, "p -> !f")
	cond, err2 := ParseQuery(v, "(!f|p)")
	if err != nil || err2 != nil || !rule.Antecedent.Equal(cond.Antecedent) || !rule.Consequent.Equal(cond.Consequent) {
		t.Errorf("p -> !f and (!f|p): %v %v, %v %v", rule, err, cond, err2)
	}
	if _, err := ParseQuery(v, "(a | b"); err == nil {
		t.Error("(a | b read as a query")
	}
	for text, want := range map[string]bool{
		birdsCL:                              true,
		"// a base\nsignature a, b\n":        true,
		"# rules\nsignature -> x\n":          false,
		"bird -> flies\nsignature\n":         false,
		"\n\n  signature\tp,f\nconditionals": true,
	} {
		if got := LooksLikeCL([]byte(text)); got != want {
			t.Errorf("LooksLikeCL(%q) = %v", text, got)
		}
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"p -> !f", "(!f|p)", "(f|", "(a | b", "a |~ b", "(|)", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v := &logic.Vocabulary{}
		d, err := ParseQuery(v, src)
		if err == nil && (d.Antecedent == nil || d.Consequent == nil) {
			t.Fatalf("%q: a query without both sides", src)
		}
	})
}
