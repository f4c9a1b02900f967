package learn

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestNewEngineDecidesEveryExample checks a fresh engine (no commit yet)
// against full evaluation of the empty model: hard rules, or α itself, may
// entail β before any clause is learned, and scoring candidates from a
// wrong start gave the learner's "score fell while simplifying" error.
func TestNewEngineDecidesEveryExample(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 6))
	for iter := range 200 {
		n := 2 + r.IntN(5)
		v := vocab(n)
		ex := randExamples(r, n, 30)
		var hard []logic.Clause
		for range r.IntN(3) {
			hard = append(hard, randClause(r, n, 1+r.IntN(2))) // units often
		}
		e := newEngine(n, ex, hard, 1+iter%2)
		m := &Model{Hard: hard}
		base := e.score()
		if want := fullScore(m, ex, v); base != want {
			t.Fatalf("#%d: fresh engine scores %d, full evaluation %d\n%s", iter, base, want, m.Theory(v))
		}
		c := randClause(r, n, 2)
		prof := e.scoreCandidates(context.Background(), []logic.Clause{c})
		for p := range m.Positions() {
			if want := fullScore(m.Insert(c, p), ex, v) - base; prof[0][p] != want {
				t.Fatalf("#%d: inserting %s at %d: profile %d, full evaluation %d", iter, c.String(v), p, prof[0][p], want)
			}
		}
	}
}

// TestLearnWithUnitHardRules is the reproduction (b |~ ¬c positive,
// c |~ h negative, hard rule h) and random variations of it: learning must
// end normally, never with an internal error.
func TestLearnWithUnitHardRules(t *testing.T) {
	v := vocab(3)
	b, c, h := logic.Atom(0), logic.Atom(1), logic.Atom(2)
	ex := &Examples{}
	ex.Add(logic.Term{logic.Pos(b)}, logic.Clause{logic.Neg(c)}, true, 1)
	ex.Add(logic.Term{logic.Pos(c)}, logic.Clause{logic.Pos(h)}, false, 1)
	l, err := NewLearner(v, ex, []logic.Clause{{logic.Pos(h)}}, Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatalf("issue's example: %v", err)
	}
	if acc := accuracyOf(l.Final(), v, ex); acc != 0.5 {
		t.Fatalf("issue's example: accuracy %v, want 0.5 (b |~ ¬c learned; c |~ h is entailed by the hard rule)", acc)
	}
	r := rand.New(rand.NewPCG(14, 66))
	for iter := range 60 {
		n := 3 + r.IntN(4)
		v := vocab(n)
		ex := randExamples(r, n, 30)
		if len(ex.List) == 0 {
			continue
		}
		hard := []logic.Clause{{randLit(r, n)}}
		l, err := NewLearner(v, ex, hard, Options{Seed: uint64(iter), Threads: 1, Iterations: 15, Candidates: 20})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatalf("#%d: %v", iter, err)
		}
		if got, want := l.TrainAccuracy(), accuracyOf(l.Model(), v, ex); got != want {
			t.Fatalf("#%d: learner reports accuracy %v, full evaluation %v", iter, got, want)
		}
	}
}
