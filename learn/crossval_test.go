package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/strata-logic/strata/logic"
)

func TestPoolHistories(t *testing.T) {
	run := func(held int, stop Stop, acc ...float64) *Selection {
		s := &Selection{Held: held, Stop: stop}
		for i, a := range acc {
			s.History = append(s.History, Iteration{Iteration: i + 1, TestAccuracy: a, Literals: 10 * (i + 1)})
		}
		return s
	}
	// The perfect fold keeps 0.9 after its second iteration, the fold that
	// stopped improving its 0.8 after its fourth; the one that reached its
	// iteration limit ends the curve at 3.
	folds := []*Selection{
		run(100, StopPerfect, 0.5, 0.9),
		run(300, StopNoGain, 0.6, 0.7, 0.8, 0.8),
		run(100, StopIterations, 0.4, 0.4, 0.6),
	}
	hist, stop := poolHistories(folds)
	want := []float64{(50 + 180 + 40) / 500., (90 + 210 + 40) / 500., (90 + 240 + 60) / 500.}
	if len(hist) != 3 || stop != StopIterations {
		t.Fatalf("%d iterations, stop %q; want 3, %q", len(hist), stop, StopIterations)
	}
	for i, w := range want {
		if math.Abs(hist[i].TestAccuracy-w) > 1e-12 || hist[i].Iteration != i+1 {
			t.Errorf("iteration %d: %+v, want accuracy %v", i+1, hist[i], w)
		}
	}
	if hist[2].Literals != (20+30+30+1)/3 {
		t.Errorf("literals %d, want the folds' mean, the stopped fold's last", hist[2].Literals)
	}
	// When every fold stopped by itself the curve runs to the longest; a
	// fold whose held-out accuracy stopped improving keeps its last one.
	hist, stop = poolHistories([]*Selection{run(10, StopPerfect, 0.5), run(10, StopNoGain, 0.4, 0.6, 0.5), run(10, StopPatience, 0.5, 0.7)})
	if len(hist) != 3 || math.Abs(hist[2].TestAccuracy-(0.5+0.5+0.7)/3) > 1e-12 || stop != StopNoGain {
		t.Errorf("pooled %+v, stop %q", hist, stop)
	}
}

// cvFolds splits ex into k folds by antecedent, in the order of ex.List.
func cvFolds(v *logic.Vocabulary, ex *Examples, k int, s Settings) []Validation {
	fold := map[string]int{}
	fit, held := make([]*Examples, k), make([]*Examples, k)
	for i := range k {
		fit[i], held[i] = &Examples{}, &Examples{}
	}
	for _, e := range ex.List {
		a := fmt.Sprint(e.Alpha)
		f, ok := fold[a]
		if !ok {
			f = len(fold) % k
			fold[a] = f
		}
		for i := range k {
			if i == f {
				held[i].Add(e.Alpha, e.Beta, e.Positive, e.Count)
			} else {
				fit[i].Add(e.Alpha, e.Beta, e.Positive, e.Count)
			}
		}
	}
	var out []Validation
	for i := range k {
		out = append(out, Validation{Problem: Problem{Vocab: v, Train: fit[i], Test: held[i]}, Settings: s, Patience: 4})
	}
	return out
}

