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
	"time"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func TestOneStandardErrorRule(t *testing.T) {
	hist := []Iteration{{TestAccuracy: 0.6}, {TestAccuracy: 0.78}, {TestAccuracy: 0.8}, {TestAccuracy: 0.79}}
	chosen, best, se := oneStandardError(hist, 100)
	if best != 3 || math.Abs(se-0.04) > 1e-4 || chosen != 2 {
		t.Fatalf("chosen %d, best %d, se %v; want 2, 3, 0.04", chosen, best, se)
	}
	if c, b, _ := oneStandardError(nil, 10); c != 0 || b != 0 {
		t.Fatal("empty history")
	}
}

func TestOneStandardErrorTable(t *testing.T) {
	hist := func(acc ...float64) []Iteration {
		var h []Iteration
		for i, a := range acc {
			h = append(h, Iteration{Iteration: i + 1, TestAccuracy: a})
		}
		return h
	}
	for _, tc := range []struct {
		acc          []float64
		n            int
		chosen, best int
	}{
		{nil, 100, 0, 0},
		{[]float64{0.5}, 100, 1, 1},
		// se of 0.8 on 100 examples is 0.04: 0.77 is within it, 0.75 not.
		{[]float64{0.6, 0.75, 0.77, 0.8, 0.79}, 100, 3, 4},
		// On 10000 examples se is 0.004: only the best itself.
		{[]float64{0.6, 0.75, 0.77, 0.8, 0.79}, 10000, 4, 4},
		// Ties go to the earliest best.
		{[]float64{0.9, 0.9, 0.9}, 1000000, 1, 1},
		// Only iterations up to the best count.
		{[]float64{0.5, 0.9, 0.2}, 100, 2, 2},
		// 298 of 300 is within one error (0.0041) of 299, which the
		// plain estimate (0.0033) would not allow; 297 is not.
		{[]float64{296. / 300, 298. / 300, 299. / 300}, 300, 2, 3},
		{[]float64{296. / 300, 297. / 300, 299. / 300}, 300, 3, 3},
	} {
		chosen, best, se := oneStandardError(hist(tc.acc...), tc.n)
		if chosen != tc.chosen || best != tc.best {
			t.Errorf("%v on %d: chose %d (best %d, se %.4f), want %d (best %d)", tc.acc, tc.n, chosen, best, se, tc.chosen, tc.best)
		}
		if best > 0 && math.Abs(se-accuracyStdErr(tc.acc[best-1], tc.n)) > 1e-15 {
			t.Errorf("se %v", se)
		}
	}
}

// TestAccuracyStdErr: the adjusted estimate agrees with the plain one,
// sqrt(p(1-p)/n), where that one is sound, and stays positive at the ends.
func TestAccuracyStdErr(t *testing.T) {
	for _, n := range []int{50, 300, 1000, 10000} {
		for _, x := range []int{n / 4, n / 3, n / 2, 2 * n / 3, 3 * n / 4} {
			p := float64(x) / float64(n)
			plain := math.Sqrt(p * (1 - p) / float64(n))
			if se := accuracyStdErr(p, n); math.Abs(se-plain) > 0.01*plain {
				t.Errorf("%d of %d: se %v, the plain estimate %v", x, n, se, plain)
			}
		}
		for _, p := range []float64{0, 1} {
			se := accuracyStdErr(p, n)
			// Half an example of n+1 either way: sqrt(0.5(n+0.5))/(n+1)^1.5.
			m := float64(n) + 1
			if want := math.Sqrt(0.5*(float64(n)+0.5)) / (m * math.Sqrt(m)); se <= 0 || math.Abs(se-want) > 1e-15 {
				t.Errorf("accuracy %v of %d: se %v, want %v", p, n, se, want)
			}
		}
	}
	if se := accuracyStdErr(0.5, 0); se != 0 {
		t.Errorf("no examples: se %v", se)
	}
}

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
func cvFolds(ex *Examples, k int) []Fold {
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
	var out []Fold
	for i := range k {
		out = append(out, Fold{Train: fit[i], Held: Binary{Examples: held[i]}})
	}
	return out
}

func historyAccuracies(h []Iteration) []float64 {
	var out []float64
	for _, it := range h {
		out = append(out, it.TestAccuracy)
	}
	return out
}

