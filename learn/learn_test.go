package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-logic/strata/possibilistic"
)

// learnProblem is a small problem with noise: 300 training defaults over
// eight atoms drawn from a hidden theory.
func learnProblem(seed uint64) Problem {
	r := rand.New(rand.NewPCG(seed, 3))
	th := hiddenTheory(r, 8, 4)
	p, q := Generate(th, atomsUpTo(8), 150, 150, 3, 0.1, r)
	return Problem{Vocab: th.Vocab, Train: Merge(p, q)}
}

// TestSettingsZeroIsDefault: the zero Settings are the documented
// defaults, so that Learn with them learns what it learns with the
// defaults spelled out, and a run with them ends (learn.Settings{} is not
// a run without limits).
func TestSettingsZeroIsDefault(t *testing.T) {
	c := Settings{}.learner()
	want := config{Iterations: DefaultIterations, Candidates: DefaultCandidates, Seed: DefaultSeed, Threads: runtime.GOMAXPROCS(0), Patience: DefaultPatience}
	if c != want {
		t.Fatalf("zero settings resolve to %+v, want %+v", c, want)
	}
	proto := Settings{Prune: true}.protocol(nil)
	if proto.ValidationPatience != DefaultValidationPatience || proto.Restarts != DefaultRestarts || proto.PruneShare != DefaultPruneShare {
		t.Fatalf("zero protocol settings resolve to %+v", proto)
	}
	if c := (Settings{Iterations: NoLimit, Patience: Never, Grow: None}).learner(); c.Iterations != 0 || c.Patience != 0 || c.Grow != 0 {
		t.Fatalf("none resolves to %+v", c)
	}
	p := learnProblem(1)
	zero, err := Learn(context.Background(), p, Settings{Threads: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	spelled, err := Learn(context.Background(), p, Settings{Iterations: DefaultIterations, Candidates: DefaultCandidates, Seed: DefaultSeed,
		Threads: 1, Patience: DefaultPatience, Tally: SwitchOff}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if zero.Theory.String() != spelled.Theory.String() || len(zero.History) != len(spelled.History) || zero.Stop == "" {
		t.Fatalf("zero settings learned\n%s(%d iterations, %s)\nthe spelled-out defaults\n%s", zero.Theory, len(zero.History), zero.Stop, spelled.Theory)
	}
	if d := (Settings{}).Defaulted(); d.Iterations != DefaultIterations || d.Patience != DefaultPatience || d.Folds != 0 || d.Seed != DefaultSeed {
		t.Errorf("Defaulted: %+v", d)
	}
	if d := (Settings{Validation: 0.2}).Defaulted(); d.Folds != 1 || d.Validation != 0.2 {
		t.Errorf("a held-out share alone: %+v", d)
	}
}

// TestSettingsValidate: every field without a meaning, and every rule
// between fields broken, is a *SettingsError that names the field, in
// the words an interface gives it (Explain).
func TestSettingsValidate(t *testing.T) {
	for _, c := range []struct {
		s     Settings
		field string
		text  string
	}{
		{Settings{Iterations: -2}, "Iterations", "Iterations -2"},
		{Settings{Candidates: -1}, "Candidates", "Candidates -1"},
		{Settings{Threads: -1}, "Threads", "Threads -1"},
		{Settings{Patience: -3}, "Patience", "Patience -3"},
		{Settings{Specialise: -1}, "Specialise", "Specialise -1"},
		{Settings{Grow: -2}, "Grow", "Grow -2"},
		{Settings{Folds: -1}, "Folds", "Folds -1: give 2 or more"},
		{Settings{ValidationPatience: -5}, "ValidationPatience", "ValidationPatience -5"},
		{Settings{Restarts: -1}, "Restarts", "Restarts -1"},
		{Settings{Parallel: -1}, "Parallel", "Parallel -1"},
		{Settings{Timeout: -time.Second}, "Timeout", "Timeout -1s"},
		{Settings{Semantics: 7}, "Semantics", "Semantics 7"},
		{Settings{Tally: 9}, "Tally", "Tally 9"},
		{Settings{Validation: 1}, "Validation", "Validation 1: give a share"},
		{Settings{Validation: math.NaN()}, "Validation", "Validation NaN"},
		{Settings{Rule: 5}, "Rule", "Rule 5"},
		{Settings{PruneShare: 2}, "PruneShare", "PruneShare 2"},
		// The rules between fields.
		{Settings{Folds: 3, Validation: 0.3}, "Folds", "Validation is the share of one held-out part and Folds 3 cross-validates"},
		{Settings{Prune: true}, "Prune", "Prune chooses its threshold on held-out data"},
		{Settings{Prune: true, Folds: 1, Validation: None}, "Prune", "Prune chooses"},
		{Settings{Folds: 2, Resume: []byte("{}")}, "Folds", "do not combine with Resume"},
		{Settings{Validation: 0.2, Resume: []byte("{}")}, "Validation", "do not combine with Resume"},
	} {
		err := c.s.Validate()
		var se *SettingsError
		if !errors.As(err, &se) || se.Field != c.field || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%+v: %v, want a SettingsError of %s saying %q", c.s, err, c.field, c.text)
			continue
		}
		flag := se.Explain(func(f string) string { return "--" + strings.ToLower(f) })
		if strings.Contains(flag, "{") || !strings.Contains(flag, "--"+strings.ToLower(c.field)) {
			t.Errorf("%+v: explained as %q", c.s, flag)
		}
	}
	for _, ok := range []Settings{{}, {Iterations: NoLimit, Patience: Never, ValidationPatience: Never, Grow: None, Validation: None},
		{Folds: 3, Validation: None, Prune: true}, {Validation: 0.2, Prune: true}, {Folds: 1, Prune: true}, {Resume: []byte("{}")}} {
		if err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
	if parts, share := (Settings{Validation: 0.2}).Parts(); parts != 1 || share != 0.2 {
		t.Errorf("a held-out share alone is one part: %d of %v", parts, share)
	}
	if parts, _ := (Settings{Folds: 1, Validation: None}).Parts(); parts != 0 {
		t.Errorf("one part holding out nothing: %d parts", parts)
	}
}

// TestLearnIsTheProtocol: Learn with held-out parts, pruning and restarts
// learns what the protocol's steps learn on the held-out parts the command
// line drew before Learn did (by antecedent, with the generator of
// SeedFor(seed, ForValidationSplit)): the same selection, pruning and
// hypothesis.
func TestLearnIsTheProtocol(t *testing.T) {
	ctx := context.Background()
	p := learnProblem(2)
	for _, s := range []Settings{
		{Seed: 3, Iterations: 25, Threads: 2, Folds: 3, Prune: true, ValidationPatience: 6},
		{Seed: 4, Iterations: 25, Threads: 1, Validation: 0.3, Restarts: 3, Rule: BestScore, Semantics: possibilistic.Lex},
		{Seed: 5, Iterations: 20, Threads: 2, Folds: 4, Rule: Paired, Semantics: possibilistic.Linear},
	} {
		res, err := Learn(ctx, p, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		parts, share := s.Parts()
		folds, err := foldsByAntecedent(p.Train, parts, share, RandFor(s.Seed, ForValidationSplit))
		if err != nil {
			t.Fatal(err)
		}
		out, err := learnProtocol(ctx, p, s.protocol(folds))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res.Hypothesis.Levels, out.Hypothesis.Levels) || res.TrainAccuracy != out.TrainAccuracy ||
			res.Selection.Chosen != out.Selection.Chosen || res.Runs != out.Runs || res.Kept != out.Kept ||
			(res.Pruning == nil) != (out.Pruning == nil) || len(res.HeldOut) == 0 {
			t.Fatalf("%+v: Learn chose %d (runs %d, kept %d), learned\n%s\nthe steps chose %d (runs %d, kept %d), learned\n%s",
				s, res.Selection.Chosen, res.Runs, res.Kept, res.Theory, out.Selection.Chosen, out.Runs, out.Kept, out.Hypothesis.Theory(p.Vocab))
		}
	}
}

// TestLearnRecorder: the recorder hears the validation's iterations, the
// choice, the start of the final run and its iterations, in that order and
// one at a time, even with folds that run at once.
func TestLearnRecorder(t *testing.T) {
	p := learnProblem(4)
	var inside atomic.Int32
	var kinds []EventKind
	var final, iterations, restarts int
	rec := RecorderFunc(func(e Event) {
		if inside.Add(1) != 1 {
			t.Error("two events recorded at once")
		}
		defer inside.Add(-1)
		time.Sleep(time.Microsecond) // let another fold catch up
		if n := len(kinds); n == 0 || kinds[n-1] != e.Kind {
			kinds = append(kinds, e.Kind)
		}
		switch e.Kind {
		case EventValidation:
			if e.Folds != 4 || e.Fold < 0 || e.Fold >= 4 || math.IsNaN(e.Iteration.TestAccuracy) || e.Hypothesis() != nil {
				t.Errorf("validation event %+v", e)
			}
		case EventFinal:
			final = e.Iterations
			if e.Hypothesis() == nil || len(e.History) != 0 {
				t.Errorf("final run's start %+v", e)
			}
		case EventIteration:
			if e.Run > 0 {
				restarts++
				return
			}
			iterations++
			var cp bytes.Buffer
			if e.Iteration.Iteration != iterations || e.Theory() == nil || e.WriteCheckpoint(&cp) != nil || cp.Len() == 0 {
				t.Errorf("iteration event %+v", e)
			}
		}
	})
	res, err := Learn(context.Background(), p, Settings{Seed: 2, Iterations: 20, Threads: 4, Folds: 4, Restarts: 2}, rec)
	if err != nil {
		t.Fatal(err)
	}
	want := []EventKind{EventValidation, EventChosen, EventFinal, EventIteration}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	if final != res.Iterations || iterations == 0 || res.Runs == 2 && restarts == 0 {
		t.Errorf("final run of at most %d iterations (%d), %d iterations, %d of the restarts; %d runs", final, res.Iterations, iterations, restarts, res.Runs)
	}
}

// TestLearnResume: a final run interrupted by its recorder ends with a
// checkpoint, and Learn resumed from it ends with the theory of the run
// that was never stopped.
func TestLearnResume(t *testing.T) {
	p := learnProblem(5)
	s := Settings{Seed: 7, Iterations: 12, Threads: 2, Patience: Never}
	straight, err := Learn(context.Background(), p, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut, err := Learn(ctx, p, s, RecorderFunc(func(e Event) {
		if e.Kind == EventIteration && e.Iteration.Iteration == 5 {
			cancel()
		}
	}))
	if err != nil || cut.Stop != StopCancelled || len(cut.History) != 5 {
		t.Fatalf("interrupted run: %v, %+v", err, cut)
	}
	var cp bytes.Buffer
	if err := cut.WriteCheckpoint(&cp); err != nil {
		t.Fatal(err)
	}
	s.Resume = cp.Bytes()
	plan, err := NewPlan(p, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, hist := plan.Start(); len(hist) != 5 {
		t.Fatalf("resumed at %d iterations", len(hist))
	}
	resumed, err := plan.Learn(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Theory.String() != straight.Theory.String() || len(resumed.History) != len(straight.History) {
		t.Fatalf("resumed\n%s\nstraight\n%s", resumed.Theory, straight.Theory)
	}
	if _, err := plan.Learn(context.Background(), nil); err == nil {
		t.Error("a plan learned twice")
	}
	// A checkpoint of other data is the settings' fault, named Resume.
	s.Resume = cp.Bytes()
	var se *SettingsError
	if _, err := NewPlan(learnProblem(6), s); !errors.As(err, &se) || se.Field != "Resume" {
		t.Errorf("a checkpoint of other data: %v", err)
	}
}

// TestLearnHeldOutTooFew: held-out parts the data's groups cannot make are
// the settings' fault: a *SettingsError of Folds, or of Validation for a
// share, matching ErrTooFew.
func TestLearnHeldOutTooFew(t *testing.T) {
	p := learnProblem(1)
	var se *SettingsError
	if _, err := NewPlan(p, Settings{Folds: 100000}); !errors.As(err, &se) || se.Field != "Folds" || !errors.Is(err, ErrTooFew) {
		t.Errorf("100000 folds: %v", err)
	}
	if _, err := NewPlan(p, Settings{Validation: 0.0001}); !errors.As(err, &se) || se.Field != "Validation" || !errors.Is(err, ErrTooFew) {
		t.Errorf("a share of no example: %v", err)
	}
}

// TestLearnAlternatives: with alternatives, every problem is validated,
// and the one learned is the first with the best held-out score at its
// chosen iteration.
func TestLearnAlternatives(t *testing.T) {
	a, b, c := learnProblem(7), learnProblem(8), learnProblem(9)
	a.Alternatives = []Problem{b, c}
	res, err := Learn(context.Background(), a, Settings{Seed: 1, Iterations: 15, Threads: 2, Folds: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tried) != 3 {
		t.Fatalf("%d problems tried", len(res.Tried))
	}
	best := 0
	for i, tr := range res.Tried {
		if tr.Selection.ChosenAccuracy > res.Tried[best].Selection.ChosenAccuracy {
			best = i
		}
	}
	if res.Alternative != best || res.Selection != res.Tried[best].Selection {
		t.Fatalf("learned problem %d, the best held-out score is problem %d's", res.Alternative, best)
	}
	if want := []*Problem{&a, &b, &c}[best].Train.Total(); res.Examples != want {
		t.Errorf("learned on %d examples, problem %d has %d", res.Examples, best, want)
	}
}

// TestIterationJSON: an iteration without a test set has a null
// test_accuracy (JSON has no NaN), and reads back as it was written.
func TestIterationJSON(t *testing.T) {
	for _, it := range []Iteration{
		{Iteration: 3, TrainAccuracy: 0.75, TestAccuracy: math.NaN(), Rules: 4, Levels: 2, Literals: 9, Elapsed: 1500 * time.Millisecond, Improved: true},
		{Iteration: 1, TrainAccuracy: 1, TestAccuracy: 0.5},
	} {
		data, err := json.Marshal(it)
		if err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(it.TestAccuracy) != strings.Contains(string(data), `"test_accuracy":null`) {
			t.Errorf("%+v as %s", it, data)
		}
		var back Iteration
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if back.Iteration != it.Iteration || back.Elapsed != it.Elapsed || back.Literals != it.Literals ||
			math.IsNaN(back.TestAccuracy) != math.IsNaN(it.TestAccuracy) || !math.IsNaN(it.TestAccuracy) && back.TestAccuracy != it.TestAccuracy {
			t.Errorf("%+v read back as %+v", it, back)
		}
	}
}
