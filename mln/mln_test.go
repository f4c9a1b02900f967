package mln

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
)

// randNetwork returns a network over n atoms with conjunctions (like the
// learned ones), clauses, arbitrary formulas, weights of both signs with up
// to three decimals, and sometimes a hard formula.
func randNetwork(r *rand.Rand, n int) *Network {
	net := &Network{Vocab: logic.NewVocabulary((&Table{Cols: n}).Names()...)}
	for i := r.IntN(3 * n); i >= 0; i-- {
		var f *logic.Formula
		switch r.IntN(3) {
		case 0:
			t := make(logic.Term, 1+r.IntN(3))
			for j := range t {
				t[j] = logictest.Lit(r, n)
			}
			f = logic.TermF(t)
		case 1:
			c := make(logic.Clause, 1+r.IntN(3))
			for j := range c {
				c[j] = logictest.Lit(r, n)
			}
			f = logic.ClauseF(c)
		default:
			f = logictest.Formula(r, n, 3)
		}
		w := float64(r.IntN(4001)-2000) / 1000
		net.Formulas = append(net.Formulas, Formula{F: f, Weight: w})
	}
	if r.IntN(3) == 0 {
		net.Formulas = append(net.Formulas, Formula{F: logictest.Formula(r, n, 2), Hard: true})
	}
	return net
}

// bruteMAP returns the best score of the worlds of α and whether every
// world of α with that score (to 1e-9) satisfies β.
func bruteMAP(net *Network, alpha logic.Term, beta logic.Lit) (best float64, any, entailed bool) {
	best = math.Inf(-1)
	logic.ForEachWorld(net.NumAtoms(), func(w []bool) bool {
		if s, ok := net.Score(w); ok && alpha.Holds(w) {
			best, any = max(best, s), true
		}
		return true
	})
	entailed = true
	logic.ForEachWorld(net.NumAtoms(), func(w []bool) bool {
		if s, ok := net.Score(w); ok && alpha.Holds(w) && s > best-1e-9 && !beta.Holds(w) {
			entailed = false
		}
		return true
	})
	return best, any, entailed
}

func TestMAPAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	entailed, notEntailed := 0, 0
	for it := 0; it < 300; it++ {
		n := 2 + r.IntN(11)
		net := randNetwork(r, n)
		ex, err := NewExact(net)
		if err != nil {
			t.Fatal(err)
		}
		if ex.Compiled().Decimals > 3 {
			t.Fatalf("weights with 3 decimals compiled with %d", ex.Compiled().Decimals)
		}
		cg, _ := NewExact(net)
		cg.bb.NodeLimit = 1 // every query goes to the core-guided solver
		cg.ve = nil
		ve, _ := NewExact(net)
		ve.bb.NodeLimit = 1 // every query goes to bucket elimination
		if ve.ve == nil {
			t.Fatalf("network %d of %d atoms too wide for elimination", it, n)
		}
		ap, err := NewApprox(net, WalkOptions{Flips: 3000, Seed: uint64(it)})
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 4; q++ {
			alpha := logic.Term{logictest.Lit(r, n)}
			if r.IntN(2) == 0 {
				alpha = append(alpha, logictest.Lit(r, n))
			}
			beta := logictest.Lit(r, n)
			best, any, want := bruteMAP(net, alpha, beta)
			w, cost, ok, err := ex.MAP(t.Context(), alpha)
			if err != nil || ok != any {
				t.Fatalf("network %d: MAP ok=%v err=%v, brute force finds a world: %v", it, ok, err, any)
			}
			got, err := Entails(t.Context(), ex, alpha, beta)
			if err != nil || got.Holds() != want || (got == NoWorld) == any {
				t.Fatalf("network %d: Entails(%v, %v) = %v, brute force %v", it, alpha, beta, got, want)
			}
			if got, err := Entails(t.Context(), cg, alpha, beta); err != nil || got.Holds() != want || (got == NoWorld) == any {
				t.Fatalf("network %d: core-guided Entails(%v, %v) = %v, brute force %v", it, alpha, beta, got, want)
			}
			if got, err := Entails(t.Context(), ve, alpha, beta); err != nil || got.Holds() != want || (got == NoWorld) == any {
				t.Fatalf("network %d: elimination Entails(%v, %v) = %v, brute force %v", it, alpha, beta, got, want)
			}
			if vw, vcost, vok, err := ve.MAP(t.Context(), alpha); err != nil || vok != any || vok && (vcost != cost || !alpha.Holds(vw)) {
				t.Fatalf("network %d: elimination MAP %v %d %v, exact %d", it, vok, vcost, err, cost)
			}
			if !ok {
				continue
			}
			if s, _ := net.Score(w); math.Abs(s-best) > 1e-9 || !alpha.Holds(w) {
				t.Fatalf("network %d: MAP world scores %v, best is %v", it, s, best)
			}
			if c := net.Cost(w); math.Abs(c-float64(cost)/ex.Compiled().Scale) > 1e-9 {
				t.Fatalf("network %d: integer cost %d/%v, real cost %v", it, cost, ex.Compiled().Scale, c)
			}
			if aw, acost, aok, _ := ap.MAP(t.Context(), alpha); aok {
				if acost < cost {
					t.Fatalf("network %d: MaxWalkSAT cost %d beats the exact %d", it, acost, cost)
				}
				if s, _ := net.Score(aw); s > best+1e-9 {
					t.Fatalf("network %d: MaxWalkSAT world scores above the optimum", it)
				}
			}
			if want {
				entailed++
			} else {
				notEntailed++
			}
		}
	}
	if entailed < 100 || notEntailed < 100 {
		t.Fatalf("only %d entailed and %d non-entailed queries: the test is too one-sided", entailed, notEntailed)
	}
}

