package learn_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// The Answers task answers each situation as eval does with a Reasoner:
// on random hypotheses over three classes (with and without their
// pairwise exclusions) and three descriptors, under every semantics, the
// task's score from the learner's coverage equals eval.Cases on the
// hypothesis's theory.
func TestAnswersMatchesEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	names := []string{"fold", "call", "raise", "d1", "d2", "d3"}
	labels := names[:3]
	answered := 0 // situations some hypothesis answers with a class
	for trial := range 150 {
		v := logic.NewVocabulary(names...)
		h := &learn.Hypothesis{}
		if trial%2 == 0 {
			for i := range 3 {
				for j := i + 1; j < 3; j++ {
					h.Hard = append(h.Hard, logic.Clause{logic.Neg(logic.Atom(i)), logic.Neg(logic.Atom(j))})
				}
			}
		}
		for range 1 + rng.IntN(4) {
			var lv []logic.Clause
			for range 1 + rng.IntN(2) {
				var c logic.Clause
				for a := range len(names) {
					if rng.IntN(3) == 0 {
						c = append(c, logic.MkLit(logic.Atom(a), a >= 3 || rng.IntN(4) == 0))
					}
				}
				if c, taut := logic.Normalize(c); len(c) > 0 && !taut {
					lv = append(lv, c)
				}
			}
			if len(lv) > 0 {
				h.Levels = append(h.Levels, lv)
			}
		}
		classes := eval.NewClasses(v, labels)
		var sits []logic.Term
		var targets []logic.Atom
		var cases []eval.Case
		for range 12 {
			var s logic.Term
			for d := range 3 {
				if rng.IntN(2) == 0 {
					s = append(s, logic.MkLit(logic.Atom(3+d), rng.IntN(3) == 0))
				}
			}
			k := rng.IntN(4) // 3: no class
			target, label := learn.NoClass, eval.None
			if k < 3 {
				target, label = classes.Atoms[k], labels[k]
			}
			sits, targets = append(sits, s), append(targets, target)
			cases = append(cases, eval.Case{Situation: s, Target: label})
		}
		task, err := learn.NewAnswers(classes.Atoms, sits, targets)
		if err != nil {
			t.Fatal(err)
		}
		th := h.Theory(v)
		for _, sem := range possibilistic.AllSemantics {
			right, total := task.Score(learn.Covers(h, task.Queries(), 1, sem))
			c, err := eval.Cases(context.Background(), mustReasoner(t, th), sem, classes, cases)
			if err != nil {
				t.Fatal(err)
			}
			if right != c.Correct() || total != c.Total() {
				t.Fatalf("trial %d, %s:\n%s\nthe task scores %d of %d, eval %d of %d", trial, sem, th, right, total, c.Correct(), c.Total())
			}
			for _, row := range c.Counts {
				answered += row[0] + row[1] + row[2]
			}
		}
	}
	if answered < 100 {
		t.Fatalf("only %d situations answered with a class: the trials test little", answered)
	}
	if _, err := learn.NewAnswers([]logic.Atom{0, 1}, []logic.Term{nil}, []logic.Atom{2}); err == nil {
		t.Error("a target that is not a class accepted")
	}
	if _, err := learn.NewAnswers([]logic.Atom{0}, []logic.Term{nil}, []logic.Atom{0}); err == nil {
		t.Error("one class accepted")
	}
}

// The binary task scores as Score does.
func TestBinaryMatchesScore(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	th, atoms := possibilistic.New(logic.NewVocabulary("a", "b", "c", "d", "e")), []logic.Atom{0, 1, 2, 3, 4}
	th.AddClause(logic.Clause{logic.Neg(0), logic.Pos(1)}, 0.5)
	th.AddClause(logic.Clause{logic.Neg(1), logic.Pos(2)}, 0.25)
	p, n := learn.Generate(th, atoms, 60, 60, 2, 0.1, r)
	ex := learn.Merge(p, n)
	h, err := learn.FromTheory(th)
	if err != nil {
		t.Fatal(err)
	}
	for _, sem := range possibilistic.AllSemantics {
		right, total := learn.Binary{Examples: ex}.Score(learn.Covers(h, ex, 1, sem))
		c, m := learn.Score(h, ex, 1, sem)
		if right != c || total != m {
			t.Errorf("%s: the task %d of %d, Score %d of %d", sem, right, total, c, m)
		}
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
