package mln

import (
	"bytes"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

func TestMAPEncoding(t *testing.T) {
	v := logic.NewVocabulary((&Table{Cols: 3}).Names()...)
	rule := func(s string) logic.Rule {
		r, err := logic.ParseRule(v, s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	e := MAPEncoding{Vocab: v}
	a, err := e.ARFF("nltcs", []logic.Rule{rule("a1, !a3 -> a2")}, []logic.Rule{rule("a2 -> !a1")})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Attributes) != 13 || a.Attributes[1].Name != "a1_ante_neg" || a.Attributes[6].Name != "a1_cons_pos" {
		t.Fatalf("attributes %v", a.Attributes)
	}
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.String()[strings.Index(buf.String(), "@data\n")+6:]
	//             a1  a2  a3 | a1  a2  a3
	want := "1,0,0,0,0,1,0,0,1,0,0,0,positive\n" +
		"0,0,1,0,0,0,0,1,0,0,0,0,negative\n"
	if data != want {
		t.Fatalf("data\n%s\nwant\n%s", data, want)
	}
	if _, err := e.Row(rule("a1 | a2 -> a3"), true); err == nil {
		t.Fatal("non-conjunctive antecedent accepted")
	}
	small := MAPEncoding{Vocab: v, Atoms: 2}
	if _, err := small.Row(rule("a3 -> a1"), true); err == nil || !strings.Contains(err.Error(), "a3") {
		t.Fatalf("atom outside the encoding: %v", err)
	}
}
