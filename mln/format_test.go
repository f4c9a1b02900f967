package mln

import (
	"bytes"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln/maxsat"
)

func TestReadAlchemy(t *testing.T) {
	src := `// a small network
a1
a2
a3
a4
1.5  a1 ^ !a2 => a3
-0.25 a2 v a4   # comment
2e-1 (a1 v a2) ^ !(a3 <=> a4)
a1 => a4.
`
	net, err := ReadAlchemy(strings.NewReader(src), "small.mln")
	if err != nil {
		t.Fatal(err)
	}
	if net.NumAtoms() != 4 || len(net.Formulas) != 4 {
		t.Fatalf("%d atoms, %d formulas", net.NumAtoms(), len(net.Formulas))
	}
	v := net.Vocab
	want := []struct {
		f    string
		w    float64
		hard bool
	}{{"a1 & !a2 -> a3", 1.5, false}, {"a2 | a4", -0.25, false}, {"(a1 | a2) & !(a3 <-> a4)", 0.2, false}, {"a1 -> a4", 0, true}}
	for i, w := range want {
		f := net.Formulas[i]
		if f.F.String(v) != w.f || f.Weight != w.w || f.Hard != w.hard {
			t.Errorf("formula %d: %s %v %v, want %s %v %v", i, f.F.String(v), f.Weight, f.Hard, w.f, w.w, w.hard)
		}
	}
	var buf bytes.Buffer
	if err := WriteAlchemy(&buf, net); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\n1.5  a1 ^ !a2 => a3\n") || !strings.Contains(buf.String(), "\na1 => a4.\n") {
		t.Fatalf("written:\n%s", buf.String())
	}
}

func TestAlchemyErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"a1 ^ a2\n", "m.mln:1:1: expected a weight before the formula, or '.' after it for a hard formula"},
		{"a1\n1.5 a1 ^ \n", "m.mln:2:9: expected formula, found end of text"},
		{"1.5 a1.\n", "m.mln:1:7: a weighted formula must not end with '.' (hard formulas have no weight)"},
		{"1.5a1\n", "m.mln:1:1: expected a weight before the formula, or '.' after it for a hard formula"},
		{"1.5\n", "m.mln:1:1: expected a weight before the formula, or '.' after it for a hard formula"},
		{"  2 a1 ^ (a2\n", "m.mln:1:13: expected ')' closing the '(' at column 10, found end of text"},
		{"1..5 a1\n", "m.mln:1:1: weight \"1..5\" is not a number"},
		{"2 a1 $ a2\n", "m.mln:1:6: expected end of formula or an operator, found \"$\""},
		{"a1\n2 a1 ^ a12 v !a2\n", "m.mln:2:8: atom \"a12\" is not declared (declare it on a line of its own before the formulas)"},
		{"a1\n!a1 => b1.\nb1\n", "m.mln:2:8: atom \"b1\" is not declared (declare it on a line of its own before the formulas)"},
	}
	for _, c := range cases {
		_, err := ReadAlchemy(strings.NewReader(c.src), "m.mln")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v\nwant %s", c.src, err, c.want)
		}
	}
}

func TestAlchemyRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 200; it++ {
		net := randNetwork(r, 1+r.IntN(8))
		if r.IntN(2) == 0 && len(net.Formulas) > 0 {
			net.Formulas[0].Weight = r.NormFloat64() // full-precision weight
		}
		var buf bytes.Buffer
		if err := WriteAlchemy(&buf, net); err != nil {
			t.Fatal(err)
		}
		back, err := ReadAlchemy(&buf, "rt.mln")
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		if back.NumAtoms() != net.NumAtoms() || len(back.Formulas) != len(net.Formulas) {
			t.Fatalf("round trip changed the size:\n%s", buf.String())
		}
		for i, f := range net.Formulas {
			g := back.Formulas[i]
			if g.Hard != f.Hard || !f.Hard && g.Weight != f.Weight || !g.F.Equal(f.F) {
				t.Fatalf("formula %d: %s %v became %s %v", i, f.F.String(net.Vocab), f.Weight, g.F.String(back.Vocab), g.Weight)
			}
		}
	}
}

