package defaults

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

const birdsCL = `// InfOCF's example base
signature
   b, p, f, w

conditionals
birds005{
   (f | b),
   (!f | p),   /* penguins
                  do not fly */
   (b | p),
   (w | b)
}
`

func TestReadCL(t *testing.T) {
	v := &logic.Vocabulary{}
	bases, err := ReadCL(strings.NewReader(birdsCL), "birds.cl", v)
	if err != nil {
		t.Fatal(err)
	}
	if len(bases) != 1 || bases[0].Name != "birds005" || len(bases[0].Defaults) != 4 {
		t.Fatalf("bases %+v", bases)
	}
	if got := v.Names(); !slices.Equal(got, []string{"b", "p", "f", "w"}) {
		t.Errorf("signature %v", got)
	}
	d := bases[0].Defaults[1]
	if d.String(v) != "p -> !f" || d.Describe(v) != "birds.cl:8: (!f | p)" {
		t.Errorf("second conditional: %q, %q", d.String(v), d.Describe(v))
	}
	qs, err := ReadCLQ(strings.NewReader("(f|p),\n(w|p), // trailing comma\n(!f, b | p)"), "birds.clq", v)
	if err != nil {
		t.Fatal(err)
	}
	r := mustReasoner(t, bases[0])
	want := map[Semantics][]bool{
		SystemP:       {false, false, true},
		Rational:      {false, false, true},
		Lexicographic: {false, true, true},
	}
	for s, ws := range want {
		for i, q := range qs {
			if got := explain(t, r, s, q).Entailed; got != ws[i] {
				t.Errorf("%s under %v: %v, want %v", q.Text, s, got, ws[i])
			}
		}
	}
}

