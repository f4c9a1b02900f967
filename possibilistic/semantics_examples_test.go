package possibilistic

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
)

func readTheory(t *testing.T, src string) *Theory {
	t.Helper()
	th, err := ReadText(context.Background(), strings.NewReader(src), "test", &logic.Vocabulary{})
	if err != nil {
		t.Fatal(err)
	}
	return th
}

func parseF(t *testing.T, v *logic.Vocabulary, src string) *logic.Formula {
	t.Helper()
	f, err := logic.ParseFormula(v, src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestPenguinDrowning is the example: a penguin, an exceptional
// bird, drowns the whole bird level under poss and linear, so even
// "penguins have wings" is lost; lex keeps the bird formula it does not
// contradict; moving it to a level of its own lets linear keep it too.
func TestPenguinDrowning(t *testing.T) {
	const base = "1: !penguin | bird\n1: !penguin | !flies\n0.5: !bird | flies\n"
	for _, tc := range []struct {
		src  string
		want map[Semantics]bool
	}{
		{base + "0.5: !bird | wings\n", map[Semantics]bool{Poss: false, Linear: false, Lex: true}},
		{base + "0.25: !bird | wings\n", map[Semantics]bool{Poss: false, Linear: true, Lex: true}},
	} {
		th := readTheory(t, tc.src)
		rs := reasoner(t, th)
		penguin, wings := parseF(t, th.Vocab, "penguin"), parseF(t, th.Vocab, "wings")
		for _, s := range AllSemantics {
			if got := rs.entails(s, penguin, wings); got != tc.want[s] {
				t.Errorf("%s%v: penguin -> wings entailed %v, want %v", th, s, got, tc.want[s])
			}
			if !rs.entails(s, penguin, parseF(t, th.Vocab, "!flies")) {
				t.Errorf("%s%v: penguin -> !flies not entailed", th, s)
			}
		}
		e := rs.explain(Lex, penguin, wings)
		if len(e.Formulas) != 1 || e.Formulas[0].Formula.String(th.Vocab) != "!bird | flies" {
			t.Errorf("%slex sets aside %v, want !bird | flies", th, e.Formulas)
		}
		if e.Entailed {
			var sup []string
			for _, f := range e.Support {
				sup = append(sup, f.Formula.String(th.Vocab))
			}
			if !slices.Equal(sup, []string{"!penguin | bird", "!bird | wings"}) { // highest level first
				t.Errorf("%slex support %v", th, sup)
			}
		}
		l := rs.explain(Linear, penguin, wings)
		if !slices.Equal(l.SetAside, []int{1}) {
			t.Errorf("%slinear sets aside levels %v, want the level of !bird | flies", th, l.SetAside)
		}
	}
}

// TestPlainSimplifyUnsafeBeyondPoss shows why SimplifyUnder exists: the
// poss simplifications change linear and lex answers.
func TestPlainSimplifyUnsafeBeyondPoss(t *testing.T) {
	for _, tc := range []struct{ src, alpha, beta string }{
		{"0.9: a\n0.8: !a\n0.5: b\n", "a | !a", "b"}, // RemoveDrowned
		{"0.9: a\n0.5: a | c\n", "!a", "c"},          // PropagateUnits
		{"0.9: a\n0.9: b\n0.5: b\n", "!a", "b"},      // RemoveImplied (linear)
	} {
		th := readTheory(t, tc.src)
		alpha, beta := parseF(t, th.Vocab, tc.alpha), parseF(t, th.Vocab, tc.beta)
		if !reasoner(t, th).entails(Linear, alpha, beta) {
			t.Fatalf("%s: %s -> %s not entailed under linear", th, tc.alpha, tc.beta)
		}
		if reasoner(t, th.Simplify()).entails(Linear, alpha, beta) {
			t.Fatalf("%s: Simplify keeps %s -> %s under linear; the example is moot", th, tc.alpha, tc.beta)
		}
		u, err := th.SimplifyUnder(Linear)
		if err != nil || !reasoner(t, u).entails(Linear, alpha, beta) {
			t.Fatalf("%s: SimplifyUnder(linear) loses %s -> %s: %v\n%s", th, tc.alpha, tc.beta, err, u)
		}
	}
	if _, err := New(nil).SimplifyUnder(Semantics(9)); err == nil {
		t.Fatal("SimplifyUnder accepts an invalid semantics")
	}
}

// TestSimplifyUnderPreservesAnswers checks by enumeration that SimplifyUnder(s)
// keeps every answer and every set of preferred worlds under s.
func TestSimplifyUnderPreservesAnswers(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 2))
	shrunk := map[Semantics]int{}
	queries := 8
	if raceOn {
		queries = 2
	}
	for i := range 2000 {
		n := 2 + r.IntN(5)
		th := randTheory(r, n, 5, 10, i%4 == 0)
		if i%2 == 0 { // certain formulas, so that there is something to simplify
			th.AddClause(logic.Clause{logictest.Lit(r, n)}, 1)
		}
		for _, s := range AllSemantics {
			u, err := th.SimplifyUnder(s)
			if err != nil {
				t.Fatal(err)
			}
			if f, _ := u.Size(); f < func() int { g, _ := th.Size(); return g }() {
				shrunk[s]++
			}
			for range queries {
				alpha, beta := randQuery(r, n)
				if bruteEntailsUnder(th, n, s, alpha, beta) != bruteEntailsUnder(u, n, s, alpha, beta) {
					t.Fatalf("theory #%d\n%sSimplifyUnder(%v) changed %s -> %s:\n%s", i, th, s,
						alpha.String(th.Vocab), beta.String(th.Vocab), u)
				}
				p, _, _ := brutePreferred(th, n, s, alpha)
				q, _, _ := brutePreferred(u, n, s, alpha)
				if !slices.EqualFunc(p, q, slices.Equal) {
					t.Fatalf("theory #%d\n%sSimplifyUnder(%v) changed the preferred worlds of %s:\n%s", i, th, s, alpha.String(th.Vocab), u)
				}
			}
		}
	}
	for _, s := range AllSemantics {
		if shrunk[s] < 200 {
			t.Errorf("%v: SimplifyUnder shrank only %d theories", s, shrunk[s])
		}
	}
}