// TestChooseHoldOut: one held-out part, scored after every iteration; the
// one-standard-error rule's choice; the validation patience.
func TestChooseHoldOut(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	th := hiddenTheory(r, 9, 4)
	p, q := Generate(th, atomsUpTo(9), 200, 200, 3, 0.1, r)
	hp, hq := Generate(th, atomsUpTo(9), 80, 80, 3, 0.1, r)
	fit, held := Merge(p, q), Merge(hp, hq)
	var calls []int
	proto := protocol{Settings: Config{Seed: 1, Iterations: 40}, Folds: []Fold{{Train: fit, Held: Binary{held}}},
		ValidationPatience: 5, OnValidation: func(fold int, it Iteration) {
			if fold != 0 {
				t.Errorf("fold %d of one", fold)
			}
			calls = append(calls, it.Iteration)
		}}
	s, err := choose(context.Background(), Problem{Vocab: th.Vocab}, proto)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != len(s.History) || s.Folds != nil || len(s.Hypotheses) != len(s.History) || s.Held != held.Total() {
		t.Fatalf("OnValidation saw %d of %d iterations; %d folds, %d hypotheses, %d held out", len(calls), len(s.History), len(s.Folds), len(s.Hypotheses), s.Held)
	}
	if s.Chosen < 1 || s.Chosen > s.Best || s.ChosenAccuracy < s.BestAccuracy-s.StdErr {
		t.Fatalf("selection %+v", s)
	}
	if s.Stop == StopNoGain && len(s.History) != s.Best+5 {
		t.Fatalf("stopped for no gain after %d iterations, best at %d", len(s.History), s.Best)
	}
	// Every score is the binary accuracy of that iteration's hypothesis.
	for i, h := range s.Hypotheses {
		c, n := Score(h, held, 1, possibilistic.Poss)
		if s.History[i].TestAccuracy != float64(c)/float64(n) {
			t.Fatalf("iteration %d: held-out accuracy %v, its hypothesis scores %d of %d", i+1, s.History[i].TestAccuracy, c, n)
		}
	}
	// BestScore reads the same curve and keeps its best iteration, the
	// earliest of equal scores.
	best := proto
	best.Rule, best.OnValidation = BestScore, nil
	b, err := choose(context.Background(), Problem{Vocab: th.Vocab}, best)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(historyAccuracies(b.History), historyAccuracies(s.History)) || b.Chosen != s.Best || b.Best != s.Best || b.ChosenAccuracy != s.BestAccuracy {
		t.Fatalf("best rule: chose %d (%v), best %d; the one-standard-error rule's best %d (%v)", b.Chosen, b.ChosenAccuracy, b.Best, s.Best, s.BestAccuracy)
	}
	for i, it := range b.History[:b.Chosen-1] {
		if it.TestAccuracy >= b.ChosenAccuracy {
			t.Fatalf("best rule chose %d (%v), iteration %d scores %v", b.Chosen, b.ChosenAccuracy, i+1, it.TestAccuracy)
		}
	}
	if f := best.final(b); f.Iterations != s.Best {
		t.Fatalf("final run of the best rule: %d iterations, want %d", f.Iterations, s.Best)
	}
	// Without folds nothing is chosen, and the final run's settings are
	// the protocol's.
	if s, err := choose(context.Background(), Problem{Vocab: th.Vocab}, protocol{Settings: Config{Iterations: 7}}); s != nil || err != nil {
		t.Fatalf("no folds: %+v %v", s, err)
	}
	if f := (&protocol{Settings: Config{Iterations: 7, Timeout: time.Minute}}).final(nil); f.Iterations != 7 || f.Timeout != time.Minute {
		t.Fatalf("final settings without a selection: %+v", f)
	}
	// A fold without anything to score, or negative settings, are errors.
	for _, bad := range []protocol{
		{Folds: []Fold{{Train: fit, Held: Binary{&Examples{}}}}},
		{Folds: []Fold{{Held: Binary{held}}}},
		{Folds: proto.Folds, ValidationPatience: -1},
		{Folds: proto.Folds, PruneShare: -0.1},
		{Folds: proto.Folds, Parallel: -1},
		{Folds: proto.Folds, Rule: BestScore + 1},
		{Folds: proto.Folds, Settings: Config{Patience: -1}},
		{Folds: proto.Folds}, // no limit at all, and a context that is never done
	} {
		if _, err := choose(context.Background(), Problem{Vocab: th.Vocab}, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestRuleNames: the command line's names of the rules round-trip.
func TestRuleNames(t *testing.T) {
	for _, r := range []Rule{OneStandardError, BestScore, Paired} {
		if got, err := ParseRule(r.String()); err != nil || got != r {
			t.Errorf("%v: parsed as %v, %v", r, got, err)
		}
	}
	if _, err := ParseRule("median"); err == nil {
		t.Error("an unknown rule parsed")
	}
}

// TestChooseFolds: a cross-validation pools the folds' own runs, the same
// however many run at once, and chooses the support on all of them.
func TestChooseFolds(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 1))
	th := hiddenTheory(r, 8, 4)
	p, q := Generate(th, atomsUpTo(8), 150, 150, 3, 0.1, r)
	prob := Problem{Vocab: th.Vocab}
	proto := protocol{Settings: Config{Seed: 2, Iterations: 25, Threads: 1}, Folds: cvFolds(Merge(p, q), 3), ValidationPatience: 4}
	sel, err := choose(context.Background(), prob, proto)
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Folds) != 3 || sel.Held != 300 || sel.Hypotheses != nil {
		t.Fatalf("%d folds, %d held out, %d hypotheses", len(sel.Folds), sel.Held, len(sel.Hypotheses))
	}
	// Each fold is the run it makes alone.
	for i, f := range proto.Folds {
		alone := proto
		alone.Folds = []Fold{f}
		one, err := choose(context.Background(), prob, alone)
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

	// Folds run at once, with a share of the threads each, or one after
	// the other with all of them: the same selection.
	for _, tc := range []struct{ threads, parallel int }{{3, 0}, {4, 2}, {2, 1}} {
		other := proto
		other.Settings.Threads, other.Parallel = tc.threads, tc.parallel
		var mu sync.Mutex
		calls := 0
		other.OnValidation = func(int, Iteration) { mu.Lock(); calls++; mu.Unlock() }
		s, err := choose(context.Background(), prob, other)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(historyAccuracies(s.History), historyAccuracies(sel.History)) || s.Chosen != sel.Chosen {
			t.Errorf("%d threads, parallel %d: chose %d, one after the other %d", tc.threads, tc.parallel, s.Chosen, sel.Chosen)
		}
		n := 0
		for _, f := range s.Folds {
			n += len(f.History)
		}
		if calls != n {
			t.Errorf("%d threads, parallel %d: OnValidation called %d times for %d iterations", tc.threads, tc.parallel, calls, n)
		}
	}

	// Support on the folds: threshold 0 removes only what no training
	// example needs, and the pooled accuracy is the folds' total.
	proto.PruneShare = 0.02
	pruned, err := choose(context.Background(), prob, proto)
	if err != nil {
		t.Fatal(err)
	}
	sup := pruned.Support
	if sup == nil || pruned.Chosen != sel.Chosen {
		t.Fatalf("pruning selection %+v", pruned)
	}
	correct := 0
	for i, f := range proto.Folds {
		h := pruned.Folds[i].Hypotheses[min(sel.Chosen, len(pruned.Folds[i].Hypotheses))-1]
		ph, err := pruneSupport(context.Background(), Problem{Vocab: th.Vocab, Train: f.Train}, h, proto.Settings, 0)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := Score(ph, f.Held.Queries(), 1, possibilistic.Poss)
		correct += c
	}
	if len(sup.Thresholds) < 3 || sup.Thresholds[0] != 0 || math.Abs(sup.Accuracy[0]-float64(correct)/300) > 1e-12 {
		t.Errorf("support selection %+v, want accuracy %v at threshold 0", sup, float64(correct)/300)
	}
	if sup.Share < 0 || sup.Share > 0.02 {
		t.Errorf("share %v", sup.Share)
	}
}

// TestChooseCancelled: a cancelled context or a passed deadline stops every
// fold, those running at once too, and is the caller's error, never a
// selection that stopped for no gain.
func TestChooseCancelled(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 2))
	th := hiddenTheory(r, 8, 4)
	p, q := Generate(th, atomsUpTo(8), 150, 150, 3, 0.1, r)
	for _, k := range []int{1, 4} {
		ctx, cancel := context.WithCancel(context.Background())
		folds := cvFolds(Merge(p, q), max(k, 2))[:k]
		proto := protocol{Settings: Config{Seed: 2, Iterations: 40, Threads: 2}, Folds: folds, ValidationPatience: 1000,
			OnValidation: func(fold int, it Iteration) {
				if fold == k-1 && it.Iteration == 3 {
					cancel()
				}
			}}
		if s, err := choose(ctx, Problem{Vocab: th.Vocab}, proto); !errors.Is(err, context.Canceled) {
			t.Fatalf("%d folds: selection %+v, error %v; want context.Canceled", k, s, err)
		}
		cancel()
		dctx, dcancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		if s, err := choose(dctx, Problem{Vocab: th.Vocab}, proto); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%d folds past the deadline: selection %+v, error %v; want context.DeadlineExceeded", k, s, err)
		}
		dcancel()
	}
}

