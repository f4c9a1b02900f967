package eval_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

const penguinTheory = `1: !penguin | bird
1: !penguin | !flies
0.5: !bird | flies
0.5: !bird | wings
`

// TestDecidesPenguin checks the formulas of the penguin theory on known
// defaults: the exception !penguin | !flies is needed for penguin -> !flies
// and, by drowning the level of 0.5, keeps penguin -> flies and (under
// poss, not lex) penguin -> wings from being covered.
func TestDecidesPenguin(t *testing.T) {
	th := readTheory(t, penguinTheory)
	v := th.Vocab
	pos := rules(t, v, "bird -> flies", "penguin -> !flies", "penguin -> bird", "bird -> wings")
	neg := rules(t, v, "penguin -> flies", "bird -> !flies", "penguin -> wings")
	type want struct {
		level, index int
		sem          possibilistic.Semantics
		decided      []eval.Decision
		right, wrong int
	}
	for _, w := range []want{
		// !bird | flies is needed for bird -> flies, and it is what
		// clashes with penguin: without it penguin -> wings is covered.
		{1, 0, possibilistic.Poss, []eval.Decision{{Index: 0, Positive: true, Covered: true}, {Index: 2}}, 2, 0},
		{1, 1, possibilistic.Poss, []eval.Decision{{Index: 3, Positive: true, Covered: true}}, 1, 0},
		{0, 1, possibilistic.Poss, []eval.Decision{{Index: 1, Positive: true, Covered: true}, {Index: 0}, {Index: 2}}, 3, 0},
		// Under lex penguins keep their wings with or without the
		// exception: penguin -> wings, a negative, is covered either way.
		{0, 1, possibilistic.Lex, []eval.Decision{{Index: 1, Positive: true, Covered: true}, {Index: 0}}, 2, 0},
		// penguin -> bird decides penguin -> wings under lex: covered, wrong.
		{0, 0, possibilistic.Lex, []eval.Decision{{Index: 2, Positive: true, Covered: true}, {Index: 2, Covered: true}}, 1, 1},
	} {
		d, err := eval.Decides(context.Background(), th, w.level, w.index, w.sem, pos, neg)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(d.List, w.decided) || d.Right != w.right || d.Wrong != w.wrong || d.Examples != 7 {
			t.Errorf("%s under %s: %+v, want %+v (right %d, wrong %d)", d.Formula.String(v), w.sem, d, w.decided, w.right, w.wrong)
		}
	}
	if _, err := eval.Decides(context.Background(), th, 2, 0, possibilistic.Poss, pos, neg); err == nil {
		t.Error("a formula of a level the theory does not have: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := eval.Decides(ctx, th, 0, 0, possibilistic.Poss, pos, neg); err == nil {
		t.Error("a cancelled context: no error")
	}
}

// TestDecidesAgainstBruteForce checks Decides under poss on random small
// theories against the possibility distributions of the theory with and
// without the formula, and that the formula's right minus wrong decisions
// are what it adds to the number of defaults eval.Defaults scores right.
func TestDecidesAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	names := []string{"a", "b", "c", "d"}
	ctx := context.Background()
	decided := 0
	for trial := range 200 {
		v := logic.NewVocabulary(names...)
		th := possibilistic.New(v)
		for range 1 + rng.IntN(5) {
			var c logic.Clause
			for a := range len(names) {
				if rng.IntN(2) == 0 {
					c = append(c, logic.MkLit(logic.Atom(a), rng.IntN(2) == 0))
				}
			}
			if len(c) == 0 {
				c = logic.Clause{logic.Pos(logic.Atom(rng.IntN(len(names))))}
			}
			th.AddClause(c, []float64{0.25, 0.5, 0.75, 1}[rng.IntN(4)])
		}
		var pos, neg []logic.Rule
		var alphas []logic.Term
		var betas []logic.Lit
		for i := range 12 {
			var alpha logic.Term
			for a := range len(names) {
				if rng.IntN(3) == 0 {
					alpha = append(alpha, logic.MkLit(logic.Atom(a), rng.IntN(2) == 0))
				}
			}
			beta := logic.MkLit(logic.Atom(rng.IntN(len(names))), rng.IntN(2) == 0)
			r := logic.Rule{Antecedent: logic.TermF(alpha), Consequent: logic.LitF(beta)}
			if i%2 == 0 {
				pos = append(pos, r)
			} else {
				neg = append(neg, r)
			}
			alphas, betas = append(alphas, alpha), append(betas, beta)
		}
		for level := range th.Levels {
			for index := range th.Levels[level].Formulas {
				d, err := eval.Decides(ctx, th, level, index, possibilistic.Poss, pos, neg)
				if err != nil {
					t.Fatal(err)
				}
				without := th.Clone()
				without.Levels[level].Formulas = slices.Delete(slices.Clone(without.Levels[level].Formulas), index, index+1)
				var want []eval.Decision
				for set := range 2 {
					for i := range 6 {
						k := 2*i + set
						with, wo := bruteEntails(th, len(names), alphas[k], betas[k]), bruteEntails(without, len(names), alphas[k], betas[k])
						if with != wo {
							want = append(want, eval.Decision{Index: i, Positive: set == 0, Covered: with})
						}
					}
				}
				if !slices.Equal(d.List, want) {
					t.Fatalf("trial %d, formula %d of level %d of\n%s\nDecides %+v, brute force %+v", trial, index, level, th, d.List, want)
				}
				decided += len(want)
				bw, err := eval.Defaults(ctx, mustReasoner(t, th), possibilistic.Poss, pos, neg)
				if err != nil {
					t.Fatal(err)
				}
				bo, err := eval.Defaults(ctx, mustReasoner(t, without), possibilistic.Poss, pos, neg)
				if err != nil {
					t.Fatal(err)
				}
				gain := bw.TruePositives + bw.TrueNegatives - bo.TruePositives - bo.TrueNegatives
				if gain != d.Right-d.Wrong {
					t.Fatalf("trial %d: the formula adds %d right answers, Decides says %d right and %d wrong", trial, gain, d.Right, d.Wrong)
				}
			}
		}
	}
	if decided < 100 {
		t.Fatalf("only %d decisions in all the trials: the test does not test much", decided)
	}
}
