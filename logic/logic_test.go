package logic

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func randFormula(r *rand.Rand, nAtoms, depth int) *Formula {
	if depth == 0 || r.IntN(4) == 0 {
		switch r.IntN(12) {
		case 0:
			return True()
		case 1:
			return False()
		}
		return AtomF(Atom(r.IntN(nAtoms)))
	}
	sub := func() *Formula { return randFormula(r, nAtoms, depth-1) }
	switch r.IntN(6) {
	case 0:
		return Not(sub())
	case 1:
		return And(sub(), sub(), sub())
	case 2:
		return Or(sub(), sub())
	case 3:
		return Implies(sub(), sub())
	case 4:
		return Iff(sub(), sub())
	default:
		n := 1 + r.IntN(4)
		fs := make([]*Formula, n)
		for i := range fs {
			fs[i] = sub()
		}
		return AtLeast(r.IntN(n+2), fs...)
	}
}

func testVocab(n int) *Vocabulary {
	v := &Vocabulary{}
	for i := range n {
		v.Intern(string(rune('a' + i)))
	}
	return v
}

func TestFormulaRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	v := testVocab(6)
	for i := range 5000 {
		f := randFormula(r, 6, 4)
		s := f.String(v)
		g, err := ParseFormula(v, s)
		if err != nil {
			t.Fatalf("#%d: parse %q: %v", i, s, err)
		}
		if !f.Equal(g) {
			t.Fatalf("#%d: %q parsed back as %q", i, s, g.String(v))
		}
	}
}

