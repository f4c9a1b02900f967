package dataset

import (
	"bytes"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

func TestRulesRoundTrip(t *testing.T) {
	src := "# Java tool spelling\nbird(), antarctic() -> !flies()\n\n -> bird\npenguin |~ !flies, swims\nbird -> flies\nbird -> flies\n"
	v := &logic.Vocabulary{}
	rules, err := ReadRules(strings.NewReader(src), "birds.defaults", v)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 5 {
		t.Fatalf("read %d rules, want 5 (duplicates count twice)", len(rules))
	}
	var buf bytes.Buffer
	WriteRules(&buf, v, rules)
	want := "bird, antarctic -> !flies\n -> bird\npenguin -> !flies, swims\nbird -> flies\nbird -> flies\n"
	if buf.String() != want {
		t.Fatalf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
	_, err = ReadRules(strings.NewReader("bird -> flies\nbird flies\n"), "birds.defaults", v)
	if err == nil || !strings.HasPrefix(err.Error(), "birds.defaults:2:") {
		t.Fatalf("error without position: %v", err)
	}
}

func TestClauses(t *testing.T) {
	v := &logic.Vocabulary{}
	fs, err := ReadClauses(strings.NewReader("!fold, !raise\n!fold | !call # one action\n"), "poker.hard", v)
	if err != nil || len(fs) != 2 {
		t.Fatalf("%v %v", fs, err)
	}
	c, _ := fs[1].AsClause()
	var buf bytes.Buffer
	WriteClauses(&buf, v, []logic.Clause{c})
	if buf.String() != "!fold, !call\n" {
		t.Fatalf("%q", buf.String())
	}
}

func TestARFF(t *testing.T) {
	a := &ARFF{
		Relation:   "poker actions",
		Attributes: []Attribute{{Name: "flush", Values: []string{"0", "1"}}, {Name: "pot"}, {Name: "class", Values: []string{"fold", "call it"}}},
		Rows:       [][]string{{"1", "2.5", "call it"}, {"0", "?", "fold"}},
	}
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		t.Fatal(err)
	}
	want := "@relation 'poker actions'\n\n@attribute flush {0,1}\n@attribute pot numeric\n@attribute class {fold,'call it'}\n\n@data\n1,2.5,'call it'\n0,?,fold\n"
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
	a.Rows = append(a.Rows, []string{"1"})
	if err := a.Write(&buf); err == nil {
		t.Fatal("short row accepted")
	}
}

func FuzzReadRules(f *testing.F) {
	f.Add("bird(), antarctic() -> !flies()\n -> bird\n")
	f.Add("\xef\xbb\xbfbird -> flies\n")
	f.Add("a1, !a1 -> a3\n")
	f.Add("b -> " + strings.Repeat("(", 20000) + "a" + strings.Repeat(")", 20000))
	f.Add("a0 <-> a1 <-> a2 <-> a3 <-> a4 <-> a5 -> a6\n")
	f.Fuzz(func(t *testing.T, src string) {
		v := &logic.Vocabulary{}
		rules, err := ReadRules(strings.NewReader(src), "fuzz", v)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		WriteRules(&buf, v, rules)
		back, err := ReadRules(&buf, "fuzz", v)
		if err != nil || len(back) != len(rules) {
			t.Fatalf("round trip of %q: %v", src, err)
		}
	})
}