func TestChooseIterationsCV(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 1))
	th := hiddenTheory(r, 8, 4)
	p, q := Generate(th, atomsUpTo(8), 150, 150, 3, 0.1, r)
	folds := cvFolds(th.Vocab, Merge(p, q), 3, Settings{Seed: 2, Iterations: 25, Patience: -1, Threads: 1})
	sel, err := ChooseIterationsCV(context.Background(), CrossValidation{Folds: folds})
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Folds) != 3 || sel.Held != 300 || sel.Models != nil {
		t.Fatalf("%d folds, %d held out, %d models", len(sel.Folds), sel.Held, len(sel.Models))
	}
	// Each fold is the run ChooseIterations makes of it.
	for i, f := range folds {
		one, err := ChooseIterations(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(historyAccuracies(one.History), historyAccuracies(sel.Folds[i].History)) {
			t.Errorf("fold %d differs from its own run", i)
		}
	}
	// The pooled curve counts every held-out example once.
	for i, it := range sel.History {
		correct := 0.0
		for _, f := range sel.Folds {
			correct += f.History[min(i, len(f.History)-1)].TestAccuracy * float64(f.Held)
		}
		if math.Abs(it.TestAccuracy-correct/300) > 1e-12 {
			t.Fatalf("iteration %d: pooled %v, want %v", i+1, it.TestAccuracy, correct/300)
		}
	}
	c, b, se := oneStandardError(sel.History, 300)
	if sel.Chosen != c || sel.Best != b || sel.StdErr != se || sel.Chosen == 0 || sel.ChosenAccuracy < sel.BestAccuracy-sel.StdErr {
		t.Errorf("selection %+v", sel)
	}
	if _, err := ChooseIterationsCV(context.Background(), CrossValidation{}); err == nil {
		t.Error("no folds accepted")
	}
	// A single fold is one held-out part: ChooseIterations and
	// ChooseSupport.
	one, err := ChooseIterationsCV(context.Background(), CrossValidation{Folds: folds[:1]})
	if err != nil {
		t.Fatal(err)
	}
	direct, err := ChooseIterations(context.Background(), folds[0])
	if err != nil {
		t.Fatal(err)
	}
	if one.Folds != nil || one.Chosen != direct.Chosen || !reflect.DeepEqual(historyAccuracies(one.History), historyAccuracies(direct.History)) {
		t.Errorf("one fold: %+v, ChooseIterations: %+v", one, direct)
	}
	supOne, err := ChooseSupportCV(context.Background(), folds[:1], one, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	supDirect, err := ChooseSupport(context.Background(), folds[0], direct.Models[direct.Chosen-1], 0.02)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(supOne, supDirect) {
		t.Errorf("one fold's support %+v, ChooseSupport's %+v", supOne, supDirect)
	}

	// Folds run at once, with a share of the threads each, or one after
	// the other with all of them: the same selection.
	for _, tc := range []struct{ threads, parallel int }{{3, 0}, {4, 2}, {2, 1}} {
		fs := cvFolds(th.Vocab, Merge(p, q), 3, Settings{Seed: 2, Iterations: 25, Patience: -1, Threads: tc.threads})
		var mu sync.Mutex
		calls := 0
		for i := range fs {
			fs[i].OnIteration = func(Iteration) { mu.Lock(); calls++; mu.Unlock() }
		}
		other, err := ChooseIterationsCV(context.Background(), CrossValidation{Folds: fs, Parallel: tc.parallel})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(historyAccuracies(other.History), historyAccuracies(sel.History)) || other.Chosen != sel.Chosen {
			t.Errorf("%d threads, parallel %d: chose %d, one after the other %d", tc.threads, tc.parallel, other.Chosen, sel.Chosen)
		}
		n := 0
		for _, f := range other.Folds {
			n += len(f.History)
		}
		if calls != n {
			t.Errorf("%d threads, parallel %d: OnIteration called %d times for %d iterations", tc.threads, tc.parallel, calls, n)
		}
	}

	// Support on the folds: threshold 0 removes only what no training
	// example needs, and the pooled accuracy is the folds' total.
	sup, err := ChooseSupportCV(context.Background(), folds, sel, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	correct := 0
	for i, f := range folds {
		m := sel.Folds[i].Models[min(sel.Chosen, len(sel.Folds[i].Models))-1]
		pruned, err := PruneSupport(context.Background(), f.Problem, m, f.Settings, 0)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := Score(pruned, f.Problem.Test, 1, f.Settings.Semantics)
		correct += c
	}
	if len(sup.Thresholds) < 3 || sup.Thresholds[0] != 0 || math.Abs(sup.Accuracy[0]-float64(correct)/300) > 1e-12 {
		t.Errorf("support selection %+v, want accuracy %v at threshold 0", sup, float64(correct)/300)
	}
	if sup.Share < 0 || sup.Share > 0.02 {
		t.Errorf("share %v", sup.Share)
	}
}

func historyAccuracies(h []Iteration) []float64 {
	var out []float64
	for _, it := range h {
		out = append(out, it.TestAccuracy)
	}
	return out
}

// TestChooseIterationsCVCancelled: a cancelled context stops every fold,
// those running at once too, and is the caller's error.
func TestChooseIterationsCVCancelled(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 2))
	th := hiddenTheory(r, 8, 4)
	p, q := Generate(th, atomsUpTo(8), 150, 150, 3, 0.1, r)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	folds := cvFolds(th.Vocab, Merge(p, q), 4, Settings{Seed: 2, Iterations: 40, Patience: -1, Threads: 2})
	folds[1].OnIteration = func(it Iteration) {
		if it.Iteration == 3 {
			cancel()
		}
	}
	if s, err := ChooseIterationsCV(ctx, CrossValidation{Folds: folds}); !errors.Is(err, context.Canceled) {
		t.Fatalf("selection %+v, error %v; want context.Canceled", s, err)
	}
}
