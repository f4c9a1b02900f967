package learn

import (
	"bytes"
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestRestarts checks the final run's restarts: as many runs as the
// iteration limit allows (Protocol.runs), each the learner's own run with
// its seed (restartSeed), and the kept one the best on the training
// examples, the first of equal ones with fewest literals; a cancelled
// restart ends the outcome as cancelled.
func TestRestarts(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	th := hiddenTheory(r, 8, 4)
	p, q := Generate(th, atomsUpTo(8), 150, 150, 3, 0.1, r)
	train := Merge(p, q)
	prob := Problem{Vocab: th.Vocab, Train: train}
	sel := &Selection{Chosen: 4}
	for _, tc := range []struct{ restarts, limit, want int }{
		{5, 100, 5}, {5, 12, 3}, {5, 4, 1}, {1, 100, 1}, {0, 100, 1}, {3, 0, 3},
	} {
		proto := Protocol{Settings: Settings{Seed: 3, Iterations: tc.limit, Threads: 2}, Restarts: tc.restarts}
		final := proto.Final(sel)
		l, err := NewLearner(prob, final)
		if err != nil {
			t.Fatal(err)
		}
		out, err := proto.Finish(context.Background(), prob, sel, l)
		if err != nil {
			t.Fatal(err)
		}
		if out.Runs != tc.want || out.Kept < 0 || out.Kept >= out.Runs {
			t.Fatalf("restarts %d, limit %d: %d runs (kept %d), want %d", tc.restarts, tc.limit, out.Runs, out.Kept, tc.want)
		}
		// Every run again, by itself: the kept one is the best.
		bestAcc, bestLits, best := -1.0, 0, -1
		var kept *Hypothesis
		for k := range out.Runs {
			s := final
			if k > 0 {
				s.Seed = restartSeed(final.Seed, k)
			}
			lk, err := NewLearner(prob, s)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := lk.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			acc, lits := lk.TrainAccuracy(), lk.Final().NumLiterals()
			if acc > bestAcc || acc == bestAcc && lits < bestLits {
				bestAcc, bestLits, best, kept = acc, lits, k, lk.Final()
			}
		}
		if out.Kept != best || out.TrainAccuracy != bestAcc || !reflect.DeepEqual(out.Hypothesis.Levels, kept.Levels) {
			t.Fatalf("restarts %d: kept run %d (%.4f), want run %d (%.4f)", tc.restarts, out.Kept, out.TrainAccuracy, best, bestAcc)
		}
		h := out.Learner.History()
		if len(h) == 0 || out.Elapsed < h[len(h)-1].Elapsed {
			t.Fatalf("outcome's learner: %d iterations, the runs' time %v", len(h), out.Elapsed)
		}
	}
	// No selection, no restarts: the run is the run asked for.
	proto := Protocol{Settings: Settings{Seed: 3, Iterations: 4, Threads: 2}, Restarts: 5}
	l, _ := NewLearner(prob, proto.Settings)
	if out, err := proto.Finish(context.Background(), prob, nil, l); err != nil || out.Runs != 1 {
		t.Fatalf("without a selection: %d runs, %v", out.Runs, err)
	}
	// Cancelled before the restarts: the outcome says so.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	proto = Protocol{Settings: Settings{Seed: 3, Iterations: 100, Threads: 2}, Restarts: 5}
	l, _ = NewLearner(prob, proto.Final(sel))
	l.OnIteration = func(it Iteration) {
		if it.Iteration == sel.Chosen {
			cancel()
		}
	}
	out, err := proto.Finish(ctx, prob, sel, l)
	if err != nil || out.Runs != 1 || out.Stop != StopCancelled {
		t.Fatalf("cancelled after the first run: %d runs, stop %q, %v", out.Runs, out.Stop, err)
	}
}

// TestRestartsResume interrupts the first final run, resumes it from its
// checkpoint, and requires the outcome of an uninterrupted protocol: the
// restarts run after the resumed run as they would have.
func TestRestartsResume(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	th := hiddenTheory(r, 8, 4)
	p, q := Generate(th, atomsUpTo(8), 150, 150, 3, 0.1, r)
	prob := Problem{Vocab: th.Vocab, Train: Merge(p, q)}
	sel := &Selection{Chosen: 6}
	proto := Protocol{Settings: Settings{Seed: 5, Iterations: 30, Threads: 2}, Restarts: 4}
	l, _ := NewLearner(prob, proto.Final(sel))
	want, err := proto.Finish(context.Background(), prob, sel, l)
	if err != nil || want.Runs != 4 {
		t.Fatalf("uninterrupted: %d runs, %v", want.Runs, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l, _ = NewLearner(prob, proto.Final(sel))
	l.OnIteration = func(it Iteration) {
		if it.Iteration == 3 {
			cancel()
		}
	}
	out, err := proto.Finish(ctx, prob, sel, l)
	if err != nil || out.Stop != StopCancelled {
		t.Fatalf("interrupted: stop %q, %v", out.Stop, err)
	}
	var cp bytes.Buffer
	if err := l.WriteCheckpoint(&cp); err != nil {
		t.Fatal(err)
	}
	l, err = ResumeLearner(&cp, prob, proto.Final(sel))
	if err != nil {
		t.Fatal(err)
	}
	got, err := proto.Finish(context.Background(), prob, sel, l)
	if err != nil || got.Runs != want.Runs || got.Kept != want.Kept || !reflect.DeepEqual(got.Hypothesis.Levels, want.Hypothesis.Levels) {
		t.Fatalf("resumed: %d runs, kept %d, %v; uninterrupted %d, kept %d", got.Runs, got.Kept, err, want.Runs, want.Kept)
	}
}
