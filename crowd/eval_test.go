package crowd

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// pokerTheory is the shape of the paper's Table 1: the hard rules on top, a
// general rule at the bottom, specific rules above it and exceptions
// above those.
const pokerTheory = `1: !fold | !call
1: !fold | !raise
1: !call | !raise
0.75: !three_of_a_kind | !three_hearts | !opponent_raised_on_the_river | call
0.5: !three_of_a_kind | raise
0.5: !flush | raise
0.25: call
`

func readTheory(t *testing.T, src string) *possibilistic.Theory {
	t.Helper()
	th, err := possibilistic.ReadText(context.Background(), strings.NewReader(src), "t.theory", &logic.Vocabulary{})
	if err != nil {
		t.Fatal(err)
	}
	return th
}

func term(v *logic.Vocabulary, names ...string) logic.Term {
	return SituationTerm(v, names)
}

var pokerActions = []string{"fold", "call", "raise"}

func TestEvaluateCases(t *testing.T) {
	th := readTheory(t, pokerTheory)
	v := th.Vocab
	cases := []Case{
		{term(v), "call"},
		{term(v, "three_of_a_kind"), "raise"},
		{term(v, "three_of_a_kind", "three_hearts", "opponent_raised_on_the_river"), "call"},
		{term(v, "flush", "pair"), "raise"},
		{term(v, "pair"), "fold"}, // the theory says call: wrong
		{term(v, "never_seen"), NoAction},
	}
	c := EvaluateCases(th, pokerActions, cases)
	if c.Total() != 6 || c.Correct() != 4 {
		var b strings.Builder
		c.Write(&b)
		t.Fatalf("%d of %d right, want 4 of 6\n%s", c.Correct(), c.Total(), b.String())
	}
	if c.Counts[0][1] != 1 || c.Counts[3][1] != 1 {
		t.Fatalf("confusion %v", c.Counts)
	}
	var b strings.Builder
	c.Write(&b)
	if !strings.Contains(b.String(), "target \\ predicted") || !strings.Contains(b.String(), "none") {
		t.Fatalf("table:\n%s", b.String())
	}

	// Without the hard rules, three_of_a_kind entails both raise and the
	// undrowned default call: no single action, so the prediction is none.
	soft := readTheory(t, strings.Join(strings.Split(pokerTheory, "\n")[3:], "\n"))
	c = EvaluateCases(soft, pokerActions, []Case{{term(soft.Vocab, "three_of_a_kind"), NoAction}, {term(soft.Vocab), "call"}})
	if c.Correct() != 2 {
		t.Fatalf("without hard rules: %v", c.Counts)
	}
}

func TestEvaluateDefaults(t *testing.T) {
	th := readTheory(t, pokerTheory)
	v := th.Vocab
	rule := func(src string) logic.Rule {
		r, err := logic.ParseRule(v, src)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	pos := []logic.Rule{rule("three_of_a_kind -> raise"), rule("flush -> raise"), rule("pair -> fold")}
	neg := []logic.Rule{rule("three_of_a_kind -> call"), rule(" -> raise"), rule("pair -> call")}
	b := EvaluateDefaults(th, pos, neg)
	want := Binary{TruePositives: 2, FalseNegatives: 1, TrueNegatives: 2, FalsePositives: 1}
	if b != want || b.Accuracy() != 4.0/6 {
		t.Fatalf("%+v, want %+v", b, want)
	}
}

// bruteEntails decides (Θ, α) ⊢poss β from the possibility distribution:
// Π(α ∧ β) > Π(α ∧ ¬β), with Π(φ) the highest π(ω) over models of φ.
func bruteEntails(th *possibilistic.Theory, n int, alpha logic.Term, beta logic.Lit) bool {
	best := [2]float64{-1, -1} // [β false, β true]
	logic.ForEachWorld(n, func(w []bool) bool {
		if alpha.Holds(w) {
			i := 0
			if beta.Holds(w) {
				i = 1
			}
			best[i] = max(best[i], th.Possibility(w))
		}
		return true
	})
	// α inconsistent with the certain part: Π(α) = 0 and only tautologies follow.
	if max(best[0], best[1]) <= 0 {
		return false
	}
	return best[1] > best[0]
}

// Predict agrees with a brute-force evaluation of the possibility
// distribution on random small theories over three actions and three
// descriptors.
func TestPredictAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	names := []string{"fold", "call", "raise", "d1", "d2", "d3"}
	seen := map[string]int{}
	for trial := 0; trial < 300; trial++ {
		v := logic.NewVocabulary(names...)
		th := possibilistic.New(v)
		if trial%2 == 0 {
			for _, c := range HardRules(v, pokerActions, false) {
				th.AddClause(c, 1)
			}
		}
		for k := 0; k < 1+rng.IntN(6); k++ {
			var c logic.Clause
			for a := 0; a < len(names); a++ {
				if rng.IntN(3) == 0 {
					c = append(c, logic.MkLit(logic.Atom(a), a >= 3 || rng.IntN(4) == 0))
				}
			}
			if len(c) == 0 {
				c = logic.Clause{logic.Pos(logic.Atom(rng.IntN(3)))}
			}
			th.AddClause(c, []float64{0.25, 0.5, 0.75}[rng.IntN(3)])
		}
		r := mustReasoner(th)
		atoms := []logic.Atom{0, 1, 2}
		for mask := 0; mask < 8; mask++ {
			var alpha logic.Term
			for d := 0; d < 3; d++ {
				if mask>>d&1 == 1 {
					alpha = append(alpha, logic.Pos(logic.Atom(3+d)))
				}
			}
			want := NoAction
			n := 0
			for i, a := range atoms {
				if bruteEntails(th, len(names), alpha, logic.Pos(a)) {
					n++
					want = pokerActions[i]
				}
			}
			if n > 1 {
				want = NoAction
			}
			if got := PredictUnder(r, possibilistic.Poss, alpha, pokerActions, atoms); got != want {
				t.Fatalf("trial %d, situation %v:\n%s\nPredict %s, brute force %s", trial, alpha, th, got, want)
			}
			seen[want]++
		}
	}
	if len(seen) != 4 {
		t.Fatalf("the trials do not reach every prediction: %v", seen)
	}
}

func TestMajority(t *testing.T) {
	train := []Case{{nil, "pass"}, {nil, "pass"}, {nil, "punt"}}
	test := []Case{{nil, "pass"}, {nil, "run"}, {nil, "pass"}, {nil, "none"}}
	if a, acc := Majority(train, test); a != "pass" || acc != 0.5 {
		t.Fatalf("%s %v", a, acc)
	}
}
