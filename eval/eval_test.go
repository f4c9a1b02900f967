package eval_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-logic/strata/eval"
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

var pokerActions = []string{"fold", "call", "raise"}

func readTheory(t *testing.T, src string) *possibilistic.Theory {
	t.Helper()
	th, err := possibilistic.ReadText(context.Background(), strings.NewReader(src), "t.theory", &logic.Vocabulary{})
	if err != nil {
		t.Fatal(err)
	}
	return th
}

func term(v *logic.Vocabulary, names ...string) logic.Term {
	t := make(logic.Term, len(names))
	for i, n := range names {
		t[i] = logic.Pos(v.Intern(n))
	}
	return t
}

func rules(t *testing.T, v *logic.Vocabulary, srcs ...string) []logic.Rule {
	t.Helper()
	var out []logic.Rule
	for _, s := range srcs {
		r, err := logic.ParseRule(v, s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func TestCases(t *testing.T) {
	th := readTheory(t, pokerTheory)
	v := th.Vocab
	cases := []eval.Case{
		{Situation: term(v), Target: "call"},
		{Situation: term(v, "three_of_a_kind"), Target: "raise"},
		{Situation: term(v, "three_of_a_kind", "three_hearts", "opponent_raised_on_the_river"), Target: "call"},
		{Situation: term(v, "flush", "pair"), Target: "raise"},
		{Situation: term(v, "pair"), Target: "fold"}, // the theory says call: wrong
		{Situation: term(v, "never_seen"), Target: eval.None},
	}
	classes := eval.NewClasses(v, pokerActions)
	c, err := eval.Cases(context.Background(), mustReasoner(t, th), possibilistic.Poss, classes, cases)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	c.Write(&b)
	if c.Total() != 6 || c.Correct() != 4 || c.Accuracy() != 4.0/6 {
		t.Fatalf("%d of %d right, want 4 of 6\n%s", c.Correct(), c.Total(), b.String())
	}
	if c.Counts[0][1] != 1 || c.Counts[3][1] != 1 {
		t.Fatalf("confusion %v", c.Counts)
	}
	if !strings.Contains(b.String(), "target \\ predicted") || !strings.Contains(b.String(), "none") {
		t.Fatalf("table:\n%s", b.String())
	}

	// Without the hard rules, three_of_a_kind entails both raise and the
	// undrowned default call: no single action, so the answer is none.
	soft := readTheory(t, strings.Join(strings.Split(pokerTheory, "\n")[3:], "\n"))
	classes = eval.NewClasses(soft.Vocab, pokerActions)
	c, err = eval.Cases(context.Background(), mustReasoner(t, soft), possibilistic.Poss, classes,
		[]eval.Case{{Situation: term(soft.Vocab, "three_of_a_kind"), Target: eval.None}, {Situation: term(soft.Vocab), Target: "call"}})
	if err != nil || c.Correct() != 2 {
		t.Fatalf("without hard rules: %v %v", c, err)
	}

	// A target that is not a class is an error, not a panic.
	if _, err := eval.Cases(context.Background(), mustReasoner(t, soft), possibilistic.Poss, classes,
		[]eval.Case{{Situation: term(soft.Vocab), Target: "check"}}); err == nil || !strings.Contains(err.Error(), `"check"`) {
		t.Fatalf("unknown target: %v", err)
	}
	// A cancelled context stops the evaluation.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := eval.Cases(ctx, mustReasoner(t, th), possibilistic.Poss, eval.NewClasses(v, pokerActions), cases); err == nil {
		t.Fatal("a cancelled evaluation returned no error")
	}
}

func TestDefaults(t *testing.T) {
	th := readTheory(t, pokerTheory)
	v := th.Vocab
	pos := rules(t, v, "three_of_a_kind -> raise", "flush -> raise", "pair -> fold")
	neg := rules(t, v, "three_of_a_kind -> call", " -> raise", "pair -> call")
	b, err := eval.Defaults(context.Background(), mustReasoner(t, th), possibilistic.Poss, pos, neg)
	if err != nil {
		t.Fatal(err)
	}
	if b.TruePositives != 2 || b.FalseNegatives != 1 || b.TrueNegatives != 2 || b.FalsePositives != 1 ||
		b.Accuracy() != 4.0/6 || b.Precision() != 2.0/3 || b.Recall() != 2.0/3 || b.Examples() != 6 {
		t.Fatalf("%+v", b)
	}
	// Levels, highest first: 1, 0.75, 0.5 (the raise rules), 0.25 (call).
	// three_of_a_kind -> raise and flush -> raise are decided at 0.5, and
	// the evidence three_of_a_kind (of two defaults) and flush drowns the
	// level of call; pair -> call, a covered negative, is decided at 0.25.
	want := []eval.Level{{}, {}, {DecidesPos: 2}, {DecidesNeg: 1, SetAside: 3}}
	if len(b.Levels) != len(want) {
		t.Fatalf("levels %+v", b.Levels)
	}
	for i := range want {
		if b.Levels[i] != want[i] {
			t.Errorf("level %d (weight %v): %+v, want %+v", i, th.Levels[i].Weight, b.Levels[i], want[i])
		}
	}
}

// The per-level counts follow the semantics asked for: the evidence
// penguin drowns both levels below 0.8 under poss, while linear skips only
// the level that clashes with it and decides penguin -> wings at 0.2 (a
// level cannot be both set aside and deciding).
func TestDefaultsLevelsUnderEachSemantics(t *testing.T) {
	th := readTheory(t, "1: !penguin | bird\n0.8: !penguin | !flies\n0.5: !bird | flies\n0.2: !bird | wings\n")
	v := th.Vocab
	pos := rules(t, v, "penguin -> wings", "penguin -> bird", "bird -> flies")
	neg := rules(t, v, "penguin -> flies", "bird -> !wings")
	want := map[possibilistic.Semantics]struct {
		tp     int
		levels []eval.Level // highest first
	}{
		possibilistic.Poss:   {2, []eval.Level{{DecidesPos: 1}, {}, {SetAside: 3, DecidesPos: 1}, {SetAside: 3}}},
		possibilistic.Linear: {3, []eval.Level{{DecidesPos: 1}, {}, {SetAside: 3, DecidesPos: 1}, {DecidesPos: 1}}},
		possibilistic.Lex:    {3, []eval.Level{{DecidesPos: 1}, {}, {SetAside: 3, DecidesPos: 1}, {DecidesPos: 1}}},
	}
	for _, sem := range possibilistic.AllSemantics {
		b, err := eval.Defaults(context.Background(), mustReasoner(t, th), sem, pos, neg)
		if err != nil {
			t.Fatal(err)
		}
		w := want[sem]
		if b.TruePositives != w.tp || b.TrueNegatives != 2 {
			t.Errorf("%s: %+v", sem, b)
		}
		for i, l := range b.Levels {
			if l != w.levels[i] {
				t.Errorf("%s: level %d (weight %v): %+v, want %+v", sem, i, th.Levels[i].Weight, l, w.levels[i])
			}
		}
		if sem == possibilistic.Lex {
			continue // lex sets aside formulas, not whole levels
		}
		// One default at a time: the level that decides it is not one its
		// evidence sets aside.
		for _, r := range append(pos, neg...) {
			b, err := eval.Defaults(context.Background(), mustReasoner(t, th), sem, []logic.Rule{r}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range b.Levels {
				if l.SetAside > 0 && l.DecidesPos > 0 {
					t.Errorf("%s: %s: level %d is both set aside and deciding", sem, r.String(v), i)
				}
			}
		}
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
// distribution on random small theories over three classes and three
// descriptors.
func TestPredictAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	names := []string{"fold", "call", "raise", "d1", "d2", "d3"}
	seen := map[string]int{}
	for trial := range 300 {
		v := logic.NewVocabulary(names...)
		th := possibilistic.New(v)
		if trial%2 == 0 { // the pairwise exclusions of the classes
			for i := range 3 {
				for j := i + 1; j < 3; j++ {
					th.AddClause(logic.Clause{logic.Neg(logic.Atom(i)), logic.Neg(logic.Atom(j))}, 1)
				}
			}
		}
		for range 1 + rng.IntN(6) {
			var c logic.Clause
			for a := range len(names) {
				if rng.IntN(3) == 0 {
					c = append(c, logic.MkLit(logic.Atom(a), a >= 3 || rng.IntN(4) == 0))
				}
			}
			if len(c) == 0 {
				c = logic.Clause{logic.Pos(logic.Atom(rng.IntN(3)))}
			}
			th.AddClause(c, []float64{0.25, 0.5, 0.75}[rng.IntN(3)])
		}
		r := mustReasoner(t, th)
		classes := eval.NewClasses(v, pokerActions)
		for mask := range 8 {
			var alpha logic.Term
			for d := range 3 {
				if mask>>d&1 == 1 {
					alpha = append(alpha, logic.Pos(logic.Atom(3+d)))
				}
			}
			want := eval.None
			n := 0
			for i, a := range classes.Atoms {
				if bruteEntails(th, len(names), alpha, logic.Pos(a)) {
					n++
					want = pokerActions[i]
				}
			}
			if n > 1 {
				want = eval.None
			}
			got, err := classes.Predict(context.Background(), r, possibilistic.Poss, alpha)
			if err != nil || got != want {
				t.Fatalf("trial %d, situation %v:\n%s\nPredict %s (%v), brute force %s", trial, alpha, th, got, err, want)
			}
			seen[want]++
		}
	}
	if len(seen) != 4 {
		t.Fatalf("the trials do not reach every answer: %v", seen)
	}
}

func TestMajority(t *testing.T) {
	c := func(target string) eval.Case { return eval.Case{Target: target} }
	train := []eval.Case{c("pass"), c("pass"), c("punt")}
	test := []eval.Case{c("pass"), c("run"), c("pass"), c("none")}
	if a, acc := eval.Majority(train, test); a != "pass" || acc != 0.5 {
		t.Fatalf("%s %v", a, acc)
	}
	if a, acc := eval.Majority(nil, nil); a != eval.None || acc != 0 {
		t.Fatalf("no cases: %s %v", a, acc)
	}
}

// mustReasoner compiles th, failing the test if it cannot.
func mustReasoner(t testing.TB, th *possibilistic.Theory) *possibilistic.Reasoner {
	t.Helper()
	r, err := possibilistic.NewReasoner(context.Background(), th)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestConfusionMacroF1 checks macro-F1 against a hand computation, with
// None counting against recall and never as a class.
func TestConfusionMacroF1(t *testing.T) {
	c := eval.NewConfusion([]string{"a", "b", "c"})
	add := func(target, answer string, n int) {
		for range n {
			if err := c.Add(target, answer); err != nil {
				t.Fatal(err)
			}
		}
	}
	add("a", "a", 4)
	add("a", "b", 1)
	add("b", "b", 3)
	add("b", "c", 1)
	add("c", "c", 3)
	add("c", "a", 1)
	// a: P 4/5, R 4/5, F1 0.8; b: P 3/4, R 3/4; c: P 3/4, R 3/4.
	if got := c.MacroF1(); got < 0.7666 || got > 0.7667 {
		t.Fatalf("macro-F1 %v, want 0.7667", got)
	}
	// A row of a answered None lowers a's recall only: a P 4/5, R 4/6.
	add("a", eval.None, 1)
	want := (2*0.8*(4.0/6)/(0.8+4.0/6) + 0.75 + 0.75) / 3
	if got := c.MacroF1(); got < want-1e-12 || got > want+1e-12 {
		t.Fatalf("macro-F1 with a none %v, want %v", got, want)
	}
	// A class nobody has nor answers is not counted.
	c.AddLabels("d")
	if got := c.MacroF1(); got < want-1e-12 || got > want+1e-12 {
		t.Fatalf("macro-F1 with an empty class %v, want %v", got, want)
	}
	if got := eval.NewConfusion(nil).MacroF1(); got != 0 {
		t.Fatalf("empty table: macro-F1 %v", got)
	}
}

// TestConfusionMerge checks that merging tables with different labels
// adds the counts label by label and keeps None last.
func TestConfusionMerge(t *testing.T) {
	x := eval.NewConfusion([]string{"a", "b"})
	x.Add("a", "a")
	x.Add("b", eval.None)
	y := eval.NewConfusion([]string{"c", "a"})
	y.Add("c", "a")
	y.Add("a", "a")
	y.Add("a", "c")
	x.Merge(y)
	if strings.Join(x.Labels, ",") != "a,b,c,none" {
		t.Fatalf("labels %q", x.Labels)
	}
	want := [][]int{{2, 0, 1, 0}, {0, 0, 0, 1}, {1, 0, 0, 0}, {0, 0, 0, 0}}
	for i := range want {
		for j := range want[i] {
			if x.Counts[i][j] != want[i][j] {
				t.Fatalf("counts %v, want %v", x.Counts, want)
			}
		}
	}
	if x.Total() != 5 || x.Correct() != 2 {
		t.Fatalf("%d of %d right", x.Correct(), x.Total())
	}
	// Merging into an empty table copies the other.
	z := eval.NewConfusion(nil)
	z.Merge(x)
	if z.Total() != 5 || strings.Join(z.Labels, ",") != "a,b,c,none" {
		t.Fatalf("merged into empty: %q %v", z.Labels, z.Counts)
	}
}

// The none target row is printed when some situation has no single class
// as its target and left out otherwise (a table's rows each have one); the
// none answer column is always there.
func TestConfusionWriteNoneRow(t *testing.T) {
	c := eval.NewConfusion([]string{"grant", "reject"})
	for _, p := range [][2]string{{"grant", "grant"}, {"reject", eval.None}} {
		if err := c.Add(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	if err := c.Write(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasSuffix(strings.TrimSpace(lines[0]), "none") {
		t.Fatalf("without none targets, want a header and two rows:\n%s", b.String())
	}
	if err := c.Add(eval.None, "grant"); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := c.Write(&b); err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(strings.TrimSpace(lines[3]), "none") {
		t.Fatalf("with a none target, want its row:\n%s", b.String())
	}
}
