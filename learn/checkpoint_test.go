package learn

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-logic/strata/possibilistic"
)

func TestCheckpointResume(t *testing.T) {
	for _, sem := range possibilistic.AllSemantics {
		t.Run(sem.String(), func(t *testing.T) { testCheckpointResume(t, sem, Config{}) })
		t.Run(sem.String()+"/specialise", func(t *testing.T) { testCheckpointResume(t, sem, Config{Specialise: 2}) })
		t.Run(sem.String()+"/grow", func(t *testing.T) { testCheckpointResume(t, sem, Config{Grow: 5}) })
	}
}

// testCheckpointResume takes the candidates' settings (Specialise, Grow)
// from with.
func testCheckpointResume(t *testing.T, sem possibilistic.Semantics, with Config) {
	r := rand.New(rand.NewPCG(8, 8))
	th := hiddenTheory(r, 9, 4)
	p, q := Generate(th, atomsUpTo(9), 150, 150, 3, 0.15, r)
	train := Merge(p, q)
	total, first := 12, 5
	if sem != possibilistic.Poss {
		total, first = 7, 3 // slower engines
	}
	opts := Config{Seed: 3, Iterations: total, Threads: 2, Semantics: sem, Specialise: with.Specialise, Grow: with.Grow}

	straight, _ := NewLearner(Problem{Vocab: th.Vocab, Train: train}, opts)
	straight.Run(context.Background())

	opts.Iterations = first
	firstRun, _ := NewLearner(Problem{Vocab: th.Vocab, Train: train}, opts)
	firstRun.Run(context.Background())
	var buf bytes.Buffer
	if err := firstRun.WriteCheckpoint(&buf); err != nil {
		t.Fatal(err)
	}
	opts.Iterations = total
	resumed, err := ResumeLearner(bytes.NewReader(buf.Bytes()), Problem{Vocab: th.Vocab, Train: train}, opts)
	if err != nil {
		t.Fatal(err)
	}
	resumed.Run(context.Background())

	a, b := straight.Hypothesis().Theory(th.Vocab).String(), resumed.Hypothesis().Theory(th.Vocab).String()
	if a != b {
		t.Fatalf("straight run:\n%s\nstopped and resumed:\n%s", a, b)
	}
	ha, hb := straight.History(), resumed.History()
	if len(ha) != len(hb) {
		t.Fatalf("history lengths %d and %d", len(ha), len(hb))
	}
	for i := range ha {
		if ha[i].TrainAccuracy != hb[i].TrainAccuracy || ha[i].Rules != hb[i].Rules {
			t.Fatalf("iteration %d differs: %+v vs %+v", i+1, ha[i], hb[i])
		}
	}

	other := Merge(q)
	if _, err := ResumeLearner(bytes.NewReader(buf.Bytes()), Problem{Vocab: th.Vocab, Train: other}, opts); err == nil || !strings.Contains(err.Error(), "other training data") {
		t.Fatalf("resuming on other data: %v", err)
	}
	opts.Semantics = (sem + 1) % 3
	if _, err := ResumeLearner(bytes.NewReader(buf.Bytes()), Problem{Vocab: th.Vocab, Train: train}, opts); err == nil || !strings.Contains(err.Error(), "learning under "+sem.String()) {
		t.Fatalf("resuming under %v a checkpoint of %v: %v", opts.Semantics, sem, err)
	}
}

// TestCheckpointWithoutSemantics: a checkpoint written before the semantics
// was recorded resumes as poss and is refused under the others.
func TestCheckpointWithoutSemantics(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	th := hiddenTheory(r, 6, 3)
	p, q := Generate(th, atomsUpTo(6), 60, 60, 2, 0, r)
	train := Merge(p, q)
	l, _ := NewLearner(Problem{Vocab: th.Vocab, Train: train}, Config{Seed: 1, Iterations: 2, Threads: 1, Patience: DefaultPatience})
	l.Run(context.Background())
	var buf bytes.Buffer
	if err := l.WriteCheckpoint(&buf); err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(buf.String(), "\n \"semantics\": \"poss\",", "", 1)
	if old == buf.String() {
		t.Fatalf("no semantics field in\n%s", old)
	}
	if _, err := ResumeLearner(strings.NewReader(old), Problem{Vocab: th.Vocab, Train: train}, Config{Seed: 1, Iterations: 4, Threads: 1, Patience: DefaultPatience}); err != nil {
		t.Fatalf("old checkpoint under poss: %v", err)
	}
	if _, err := ResumeLearner(strings.NewReader(old), Problem{Vocab: th.Vocab, Train: train}, Config{Seed: 1, Iterations: 4, Semantics: possibilistic.Lex, Patience: DefaultPatience}); err == nil {
		t.Fatal("old checkpoint resumed under lex")
	}
}

func TestCancelKeepsBest(t *testing.T) {
	for _, sem := range possibilistic.AllSemantics {
		t.Run(sem.String(), func(t *testing.T) { testCancelKeepsBest(t, sem) })
	}
}

func testCancelKeepsBest(t *testing.T, sem possibilistic.Semantics) {
	r := rand.New(rand.NewPCG(9, 9))
	th := hiddenTheory(r, 9, 4)
	p, q := Generate(th, atomsUpTo(9), 150, 150, 3, 0.1, r)
	train := Merge(p, q)
	ctx, cancel := context.WithCancel(context.Background())
	l, _ := NewLearner(Problem{Vocab: th.Vocab, Train: train}, Config{Seed: 1, Iterations: 1000, Semantics: sem})
	l.OnIteration = func(it Iteration) {
		if it.Iteration == 3 {
			cancel()
		}
	}
	stop, err := l.Run(ctx)
	if err != nil || stop != StopCancelled || len(l.History()) != 3 {
		t.Fatalf("stop %q, err %v, %d iterations", stop, err, len(l.History()))
	}
	if acc := accuracyUnder(l.Hypothesis(), sem, th.Vocab, train); acc != l.History()[2].TrainAccuracy {
		t.Fatalf("hypothesis after cancel has accuracy %v, history says %v", acc, l.History()[2].TrainAccuracy)
	}
}

func TestBounds(t *testing.T) {
	if VCBound(10, 8) != 30 || VCBound(10, 1) != 0 {
		t.Fatal("VCBound")
	}
	b := ErrorBound(0.1, 30, 1000, 0.05)
	want := 0.1 + math.Sqrt((30*(math.Log(2000.0/30)+1)+math.Log(80))/1000)
	if math.Abs(b-want) > 1e-12 || ErrorBound(0.1, 1e6, 10, 0.05) != 1 {
		t.Fatalf("ErrorBound = %v, want %v", b, want)
	}
}