// TestCompileExactWeights: every weight becomes an integer cost exactly,
// at the decimal scale of its most precise weight, whatever that precision;
// NaN is refused.
func TestCompileExactWeights(t *testing.T) {
	v := logic.NewVocabulary("a", "b")
	net := &Network{Vocab: v, Formulas: []Formula{
		{F: logic.AtomF(0), Weight: 1.234567},
		{F: logic.AtomF(1), Weight: -2.5},
	}}
	c, err := Compile(net)
	if err != nil || c.Decimals != 6 || c.Scale != 1e6 {
		t.Fatalf("6 decimals: %+v %v", c, err)
	}
	if c.Problem.Soft[0].Cost != 1234567 || c.Problem.Soft[1].Cost != 2500000 {
		t.Fatalf("costs %+v", c.Problem.Soft)
	}
	for w, want := range map[float64][2]int64{
		1.0 / 3:           {3333333333333333, 25000000000000000},
		0.1234567891234:   {1234567891234, 25000000000000},
		1e-12:             {1, 2500000000000},
		0.0000000014:      {14, 25000000000},
		123456.7890123456: {1234567890123456, 25000000000},
	} {
		net.Formulas[0].Weight = w
		c, err := Compile(net)
		if err != nil || c.Problem.Soft[0].Cost != want[0] || c.Problem.Soft[1].Cost != want[1] {
			t.Errorf("weight %v: costs %+v, want %v: %v", w, c.Problem.Soft, want, err)
		}
	}
	net.Formulas[0].Weight = math.NaN()
	if _, err := Compile(net); err == nil {
		t.Fatal("NaN weight compiled")
	}
	net.Formulas[0].Weight = 1e-300 // would need 300 decimals
	if _, err := Compile(net); err == nil || !strings.Contains(err.Error(), "would round the small weights") {
		t.Fatalf("1e-300 next to 2.5: %v", err)
	}
	for w, d := range map[float64]int{1: 0, 0.5: 1, 1.234567: 6, 1e-7: 7, 123456.25: 2, -0.001: 3, 1e20: 0, 1e-12: 12} {
		if got := decimals(w); got != d {
			t.Errorf("decimals(%v) = %d, want %d", w, got, d)
		}
	}
}

// TestMAPTinyWeights: weights below 10⁻⁹ decide MAP as larger ones do; at
// 9 decimals, 0.0000000014 a and 0.0000000006 !a both rounded to 10⁻⁹ and
// tied, so that a was not MAP-entailed.
func TestMAPTinyWeights(t *testing.T) {
	net, err := ReadAlchemy(strings.NewReader("a\n0.0000000014 a\n0.0000000006 !a\n"), "tiny.mln")
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewExact(net)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		l    logic.Lit
		want Entailment
	}{{logic.Pos(0), Entailed}, {logic.Neg(0), NotEntailed}} {
		if got, err := Entails(t.Context(), e, nil, c.l); err != nil || got != c.want {
			t.Errorf("|~MAP %v: %v %v, want %v", c.l, got, err, c.want)
		}
	}
}

