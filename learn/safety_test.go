package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestNewEngineDecidesEveryExample checks a fresh engine (no commit yet)
// against full evaluation of the empty hypothesis: hard rules, or α itself, may
// entail β before any clause is learned, and scoring candidates from a
// wrong start gave the learner's "score fell while simplifying" error.
func TestNewEngineDecidesEveryExample(t *testing.T) {
	for _, sem := range possibilistic.AllSemantics {
		r := rand.New(rand.NewPCG(14, 6))
		for iter := range 200 {
			n := 2 + r.IntN(5)
			v := vocab(n)
			ws := worlds(n)
			ex := randExamples(r, n, 30)
			var hard []logic.Clause
			for range r.IntN(3) {
				hard = append(hard, randClause(r, n, 1+r.IntN(2))) // units often
			}
			score := func(m *Hypothesis) int64 {
				if sem == possibilistic.Poss {
					return fullScore(m, ex, v)
				}
				return bruteScore(m, sem, ex, ws)
			}
			e := newEngine(n, ex, hard, 1+iter%2, sem)
			m := &Hypothesis{Hard: hard}
			base := e.score()
			if want := score(m); base != want {
				t.Fatalf("%v #%d: fresh engine scores %d, full evaluation %d\n%s", sem, iter, base, want, m.Theory(v))
			}
			c := randClause(r, n, 2)
			prof := e.scoreCandidates(context.Background(), []logic.Clause{c})
			for p := range m.Positions() {
				if want := score(m.Insert(c, p)) - base; prof[0][p] != want {
					t.Fatalf("%v #%d: inserting %s at %d: profile %d, full evaluation %d", sem, iter, c.String(v), p, prof[0][p], want)
				}
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
	l, err := NewLearner(Problem{Vocab: v, Train: ex, Hard: []logic.Clause{{logic.Pos(h)}}}, Config{Threads: 1, Iterations: DefaultIterations, Patience: DefaultPatience})
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
		l, err := NewLearner(Problem{Vocab: v, Train: ex, Hard: hard}, Config{Seed: uint64(iter), Threads: 1, Iterations: 15, Candidates: 20, Patience: DefaultPatience})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatalf("#%d: %v", iter, err)
		}
		if got, want := l.TrainAccuracy(), accuracyOf(l.Hypothesis(), v, ex); got != want {
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
	for _, sem := range possibilistic.AllSemantics {
		t.Run(sem.String(), func(t *testing.T) { interruptResumeStress(t, sem) })
	}
}

func interruptResumeStress(t *testing.T, sem possibilistic.Semantics) {
	r := rand.New(rand.NewPCG(14, 5))
	th := hiddenTheory(r, 9, 4)
	p, q := Generate(th, atomsUpTo(9), 150, 150, 3, 0.15, r)
	train := Merge(p, q)
	v := th.Vocab
	opts := Config{Seed: 5, Iterations: 14, Threads: 2, Candidates: 30, Semantics: sem}
	trip := int64(120) // context checks before an interruption, at most
	if sem != possibilistic.Poss {
		// Their iterations cost more: fewer of them, interrupted sooner
		// (and still often enough to end).
		opts.Iterations, opts.Candidates, trip = 10, 20, 100
	}
	straight, err := NewLearner(Problem{Vocab: v, Train: train}, opts)
	if err != nil {
		t.Fatal(err)
	}
	wantStop, err := straight.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := straight.Hypothesis().Theory(v).String()

	interrupts := 0
	l, err := NewLearner(Problem{Vocab: v, Train: train}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for run := 0; ; run++ {
		if run > 1000 {
			t.Fatal("no end after 1000 interrupted runs")
		}
		stop, err := l.Run(newTripwire(1 + r.Int64N(trip)))
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
		if l, err = ResumeLearner(&buf, Problem{Vocab: v, Train: train}, opts); err != nil {
			t.Fatal(err)
		}
	}
	if interrupts < 10 {
		t.Fatalf("only %d interruptions; the test does not stress resumption", interrupts)
	}
	if got := l.Hypothesis().Theory(v).String(); got != want {
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

// checkpointJSON runs a few iterations and returns the checkpoint as a
// generic JSON object.
func checkpointJSON(t *testing.T, v *logic.Vocabulary, train *Examples, hard []logic.Clause, opts Config) map[string]any {
	t.Helper()
	l, err := NewLearner(Problem{Vocab: v, Train: train, Hard: hard}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := l.WriteCheckpoint(&buf); err != nil {
		t.Fatal(err)
	}
	var cp map[string]any
	if err := json.Unmarshal(buf.Bytes(), &cp); err != nil {
		t.Fatal(err)
	}
	return cp
}

func encode(t *testing.T, cp map[string]any) string {
	b, err := json.Marshal(cp)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestResumeValidatesCheckpoint: a checkpoint that WriteCheckpoint cannot
// have written is refused with the reason, instead of resuming into a
// wrong state (or an internal error, for clauses over unknown atoms).
func TestResumeValidatesCheckpoint(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	th := hiddenTheory(r, 8, 3)
	p, q := Generate(th, atomsUpTo(8), 100, 100, 3, 0.1, r)
	train := Merge(p, q)
	v := th.Vocab
	opts := Config{Seed: 2, Iterations: 4, Threads: 1}
	good := checkpointJSON(t, v, train, nil, opts)
	if len(good["levels"].([]any)) == 0 {
		t.Fatal("no levels learned; the test needs some")
	}
	cases := []struct {
		name, want string
		edit       func(cp map[string]any) string
	}{
		{"valid", "", func(cp map[string]any) string { return encode(t, cp) }},
		{"trailing garbage", "unexpected data after the checkpoint", func(cp map[string]any) string { return encode(t, cp) + "\n}{garbage" }},
		{"negative iteration", "negative iteration", func(cp map[string]any) string { cp["iteration"] = -3; return encode(t, cp) }},
		{"history mismatch", "history lines for", func(cp map[string]any) string { cp["iteration"] = 40; return encode(t, cp) }},
		{"negative elapsed", "negative elapsed time", func(cp map[string]any) string { cp["elapsed_ns"] = -1; return encode(t, cp) }},
		{"negative stale", "without improvement", func(cp map[string]any) string { cp["stale"] = -1; return encode(t, cp) }},
		{"history elapsed", "history line 2: negative elapsed", func(cp map[string]any) string {
			cp["history"].([]any)[1].(map[string]any)["elapsed_ns"] = -5
			return encode(t, cp)
		}},
		{"history accuracy", "training accuracy 1.5", func(cp map[string]any) string {
			cp["history"].([]any)[0].(map[string]any)["train_accuracy"] = 1.5
			return encode(t, cp)
		}},
		{"hard rules override", "not equivalent to the hard rules given", func(cp map[string]any) string {
			cp["hard"] = []string{"a | b"}
			return encode(t, cp)
		}},
		{"unknown atom", "atom zz does not occur in the training examples", func(cp map[string]any) string {
			cp["levels"].([]any)[0] = []string{"!zz"}
			return encode(t, cp)
		}},
		{"empty level", "level 1 is empty", func(cp map[string]any) string {
			cp["levels"].([]any)[0] = []string{}
			return encode(t, cp)
		}},
	}
	for _, c := range cases {
		var cp map[string]any
		json.Unmarshal([]byte(encode(t, good)), &cp) // a deep copy
		n := v.Len()
		_, err := ResumeLearner(strings.NewReader(c.edit(cp)), Problem{Vocab: v, Train: train}, opts)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		case v.Len() != n:
			t.Errorf("%s: the checkpoint added atoms to the vocabulary", c.name)
		}
	}
}

// TestResumeHardRules: checkpoints whose hard rules the learner simplified
// (unit propagation among them) resume; contradictory hard rules are
// refused, by NewLearner and so by ResumeLearner (TestContradictoryHard).
func TestResumeHardRules(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 2))
	th := hiddenTheory(r, 6, 3)
	p, q := Generate(th, atomsUpTo(6), 80, 80, 3, 0.1, r)
	train := Merge(p, q)
	v := th.Vocab
	a, b := logic.Atom(0), logic.Atom(1)
	contradictory := []logic.Clause{{logic.Pos(a)}, {logic.Neg(a)}}
	if _, err := NewLearner(Problem{Vocab: v, Train: train, Hard: contradictory}, Config{Seed: 1}); err == nil {
		t.Fatal("contradictory hard rules accepted")
	}
	for _, hard := range [][]logic.Clause{
		{{logic.Pos(a)}, {logic.Neg(a), logic.Pos(b)}},
	} {
		opts := Config{Seed: 1, Iterations: 3, Threads: 1}
		cp := checkpointJSON(t, v, train, hard, opts)
		t.Logf("hard %v -> checkpoint %v", hard, cp["hard"])
		opts.Iterations = 5
		l, err := ResumeLearner(strings.NewReader(encode(t, cp)), Problem{Vocab: v, Train: train, Hard: hard}, opts)
		if err != nil {
			t.Fatalf("hard rules %v: %v", cp["hard"], err)
		}
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOptionsRefuseNegative: negative counts and durations are errors, not
// silently zero iterations (or a panic, for candidates).
func TestOptionsRefuseNegative(t *testing.T) {
	v := vocab(2)
	ex := &Examples{}
	ex.Add(logic.Term{logic.Pos(0)}, logic.Clause{logic.Pos(1)}, true, 1)
	for _, o := range []Config{{Iterations: -5}, {Candidates: -1}, {Timeout: -time.Second}, {Threads: -2}, {Patience: -1}, {Specialise: -1}, {Grow: -1}} {
		if _, err := NewLearner(Problem{Vocab: v, Train: ex}, o); err == nil || !strings.Contains(err.Error(), "negative") {
			t.Errorf("%+v: %v", o, err)
		}
	}
	// Zero settings have no effect: no iteration limit, no patience; the
	// candidates are the default's.
	l, err := NewLearner(Problem{Vocab: v, Train: ex}, Config{})
	if err != nil || l.opts.Iterations != 0 || l.opts.Patience != 0 || l.opts.Candidates != DefaultCandidates {
		t.Fatalf("zero options: %v %+v", err, l.opts)
	}
	// Without any limit, a run whose context is never done is refused
	// rather than left to run forever; a context that can end it is a
	// limit.
	if _, err := l.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "might not end") {
		t.Fatalf("a run without limits: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if stop, err := l.Run(ctx); err != nil || stop != StopCancelled {
		t.Fatalf("a cancelled run without limits: %v %v", stop, err)
	}
}

// TestFinalMatchesRemoveImplied: the learner's own removal of implied rules
// gives the learned levels that possibilistic.Theory.RemoveImplied gives
// on the whole theory, whose hard rules it does not examine.
func TestFinalMatchesRemoveImplied(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 10))
	removed := 0
	for iter := range 300 {
		n := 2 + r.IntN(5)
		v := vocab(n)
		m := randModel(r, n)
		want, err := FromTheory(m.Theory(v).RemoveImplied())
		if err != nil {
			t.Fatal(err)
		}
		got := removeImplied(m, n)
		if got.NumClauses() < m.NumClauses() {
			removed++
		}
		if g, w := (&Hypothesis{Levels: got.Levels}).Theory(v).String(), (&Hypothesis{Levels: want.Levels}).Theory(v).String(); g != w {
			t.Fatalf("#%d: %s\nlearner's removal:\n%s\nRemoveImplied:\n%s", iter, m.Theory(v), g, w)
		}
	}
	if removed < 30 {
		t.Fatalf("only %d of 300 models had implied rules; the test checks little", removed)
	}
}

// BenchmarkFinalHardCNF removes implied rules from a hypothesis of 20 learned
// clauses under the 4096-clause CNF of (a0 ∧ b0) ∨ … ∨ (a11 ∧ b11): the
// learner's removal against RemoveImplied of the whole theory (what Final
// did before, examining every hard clause too).
func BenchmarkFinalHardCNF(b *testing.B) {
	v := &logic.Vocabulary{}
	var terms []*logic.Formula
	for i := range 12 {
		terms = append(terms, logic.And(logic.AtomF(v.Intern(fmt.Sprintf("a%d", i))), logic.AtomF(v.Intern(fmt.Sprintf("b%d", i)))))
	}
	m := &Hypothesis{Hard: logic.CNF(logic.Or(terms...), nil)}
	r := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		var lv []logic.Clause
		for range 4 {
			lv = append(lv, randClause(r, v.Len(), 3))
		}
		m.Levels = append(m.Levels, lv)
	}
	b.Run("learner", func(b *testing.B) {
		for range b.N {
			removeImplied(m, v.Len())
		}
	})
	b.Run("theory", func(b *testing.B) {
		for range b.N {
			m.Theory(v).RemoveImplied()
		}
	})
}

// FuzzResumeLearner feeds ResumeLearner arbitrary checkpoints: it must
// refuse them with an error or resume into a learner that runs on without
// an internal error and scores what full evaluation says.
func FuzzResumeLearner(f *testing.F) {
	r := rand.New(rand.NewPCG(12, 3))
	th := hiddenTheory(r, 5, 2)
	p, q := Generate(th, atomsUpTo(5), 30, 30, 2, 0.1, r)
	train := Merge(p, q)
	v := th.Vocab
	hard := []logic.Clause{{logic.Pos(0), logic.Pos(1)}}
	opts := Config{Seed: 1, Iterations: 3, Threads: 1, Candidates: 10}
	l, err := NewLearner(Problem{Vocab: v, Train: train, Hard: hard}, opts)
	if err != nil {
		f.Fatal(err)
	}
	l.Run(context.Background())
	var buf bytes.Buffer
	l.WriteCheckpoint(&buf)
	good := buf.String()
	f.Add(good)
	f.Add(good + "}{")
	f.Add(strings.Replace(good, `"iteration": 3`, `"iteration": -3`, 1))
	f.Add(strings.Replace(good, `"elapsed_ns": `, `"elapsed_ns": -`, 1))
	f.Add(strings.Replace(good, `"hard": [`, `"hard": [ "c", `, 1))
	f.Add(strings.Replace(good, `"levels": [`, `"levels": [ ["!zz"], `, 1))
	f.Add(strings.Replace(good, `"levels": [`, `"levels": [ [], `, 1))
	f.Fuzz(func(t *testing.T, src string) {
		n := v.Len()
		l, err := ResumeLearner(strings.NewReader(src), Problem{Vocab: v, Train: train, Hard: hard}, opts)
		if v.Len() != n {
			t.Fatalf("the checkpoint added atoms to the vocabulary")
		}
		if err != nil {
			return
		}
		l.opts.Iterations = l.iter + 1
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatalf("resumed learner: %v", err)
		}
		if got, want := l.TrainAccuracy(), accuracyOf(l.Hypothesis(), v, train); got != want {
			t.Fatalf("resumed learner scores %v, full evaluation %v", got, want)
		}
	})
}
