package defaults

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

func TestRulesRoundTrip(t *testing.T) {
	src := "# Java tool spelling\nbird(), antarctic() -> !flies()\n\n -> bird\npenguin |~ !flies, swims\nbird -> flies\nbird -> flies\n"
	v := &logic.Vocabulary{}
	ds, err := ReadRules(strings.NewReader(src), "birds.defaults", v)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 5 {
		t.Fatalf("read %d rules, want 5 (duplicates count twice)", len(ds))
	}
	var buf bytes.Buffer
	if err := WriteRules(&buf, v, Rules(ds)); err != nil {
		t.Fatal(err)
	}
	want := "bird, antarctic -> !flies\n -> bird\npenguin -> !flies, swims\nbird -> flies\nbird -> flies\n"
	if buf.String() != want {
		t.Fatalf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
	_, err = ReadRules(strings.NewReader("bird -> flies\nbird flies\n"), "birds.defaults", v)
	if err == nil || !strings.HasPrefix(err.Error(), "birds.defaults:2:") {
		t.Fatalf("error without position: %v", err)
	}
}

// TestClausalRules: the learner's examples must be clausal, and the error
// names the line of the first that is not.
func TestClausalRules(t *testing.T) {
	v := &logic.Vocabulary{}
	ds, err := ReadRules(strings.NewReader("bird -> flies, swims\n\na & !b -> c\n"), "ok.defaults", v)
	if err != nil {
		t.Fatal(err)
	}
	if rs, err := ClausalRules(ds, v); err != nil || len(rs) != 2 || rs[1].Consequent != ds[1].Consequent {
		t.Fatalf("clausal rules refused: %v %v", rs, err)
	}
	for _, c := range []struct{ src, want string }{
		{"bird -> flies\n(a | b) -> c\n", "bad.defaults:2: the learner needs a conjunction of literals before the arrow"},
		{"bird -> flies\nbird -> a & c\n", "bad.defaults:2: the learner needs a disjunction of literals after the arrow"},
		{"\n\na, !a -> c\n", "bad.defaults:3: the antecedent holds in no situation"},
	} {
		ds, err := ReadRules(strings.NewReader(c.src), "bad.defaults", v)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ClausalRules(ds, v)
		var pe *logic.ParseError
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.As(err, &pe) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
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
	if err := WriteClauses(&buf, v, []logic.Clause{c, nil}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "!fold, !call\nfalse\n" {
		t.Fatalf("%q", buf.String())
	}
	back, err := ReadClauses(&buf, "back.hard", v)
	if err != nil || len(back) != 2 {
		t.Fatalf("written clauses read back: %v %v", back, err)
	}
	if bc, ok := back[0].AsClause(); !ok || v.Join(bc, ", ") != "!fold, !call" {
		t.Fatalf("written clause read back as %v", back[0])
	}
	if _, err := ReadClauses(strings.NewReader("a\n!fold, (\n"), "bad.hard", v); err == nil || !strings.HasPrefix(err.Error(), "bad.hard:2:") {
		t.Fatalf("error without position: %v", err)
	}
}

// FuzzRulesRoundTrip: whatever ReadRules accepts, WriteRules writes in a
// form it reads back to as many rules, each the same rule.
func FuzzRulesRoundTrip(f *testing.F) {
	f.Add("bird(), antarctic() -> !flies()\n -> bird\n")
	f.Add("\xef\xbb\xbfbird -> flies\n")
	f.Add("a1, !a1 -> a3\n")
	f.Add("b -> " + strings.Repeat("(", 20000) + "a" + strings.Repeat(")", 20000))
	f.Add("a0 <-> a1 <-> a2 <-> a3 <-> a4 <-> a5 -> a6\n")
	f.Fuzz(func(t *testing.T, src string) {
		v := &logic.Vocabulary{}
		ds, err := ReadRules(strings.NewReader(src), "fuzz", v)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteRules(&buf, v, Rules(ds)); err != nil {
			t.Fatal(err)
		}
		back, err := ReadRules(&buf, "fuzz", v)
		if err != nil || len(back) != len(ds) {
			t.Fatalf("round trip of %q: %v", src, err)
		}
		for i := range ds {
			if a, b := ds[i].String(v), back[i].String(v); a != b {
				t.Fatalf("round trip of %q: rule %d %q came back as %q", src, i+1, a, b)
			}
		}
	})
}
