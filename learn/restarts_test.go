package learn

import (
	"bytes"
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
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
		proto := protocol{Settings: Config{Seed: 3, Iterations: tc.limit, Threads: 2}, Restarts: tc.restarts}
		final := proto.final(sel)
		l, err := NewLearner(prob, final)
		if err != nil {
			t.Fatal(err)
		}
		out, err := proto.finish(context.Background(), prob, sel, l, nil)
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
	proto := protocol{Settings: Config{Seed: 3, Iterations: 4, Threads: 2}, Restarts: 5}
	l, _ := NewLearner(prob, proto.Settings)
	if out, err := proto.finish(context.Background(), prob, nil, l, nil); err != nil || out.Runs != 1 {
		t.Fatalf("without a selection: %d runs, %v", out.Runs, err)
	}
	// Cancelled before the restarts: the outcome says so.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	proto = protocol{Settings: Config{Seed: 3, Iterations: 100, Threads: 2}, Restarts: 5}
	l, _ = NewLearner(prob, proto.final(sel))
	l.OnIteration = func(it Iteration) {
		if it.Iteration == sel.Chosen {
			cancel()
		}
	}
	out, err := proto.finish(ctx, prob, sel, l, nil)
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
	proto := protocol{Settings: Config{Seed: 5, Iterations: 30, Threads: 2}, Restarts: 4}
	l, _ := NewLearner(prob, proto.final(sel))
	want, err := proto.finish(context.Background(), prob, sel, l, nil)
	if err != nil || want.Runs != 4 {
		t.Fatalf("uninterrupted: %d runs, %v", want.Runs, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l, _ = NewLearner(prob, proto.final(sel))
	l.OnIteration = func(it Iteration) {
		if it.Iteration == 3 {
			cancel()
		}
	}
	out, err := proto.finish(ctx, prob, sel, l, nil)
	if err != nil || out.Stop != StopCancelled {
		t.Fatalf("interrupted: stop %q, %v", out.Stop, err)
	}
	var cp bytes.Buffer
	if err := l.WriteCheckpoint(&cp); err != nil {
		t.Fatal(err)
	}
	l, err = ResumeLearner(&cp, prob, proto.final(sel))
	if err != nil {
		t.Fatal(err)
	}
	got, err := proto.finish(context.Background(), prob, sel, l, nil)
	if err != nil || got.Runs != want.Runs || got.Kept != want.Kept || !reflect.DeepEqual(got.Hypothesis.Levels, want.Hypothesis.Levels) {
		t.Fatalf("resumed: %d runs, kept %d, %v; uninterrupted %d, kept %d", got.Runs, got.Kept, err, want.Runs, want.Kept)
	}
}

// TestRestartsTimeout checks the final run's time budget: restarts get
// what the final run's timeout leaves after out.Elapsed; when the first
// run has spent it all, no restart is made; a restart cut by its timeout
// is not counted or compared, its time is, and no restart follows it. The
// cut restart is a learner whose learning time already equals its budget,
// so its Run stops with StopTimeout before an iteration, as one whose
// deadline passed does, without depending on the clock.
func TestRestartsTimeout(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	th := hiddenTheory(r, 8, 4)
	p, q := Generate(th, atomsUpTo(8), 150, 150, 3, 0.1, r)
	prob := Problem{Vocab: th.Vocab, Train: Merge(p, q)}
	sel := &Selection{Chosen: 4}
	proto := protocol{Settings: Config{Seed: 3, Iterations: 100, Threads: 2, Timeout: time.Hour}, Restarts: 4}
	final := proto.final(sel)
	// first is the outcome of the first final run alone: Finish without
	// restarts.
	first := func() *outcome {
		t.Helper()
		l, err := NewLearner(prob, final)
		if err != nil {
			t.Fatal(err)
		}
		out, err := (&protocol{Settings: proto.Settings}).finish(context.Background(), prob, sel, l, nil)
		if err != nil {
			t.Fatal(err)
		}
		if out.Runs != 1 || out.Stop == StopTimeout || out.Stop == StopCancelled {
			t.Fatalf("first run: %d runs, stop %q", out.Runs, out.Stop)
		}
		return out
	}

	// The first run took the whole budget: no restart is made, and the
	// outcome is the first run's.
	out := first()
	h, stop := out.Hypothesis, out.Stop
	out.Elapsed = final.Timeout
	made := 0
	err := proto.restartWith(context.Background(), sel, out, func(_ int, s Config) (*Learner, error) {
		made++
		return NewLearner(prob, s)
	})
	if err != nil || made != 0 || out.Runs != 1 || out.Kept != 0 || out.Stop != stop || out.Hypothesis != h || out.Elapsed != final.Timeout {
		t.Fatalf("budget spent by the first run: %d restarts made, %d runs, kept %d, stop %q, elapsed %v, %v",
			made, out.Runs, out.Kept, out.Stop, out.Elapsed, err)
	}

	// Restart 1 runs with what the first run left; restart 2's time runs
	// out: it is discarded, and restart 3 is not made.
	out = first()
	l0, spent := out.Learner, out.Elapsed
	var runs []*Learner // the restarts made, by index less one
	var budgets []time.Duration
	err = proto.restartWith(context.Background(), sel, out, func(_ int, s Config) (*Learner, error) {
		k := len(runs) + 1
		if s.Seed != restartSeed(final.Seed, k) || s.Iterations != final.Iterations {
			t.Errorf("restart %d: seed %d, %d iterations; want seed %d, %d iterations", k, s.Seed, s.Iterations, restartSeed(final.Seed, k), final.Iterations)
		}
		l, err := NewLearner(prob, s)
		if err != nil {
			return nil, err
		}
		if k == 2 {
			l.elapsed = s.Timeout
		}
		runs, budgets = append(runs, l), append(budgets, s.Timeout)
		return l, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || out.Runs != 2 {
		t.Fatalf("restart 2 cut by the timeout: %d restarts made, %d runs; want 2 made, 2 runs", len(runs), out.Runs)
	}
	if budgets[0] != final.Timeout-spent || budgets[1] <= 0 || budgets[1] >= budgets[0] {
		t.Fatalf("restart budgets %v after a first run of %v, of %v", budgets, spent, final.Timeout)
	}
	if out.Elapsed < spent+budgets[1] {
		t.Fatalf("elapsed %v: without the cut restart's %v (first run %v)", out.Elapsed, budgets[1], spent)
	}
	// The kept run is the better of the first and restart 1, never the
	// cut one.
	want, wantL := 0, l0
	r1 := runs[0]
	if a, a0 := r1.TrainAccuracy(), l0.TrainAccuracy(); a > a0 || a == a0 && r1.Final().NumLiterals() < l0.Final().NumLiterals() {
		want, wantL = 1, r1
	}
	if out.Kept != want || out.Learner != wantL || out.Stop == StopTimeout ||
		out.TrainAccuracy != wantL.TrainAccuracy() || !reflect.DeepEqual(out.Hypothesis.Levels, wantL.Final().Levels) {
		t.Fatalf("kept run %d (%.4f, stop %q), want run %d (%.4f)", out.Kept, out.TrainAccuracy, out.Stop, want, wantL.TrainAccuracy())
	}
}