// TestWCNFRoundTrip writes random networks as WCNF, reads them back, and
// checks that every query has the same optimal real cost.
func TestWCNFRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for it := 0; it < 100; it++ {
		n := 1 + r.IntN(8)
		net := randNetwork(r, n)
		var buf bytes.Buffer
		if err := WriteWCNF(&buf, net); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		back, err := ReadWCNF(strings.NewReader(text), "rt.wcnf")
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if back.Vocab.Name(0) != "a1" {
			t.Fatalf("atom names lost: %v", back.Vocab.Names())
		}
		e1, err1 := NewExact(net)
		e2, err2 := NewExact(back)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for q := 0; q < 3; q++ {
			alpha := logic.Term{logictest.Lit(r, n)}
			_, c1, ok1, _ := e1.MAP(t.Context(), alpha)
			_, c2, ok2, _ := e2.MAP(t.Context(), alpha)
			// The same scale and the same integer costs: nothing rounded.
			if ok1 != ok2 || ok1 && c1 != c2 || e1.Compiled().Decimals != e2.Compiled().Decimals {
				t.Fatalf("network %d, evidence %v: cost %v %v before, %v %v after\n%s", it, alpha, c1, ok1, c2, ok2, text)
			}
		}
	}
}

func TestReadWCNF(t *testing.T) {
	classic := "c comment\np wcnf 3 3 100\n100 1 -2 0\n5 2 0\n3 -1\n 3 0\n"
	net, err := ReadWCNF(strings.NewReader(classic), "x.wcnf")
	if err != nil {
		t.Fatal(err)
	}
	if net.NumAtoms() != 3 || len(net.Formulas) != 3 || !net.Formulas[0].Hard || net.Formulas[2].Weight != 3 {
		t.Fatalf("classic: %+v", net.Formulas)
	}
	modern := "h 1 -2 0\n5 2 0\n"
	net, err = ReadWCNF(strings.NewReader(modern), "x.wcnf")
	if err != nil || !net.Formulas[0].Hard || net.Formulas[1].Weight != 5 {
		t.Fatalf("2022 format: %v %v", net, err)
	}
	cases := []struct{ src, want string }{
		{"p wcnf 2 1 10\n3 1 x 0\n", "x.wcnf:2:5: expected a literal (a non-zero integer) or 0, found \"x\""},
		{"p wcnf 2 1 10\n3 1 3 0\n", "x.wcnf:2:5: variable 3 is above the 2 declared in the p line"},
		{"p cnf 2 1\n", "x.wcnf:1:1: expected 'p wcnf VARS CLAUSES [TOP]'"},
		{"-3 1 0\n", "x.wcnf:1:1: expected a clause weight (a non-negative integer) or 'h', found \"-3\""},
		{"3 1 2\n", "x.wcnf:1:1: expected 0 at the end of the last clause"},
		{"1 1 0\np wcnf 1 1\n", "x.wcnf:2:1: the p line must come once, before the clauses"},
	}
	for _, c := range cases {
		_, err := ReadWCNF(strings.NewReader(c.src), "x.wcnf")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v\nwant %s", c.src, err, c.want)
		}
	}
}

