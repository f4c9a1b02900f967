package jsonview

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestAnswerJSON checks the field names and order of an answer, which
// docs/api.md shows: the degrees of a theory's answer always (a null
// deciding level when β is not entailed), none for an answer without
// degrees.
func TestAnswerJSON(t *testing.T) {
	v := &logic.Vocabulary{}
	th, err := possibilistic.ReadText(context.Background(), strings.NewReader("1: !penguin | bird\n1: !penguin | !flies\n0.5: !bird | flies\n"), "t", v)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := possibilistic.NewReasoner(context.Background(), th)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ query, want string }{
		{"penguin -> !flies", `{"query":"penguin -> !flies","answer":"yes","entailed":true,"semantics":"poss","deciding_level":0,"deciding_weight":1,"inconsistency":0.5}`},
		{"penguin -> flies", `{"query":"penguin -> flies","answer":"no","entailed":false,"semantics":"poss","deciding_level":null,"deciding_weight":0,"inconsistency":0.5}`},
	} {
		q, err := logic.ParseQuery(v, c.query)
		if err != nil {
			t.Fatal(err)
		}
		vd, err := rs.Decide(context.Background(), possibilistic.Poss, q.Antecedent, q.Consequent)
		if err != nil {
			t.Fatal(err)
		}
		var a Answer
		a.SetVerdict(c.query, vd)
		if got := marshal(t, &a); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.query, got, c.want)
		}
	}
	a := Answer{Query: "p -> q", Word: YesNo(false), Semantics: "w"}
	if got, want := marshal(t, &a), `{"query":"p -> q","answer":"no","entailed":false,"semantics":"w"}`; got != want {
		t.Errorf("without degrees:\n got %s\nwant %s", got, want)
	}
}

// TestDescribeOrdering checks that the lists of a base's view are empty,
// not null, when it has no background knowledge, and the Z-ranks.
func TestDescribeOrdering(t *testing.T) {
	v := &logic.Vocabulary{}
	ds, err := defaults.ReadRules(strings.NewReader("bird -> flies\npenguin -> !flies\npenguin -> bird\n"), "b.rules", v)
	if err != nil {
		t.Fatal(err)
	}
	ord, err := defaults.ZOrdering(context.Background(), &defaults.Base{Vocab: v, Defaults: ds})
	if err != nil {
		t.Fatal(err)
	}
	got := marshal(t, DescribeOrdering(ord))
	want := `{"defaults":[{"index":0,"text":"bird -> flies","rule":"bird |~ flies","line":1,"rank":1},` +
		`{"index":1,"text":"penguin -> !flies","rule":"penguin |~ !flies","line":2,"rank":2},` +
		`{"index":2,"text":"penguin -> bird","rule":"penguin |~ bird","line":3,"rank":2}],` +
		`"background":[],"z_ordering":[{"level":1,"weight":0.3,"defaults":[0]},{"level":2,"weight":0.7,"defaults":[1,2]}],"solver_calls":` +
		marshal(t, ord.Calls) + `}`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestConfusionJSON checks the field names of a confusion table, which
// docs/api.md and docs/tables.md name, and its scores: macro-F1 is the
// mean of grant's F1 (1/2) and reject's (2/3).
func TestConfusionJSON(t *testing.T) {
	c := eval.NewConfusion([]string{"grant", "reject"})
	for _, p := range [][2]string{{"grant", "grant"}, {"grant", "none"}, {"reject", "reject"}, {"reject", "grant"}} {
		if err := c.Add(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	got := marshal(t, NewConfusion(c))
	want := `{"accuracy":0.5,"macro_f1":0.5833333333333333,"rows":4,"right":2,"labels":["grant","reject","none"],"counts":[[1,0,1],[1,1,0],[0,0,0]]}`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}
