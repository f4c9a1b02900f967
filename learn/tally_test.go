package learn

import (
	"bytes"
	"context"
	"math/bits"
	"reflect"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// majorityProblem is every assignment of five voters and one irrelevant
// atom, each situation answering c1 when most voters are true and c2
// otherwise (atoms: voters 0–4, the irrelevant 5, c1 6, c2 7), with
// exactly one answer as hard rules.
func majorityProblem() Problem { return noisyMajority(0) }

// noisyMajority is majorityProblem with the answer of every situation
// whose number is a multiple of every (0: none) swapped.
func noisyMajority(every int) Problem {
	v := vocab(8)
	c1, c2 := logic.Pos(6), logic.Pos(7)
	ex := &Examples{}
	for w := range 1 << 6 {
		var alpha logic.Term
		for a := range 6 {
			l := logic.Pos(logic.Atom(a))
			if w>>a&1 == 0 {
				l = l.Not()
			}
			alpha = append(alpha, l)
		}
		yes, no := c1, c2
		if bits.OnesCount(uint(w&31)) < 3 {
			yes, no = c2, c1
		}
		if every > 0 && w%every == 0 {
			yes, no = no, yes
		}
		ex.Add(alpha, logic.Clause{yes}, true, 1)
		ex.Add(alpha, logic.Clause{no}, false, 1)
	}
	return Problem{Vocab: v, Train: ex, Hard: []logic.Clause{{c1, c2}, {c1.Not(), c2.Not()}}}
}

// TestTallyLevel: under lex, the tally candidate writes a majority of five
// voters in one iteration, as one level of the ten rules "voter true → c1"
// and "voter false → c2" (the irrelevant atom predicts nothing), and the
// reasoner, deciding every example from scratch, agrees that it is right
// on every one. Without the candidate one iteration is not enough.
func TestTallyLevel(t *testing.T) {
	p := majorityProblem()
	run := func(tally bool) *Hypothesis {
		l, err := NewLearner(p, Config{Seed: 1, Iterations: 1, Threads: 2, Semantics: possibilistic.Lex, Tally: tally})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return l.Hypothesis()
	}
	m := run(true)
	if len(m.Levels) != 1 || len(m.Levels[0]) != 10 {
		t.Fatalf("tally: %d levels, want one of 10 rules: %v", len(m.Levels), m.Levels)
	}
	for a := range logic.Atom(5) {
		for _, want := range []logic.Clause{{logic.Pos(a).Not(), logic.Pos(6)}, {logic.Pos(a), logic.Pos(7)}} {
			if !slices.ContainsFunc(m.Levels[0], func(c logic.Clause) bool { return slices.Equal(c, want) }) {
				t.Errorf("tally level %v lacks %v", m.Levels[0], want)
			}
		}
	}
	if c, total := Score(m, p.Train, 1, possibilistic.Lex); c != total {
		t.Errorf("tally: %d of %d examples right, want all", c, total)
	}
	if c, total := Score(run(false), p.Train, 1, possibilistic.Lex); c == total {
		t.Errorf("without tally: one iteration right on all %d examples; the test no longer shows the candidate's use", total)
	}
}

// TestTallyOnlyUnderLex: under poss and linear, where a level of
// conflicting votes is drowned or set aside whole, Tally changes nothing.
func TestTallyOnlyUnderLex(t *testing.T) {
	p := majorityProblem()
	for _, sem := range []possibilistic.Semantics{possibilistic.Poss, possibilistic.Linear} {
		var got [2]*Hypothesis
		for i, tally := range []bool{false, true} {
			l, err := NewLearner(p, Config{Seed: 2, Iterations: 6, Threads: 2, Semantics: sem, Tally: tally})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			got[i] = l.Hypothesis()
		}
		if !reflect.DeepEqual(got[0].Levels, got[1].Levels) {
			t.Errorf("%v: Tally changed the hypothesis:\n%v\nagainst\n%v", sem, got[1].Levels, got[0].Levels)
		}
	}
}

// TestTallyCheckpointResume: a run with Tally stopped and resumed from its
// checkpoint learns what the straight run learns, the iterations that try
// a tally level (the powers of two) counted across the stop.
func TestTallyCheckpointResume(t *testing.T) {
	p := noisyMajority(7)
	opts := Config{Seed: 4, Iterations: 9, Threads: 2, Semantics: possibilistic.Lex, Tally: true}
	straight, _ := NewLearner(p, opts)
	if _, err := straight.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	opts.Iterations = 3
	first, _ := NewLearner(p, opts)
	if _, err := first.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := first.WriteCheckpoint(&buf); err != nil {
		t.Fatal(err)
	}
	opts.Iterations = 9
	resumed, err := ResumeLearner(&buf, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := resumed.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a, b := straight.Hypothesis(), resumed.Hypothesis(); !reflect.DeepEqual(a.Levels, b.Levels) {
		t.Fatalf("straight run:\n%v\nstopped and resumed:\n%v", a.Levels, b.Levels)
	}
}