func FuzzReadAlchemy(f *testing.F) {
	f.Add("a1\n1.5  a1 ^ !a2 => a3\n-2 a2 v a3\na1 => a2.\n")
	f.Add("0.5 (a v b) <=> !c // x\n")
	f.Add("a1\n2 a1 ^ a12 v !a2\n") // undeclared atoms
	f.Add("\xef\xbb\xbfa\n2 a\n")
	f.Add("1 a0 <=> a1 <=> a2 <=> a3 <=> a4 <=> a5 <=> a6 <=> a7\n")
	f.Add("1 " + strings.Repeat("(", 20000) + "a" + strings.Repeat(")", 20000) + "\n")
	f.Fuzz(func(t *testing.T, src string) {
		net, err := ReadAlchemy(strings.NewReader(src), "fuzz")
		if err != nil {
			if _, ok := err.(*logic.ParseError); !ok && !strings.HasPrefix(err.Error(), "read fuzz") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteAlchemy(&buf, net); err != nil {
			t.Fatalf("cannot write back what was read from %q: %v", src, err)
		}
		back, err := ReadAlchemy(&buf, "fuzz")
		if err != nil {
			t.Fatalf("round trip of %q: %v\n%s", src, err, buf.String())
		}
		sameNetwork(t, net, back, buf.String())
	})
}

// sameNetwork fails unless a and b have the same atoms, in order, and the
// same formulas with the same weights, bit for bit.
func sameNetwork(t *testing.T, a, b *Network, text string) {
	t.Helper()
	if !slices.Equal(a.Vocab.Names(), b.Vocab.Names()) || len(a.Formulas) != len(b.Formulas) {
		t.Fatalf("round trip changed the atoms or the formulas:\n%s", text)
	}
	for i, f := range a.Formulas {
		g := b.Formulas[i]
		if f.Hard != g.Hard || !f.Hard && math.Float64bits(f.Weight) != math.Float64bits(g.Weight) || !f.F.Equal(g.F) {
			t.Fatalf("formula %d: %s %v became %s %v\n%s", i+1, f.F.String(a.Vocab), f.Weight, g.F.String(b.Vocab), g.Weight, text)
		}
	}
}

func FuzzReadWCNF(f *testing.F) {
	f.Add("p wcnf 3 2 10\n10 1 -2 0\n3 3 0\n")
	f.Add("h 1 2 0\n4 -1 0\n")
	f.Add("\xef\xbb\xbfp wcnf 1 1 10\n2 1 0\n")
	f.Add("c scale 10000000000000\nc atom 1 a\nc atom 2 b\np wcnf 3 3 99999999999999\n1234567891234 1 0\n1 -2 0\n99999999999999 -3 1 0\n")
	f.Add("c scale 1000\nc atom 1 x\n5 1 1 -1 0\n7 1 0\n")
	f.Add("c atom 1 !x\n1 1 0\n")
	f.Add("p wcnf 2 5 10\n10 1 -2 0\n")
	f.Fuzz(func(t *testing.T, src string) {
		net, err := ReadWCNF(strings.NewReader(src), "fuzz")
		if err != nil {
			if _, ok := err.(*logic.ParseError); !ok && !strings.HasPrefix(err.Error(), "read fuzz") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		if net.NumAtoms() > 1<<12 || len(net.Formulas) > 64 {
			return
		}
		var buf bytes.Buffer
		if err := WriteWCNF(&buf, net); err != nil {
			if strings.Contains(err.Error(), "does not fit in 64-bit") {
				return // refused, not rounded
			}
			t.Fatalf("cannot write back what was read from %q: %v", src, err)
		}
		back, err := ReadWCNF(bytes.NewReader(buf.Bytes()), "again")
		if err != nil {
			t.Fatalf("round trip of %q: %v\n%s", src, err, buf.String())
		}
		sameCosts(t, net, back, buf.String())
	})
}

// sameCosts fails unless a and b (which may add auxiliary atoms after a's)
// have the same atom names and, at the same cost scale, give every world of
// a's atoms the same feasibility and least integer cost (brute force, for
// at most 14 variables in all).
func sameCosts(t *testing.T, a, b *Network, text string) {
	t.Helper()
	n := a.NumAtoms()
	if b.NumAtoms() < n || !slices.Equal(a.Vocab.Names(), b.Vocab.Names()[:n]) {
		t.Fatalf("atom names %v became %v:\n%s", a.Vocab.Names(), b.Vocab.Names(), text)
	}
	ca, err1 := Compile(a)
	cb, err2 := Compile(b)
	if err1 != nil || err2 != nil {
		t.Fatalf("compile: %v, %v\n%s", err1, err2, text)
	}
	if ca.Decimals != cb.Decimals {
		t.Fatalf("scale 10^%d became 10^%d:\n%s", ca.Decimals, cb.Decimals, text)
	}
	if ca.Problem.NumVars > 14 || cb.Problem.NumVars > 14 {
		return
	}
	least := func(p *maxsat.Problem) map[uint64]int64 {
		best := map[uint64]int64{}
		w := make([]bool, p.NumVars)
		for m := uint64(0); m < 1<<p.NumVars; m++ {
			for i := range w {
				w[i] = m>>i&1 == 1
			}
			c, ok := p.Cost(w)
			key := m & (1<<n - 1)
			if old, seen := best[key]; ok && (!seen || c < old) {
				best[key] = c
			}
		}
		return best
	}
	if ba, bb := least(ca.Problem), least(cb.Problem); !maps.Equal(ba, bb) {
		t.Fatalf("least costs per world %v became %v:\n%s", ba, bb, text)
	}
}
