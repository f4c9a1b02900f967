package learn

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// hiddenTheory draws a random theory over n atoms with k levels.
func hiddenTheory(r *rand.Rand, n, k int) *possibilistic.Theory {
	th := possibilistic.New(vocab(n))
	for j := range k {
		for range 1 + r.IntN(3) {
			th.AddClause(randClause(r, n, 3), float64(j+1)/float64(k+1))
		}
	}
	return th
}

func atomsUpTo(n int) []logic.Atom {
	as := make([]logic.Atom, n)
	for i := range as {
		as[i] = logic.Atom(i)
	}
	return as
}

// accuracyOf scores a hypothesis on examples with possibilistic.Reasoner.
func accuracyOf(m *Hypothesis, v *logic.Vocabulary, ex *Examples) float64 {
	rs := possReasoner(m.Theory(v))
	var ok, total int
	for _, e := range ex.List {
		if rs.EntailsClause(e.Alpha, e.Beta) == e.Positive {
			ok += e.Count
		}
		total += e.Count
	}
	return float64(ok) / float64(total)
}

// accuracyUnder scores a hypothesis on examples under sem: with
// possibilistic.Reasoner for poss, by enumerating worlds otherwise.
func accuracyUnder(m *Hypothesis, sem possibilistic.Semantics, v *logic.Vocabulary, ex *Examples) float64 {
	if sem == possibilistic.Poss {
		return accuracyOf(m, v, ex)
	}
	ws := worlds(max(v.Len(), int(ex.MaxAtom())+1))
	var ok, total int
	for _, e := range ex.List {
		if bruteCovered(m, sem, e.Alpha, e.Beta, ws) == e.Positive {
			ok += e.Count
		}
		total += e.Count
	}
	return float64(ok) / float64(total)
}

func TestRealisable(t *testing.T) {
	for seed := range uint64(3) {
		r := rand.New(rand.NewPCG(seed, 99))
		n := 6 + r.IntN(5)
		th := hiddenTheory(r, n, 3+r.IntN(3))
		v := th.Vocab
		p, q := Generate(th, atomsUpTo(n), 250, 250, 3, 0, r)
		tp, tq := Generate(th, atomsUpTo(n), 250, 250, 3, 0, r)
		train, test := Merge(p, q), Merge(tp, tq)
		l, err := NewLearner(Problem{Vocab: v, Train: train, Test: test}, Config{Seed: seed, Iterations: 60, Threads: 2, Patience: DefaultPatience})
		if err != nil {
			t.Fatal(err)
		}
		stop, err := l.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		m := l.Final()
		acc := accuracyOf(m, v, test)
		t.Logf("seed %d: %d atoms, stop %q after %d iterations, train %.3f, test %.3f, %d rules in %d levels",
			seed, n, stop, len(l.History()), l.TrainAccuracy(), acc, m.NumClauses(), len(m.Levels))
		if acc < 0.95 {
			t.Errorf("seed %d: test accuracy %.3f < 0.95\nhidden:\n%s\nlearned:\n%s", seed, acc, th, m.Theory(v))
		}
	}
}

func TestNoise(t *testing.T) {
	for seed := range uint64(3) {
		r := rand.New(rand.NewPCG(seed, 7))
		n := 6 + r.IntN(5)
		th := hiddenTheory(r, n, 3+r.IntN(3))
		v := th.Vocab
		p, q := Generate(th, atomsUpTo(n), 250, 250, 3, 0.10, r)
		tp, tq := Generate(th, atomsUpTo(n), 250, 250, 3, 0, r)
		train, test := Merge(p, q), Merge(tp, tq)
		l, err := NewLearner(Problem{Vocab: v, Train: train}, Config{Seed: seed, Iterations: 40, Threads: 2, Patience: DefaultPatience})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		m := l.Final()
		acc := accuracyOf(m, v, test)
		t.Logf("seed %d: train %.3f (10%% flipped), clean test %.3f, %d rules in %d levels", seed, l.TrainAccuracy(), acc, m.NumClauses(), len(m.Levels))
		if acc < 0.90 {
			t.Errorf("seed %d: clean test accuracy %.3f < 0.90 with 10%% noise\nlearned:\n%s", seed, acc, m.Theory(v))
		}
	}
}

func TestDeterministicAcrossThreads(t *testing.T) {
	for _, sem := range possibilistic.AllSemantics {
		t.Run(sem.String(), func(t *testing.T) { testDeterministicAcrossThreads(t, sem) })
	}
}

