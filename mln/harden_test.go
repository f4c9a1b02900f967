package mln

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestWeightsReadBackExactly: Alchemy and WCNF both give back every weight
// as the same float64, however many digits it has: 0.1234567891234 stays
// itself and 1e-12 is kept, not rounded to 9 decimals.
func TestWeightsReadBackExactly(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	weights := []float64{0.1234567891234, 1e-12, 0.0000000014, 0.0000000006, 2.5, 0.1 + 0.2, 1.0 / 3}
	for range 20 {
		weights = append(weights, math.Round(r.NormFloat64()*1e5)/1e6)
	}
	v := &logic.Vocabulary{}
	net := &Network{Vocab: v}
	for i, w := range weights {
		net.Formulas = append(net.Formulas, Formula{F: logic.AtomF(v.Intern("a" + string(rune('a'+i%26)) + string(rune('a'+i/26)))), Weight: w})
	}
	var wc bytes.Buffer
	if err := WriteWCNF(&wc, net); err != nil {
		t.Fatal(err)
	}
	back, err := ReadWCNF(&wc, "w.wcnf")
	if err != nil {
		t.Fatal(err)
	}
	var al bytes.Buffer
	if err := WriteAlchemy(&al, net); err != nil {
		t.Fatal(err)
	}
	backA, err := ReadAlchemy(&al, "w.mln")
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Formulas) != len(weights) || len(backA.Formulas) != len(weights) {
		t.Fatalf("%d and %d formulas read back, want %d", len(back.Formulas), len(backA.Formulas), len(weights))
	}
	for i, w := range weights {
		// WCNF has no negative weights: w a is written as the clause !a
		// of weight |w|.
		l, _ := back.Formulas[i].F.AsLit()
		if got := back.Formulas[i].Weight; got != math.Abs(w) || l.IsNeg() != (w < 0) {
			t.Errorf("WCNF: weight %v read back as %v on %v", w, got, l)
		}
		if got := backA.Formulas[i].Weight; got != w {
			t.Errorf("Alchemy: weight %v read back as %v", w, got)
		}
	}
	// One weight of full precision: WCNF takes as many decimals as it has.
	for range 20 {
		w := r.Float64()
		net := &Network{Vocab: logic.NewVocabulary("a"), Formulas: []Formula{{F: logic.AtomF(0), Weight: w}}}
		var buf bytes.Buffer
		if err := WriteWCNF(&buf, net); err != nil {
			t.Fatal(err)
		}
		back, err := ReadWCNF(&buf, "w.wcnf")
		if err != nil || back.Formulas[0].Weight != w {
			t.Errorf("WCNF: weight %v: %v %v", w, back.Formulas, err)
		}
	}
	// Extreme floats, which Alchemy writes as decimals too.
	for _, w := range []float64{5e-324, 1e-300, math.MaxFloat64, -1.5e300} {
		net := &Network{Vocab: logic.NewVocabulary("a"), Formulas: []Formula{{F: logic.AtomF(0), Weight: w}}}
		var buf bytes.Buffer
		if err := WriteAlchemy(&buf, net); err != nil {
			t.Fatal(err)
		}
		back, err := ReadAlchemy(&buf, "x.mln")
		if err != nil || back.Formulas[0].Weight != w {
			t.Errorf("Alchemy: weight %v: %v %v", w, back, err)
		}
	}
}

