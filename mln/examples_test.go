package mln

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/strata-logic/strata/logic"
)

func TestGenerateSmall(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	net, err := Learn(randTable(r, 2000, 9), LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := Generate(t.Context(), EngineFactory(net, false, WalkOptions{}), 9, 300, ExampleOptions{Seed: 5, MaxEvidence: 3})
	if err != nil {
		t.Fatal(err)
	}
	exs := l.Examples
	if len(exs) != 300 {
		t.Fatalf("%d examples", len(exs))
	}
	pos := 0
	for _, e := range exs {
		if len(e.Evidence) < 1 || len(e.Evidence) > 3 ||
			slices.ContainsFunc(e.Evidence, func(l logic.Lit) bool { return l.Atom() == e.Conclusion.Atom() }) {
			t.Fatalf("malformed example %v", e)
		}
		if _, _, want := bruteMAP(net, e.Evidence, e.Conclusion); want != e.Positive {
			t.Fatalf("example %v labelled %v, brute force says %v", e, e.Positive, want)
		}
		if e.Positive {
			pos++
		}
	}
	if pos < 60 || pos > 240 {
		t.Fatalf("%d positive examples of 300: labels too one-sided", pos)
	}
	// One worker or two, the same seed gives the same examples, for the
	// approximate engine too.
	for _, approx := range []bool{false, true} {
		mk := EngineFactory(net, approx, WalkOptions{Flips: 2000})
		a, err1 := Generate(t.Context(), mk, 9, 100, ExampleOptions{Seed: 9, Workers: 1})
		b, err2 := Generate(t.Context(), mk, 9, 100, ExampleOptions{Seed: 9, Workers: 2})
		if err1 != nil || err2 != nil || !slices.EqualFunc(a.Examples, b.Examples, func(x, y Example) bool {
			return slices.Equal(x.Evidence, y.Evidence) && x.Conclusion == y.Conclusion && x.Positive == y.Positive
		}) {
			t.Fatalf("approx=%v: examples depend on the number of workers (%v %v)", approx, err1, err2)
		}
	}
}

func TestWriteExamples(t *testing.T) {
	v := logic.NewVocabulary((&Table{Cols: 4}).Names()...)
	train := []Example{{Evidence: logic.Term{logic.Pos(0), logic.Neg(2)}, Conclusion: logic.Pos(1), Positive: true},
		{Evidence: logic.Term{logic.Pos(3)}, Conclusion: logic.Neg(0)}}
	test := []Example{{Evidence: logic.Term{logic.Neg(1)}, Conclusion: logic.Pos(3), Positive: true}}
	dir := filepath.Join(t.TempDir(), "ex")
	if err := WriteExamples(dir, v, train, test); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"train.defaults": "a1, !a3 -> a2\n", "train.nondefaults": "a4 -> !a1\n",
		"test.defaults": "!a2 -> a4\n", "test.nondefaults": "",
	}
	for name, w := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(b) != w {
			t.Errorf("%s: %q %v, want %q", name, b, err, w)
		}
	}
}

// TestIndependentPLL checks the baseline on a table whose marginals are
// known.
func TestIndependentPLL(t *testing.T) {
	tb := &Table{}
	tb.Append([]bool{true, false})
	tb.Append([]bool{false, false})
	got, _ := IndependentPLL(tb, tb)
	// Laplace: p(a1) = 2/4, p(a2) = 1/4.
	want := (math.Log(0.5)*2 + math.Log(0.75)*2) / 4
	if math.Abs(got-want) > 1e-12 {
		t.Fatalf("%v, want %v", got, want)
	}
}

// stallEngine is an exact engine whose MAP queries on evidence with the
// literal a1 and whose tie checks on conclusions about atom a2 never finish
// by themselves: they wait for their context.
type stallEngine struct{ *Exact }

func (s stallEngine) MAP(ctx context.Context, ev logic.Term) ([]bool, int64, bool, error) {
	if slices.Contains(ev, logic.Pos(0)) {
		<-ctx.Done()
		return nil, 0, false, ctx.Err()
	}
	return s.Exact.MAP(ctx, ev)
}

func (s stallEngine) AtMost(ctx context.Context, ev logic.Term, bound int64) (bool, error) {
	if ev[len(ev)-1].Atom() == 1 { // the negated conclusion comes last
		<-ctx.Done()
		return false, ctx.Err()
	}
	return s.Exact.AtMost(ctx, ev, bound)
}

// With a per-query budget, an example whose query ran out is never
// labelled: it is in OutOfBudget, and every labelled example is right.
func TestGenerateQueryBudget(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	net, err := Learn(randTable(r, 2000, 9), LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mk := func() (Engine, error) {
		e, err := NewExact(net)
		return stallEngine{e}, err
	}
	l, err := Generate(t.Context(), mk, 9, 300, ExampleOptions{Seed: 5, MaxEvidence: 3, QueryTimeout: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Examples)+len(l.OutOfBudget) != 300 || len(l.OutOfBudget) == 0 || len(l.Examples) == 0 {
		t.Fatalf("%d labelled, %d out of budget, of 300", len(l.Examples), len(l.OutOfBudget))
	}
	stalls := func(e Example) bool { return slices.Contains(e.Evidence, logic.Pos(0)) || e.Conclusion.Atom() == 1 }
	for _, e := range l.Examples {
		_, _, want := bruteMAP(net, e.Evidence, e.Conclusion)
		if want != e.Positive || slices.Contains(e.Evidence, logic.Pos(0)) || e.Conclusion.Atom() == 1 && e.Positive {
			t.Fatalf("example %v labelled %v (brute force %v) though its query stalls", e, e.Positive, want)
		}
	}
	for _, e := range l.OutOfBudget {
		if !stalls(e) {
			t.Fatalf("example %v out of budget, but its queries do not stall", e)
		}
	}
	if len(l.Slowest) == 0 || !l.Slowest[0].OutOfBudget || l.SlowestTime() < 5*time.Millisecond {
		t.Fatalf("slowest queries %+v: the stalled ones should lead", l.Slowest)
	}
	// An overall budget that runs out leaves the rest unlabelled.
	l, err = Generate(t.Context(), mk, 9, 300, ExampleOptions{Seed: 5, MaxEvidence: 3, Timeout: time.Nanosecond})
	if err != nil || len(l.Examples) != 0 || len(l.OutOfBudget) != 300 {
		t.Fatalf("after the overall budget: %d labelled, %d out of budget, %v", len(l.Examples), len(l.OutOfBudget), err)
	}
	// The caller's own cancellation is an error, not a budget.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Generate(ctx, mk, 9, 300, ExampleOptions{Seed: 5}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