func testDeterministicAcrossThreads(t *testing.T, sem possibilistic.Semantics) {
	r := rand.New(rand.NewPCG(5, 5))
	th := hiddenTheory(r, 10, 4)
	p, q := Generate(th, atomsUpTo(10), 200, 200, 4, 0.1, r)
	train := Merge(p, q)
	iters := 15
	if sem != possibilistic.Poss {
		iters = 6 // slower engines; still several accepted clauses, prunings and re-insertions
	}
	for _, with := range []Config{{}, {Specialise: 2}, {Grow: 5}} {
		var out []string
		for _, threads := range []int{1, 4} {
			l, err := NewLearner(Problem{Vocab: th.Vocab, Train: train}, Config{Seed: 42, Iterations: iters, Threads: threads, Semantics: sem,
				Specialise: with.Specialise, Grow: with.Grow})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			out = append(out, l.Final().Theory(th.Vocab).String())
		}
		if out[0] != out[1] {
			t.Fatalf("specialise %d, grow %d: 1 thread:\n%s\n4 threads:\n%s", with.Specialise, with.Grow, out[0], out[1])
		}
	}
}

// TestLearnerCovers checks Learner.covers against a fresh engine (Covers)
// on the learner's hypothesis, that hypothesis with a fallback below it,
// and with its top level gone, and that asking leaves the learner as it
// was: a run continued after the questions learns what one continued
// without them learns.
func TestLearnerCovers(t *testing.T) {
	for _, sem := range possibilistic.AllSemantics {
		r := rand.New(rand.NewPCG(9, 9))
		th := hiddenTheory(r, 10, 4)
		p, q := Generate(th, atomsUpTo(10), 200, 200, 4, 0.1, r)
		train := Merge(p, q)
		var theories []string
		for _, ask := range []bool{false, true} {
			l, err := NewLearner(Problem{Vocab: th.Vocab, Train: train}, Config{Seed: 3, Iterations: 4, Threads: 2, Semantics: sem})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if ask {
				own := l.Hypothesis()
				if len(own.Levels) == 0 {
					t.Fatalf("%v: the learner learned nothing; the test checks too little", sem)
				}
				asked := []*Hypothesis{l.c.hypothesis(), own.WithFallback(logic.Clause{logic.Pos(0)}), {Hard: own.Hard, Levels: own.Levels[1:]}}
				for i, m := range asked {
					if got, want := l.covers(m), Covers(m, train, 1, sem); !slices.Equal(got, want) {
						t.Errorf("%v: hypothesis %d: the learner's engine and a fresh one disagree on coverage", sem, i)
					}
				}
			}
			l.opts.Iterations = 8
			if _, err := l.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			theories = append(theories, l.Final().Theory(th.Vocab).String())
		}
		if theories[0] != theories[1] {
			t.Errorf("%v: asking the learner's engine changed the rest of the run:\n%s\nagainst\n%s", sem, theories[1], theories[0])
		}
	}
}

// TestStopMidIteration: a timeout that lands inside an iteration, after its
// clause was committed, must still leave a history whose last line is the
// learner's hypothesis.
func TestStopMidIteration(t *testing.T) {
	for _, sem := range possibilistic.AllSemantics {
		t.Run(sem.String(), func(t *testing.T) { testStopMidIteration(t, sem) })
	}
}

func testStopMidIteration(t *testing.T, sem possibilistic.Semantics) {
	r := rand.New(rand.NewPCG(8, 1))
	th := hiddenTheory(r, 9, 4)
	p, q := Generate(th, atomsUpTo(9), 300, 300, 3, 0.1, r)
	train := Merge(p, q)
	step := 1
	if sem != possibilistic.Poss {
		step = 3 // fewer runs keep the test short; the timeouts still land mid-iteration
	}
	for ms := 1; ms <= 40; ms += step {
		l, err := NewLearner(Problem{Vocab: th.Vocab, Train: train}, Config{Seed: uint64(ms), Iterations: 1000, Timeout: time.Duration(ms) * time.Millisecond, Semantics: sem})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		h := l.History()
		m := l.Hypothesis()
		if len(h) == 0 {
			if m.NumClauses() != 0 {
				t.Fatalf("timeout %d ms: no history but a hypothesis of %d rules", ms, m.NumClauses())
			}
			continue
		}
		last := h[len(h)-1]
		if last.Rules != m.NumClauses() || last.TrainAccuracy != l.TrainAccuracy() {
			t.Fatalf("timeout %d ms: history ends with %d rules at %.3f, the hypothesis has %d at %.3f",
				ms, last.Rules, last.TrainAccuracy, m.NumClauses(), l.TrainAccuracy())
		}
	}
}