func TestReadCLForms(t *testing.T) {
	v := &logic.Vocabulary{}
	src := "signature a,b,c,a-b_2 conditionals one{(a|Top),((a;!b),c|!(a;b))} conditionals two{} three{(Bottom;c|a-b_2)}"
	bases, err := ReadCL(strings.NewReader(src), "x.cl", v)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range bases {
		got = append(got, b.Name)
		for _, d := range b.Defaults {
			got = append(got, d.Antecedent.String(v)+" |~ "+d.Consequent.String(v))
		}
	}
	want := []string{"one", "true |~ a", "!(a | b) |~ (a | !b) & c", "two", "three", "a-b_2 |~ false | c"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	d, err := parseConditional(v, "( !a | b,c )")
	if err != nil || d.Text != "( !a | b,c )" || d.String(v) != "b, c -> !a" {
		t.Errorf("parseConditional: %+v %v", d, err)
	}
}

func TestReadCLErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"", "x.cl:1:1: expected 'signature' starting a .cl knowledge base, found end of file"},
		{"signature\n a, b\n", "x.cl:3:1: expected ',' or 'conditionals' after the signature, found end of file"},
		{"signature a,\nconditionals kb{}", "x.cl:2:1: \"conditionals\" cannot name an atom"},
		{"signature a, Top conditionals kb{}", "x.cl:1:14: \"Top\" cannot name an atom"},
		{"signature a conditionals kb{(a|a)", "x.cl:1:34: expected ',' or '}' after a conditional, found end of file"},
		{"signature a conditionals kb{(a|a) (a|a)}", "x.cl:1:35: expected ',' or '}' after a conditional, found '('"},
		{"signature a conditionals kb{(a,a)}", "x.cl:1:33: expected '|' between the consequent and the antecedent"},
		{"signature a conditionals kb{(a|(a;a)}", "x.cl:1:37: expected ')' closing the conditional opened at column 29, found '}'"},
		{"signature a conditionals kb{(a|!)}", "x.cl:1:33: expected a formula, found ')'"},
		{"signature a, b conditionals kb{(a|b -> c)}", "x.cl:1:37: expected ')' closing the conditional"},
		{"signature a, b conditionals kb{(a|b&c)}", "x.cl:1:36: expected ')' closing the conditional opened at column 32, found \"&\""},
		{"signature a conditionals {(a|a)}", "x.cl:1:26: expected the name of a belief base, found '{'"},
		{"signature a conditionals kb (a|a)", "x.cl:1:29: expected '{' after the belief base name kb"},
		{"signature a /* open\n conditionals", "x.cl:1:13: comment '/*' is never closed"},
		{"signature a\nconditionals kb{\n (true|a)}", "x.cl:3:3: \"true\" cannot name an atom"},
		{"signature a conditionals kb{(a|a)} é", "x.cl:1:36: expected the name of a belief base, found \"é\""},
		{"signature a, b\nconditionals kb{(a|b), (c|a)}", "x.cl:2:25: atom \"c\" is not in the signature"},
	}
	for _, c := range cases {
		_, err := ReadCL(strings.NewReader(c.src), "x.cl", &logic.Vocabulary{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
	_, err := ReadCLQ(strings.NewReader("(a|b),\n(a b)"), "q.clq", &logic.Vocabulary{})
	if err == nil || !strings.Contains(err.Error(), "q.clq:2:4: expected '|'") {
		t.Errorf("clq: %v", err)
	}
}

// equivalent reports, by enumerating worlds, whether f and g agree.
func equivalent(n int, f, g *logic.Formula) bool {
	same := true
	logic.ForEachWorld(n, func(w []bool) bool {
		same = f.Eval(w) == g.Eval(w)
		return same
	})
	return same
}

// TestCLRoundTrip: writing random bases in .cl and reading them back gives
// equivalent defaults, and the same Z-ordering.
func TestCLRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for range 500 {
		b := randBase(r)
		b.Background = nil
		var buf bytes.Buffer
		if err := WriteCL(&buf, b); err != nil {
			t.Fatal(err)
		}
		v := &logic.Vocabulary{}
		bases, err := ReadCL(&buf, "rt.cl", v)
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		if !slices.Equal(v.Names(), b.Vocab.Names()) || len(bases) != 1 || len(bases[0].Defaults) != len(b.Defaults) {
			t.Fatalf("round trip changed the base:\n%s", buf.String())
		}
		n := v.Len()
		for i, d := range bases[0].Defaults {
			e := b.Defaults[i]
			if !equivalent(n, d.Antecedent, e.Antecedent) || !equivalent(n, d.Consequent, e.Consequent) {
				t.Fatalf("default %d: %s became %s", i, e.String(b.Vocab), d.Text)
			}
		}
		o1, err1 := ZOrdering(bgctx, b)
		o2, err2 := ZOrdering(bgctx, bases[0])
		if (err1 == nil) != (err2 == nil) || err1 == nil && !slices.EqualFunc(o1.Levels, o2.Levels, slices.Equal) {
			t.Fatalf("Z-orderings differ after a round trip:\n%s", buf.String())
		}
	}
	b := mustBase(t, "a -> b\n", "a")
	if err := WriteCL(&bytes.Buffer{}, b); err == nil {
		t.Error("WriteCL accepted background knowledge")
	}
	b = mustBase(t, "a' -> b\n")
	if err := WriteCL(&bytes.Buffer{}, b); err == nil {
		t.Error("WriteCL accepted the atom a'")
	}
}

func FuzzReadCL(f *testing.F) {
	f.Add(birdsCL)
	f.Add("signature a,b conditionals kb{(a|Top),((a;!b),b|!(a;b))} two{}")
	f.Add("signature a /* x */ conditionals kb{(Bottom|a)}")
	f.Add("signature a, b\nconditionals kb{(a|b), (c|a)}") // an atom outside the signature
	f.Add("\xef\xbb\xbfsignature a conditionals kb{(a|Top)}")
	f.Add("signature a conditionals kb{(" + strings.Repeat("(", 3000) + "a" + strings.Repeat(")", 3000) + "|Top)}")
	f.Fuzz(func(t *testing.T, src string) {
		v := &logic.Vocabulary{}
		bases, err := ReadCL(strings.NewReader(src), "f.cl", v)
		if err != nil {
			if _, ok := err.(*logic.ParseError); !ok {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		for _, b := range bases {
			var buf bytes.Buffer
			if err := WriteCL(&buf, b); err != nil {
				t.Fatalf("cannot write back what was read: %v", err)
			}
			text := buf.String()
			v2 := &logic.Vocabulary{}
			again, err := ReadCL(&buf, "again.cl", v2)
			if err != nil || len(again) != 1 || len(again[0].Defaults) != len(b.Defaults) || !slices.Equal(v2.Names(), v.Names()) {
				t.Fatalf("re-reading %q: %v", text, err)
			}
			// Written again, the same text: a fixed point.
			var buf2 bytes.Buffer
			if err := WriteCL(&buf2, again[0]); err != nil || buf2.String() != text && b.Name == again[0].Name {
				t.Fatalf("written twice differently:\n%s\n%s", text, buf2.String())
			}
			if n := v.Len(); n <= 10 {
				for i, d := range again[0].Defaults {
					e := b.Defaults[i]
					if !equivalent(n, d.Antecedent, e.Antecedent) || !equivalent(n, d.Consequent, e.Consequent) {
						t.Fatalf("default %d: %s became %s", i+1, e.Text, d.Text)
					}
				}
			}
		}
	})
}

func FuzzReadCLQ(f *testing.F) {
	f.Add("(f|p),\n(w|p)")
	f.Add("(((!r3),((r5,r6);r1)) | ((!(r0;r2)),r8)),")
	f.Add("\xef\xbb\xbf(f|p)")
	f.Add("(" + strings.Repeat("!", 20000) + "f|p)")
	f.Fuzz(func(t *testing.T, src string) {
		qs, err := ReadCLQ(strings.NewReader(src), "f.clq", &logic.Vocabulary{})
		if err != nil {
			if _, ok := err.(*logic.ParseError); !ok {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		for _, q := range qs {
			if q.Pos.Line < 1 || !strings.HasPrefix(q.Text, "(") || !strings.HasSuffix(q.Text, ")") {
				t.Fatalf("query %+v lacks its position or text", q)
			}
		}
	})
}

func FuzzReadRules(f *testing.F) {
	f.Add(penguins)
	f.Add("a, b |~ c | (d -> e)\n# comment\n -> x\n")
	f.Add("\xef\xbb\xbfbird -> flies\npenguin -> bird\npenguin -> !flies\n")
	f.Add("a1, !a1 -> a3\n")
	f.Fuzz(func(t *testing.T, src string) {
		ds, err := ReadRules(strings.NewReader(src), "f.rules", &logic.Vocabulary{})
		if err != nil {
			if _, ok := err.(*logic.ParseError); !ok && !strings.Contains(err.Error(), "f.rules") {
				t.Fatalf("error %v names no file", err)
			}
			return
		}
		for _, d := range ds {
			if d.Pos.File != "f.rules" || d.Pos.Line < 1 || d.Text == "" {
				t.Fatalf("default %+v lacks its position or text", d)
			}
		}
	})
}

// TestCLDepth: nesting beyond logic.MaxDepth in a .cl or .clq file is a
// positioned error, not a stack overflow; a byte-order mark is skipped.
func TestCLDepth(t *testing.T) {
	const n = 3 * logic.MaxDepth
	for _, src := range []string{
		"(" + strings.Repeat("(", n) + "a" + strings.Repeat(")", n) + "|Top)",
		"(" + strings.Repeat("!", n) + "a|Top)",
	} {
		_, err := ReadCLQ(strings.NewReader("\n"+src), "deep.clq", &logic.Vocabulary{})
		if err == nil || !strings.HasPrefix(err.Error(), "deep.clq:2:") || !strings.Contains(err.Error(), "nested more than") {
			t.Errorf("%.20q…: %v", src, err)
		}
	}
	qs, err := ReadCLQ(strings.NewReader(logic.BOM+"(f|p)"), "bom.clq", &logic.Vocabulary{})
	if err != nil || len(qs) != 1 || qs[0].Text != "(f|p)" {
		t.Errorf("a .clq file with a byte-order mark: %v %+v", err, qs)
	}
}

// TestLooksLikeCLWithBOM: a .cl knowledge base behind a byte-order mark is
// still recognised as one (the reader skips the mark; detection must too).
func TestLooksLikeCLWithBOM(t *testing.T) {
	src := "signature a, b\nconditionals kb{(a|b)}\n"
	if !LooksLikeCL([]byte(src)) || !LooksLikeCL([]byte("\xef\xbb\xbf"+src)) {
		t.Fatal("a .cl base with a byte-order mark is not recognised")
	}
}

func TestSelectBase(t *testing.T) {
	one, two := &Base{Name: "one"}, &Base{Name: "two"}
	if b, err := SelectBase([]*Base{one}, ""); b != one || err != nil {
		t.Errorf("the only base: %v, %v", b, err)
	}
	if b, err := SelectBase([]*Base{one, two}, "two"); b != two || err != nil {
		t.Errorf("a named base: %v, %v", b, err)
	}
	var ce *BaseChoiceError
	if _, err := SelectBase([]*Base{one, two}, ""); !errors.As(err, &ce) || ce.Explain("x.cl", "--base") != "x.cl holds 2 belief bases (one, two); choose one with --base" {
		t.Errorf("no name among two: %v", err)
	}
	if _, err := SelectBase([]*Base{one}, "three"); !errors.As(err, &ce) || ce.Explain("x.cl", "--base") != `x.cl holds no belief base "three"; it has one` {
		t.Errorf("an unknown name: %v", err)
	}
}
