package possibilistic

import (
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestReason checks the words of explanations, which strata's command line
// and server show as they are, on each shape of answer.
func TestReason(t *testing.T) {
	v := &logic.Vocabulary{}
	th := mustTheory(t, v, "1: !penguin | bird\n1: !penguin | !flies\n0.5: !bird | flies\n0.5: !bird | wings\n0.25: !bird | feathers\n")
	r := reasoner(t, th)
	for _, c := range []struct {
		sem   Semantics
		query string
		want  string
	}{
		{Poss, "penguin -> !flies", "level 1: penguin, with the formulas of weight >= 1, entails !flies (inconsistency level 0.5)\n" +
			"set aside by the evidence: level 0.5; level 0.25\n" +
			"because penguin with 1: !penguin | !flies entails !flies"},
		{Poss, "bird -> flies", "level 0.5: bird, with the formulas of weight >= 0.5, entails flies (inconsistency level 0)\n" +
			"set aside by the evidence: nothing\n" +
			"because bird with 0.5: !bird | flies entails flies"},
		{Poss, "!bird | wings", "level 0.5: the formulas of weight >= 0.5 entail !bird | wings (inconsistency level 0)\n" +
			"set aside by the evidence: nothing\n" +
			"because 0.5: !bird | wings entails !bird | wings"},
		{Poss, "bird | !bird", "level 1: the formulas of weight >= 1 entail bird | !bird (inconsistency level 0)\n" +
			"set aside by the evidence: nothing\n" +
			"because bird | !bird is a tautology"},
		{Poss, "penguin & bird -> bird", "level 1: penguin & bird, with the formulas of weight >= 1, entails bird (inconsistency level 0.5)\n" +
			"set aside by the evidence: level 0.5; level 0.25\n" +
			"because penguin & bird alone entails bird"},
		{Poss, "penguin -> feathers", "penguin, with the formulas above the inconsistency level 0.5, does not entail feathers\n" +
			"set aside by the evidence: level 0.5; level 0.25\n" +
			"counter-example, a preferred world: …"},
		{Linear, "penguin -> feathers", "level 0.25: penguin, with the formulas of weight >= 0.25 that linear keeps, entails feathers (inconsistency level 0.5)\n" +
			"set aside by the evidence: level 0.5\n" +
			"because penguin with 1: !penguin | bird; 0.25: !bird | feathers entails feathers"},
		{Linear, "penguin -> wings", "penguin, with the formulas linear keeps, does not entail wings (inconsistency level 0.5)\n" +
			"set aside by the evidence: level 0.5\n" +
			"counter-example, a preferred world: …"},
		{Lex, "penguin -> wings", "level 0.5: penguin, with the formulas of weight >= 0.5 that lex keeps, entails wings (inconsistency level 0.5)\n" +
			"set aside by the evidence: 0.5: !bird | flies\n" +
			"because penguin with 1: !penguin | bird; 0.5: !bird | wings entails wings"},
		{Lex, "penguin & flies -> wings", "penguin & flies contradicts the formulas of weight 1, so only tautologies follow (inconsistency level 1)"},
		{Linear, "bird & !bird -> wings", "bird & !bird is contradictory, so only tautologies follow (inconsistency level 1)"},
	} {
		rule, err := logic.ParseQuery(v, c.query)
		if err != nil {
			t.Fatal(err)
		}
		e := r.explain(c.sem, rule.Antecedent, rule.Consequent)
		want := c.want
		if e.Counter != nil { // the preferred world, which the oracle tests check, may leave atoms free
			var w strings.Builder
			writeWorld(&w, v, e.Counter)
			want = strings.Replace(want, "…", w.String(), 1)
		}
		if got := e.Reason(); got != want {
			t.Errorf("%v %s:\n got %q\nwant %q", c.sem, c.query, got, want)
		}
	}
}
