package learn_test

import (
	"context"
	"testing"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestNLTCSUnitHardRules is the second reproduction: the unit hard
// rule a2 on the NLTCS defaults made learning fail with "score fell while
// simplifying" (the examples it entails were taken as uncovered at first).
func TestNLTCSUnitHardRules(t *testing.T) {
	v, train, _ := mapExamples(t)
	for _, name := range []string{"a1", "a2"} {
		a, _ := v.Lookup(name)
		l, err := learn.NewLearner(learn.Problem{Vocab: v, Train: train, Hard: []logic.Clause{{logic.Pos(a)}}}, learn.Config{Seed: 1, Iterations: 8, Threads: 2, Patience: learn.DefaultPatience})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatalf("hard rule %s: %v", name, err)
		}
		if c, total := learn.Score(l.Hypothesis(), train, 1, possibilistic.Poss); float64(c)/float64(total) != l.TrainAccuracy() {
			t.Fatalf("hard rule %s: accuracy %v, Score says %d/%d", name, l.TrainAccuracy(), c, total)
		}
	}
}