// TestReadWCNFRefuses: a truncated file, and 'c atom' names that are not
// atoms or name two variables, are errors; a converted file could not be
// read back otherwise (mln convert wrote an Alchemy file declaring !x).
func TestReadWCNFRefuses(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"p wcnf 2 3 10\n10 1 -2 0\n3 2 0\n", "x.wcnf:1:1: the p line declares 3 clauses, the file has 2 (is it truncated?)"},
		{"p wcnf 2 1 10\n10 1 -2 0\n3 2 0\n", "x.wcnf:1:1: the p line declares 1 clauses, the file has 2"},
		{"c atom 1 !x\np wcnf 1 1 10\n3 1 0\n", `x.wcnf:1:10: "!x" is not an atom name`},
		{"c atom 1 a|b\np wcnf 1 1 10\n3 1 0\n", `x.wcnf:1:10: "a|b" is not an atom name`},
		{"c atom 1 true\np wcnf 1 1 10\n3 1 0\n", `x.wcnf:1:10: "true" is not an atom name`},
		{"c atom 1 a\nc atom 2 a\np wcnf 2 1 10\n3 1 0\n", "x.wcnf:2:10: atom name a is given to variables 1 and 2"},
		{"c atom 1 a\nc atom 1 b\np wcnf 2 1 10\n3 1 0\n", "x.wcnf:2:8: variable 1 is named twice (a and b)"},
		{"c atom 3 a\np wcnf 2 1 10\n3 1 0\n", "x.wcnf:2:8: 2 variables, but variable 3 is named"},
		{"c atom 3 a\n3 1 0\n", "x.wcnf:1:1: atom name for variable 3, which no clause or p line has"},
		{"c scale -2\n3 1 0\n", `x.wcnf:1:9: expected the cost scale, a positive number, found "-2"`},
		{"c atom 1.5 a\n3 1 0\n", `x.wcnf:1:8: expected the variable an atom name is for, found "1.5"`},
		{"c scale 10\nc scale 10\n3 1 0\n", "x.wcnf:2:1: a second 'c scale' line"},
	} {
		_, err := ReadWCNF(strings.NewReader(c.src), "x.wcnf")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v\nwant %s", c.src, err, c.want)
		}
	}
	// Free-text comments stay free.
	if _, err := ReadWCNF(strings.NewReader("c atom names follow\nc scale of things: none\nc scale x\n3 1 0\n"), "x.wcnf"); err != nil {
		t.Errorf("free comments: %v", err)
	}
}

// TestWriteAlchemyRefuses: what would not read back is an error of the
// writer, not an unreadable file.
func TestWriteAlchemyRefuses(t *testing.T) {
	deep := logic.AtomF(0)
	for range logic.MaxDepth + 1 {
		deep = logic.Not(deep)
	}
	for _, c := range []struct {
		net  *Network
		want string
	}{
		{&Network{Vocab: logic.NewVocabulary("v"), Formulas: []Formula{{F: logic.AtomF(0), Weight: 1}}}, `"v" is not an atom name`},
		{&Network{Vocab: logic.NewVocabulary("!x")}, `"!x" is not an atom name`},
		{&Network{Vocab: logic.NewVocabulary("a"), Formulas: []Formula{{F: deep, Weight: 1}}}, "formula 1 nests 10001 levels deep"},
		{&Network{Vocab: logic.NewVocabulary("a"), Formulas: []Formula{{F: logic.AtomF(0), Weight: math.Inf(1)}}}, "not a finite number"},
	} {
		var buf bytes.Buffer
		err := WriteAlchemy(&buf, c.net)
		if err == nil || !strings.Contains(err.Error(), c.want) || buf.Len() > 0 {
			t.Errorf("%v: %v, %d bytes written", c.net.Vocab.Names(), err, buf.Len())
		}
	}
}

// TestAlchemyNumberLikeAtoms: an atom named like a number (1e5) reads back
// at the start of a hard formula, which a weight would otherwise swallow;
// declarations that are not atoms (v, a number) are refused.
func TestAlchemyNumberLikeAtoms(t *testing.T) {
	v := logic.NewVocabulary("1e5", "b")
	net := &Network{Vocab: v, Formulas: []Formula{
		{F: logic.Or(logic.AtomF(0), logic.AtomF(1)), Hard: true},
		{F: logic.AtomF(0), Weight: 2},
	}}
	var buf bytes.Buffer
	if err := WriteAlchemy(&buf, net); err != nil {
		t.Fatal(err)
	}
	back, err := ReadAlchemy(&buf, "n.mln")
	if err != nil || len(back.Formulas) != 2 || !back.Formulas[0].Hard || !back.Formulas[0].F.Equal(net.Formulas[0].F) || back.Formulas[1].Weight != 2 {
		t.Fatalf("%v %+v", err, back)
	}
	for _, c := range []struct{ src, want string }{
		{"v\n", `n.mln:1:1: "v" cannot name an atom`},
		{"a\n123\n", `n.mln:2:1: "123" cannot name an atom`},
		{"a\n2 a.\n", "n.mln:2:4: a weighted formula must not end with '.'"},
	} {
		if _, err := ReadAlchemy(strings.NewReader(c.src), "n.mln"); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v", c.src, err)
		}
	}
}
