package logic

import (
	"math"
	"strings"
	"testing"
)

func TestComparisonAtoms(t *testing.T) {
	cases := []struct{ src, want string }{
		{"age <= 30", "age <= 30"},
		{"age<=30.0", "age <= 30"},
		{"age > 30", "age > 30"},
		{"!age <= 30", "age > 30"},
		{"!(age > 30)", "!age > 30"},
		{"odor=foul", "odor=foul"},
		{"odor = foul", "odor=foul"},
		{"odor != foul", "odor!=foul"},
		{"!odor=foul", "odor!=foul"},
		{`label="<=50K"`, `label="<=50K"`},
		{`label = "yes"`, "label=yes"},
		{`"native country"=Peru | x <= -0.5`, `"native country"=Peru | x <= -0.5`},
		{"a1=1, label=-", "a1=1 | label=-"},
		{"x <= 1e5", "x <= 100000"},
		{"x <= 1e-9", "x <= 1e-09"},
		{"odor=foul -> label=p", "odor=foul -> label=p"},
		{"odor=foul=>label=p", "odor=foul -> label=p"},
		{"a<=>b", "a <-> b"},
		{"bird() & x=y.z", "bird & x=y.z"},
		{`v="a \"q\" b"`, `v="a \"q\" b"`},
		{"v=été", "v=été"},
	}
	for _, c := range cases {
		v := &Vocabulary{}
		f, err := ParseFormula(v, c.src)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if got := f.String(v); got != c.want {
			t.Errorf("%q printed %q, want %q", c.src, got, c.want)
		}
		g, err := ParseFormula(v, f.String(v))
		if err != nil || !g.Equal(f) {
			t.Errorf("%q: printed form %q does not read back (%v)", c.src, f.String(v), err)
		}
	}
}

func TestComparisonSameAtom(t *testing.T) {
	v := &Vocabulary{}
	f, err := ParseFormula(v, "age <= 30 | age<=30.0 | !age > 30 | age<=3e1")
	if err != nil {
		t.Fatal(err)
	}
	if v.Len() != 1 || v.Name(0) != "age<=30" {
		t.Fatalf("atoms %q, want the one atom age<=30", v.Names())
	}
	if got, want := f.String(v), "age <= 30 | age <= 30 | !age > 30 | age <= 30"; got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
}

func TestComparisonErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"age <= abc", `1:8: expected a finite number after "<=", found "abc"`},
		{"age > inf", `1:7: expected a finite number after ">", found "inf"`},
		{`age <= "3"`, `1:8: expected a finite number`},
		{"odor = ", `1:8: expected a value after "="`},
		{`label="<=50K`, "1:7: a quoted value that does not end"},
		{`"col`, "1:1: a quoted name that does not end"},
		{`"col" & b`, "1:1: a quoted column name must be followed by"},
		{"a < 3", `1:3: expected end of formula or an operator, found "<"`},
	}
	for _, c := range cases {
		_, err := ParseFormula(&Vocabulary{}, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

func TestParseComparison(t *testing.T) {
	for _, name := range []string{"age<=30", "odor=foul", `label="<=50K"`, `"a b"="c d"`} {
		c, ok := ParseComparison(name)
		if !ok || c.Name() != name {
			t.Errorf("%q: %+v %v", name, c, ok)
		}
	}
	for _, name := range []string{"bird", "a=>b", "x>3", "x!=3", "=3", "x="} {
		if c, ok := ParseComparison(name); ok {
			t.Errorf("%q taken as a comparison %+v", name, c)
		}
	}
	if got := ThresholdName("capital gain", 6849); got != `"capital gain"<=6849` {
		t.Errorf("ThresholdName: %q", got)
	}
	if c, _ := ParseComparison(ThresholdName("x", -0.125)); c.Threshold() != -0.125 {
		t.Errorf("threshold %v", c.Threshold())
	}
}

// FuzzComparisonRoundTrip checks that any column, value and threshold make
// an atom whose literals print and read back as the same literal.
func FuzzComparisonRoundTrip(f *testing.F) {
	f.Add("label", "<=50K", 6849.0, false)
	f.Add("native country", "United-States", -0.5, true)
	f.Add("x", "", 1e300, false)
	f.Add(`a"b\`, "->", 1e-300, true)
	f.Add("a", "b=>c", math.SmallestNonzeroFloat64, false)
	f.Fuzz(func(t *testing.T, col, val string, x float64, neg bool) {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
		for _, name := range []string{EqualityName(col, val), ThresholdName(col, x)} {
			c, ok := ParseComparison(name)
			if !ok {
				t.Fatalf("%q is not read as a comparison", name)
			}
			if c.Column != col {
				t.Fatalf("%q: column %q, want %q", name, c.Column, col)
			}
			if c.Op == OpLe && c.Threshold() != x {
				t.Fatalf("%q: threshold %v, want %v", name, c.Threshold(), x)
			}
			if c.Op == OpEq && c.Value != val {
				t.Fatalf("%q: value %q, want %q", name, c.Value, val)
			}
			v := &Vocabulary{}
			l := MkLit(v.Intern(name), neg)
			text := v.LitString(l) + " | z"
			g, err := ParseFormula(v, text)
			if err != nil {
				t.Fatalf("%q: %v", text, err)
			}
			cl, ok := g.AsClause()
			if !ok || len(cl) != 2 || !cl.Contains(l) || v.Len() != 2 {
				t.Fatalf("%q read back as %v over %q", text, cl, v.Names())
			}
		}
	})
}

// FuzzParseComparisons checks that any text that parses prints as text
// that parses to the same formula.
func FuzzParseComparisons(f *testing.F) {
	for _, s := range []string{"age <= 30 | odor!=foul", `label="<=50K" -> x > -1`, "a=b=>c", `"q\"" = "\x00"`, "x<=>y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v := &Vocabulary{}
		g, err := ParseFormula(v, src)
		if err != nil {
			return
		}
		text := g.String(v)
		h, err := ParseFormula(v, text)
		if err != nil || !h.Equal(g) {
			t.Fatalf("%q printed as %q, which reads back as %v (%v)", src, text, h, err)
		}
	})
}
