package learn

import (
	"bytes"
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
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

// tripwire is a context that reports cancellation from its n-th Err call
// on: it interrupts the learner at a reproducible point of an iteration,
// wherever the learner looks at its context.
type tripwire struct {
	context.Context
	calls, n atomic.Int64
	done     chan struct{}
	once     sync.Once
}

func newTripwire(n int64) *tripwire {
	t := &tripwire{Context: context.Background(), done: make(chan struct{})}
	t.n.Store(n)
	return t
}

func (t *tripwire) Done() <-chan struct{} { return t.done }

func (t *tripwire) Err() error {
	if t.calls.Add(1) >= t.n.Load() {
		t.once.Do(func() { close(t.done) })
		return context.Canceled
	}
	return nil
}

// TestInterruptResumeStress interrupts a run many times at random points
// (mid-iteration: while sampling, scoring, minimising, pruning or
// re-inserting), writes a checkpoint at each interruption, resumes from it,
// and requires the same theory and history as an uninterrupted run. This
// is what Ctrl-C does in strata learn.
func TestInterruptResumeStress(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 5))
	th := hiddenTheory(r, 9, 4)
	p, q := Generate(th, atomsUpTo(9), 150, 150, 3, 0.15, r)
	train := Merge(p, q)
	v := th.Vocab
	opts := Options{Seed: 5, Iterations: 20, Patience: -1, Threads: 2, Candidates: 30}
	straight, err := NewLearner(v, train, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	wantStop, err := straight.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := straight.Model().Theory(v).String()

	interrupts := 0
	l, err := NewLearner(v, train, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	for {
		stop, err := l.Run(newTripwire(1 + r.Int64N(150)))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := l.WriteCheckpoint(&buf); err != nil {
			t.Fatal(err)
		}
		if stop != StopCancelled {
			if stop != wantStop {
				t.Fatalf("stopped by %q, the straight run by %q", stop, wantStop)
			}
			break
		}
		interrupts++
		if l, err = ResumeLearner(&buf, v, train, nil, opts); err != nil {
			t.Fatal(err)
		}
	}
	if interrupts < 10 {
		t.Fatalf("only %d interruptions; the test does not stress resumption", interrupts)
	}
	if got := l.Model().Theory(v).String(); got != want {
		t.Fatalf("after %d interruptions:\n%s\nstraight run:\n%s", interrupts, got, want)
	}
	ha, hb := straight.History(), l.History()
	if len(ha) != len(hb) {
		t.Fatalf("history of %d iterations, straight run %d", len(hb), len(ha))
	}
	for i := range ha {
		if ha[i].TrainAccuracy != hb[i].TrainAccuracy || ha[i].Rules != hb[i].Rules || ha[i].Improved != hb[i].Improved {
			t.Fatalf("iteration %d: %+v, straight run %+v", i+1, hb[i], ha[i])
		}
	}
	t.Logf("%d interruptions", interrupts)
}