func TestParseForms(t *testing.T) {
	v := &Vocabulary{}
	cases := []struct{ src, want string }{
		{"bird, !flies", "bird | !flies"},
		{"bird(), !flies()", "bird | !flies"},
		{"a & b | c", "a & b | c"},
		{"a -> b -> c", "a -> b -> c"}, // right-associative: no parentheses (TestPrintDepthWithinLimit)
		{"(a -> b) -> c", "(a -> b) -> c"},
		{"!(a | b) <-> c", "!(a | b) <-> c"},
		{"a && b || !c", "a & b | !c"},
		{"The_opponent_check-raised_on_the_flop -> call", "The_opponent_check-raised_on_the_flop -> call"},
		{"a->b", "a -> b"},
		{"atleast(2, a, b, !c)", "atleast(2, a, b, !c)"},
		{"true | false", "true | false"},
		{"~a", "!a"},
	}
	for _, c := range cases {
		f, err := ParseFormula(v, c.src)
		if err != nil {
			t.Errorf("ParseFormula(%q): %v", c.src, err)
			continue
		}
		if got := f.String(v); got != c.want {
			t.Errorf("ParseFormula(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

func TestParseRule(t *testing.T) {
	v := &Vocabulary{}
	cases := []struct{ src, ante, cons, str string }{
		{"bird, antarctic -> !flies", "bird & antarctic", "!flies", "bird, antarctic -> !flies"},
		{" -> bird", "true", "bird", " -> bird"},
		{"|~ bird", "true", "bird", " -> bird"},
		{"penguin |~ !flies, swims", "penguin", "!flies | swims", "penguin -> !flies, swims"},
		{"(a -> b) |~ c", "a -> b", "c", "(a -> b) |~ c"},
		{"a -> b |~ c", "a -> b", "c", "(a -> b) |~ c"},
		{"bird() -> flies()", "bird", "flies", "bird -> flies"},
		{"a & (b | c) -> d", "a & (b | c)", "d", "a & (b | c) |~ d"},
	}
	for _, c := range cases {
		r, err := ParseRule(v, c.src)
		if err != nil {
			t.Errorf("ParseRule(%q): %v", c.src, err)
			continue
		}
		if a := r.Antecedent.String(v); a != c.ante {
			t.Errorf("ParseRule(%q) antecedent %q, want %q", c.src, a, c.ante)
		}
		if b := r.Consequent.String(v); b != c.cons {
			t.Errorf("ParseRule(%q) consequent %q, want %q", c.src, b, c.cons)
		}
		s := r.String(v)
		if s != c.str {
			t.Errorf("ParseRule(%q).String() = %q, want %q", c.src, s, c.str)
		}
		back, err := ParseRule(v, s)
		if err != nil || !back.Antecedent.Equal(r.Antecedent) || !back.Consequent.Equal(r.Consequent) {
			t.Errorf("rule %q does not round-trip through %q (%v)", c.src, s, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	v := &Vocabulary{}
	at := Position{File: "birds.theory", Line: 7, Col: 6}
	cases := []struct{ src, want string }{
		{"a &", "birds.theory:7:9: expected formula, found end of text"},
		{"(a | b", "birds.theory:7:12: expected ')' closing the '(' at column 6, found end of text"},
		{"a b", "birds.theory:7:8: expected end of formula or an operator, found \"b\""},
		{"a $ b", "birds.theory:7:8: expected end of formula or an operator, found \"$\""},
		{"", "birds.theory:7:6: expected formula, found end of text"},
		{"a |~ b", "birds.theory:7:8: unexpected '|~': a default rule is not a formula here"},
	}
	for _, c := range cases {
		_, err := ParseFormulaAt(v, at, c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseFormulaAt(%q) error %v, want %q", c.src, err, c.want)
		}
	}
	if _, err := ParseRule(v, "bird flies"); err == nil || !strings.Contains(err.Error(), "expected '->' or '|~'") {
		t.Errorf("rule without arrow: %v", err)
	}
	if _, err := ParseRule(v, "bird ->"); err == nil || !strings.Contains(err.Error(), "1:8: expected consequent") {
		t.Errorf("rule without consequent: %v", err)
	}
	if _, err := ParseClause(v, "a & b"); err == nil || !strings.Contains(err.Error(), "expected a clause") {
		t.Errorf("clause with and: %v", err)
	}
}

// extends reports whether some assignment of the atoms n..n+aux-1 completes w
// into a model of cs.
func extends(w []bool, n, aux int, cs []Clause) bool {
	full := make([]bool, n+aux)
	copy(full, w)
	found := false
	ForEachWorld(aux, func(x []bool) bool {
		copy(full[n:], x)
		for _, c := range cs {
			if !c.Holds(full) {
				return true
			}
		}
		found = true
		return false
	})
	return found
}

func TestCNFAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 5
	for i := range 1500 {
		f := randFormula(r, n, 3)
		next := Atom(n)
		fresh := func() Atom { next++; return next - 1 }
		cs := CNF(f, fresh)
		aux := int(next) - n
		if aux > 14 {
			continue
		}
		plain := CNF(f, nil)
		ForEachWorld(n, func(w []bool) bool {
			want := f.Eval(w)
			if got := extends(w, n, aux, cs); got != want {
				t.Fatalf("#%d %s: Tseitin CNF gives %v at %v, want %v", i, f.String(testVocab(n)), got, w, want)
			}
			if got := allHold(plain, w); got != want {
				t.Fatalf("#%d %s: distributed CNF gives %v at %v, want %v", i, f.String(testVocab(n)), got, w, want)
			}
			return true
		})
	}
}

func allHold(cs []Clause, w []bool) bool {
	for _, c := range cs {
		if !c.Holds(w) {
			return false
		}
	}
	return true
}

func TestAtLeastEncodings(t *testing.T) {
	for n := 0; n <= 6; n++ {
		lits := make([]Lit, n)
		for i := range lits {
			lits[i] = MkLit(Atom(i), i%3 == 1)
		}
		for k := -1; k <= n+1; k++ {
			next := Atom(n)
			fresh := func() Atom { next++; return next - 1 }
			seq := atLeastClauses(k, lits, fresh)
			aux := int(next) - n
			sub := atLeastClauses(k, lits, nil)
			ForEachWorld(n, func(w []bool) bool {
				cnt := 0
				for _, l := range lits {
					if l.Holds(w) {
						cnt++
					}
				}
				want := cnt >= k
				if got := extends(w, n, aux, seq); got != want {
					t.Fatalf("sequential at-least-%d of %d at %v: %v, want %v", k, n, w, got, want)
				}
				if got := allHold(sub, w); got != want {
					t.Fatalf("subset at-least-%d of %d at %v: %v, want %v", k, n, w, got, want)
				}
				return true
			})
		}
	}
}

func TestClauseHelpers(t *testing.T) {
	c, taut := Normalize(Clause{Pos(3), Neg(1), Pos(3)})
	if taut || len(c) != 2 || c[0] != Neg(1) || c[1] != Pos(3) {
		t.Fatalf("Normalize: %v %v", c, taut)
	}
	if _, taut := Normalize([]Lit{Pos(1), Neg(1)}); !taut {
		t.Fatal("a | !a not detected as tautology")
	}
	if !(Clause{Neg(1)}).Subsumes(c) || c.Subsumes(Clause{Neg(1)}) {
		t.Fatal("Subsumes")
	}
	v := NewVocabulary("bird", "flies")
	if s := (Clause{Neg(0), Pos(1)}).String(v); s != "!bird | flies" {
		t.Fatalf("Clause.String = %q", s)
	}
	if v.Name(5) != "_5" {
		t.Fatalf("Name of auxiliary atom = %q", v.Name(5))
	}
}

func FuzzParseFormula(f *testing.F) {
	for _, s := range []string{"a", "bird, !flies", "(a -> b) <-> !c", "atleast(2, a, b)", "a & (b | c", "x()",
		strings.Repeat("(", 20000) + "a" + strings.Repeat(")", 20000), strings.Repeat("a -> ", 20000) + "a",
		"((a0 | a1) | a2) | a3", "a0 <-> a1 <-> a2 <-> a3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v := &Vocabulary{}
		g, err := ParseFormula(v, src)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		s := g.String(v)
		h, err := ParseFormula(v, s)
		if err != nil || !g.Equal(h) {
			t.Fatalf("%q printed as %q does not parse back: %v", src, s, err)
		}
	})
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"bird -> flies", " -> bird", "a, b |~ c, d", "(a -> b) |~ c", "a1, !a1 -> a3",
		"b -> " + strings.Repeat("!", 20000) + "a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v := &Vocabulary{}
		r, err := ParseRule(v, src)
		if err != nil {
			return
		}
		s := r.String(v)
		back, err := ParseRule(v, s)
		if err != nil || !back.Antecedent.Equal(r.Antecedent) || !back.Consequent.Equal(r.Consequent) {
			t.Fatalf("%q printed as %q does not parse back: %v", src, s, err)
		}
	})
}

// TestCNFNestedIff: nested biconditionals, whose negation normal form
// doubles at every level, give clauses linear in the formula with fresh
// atoms, and the same models on the original atoms (brute force).
func TestCNFNestedIff(t *testing.T) {
	chain := func(n int) *Formula {
		f := AtomF(0)
		for i := 1; i < n; i++ {
			f = Iff(f, AtomF(Atom(i)))
		}
		return f
	}
	for _, n := range []int{2, 5, 9} {
		f := chain(n)
		next := Atom(n)
		cs := CNF(f, func() Atom { next++; return next - 1 })
		aux := int(next) - n
		ForEachWorld(n, func(w []bool) bool {
			if got, want := extends(w, n, aux, cs), f.Eval(w); got != want {
				t.Fatalf("chain of %d at %v: %v, want %v", n, w, got, want)
			}
			return true
		})
	}
	next := Atom(400)
	if cs := CNF(chain(400), func() Atom { next++; return next - 1 }); len(cs) > 8*400 {
		t.Fatalf("a chain of 400 biconditionals gives %d clauses", len(cs))
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 300 {
		f := randFormula(r, 4, 5)
		next := Atom(4)
		cs := CNF(f, func() Atom { next++; return next - 1 })
		aux := int(next) - 4
		if aux > 16 {
			continue
		}
		ForEachWorld(4, func(w []bool) bool {
			if got, want := extends(w, 4, aux, cs), f.Eval(w); got != want {
				t.Fatalf("#%d %s at %v: %v, want %v", i, f.String(testVocab(4)), got, w, want)
			}
			return true
		})
	}
}

// TestParseDepth: nesting beyond MaxDepth is a positioned syntax error, not
// a stack overflow (10^6 parentheses must not crash the program), and
// nesting up to it parses.
func TestParseDepth(t *testing.T) {
	v := &Vocabulary{}
	const n = 3 * MaxDepth
	deep := strings.Repeat("(", n) + "a" + strings.Repeat(")", n)
	for _, src := range []string{
		deep,
		strings.Repeat("!", n) + "a",
		strings.Repeat("a -> ", n) + "a",
		strings.Repeat("a <-> ", n) + "a",
		strings.Repeat("atleast(1, ", n) + "a" + strings.Repeat(")", n),
	} {
		_, err := ParseFormulaAt(v, Position{File: "deep.theory", Line: 3}, src)
		var se *ParseError
		if !errors.As(err, &se) || se.Pos.Line != 3 || se.Pos.Col < MaxDepth || !strings.Contains(se.Err.Error(), "nested more than") {
			t.Errorf("%.20q…: %v", src, err)
		}
	}
	if _, err := ParseRule(v, "b -> "+deep); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("deep consequent of a rule: %v", err)
	}
	ok := strings.Repeat("(", MaxDepth-1) + "a | b" + strings.Repeat(")", MaxDepth-1)
	if f, err := ParseFormula(v, ok); err != nil || f.Op != OpOr {
		t.Errorf("%d nested parentheses: %v", MaxDepth-1, err)
	}
	if f, err := ParseFormula(v, strings.Repeat("a -> ", MaxDepth-1)+"a"); err != nil || f.Op != OpImplies {
		t.Errorf("a chain of %d implications: %v", MaxDepth, err)
	}
}

// TestParseFlattensNested: operands of the same connective merge however
// they are parenthesised, as And and Or build them.
func TestParseFlattensNested(t *testing.T) {
	v := &Vocabulary{}
	const n = 3000
	left := strings.Repeat("(", n) + "a0"
	right := ""
	for i := 1; i <= n; i++ {
		left += fmt.Sprintf(" | a%d)", i)
		right += fmt.Sprintf("a%d | (", i-1)
	}
	right += fmt.Sprintf("a%d", n) + strings.Repeat(")", n)
	for _, src := range []string{left, right, "(a & (b & c)) & ((d))", "((a | b) & c) | (d | e)"} {
		f, err := ParseFormula(v, src)
		if err != nil {
			t.Fatal(err)
		}
		want := rebuild(f)
		if !f.Equal(want) {
			t.Errorf("%.30q… parsed as %.60s, want %.60s", src, f.String(v), want.String(v))
		}
	}
	f, _ := ParseFormula(v, left)
	if len(f.Args) != n+1 {
		t.Errorf("left-nested disjunction of %d has %d operands", n+1, len(f.Args))
	}
}

// rebuild builds f again with the constructors, which flatten.
func rebuild(f *Formula) *Formula {
	args := make([]*Formula, len(f.Args))
	for i, g := range f.Args {
		args[i] = rebuild(g)
	}
	switch f.Op {
	case OpAnd:
		return And(args...)
	case OpOr:
		return Or(args...)
	case OpNot:
		return Not(args[0])
	case OpImplies:
		return Implies(args[0], args[1])
	case OpIff:
		return Iff(args[0], args[1])
	case OpAtLeast:
		return AtLeast(f.K, args...)
	}
	return f
}

// refNNF is negation normal form written the obvious way, merging operands
// level by level (quadratic on long chains), as a reference for NNF.
func refNNF(f *Formula, neg bool) *Formula {
	switch f.Op {
	case OpAnd, OpOr:
		op := f.Op
		if neg {
			op = OpAnd + OpOr - op
		}
		var kept []*Formula
		for _, g := range f.Args {
			h := refNNF(g, neg)
			if h.Op == OpTrue && op == OpOr || h.Op == OpFalse && op == OpAnd {
				return h
			}
			if h.Op == OpTrue || h.Op == OpFalse {
				continue
			}
			kept = append(kept, h)
		}
		return nary(op, kept)
	case OpImplies:
		return refNNF(Or(Not(f.Args[0]), f.Args[1]), neg)
	case OpNot:
		return refNNF(f.Args[0], !neg)
	case OpIff:
		a, b := f.Args[0], f.Args[1]
		if neg {
			return refNNF(Or(And(a, Not(b)), And(Not(a), b)), false)
		}
		return refNNF(And(Or(Not(a), b), Or(a, Not(b))), false)
	case OpAtLeast:
		g := &Formula{Op: OpAtLeast, K: f.K, Args: make([]*Formula, len(f.Args))}
		for i, h := range f.Args {
			g.Args[i] = h
		}
		return nnf(g, neg) // only its operands' forms differ, checked above
	}
	return nnf(f, neg)
}

func TestNNFMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 3000 {
		f := randFormula(r, 4, 5)
		for _, neg := range []bool{false, true} {
			if got, want := nnf(f, neg), refNNF(f, neg); !got.Equal(want) {
				v := testVocab(4)
				t.Fatalf("#%d NNF of %s (neg %v) is %s, want %s", i, f.String(v), neg, got.String(v), want.String(v))
			}
		}
	}
}

// FuzzCNF checks the clausal form with fresh atoms against the formula on
// every world of its atoms (brute force), for small parsed formulas.
func FuzzCNF(f *testing.F) {
	for _, s := range []string{"a0 <-> a1 <-> a2 <-> a3", "(a & b) | (c & d) | (e & f)", "!(a -> (b <-> !c))",
		"atleast(2, a <-> b, c, !d)", "((a | b) <-> (c & d)) <-> e", "a1, !a1 -> a3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v := &Vocabulary{}
		g, err := ParseFormula(v, src)
		if err != nil || v.Len() > 6 || g.Size() > 40 {
			return
		}
		n := v.Len()
		next := Atom(n)
		cs := CNF(g, func() Atom { next++; return next - 1 })
		aux := int(next) - n
		if aux > 12 {
			return
		}
		ForEachWorld(n, func(w []bool) bool {
			if got, want := extends(w, n, aux, cs), g.Eval(w); got != want {
				t.Fatalf("%q at %v: clauses %v, formula %v", src, w, got, want)
			}
			return true
		})
	})
}

// parseDepth parses src as ParseFormula does and returns the deepest
// nesting the parser counted.
func parseDepth(v *Vocabulary, src string) (*Formula, int, error) {
	p := newParser(v, Position{}, src, OpOr)
	f, err := p.whole()
	return f, p.deepest, err
}

// TestPrintDepthWithinLimit: a formula prints as text that nests no deeper
// than the text it was read from, so that whatever strata reads it can
// write back readable: a chain of '->' (right-associative) and of '<->'
// (left-associative) prints without parentheses. Depth is the nesting the
// parser counts in the printed text.
func TestPrintDepthWithinLimit(t *testing.T) {
	v := &Vocabulary{}
	chain := func(n int, sep string) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString(sep)
			}
			fmt.Fprintf(&b, "a%d", i%7)
		}
		return b.String()
	}
	for _, n := range []int{5001, 7500, MaxDepth, MaxDepth + 1, MaxDepth + 2} {
		for _, sep := range []string{" -> ", " <-> "} {
			src := chain(n, sep)
			f, err := ParseFormula(v, src)
			if n-1 > MaxDepth {
				if err == nil {
					t.Fatalf("%d operands of %q: read", n, sep)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%d operands of %q: %v", n, sep, err)
			}
			out := f.String(v)
			g, depth, err := parseDepth(v, out)
			if err != nil || !g.Equal(f) {
				t.Fatalf("%d operands of %q printed as %.40q…: %v", n, sep, out, err)
			}
			if depth != n-1 || f.Depth() != n-1 {
				t.Errorf("%d operands of %q: printed text nests %d deep, Depth %d, want %d", n, sep, depth, f.Depth(), n-1)
			}
			// Printed again, the text is the same: a fixed point.
			if again := g.String(v); again != out {
				t.Errorf("%d operands of %q: printed twice differently", n, sep)
			}
		}
	}
	// Random formulas: Depth is the nesting the parser counts in the
	// printed text, which is never deeper than the text printed with a
	// parenthesis around every operand.
	r := rand.New(rand.NewPCG(3, 4))
	v = testVocab(5)
	for i := range 20000 {
		f := randFormula(r, 5, 1+r.IntN(7))
		s := f.String(v)
		g, depth, err := parseDepth(v, s)
		if err != nil || !g.Equal(f) {
			t.Fatalf("#%d: %q: %v", i, s, err)
		}
		if depth != f.Depth() {
			t.Fatalf("#%d: %q nests %d deep, Depth says %d", i, s, depth, f.Depth())
		}
	}
}