// A huge weight must not lower the cost scale until the small weights
// round to 0, which would make MAP entailment answer wrongly.
func TestCompileRefusesToRoundSmallWeights(t *testing.T) {
	net, err := ReadAlchemy(strings.NewReader("a\nc\n0.0004 a\n0.0003 !a\n1e15 c\n"), "r.mln")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewExact(net); err == nil || !strings.Contains(err.Error(), "would round the small weights") {
		t.Fatalf("compiled 1e15 next to 0.0004: %v", err)
	}
	net.Formulas[2].Weight = 1e11 // 1e11·10⁴ fits: exact
	e, err := NewExact(net)
	if err != nil {
		t.Fatalf("1e11 next to 0.0004: %v", err)
	}
	if got, err := Entails(t.Context(), e, logic.Term{logic.Pos(1)}, logic.Pos(0)); err != nil || got != Entailed {
		t.Fatalf("c |~MAP a with 0.0004 a, 0.0003 !a: %v %v", got, err)
	}
}

// From evidence no world satisfies, Entails says so
// instead of "yes" for β and ¬β alike.
func TestEntailsNoWorld(t *testing.T) {
	net, err := ReadAlchemy(strings.NewReader("a\nb\n!a.\n1 b\n"), "x.mln")
	if err != nil {
		t.Fatal(err)
	}
	for _, approx := range []bool{false, true} {
		e, err := EngineFactory(net, approx, WalkOptions{Flips: 100})()
		if err != nil {
			t.Fatal(err)
		}
		for _, beta := range []logic.Lit{logic.Pos(1), logic.Neg(1)} {
			if got, err := Entails(t.Context(), e, logic.Term{logic.Pos(0)}, beta); err != nil || got != NoWorld || got.String() != "no world satisfies the evidence" {
				t.Errorf("approx=%v: a |~MAP %v: %v %v", approx, beta, got, err)
			}
		}
		if got, err := Entails(t.Context(), e, logic.Term{logic.Neg(0)}, logic.Pos(1)); err != nil || got != Entailed {
			t.Errorf("approx=%v: !a |~MAP b: %v %v", approx, got, err)
		}
	}
}

// TestIffChains: chains of biconditionals, whose negation normal form
// doubles with every link, compile to a linear problem (30 links never
// finished) and give the brute-force MAP answers.
func TestIffChains(t *testing.T) {
	chain := func(n int) *logic.Formula {
		f := logic.AtomF(0)
		for i := 1; i < n; i++ {
			f = logic.Iff(f, logic.AtomF(logic.Atom(i)))
		}
		return f
	}
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{3, 6, 9} {
		for _, hard := range []bool{false, true} {
			net := &Network{Vocab: logic.NewVocabulary()}
			for i := range n {
				net.Vocab.Intern(fmt.Sprintf("a%d", i))
			}
			net.Formulas = []Formula{{F: chain(n), Weight: 1.5, Hard: hard}, {F: logic.AtomF(0), Weight: -0.5}}
			if hard {
				net.Formulas[0].Weight = 0
			}
			ex, err := NewExact(net)
			if err != nil {
				t.Fatal(err)
			}
			for range 6 {
				alpha, beta := logic.Term{logictest.Lit(r, n)}, logictest.Lit(r, n)
				_, _, want := bruteMAP(net, alpha, beta)
				if got, err := Entails(t.Context(), ex, alpha, beta); err != nil || (got == Entailed) != want {
					t.Fatalf("chain of %d (hard %v): Entails(%v, %v) = %v (%v), brute force %v", n, hard, alpha, beta, got, err, want)
				}
			}
		}
	}
	net := &Network{Vocab: logic.NewVocabulary()}
	for i := range 30 {
		net.Vocab.Intern(fmt.Sprintf("a%d", i))
	}
	net.Formulas = []Formula{{F: chain(30), Weight: 1}, {F: logic.Not(chain(30)), Hard: true}}
	c, err := Compile(net)
	if err != nil || len(c.Problem.Hard) > 40*30 {
		t.Fatalf("a chain of 30: %v, %d hard clauses", err, len(c.Problem.Hard))
	}
}