// TestLearnProtocol: the final run learns all the training examples with
// the chosen number of iterations and the time the validation left, and
// is pruned at the chosen support.
func TestLearnProtocol(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 3))
	th := hiddenTheory(r, 8, 4)
	p, q := Generate(th, atomsUpTo(8), 200, 200, 3, 0.1, r)
	train := Merge(p, q)
	folds, err := foldsByAntecedent(train, 3, 0, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	prob := Problem{Vocab: th.Vocab, Train: train}
	proto := protocol{Settings: Config{Seed: 3, Iterations: 30, Threads: 2, Timeout: time.Hour}, Folds: folds,
		ValidationPatience: 6, PruneShare: 0.05}
	out, err := learnProtocol(context.Background(), prob, proto)
	if err != nil {
		t.Fatal(err)
	}
	sel := out.Selection
	if sel == nil || sel.Chosen == 0 || sel.Support == nil || out.Pruning == nil {
		t.Fatalf("outcome %+v", out)
	}
	final := proto.final(sel)
	if final.Iterations != sel.Chosen || final.Timeout != time.Hour-sel.Elapsed || final.Seed != 3 {
		t.Fatalf("final settings %+v after %d chosen in %v", final, sel.Chosen, sel.Elapsed)
	}
	if n := len(out.Learner.History()); n > sel.Chosen || n == sel.Chosen && out.Stop != StopIterations {
		t.Fatalf("final run: %d iterations, stop %q, %d chosen", n, out.Stop, sel.Chosen)
	}
	// The final run is the learner's own run with those settings; the
	// pruning is PruneSupport at the chosen share of the training weight.
	l, err := NewLearner(prob, final)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	th0 := sel.Support.Threshold(train.Total())
	want, err := pruneSupport(context.Background(), prob, l.Final(), proto.Settings, th0)
	if err != nil {
		t.Fatal(err)
	}
	if th0 == 0 {
		want = l.Final()
	}
	if !reflect.DeepEqual(want.Levels, out.Hypothesis.Levels) || out.Pruning.Threshold != th0 || out.Pruning.After != want.NumLiterals() ||
		out.Pruning.Before != l.Final().NumLiterals() {
		t.Fatalf("pruned at %d: %+v, %d literals; want %d", th0, out.Pruning, out.Hypothesis.NumLiterals(), want.NumLiterals())
	}
	c, n := Score(out.Hypothesis, train, 1, possibilistic.Poss)
	if out.TrainAccuracy != float64(c)/float64(n) {
		t.Errorf("train accuracy %v, the hypothesis scores %d of %d", out.TrainAccuracy, c, n)
	}
	// Cancelled during the final run: the hypothesis of the last
	// completed iteration, unpruned.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l, err = NewLearner(prob, final)
	if err != nil {
		t.Fatal(err)
	}
	l.OnIteration = func(it Iteration) {
		if it.Iteration == 1 {
			cancel()
		}
	}
	out, err = proto.finish(ctx, prob, sel, l, nil)
	if err != nil || out.Stop != StopCancelled || out.Pruning != nil || len(l.History()) != 1 {
		t.Fatalf("cancelled final run: %+v %v", out, err)
	}
}