// TestEmptyConsequent: a default α |~ false (α is typically impossible) is
// a legal example and must not break candidate sampling.
func TestEmptyConsequent(t *testing.T) {
	v := &logic.Vocabulary{}
	var pos, neg []logic.Rule
	for _, s := range []string{"a -> false", "b -> c", "a, b -> false"} {
		r, err := logic.ParseRule(v, s)
		if err != nil {
			t.Fatal(err)
		}
		pos = append(pos, r)
	}
	r, _ := logic.ParseRule(v, "b -> false")
	neg = append(neg, r)
	ex, err := FromRules(v, pos, neg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLearner(Problem{Vocab: v, Train: ex}, Config{Seed: 1, Iterations: 10, Patience: DefaultPatience})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if acc := accuracyOf(l.Hypothesis(), v, ex); acc != l.TrainAccuracy() {
		t.Errorf("engine accuracy %v, reasoner %v", l.TrainAccuracy(), acc)
	}
}

// TestSpecialise: the specialised choice keeps every literal of the chosen
// candidate, adds only negations of its default's antecedent, scores at
// least as well, and its score is the training score of the hypothesis
// with the clause inserted, counted from scratch (Score).
func TestSpecialise(t *testing.T) {
	for _, sem := range possibilistic.AllSemantics {
		t.Run(sem.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(6, 1))
			th := hiddenTheory(r, 9, 4)
			p, q := Generate(th, atomsUpTo(9), 150, 150, 4, 0.1, r)
			train := Merge(p, q)
			l, err := NewLearner(Problem{Vocab: th.Vocab, Train: train}, Config{Seed: 7, Iterations: 4, Threads: 1, Semantics: sem})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			l.opts.Specialise = 3
			grew, negatives := 0, 0
			for _, e := range train.List {
				if !e.Positive {
					negatives += e.Count
				}
			}
			for round := 0; round < 5; round++ {
				cands, drawn := l.sample()
				if len(cands) != len(drawn) {
					t.Fatalf("%d candidates, %d antecedents", len(cands), len(drawn))
				}
				for i, c := range cands {
					best, ok := bestOf(context.Background(), l.c, []logic.Clause{c})
					if !ok || !best.ok {
						continue
					}
					s := l.specialise(context.Background(), best, drawn[i])
					if s.score < best.score {
						t.Fatalf("%v specialised to %v: score %d < %d", best.clause, s.clause, s.score, best.score)
					}
					for _, x := range best.clause {
						if !slices.Contains(s.clause, x) {
							t.Fatalf("%v specialised to %v lost %v", best.clause, s.clause, x)
						}
					}
					for _, x := range s.clause {
						if !slices.Contains(best.clause, x) && !slices.Contains(drawn[i], x.Not()) {
							t.Fatalf("%v specialised to %v added %v, not the negation of a literal of %v", best.clause, s.clause, x, drawn[i])
						}
					}
					if len(s.clause) > len(best.clause) {
						grew++
						h := l.c.hypothesis().Insert(s.clause, s.pos)
						// The learner's score counts the covered positives
						// less the covered negatives: the correct ones less
						// every negative.
						correct, _ := Score(h, train, 1, sem)
						if int64(correct-negatives) != s.score {
							t.Fatalf("%v at %d: specialise scored %d, Score counts %d right of which %d negatives", s.clause, s.pos, s.score, correct, negatives)
						}
					}
				}
			}
			if grew == 0 {
				t.Fatal("no candidate was specialised: the test checks nothing")
			}
		})
	}
}

// TestElapsedCountsRuns checks that Elapsed counts learning time only:
// it stands still between runs (a checkpoint written after Run stores
// it), and a second Run adds to the first's instead of starting over.
func TestElapsedCountsRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 7))
	th := hiddenTheory(r, 6, 3)
	p, q := Generate(th, atomsUpTo(6), 100, 100, 3, 0.1, r)
	l, err := NewLearner(Problem{Vocab: th.Vocab, Train: Merge(p, q)}, Config{Seed: 1, Iterations: 3, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := l.Elapsed()
	time.Sleep(20 * time.Millisecond)
	if now := l.Elapsed(); now != first {
		t.Fatalf("Elapsed moved from %v to %v between runs", first, now)
	}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if now := l.Elapsed(); now < first {
		t.Fatalf("a second Run set Elapsed back from %v to %v", first, now)
	}
}