// TestSemanticsEdgeCases runs every query under every semantics on an empty
// theory, with atoms the theory never mentions, and with evidence that
// contradicts the formulas of weight 1.
func TestSemanticsEdgeCases(t *testing.T) {
	for _, src := range []string{"", "1: a\n0.5: b\n0.5: !b | c\n", "0.5: a\n0.5: !a\n"} {
		th := readTheory(t, src)
		rs := reasoner(t, th)
		for _, s := range AllSemantics {
			for _, q := range []struct {
				alpha, beta string
				want        bool
			}{
				{"z", "z", true},
				{"z", "y", false},
				{"z", "y | !y", true},
				{"!a & b", "b", true},
			} {
				alpha, beta := parseF(t, th.Vocab, q.alpha), parseF(t, th.Vocab, q.beta)
				want := q.want
				if q.alpha == "!a & b" && strings.HasPrefix(src, "1: a") {
					want = false // α contradicts the certain formulas: only tautologies
				}
				if got := rs.entails(s, alpha, beta); got != want {
					t.Errorf("%q %v: %s -> %s = %v", src, s, q.alpha, q.beta, got)
				}
				e := rs.explain(s, alpha, beta)
				if e.Entailed != want || rs.decide(s, alpha, beta).Entailed != want {
					t.Errorf("%q %v: explanation of %s -> %s: %+v", src, s, q.alpha, q.beta, e)
				}
				rs.conclude(s, alpha)
				rs.world(s, alpha)
				e.Reason()
			}
		}
	}
}

// TestDecideFillsVerdict: Decide fills the deciding level and what the
// evidence set aside under every semantics, numbered as the theory lists
// its levels (0 the highest), on the theory of the drift report, where
// Decide under poss left them empty (level 0 for an answer decided at
// weight 0.8).
func TestDecideFillsVerdict(t *testing.T) {
	th := readTheory(t, "1: !penguin | bird\n0.8: !penguin | !flies\n0.5: !bird | flies\n0.2: !bird | wings\n")
	rs := reasoner(t, th)
	penguin, notFlies := parseF(t, th.Vocab, "penguin"), parseF(t, th.Vocab, "!flies")
	for _, c := range []struct {
		s     Semantics
		aside []int
	}{
		{Poss, []int{2, 3}}, // drowned: 0.5 and 0.2, at or below inc = 0.5
		{Linear, []int{2}},  // 0.2 is consistent with what is kept above
		{Lex, []int{2}},     // !bird | flies alone is violated
	} {
		v := rs.decide(c.s, penguin, notFlies)
		if !v.Entailed || v.Necessity != 0.8 || v.Level != 1 || v.Inconsistency != 0.5 || !slices.Equal(v.SetAside, c.aside) || v.Semantics != c.s {
			t.Errorf("%v: %+v, want entailed at level 1 (0.8), inconsistency 0.5, set aside %v", c.s, v, c.aside)
		}
	}
}