// TestChooseSupportPrunesNoise builds a hypothesis with a clause many
// training examples need and one that a single training example needs and
// the held-out examples contradict: the held-out examples must choose a
// threshold that prunes the second and keeps the first.
func TestChooseSupportPrunesNoise(t *testing.T) {
	v := &logic.Vocabulary{}
	must := func(src string) logic.Clause {
		c, err := logic.ParseClause(v, src)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b, c, d := must("a"), must("b"), must("c"), must("d")
	general, noise := must("!a | b"), must("!c | d")
	train, held := &Examples{}, &Examples{}
	train.Add(logic.Term{a[0]}, b, true, 20)
	train.Add(logic.Term{c[0]}, d, true, 1)
	train.Add(logic.Term{a[0], c[0]}, must("!b"), false, 20)
	held.Add(logic.Term{a[0]}, b, true, 10)
	held.Add(logic.Term{c[0]}, d, false, 3)
	h := &Hypothesis{Levels: [][]logic.Clause{{general, noise}}}
	for _, sem := range possibilistic.AllSemantics {
		proto := protocol{Settings: Config{Semantics: sem, Threads: 1}, Folds: []Fold{{Train: train, Held: Binary{held}}}, PruneShare: 0.05}
		sel, err := chooseSupport(context.Background(), Problem{Vocab: v}, proto, []*Selection{{Hypotheses: []*Hypothesis{h}, Held: held.Total()}}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if sel.Thresholds[sel.Chosen] < 1 || sel.Accuracy[sel.Chosen] != 1 || sel.Literals[sel.Chosen] != 2 {
			t.Fatalf("%v: chose threshold %d (accuracy %v, %d literals) of %+v", sem, sel.Thresholds[sel.Chosen], sel.Accuracy[sel.Chosen], sel.Literals[sel.Chosen], sel)
		}
		if got := sel.Threshold(train.Total()); got != sel.Thresholds[sel.Chosen] {
			t.Fatalf("%v: the share gives back %d, not the threshold %d", sem, got, sel.Thresholds[sel.Chosen])
		}
	}
}

// TestFinalCensored: a curve the validation's time cut short at its best,
// or one right on every held-out example at the chosen iteration, gives the
// final run the protocol's iteration limit; any other curve, the chosen
// iterations.
func TestFinalCensored(t *testing.T) {
	curve := func(accs ...float64) []Iteration {
		h := make([]Iteration, len(accs))
		for i, a := range accs {
			h[i] = Iteration{Iteration: i + 1, TestAccuracy: a}
		}
		return h
	}
	proto := protocol{Settings: Config{Iterations: 50, Timeout: 10 * time.Second}}
	for _, c := range []struct {
		name                string
		sel                 Selection
		censored, saturated bool
		want                int
	}{
		{"time ran out at the best", Selection{History: curve(0.5, 0.6, 0.7), Stop: StopTimeout, Best: 3, Chosen: 2, ChosenAccuracy: 0.6}, true, false, 50},
		{"time ran out after the best", Selection{History: curve(0.5, 0.7, 0.6), Stop: StopTimeout, Best: 2, Chosen: 2, ChosenAccuracy: 0.7}, false, false, 2},
		{"limit reached at the best", Selection{History: curve(0.5, 0.6, 0.7), Stop: StopIterations, Best: 3, Chosen: 3, ChosenAccuracy: 0.7}, false, false, 3},
		{"held-out score stopped improving", Selection{History: curve(0.5, 0.7, 0.6), Stop: StopNoGain, Best: 2, Chosen: 1, ChosenAccuracy: 0.5}, false, false, 1},
		{"learner's patience at the best", Selection{History: curve(0.5, 0.6), Stop: StopPatience, Best: 2, Chosen: 2, ChosenAccuracy: 0.6}, false, false, 2},
		{"every held-out example right", Selection{History: curve(0.9, 1, 1), Stop: StopNoGain, Best: 2, Chosen: 2, ChosenAccuracy: 1}, false, true, 50},
		{"all but one held-out example right", Selection{History: curve(0.9, 0.999, 0.999), Stop: StopNoGain, Best: 2, Chosen: 2, ChosenAccuracy: 0.999}, false, false, 2},
		{"nothing chosen", Selection{History: curve(1), Stop: StopNoGain, Best: 1, Chosen: 0, ChosenAccuracy: 1}, false, false, 50},
	} {
		if got := c.sel.Censored(); got != c.censored {
			t.Errorf("%s: censored %v, want %v", c.name, got, c.censored)
		}
		if got := c.sel.Saturated(); got != c.saturated {
			t.Errorf("%s: saturated %v, want %v", c.name, got, c.saturated)
		}
		c.sel.Elapsed = 4 * time.Second
		f := proto.final(&c.sel)
		if f.Iterations != c.want || f.Timeout != 6*time.Second {
			t.Errorf("%s: final run of %d iterations in %s, want %d in 6s", c.name, f.Iterations, f.Timeout, c.want)
		}
	}
}