// TestPrintChainsWithoutParentheses: the printed forms of chains and of
// their mixtures with the other connectives.
func TestPrintChainsWithoutParentheses(t *testing.T) {
	v := testVocab(5)
	for _, c := range []struct{ in, want string }{
		{"a -> b -> c", "a -> b -> c"},
		{"a -> (b -> c)", "a -> b -> c"},
		{"(a -> b) -> c", "(a -> b) -> c"},
		{"a <-> b <-> c", "a <-> b <-> c"},
		{"a <-> (b <-> c)", "a <-> (b <-> c)"},
		{"(a -> b) <-> (c -> d)", "a -> b <-> c -> d"},
		{"a -> (b <-> c)", "a -> (b <-> c)"},
		{"(a <-> b) -> c", "(a <-> b) -> c"},
		{"!(a -> b) | c", "!(a -> b) | c"},
		{"(a | b) & c", "(a | b) & c"},
	} {
		f, err := ParseFormula(v, c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.String(v); got != c.want {
			t.Errorf("%s printed as %s, want %s", c.in, got, c.want)
		}
	}
	// Operands that are one and the same formula keep their own grouping.
	ab, _ := ParseFormula(v, "a -> b")
	if got := Implies(ab, ab).String(v); got != "(a -> b) -> a -> b" {
		t.Errorf("Implies(x, x) printed as %s", got)
	}
}

// FuzzPrintDepth: what the parser reads, the printer writes as text that
// reads back equal and nests within MaxDepth, no deeper than the text read
// but for the parentheses around an implication in a ',' list; Depth says
// how deep it is.
func FuzzPrintDepth(f *testing.F) {
	for _, s := range []string{"a -> b -> c", "(a <-> b) <-> c", "a <-> (b <-> c)", "!(a & (b | !c)) -> d",
		"atleast(2, a -> b, !(c <-> d))", "((a))", "a, b -> c", strings.Repeat("a -> ", 6000) + "a",
		strings.Repeat("a <-> ", 6000) + "a", strings.Repeat("!(", 3000) + "a" + strings.Repeat(")", 3000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v := &Vocabulary{}
		g, read, err := parseDepth(v, src)
		if err != nil {
			return
		}
		s := g.String(v)
		h, printed, err := parseDepth(v, s)
		if err != nil || !g.Equal(h) {
			t.Fatalf("%q printed as %q does not read back: %v", src, s, err)
		}
		if printed > MaxDepth || printed > read+1 || printed != g.Depth() {
			t.Fatalf("%q (%d deep) printed as %q, %d deep; Depth %d", src, read, s, printed, g.Depth())
		}
	})
}

// TestAtLeastCounterIsSmall: atleast(k, x1..xn) takes n·min(k, n−k+1)
// counter registers, whichever side is counted, so that atleast(2, …) of
// 5000 operands takes 10,000 fresh atoms and not the 25 million of counting
// the 4998 that may be false.
func TestAtLeastCounterIsSmall(t *testing.T) {
	for _, c := range []struct{ k, n int }{{2, 5000}, {4999, 5000}, {3, 7}, {100, 1000}} {
		lits := make([]Lit, c.n)
		for i := range lits {
			lits[i] = Pos(Atom(i))
		}
		next := Atom(c.n)
		atLeastClauses(c.k, lits, func() Atom { next++; return next - 1 })
		if fresh, want := int(next)-c.n, counterCells(c.k, c.n); fresh > want || want != c.n*min(c.k, c.n-c.k+1) {
			t.Errorf("atleast(%d) of %d: %d fresh atoms, %d registers counted", c.k, c.n, fresh, want)
		}
	}
}

// TestAtLeastBeyondTheLimitIsAnError: a formula whose atleasts need more
// counter registers than MaxCounterCells is a parse error at the atleast
// that passes the limit, or at the formula when only their sum does; one
// just within the limit parses.
func TestAtLeastBeyondTheLimitIsAnError(t *testing.T) {
	args := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, ", a%d", i)
		}
		return b.String()
	}
	for _, c := range []struct{ src, want string }{
		{"b | atleast(2500" + args(5000) + ")", "f:1:5: atleast(2500, …) of 5000 operands needs a counter of 12,500,000 registers in CNF (5000 × min(2500, 2501))"},
		{"atleast(500" + args(1200) + ") | atleast(500" + args(1200) + ")", "f:1:1: the atleast operators of this formula need 1,200,000 counter registers in CNF, more than the 1,048,576"},
		{"atleast(450" + args(1200) + ") <-> b", "f:1:1: the atleast operators of this formula need 1,080,000 counter registers"},
	} {
		_, err := ParseFormulaAt(&Vocabulary{}, Position{File: "f", Line: 1, Col: 1}, c.src)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.40s…: %v, want %s…", c.src, err, c.want)
		}
	}
	if _, err := ParseFormula(&Vocabulary{}, "atleast(512"+args(2048)+")"); err != nil { // 2048 × 512 = 1,048,576
		t.Errorf("just within the limit: %v", err)
	}
}

// TestTermHash: equal terms hash alike, and the hash tells apart terms that
// differ in a literal, its sign or its place (the groupings that use it
// compare the terms again on a collision, so a clash costs time, not an
// answer).
func TestTermHash(t *testing.T) {
	a := Term{Pos(1), Neg(2), Pos(7)}
	if a.Hash() != slices.Clone(a).Hash() {
		t.Fatal("equal terms hash differently")
	}
	for _, b := range []Term{{Pos(1), Pos(2), Pos(7)}, {Pos(1), Neg(2)}, {Neg(2), Pos(1), Pos(7)}, {}} {
		if a.Hash() == b.Hash() {
			t.Errorf("%v and %v hash alike", a, b)
		}
	}
}
