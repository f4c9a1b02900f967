package server

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

// TestLearnValidation starts a run that chooses its iterations and its
// pruning on held-out examples, as strata learn --validation --prune does,
// and checks it against the same steps through the library.
func TestLearnValidation(t *testing.T) {
	pos, neg := exampleFile(t, "birds.pos"), exampleFile(t, "birds.neg")
	rv, end, finalIterations := learnToEnd(t, map[string]any{"pos": pos, "neg": neg,
		"iterations": 20, "candidates": 30, "seed": 3, "validation": 0.3, "prune": true})
	if rv.Validation == nil || rv.Validation.FitExamples == 0 || rv.Validation.HeldExamples == 0 {
		t.Fatalf("start: %+v", rv)
	}
	val := end.Validation
	if end.State != stateDone || val == nil || val.Chosen < 1 || val.Chosen > len(val.History) || val.PruneThreshold == nil {
		t.Fatalf("end %+v, validation %+v", end, val)
	}
	if finalIterations > val.Chosen {
		t.Errorf("%d iterations in the final run, %d chosen", finalIterations, val.Chosen)
	}

	// The library, on the same request's settings.
	v, train := trainingSet(t, pos, neg)
	folds, res := library(t, learn.Problem{Vocab: v, Train: train}, learn.Settings{Iterations: 20, Candidates: 30, Seed: 3, Threads: 1, Validation: 0.3, Prune: true})
	sel := res.Selection
	if sel.Chosen != val.Chosen || len(sel.History) != len(val.History) || folds[0].Train.Total() != val.FitExamples {
		t.Fatalf("the library chose %d of %d iterations on %d examples; the run %d of %d on %d",
			sel.Chosen, len(sel.History), folds[0].Train.Total(), val.Chosen, len(val.History), val.FitExamples)
	}
	t.Logf("chose %d of %d iterations", sel.Chosen, len(sel.History))
	checkFinal(t, end, v, res)
}

// library learns p under s as learn.Learn does, and returns the held-out
// parts and what it learned.
func library(t *testing.T, p learn.Problem, s learn.Settings) ([]learn.Fold, *learn.Result) {
	t.Helper()
	plan, err := learn.NewPlan(p, s)
	if err != nil {
		t.Fatal(err)
	}
	res, err := plan.Learn(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return plan.Folds(), res
}

// learnToEnd starts a learning run on a new server with body and follows
// its events to the end: it returns the run as started and as ended, and
// the iterations of its final run. It checks the validation phase's
// events: "validation" events, one per iteration of each fold in turn,
// then one "chosen" event with the choice the run ends with, before the
// final run's "iteration" events.
func learnToEnd(t *testing.T, body map[string]any) (start, end runView, iterations int) {
	t.Helper()
	_, ts := newTest(t, Config{})
	if st := call(t, "POST", ts.URL+"/api/learn", body, &start); st != 201 {
		t.Fatalf("start: %d %+v", st, start)
	}
	evs := readEvents(t, ts.URL+"/api/learn/"+start.ID+"/events")
	if err := json.Unmarshal(evs[len(evs)-1].data, &end); err != nil {
		t.Fatal(err)
	}
	type step struct{ Fold, Folds, Iteration int }
	var steps []step
	var chosen *validationView
	for _, ev := range evs[:len(evs)-1] {
		switch ev.name {
		case "validation":
			var st step
			if err := json.Unmarshal(ev.data, &st); err != nil || chosen != nil || iterations > 0 {
				t.Fatalf("validation event %s after the choice or the final run (%v)", ev.data, err)
			}
			steps = append(steps, st)
		case "chosen":
			if chosen != nil || iterations > 0 || json.Unmarshal(ev.data, &chosen) != nil {
				t.Fatalf("chosen event %s", ev.data)
			}
		case "iteration":
			iterations++
		default:
			t.Fatalf("event %q", ev.name)
		}
	}
	val := end.Validation
	if chosen == nil || val == nil || chosen.Chosen != val.Chosen || chosen.Best != val.Best || len(steps) == 0 ||
		len(chosen.History) != len(val.History) || len(val.History) < val.Chosen {
		t.Fatalf("chosen %+v, the run's validation %+v, %d validation events", chosen, val, len(steps))
	}
	fold, last := 1, 0 // fold 0 is the one held-out part
	for i, st := range steps {
		f := max(st.Fold, 1)
		next := f == fold+1 && st.Iteration == 1
		if st.Folds != val.Folds || (f != fold && !next) || (f == fold && st.Iteration != last+1) {
			t.Fatalf("validation event %d: %+v after fold %d, iteration %d", i, st, fold, last)
		}
		fold, last = f, st.Iteration
	}
	if fold != max(val.Folds, 1) {
		t.Errorf("validation events end in fold %d of %d", fold, val.Folds)
	}
	return start, end, iterations
}

// checkFinal checks that a run ended with the theory the library ended
// with, res, over v.
func checkFinal(t *testing.T, end runView, v *logic.Vocabulary, res *learn.Result) {
	t.Helper()
	t.Logf("pruning threshold %d: %d → %d literals", res.Pruning.Threshold, res.Pruning.Before, res.Pruning.After)
	if *end.Validation.PruneThreshold != res.Pruning.Threshold || end.Theory != res.Hypothesis.Theory(v).String() {
		t.Errorf("threshold %d, theory\n%s\nthe library: threshold %d, theory\n%s", *end.Validation.PruneThreshold, end.Theory, res.Pruning.Threshold, res.Hypothesis.Theory(v))
	}
	if end.FinalRuns != res.Runs || end.KeptRun != res.Kept+1 {
		t.Errorf("final runs %d, kept %d; the library %d, kept %d", end.FinalRuns, end.KeptRun, res.Runs, res.Kept+1)
	}
}

func TestLearnValidationErrors(t *testing.T) {
	_, ts := newTest(t, Config{})
	pos, neg := exampleFile(t, "birds.pos"), exampleFile(t, "birds.neg")
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"pos": pos, "neg": neg, "prune": true}, "prune"},
		{map[string]any{"pos": pos, "neg": neg, "validation": 1.5}, "validation"},
		{map[string]any{"pos": pos, "neg": neg, "validation": -0.1}, "validation"},
		{map[string]any{"pos": pos, "neg": neg, "validation": 0.3, "resume": "r-0123456789abcdef"}, "validation"},
		{map[string]any{"pos": pos, "neg": neg, "folds": 1, "validation": 0.001}, "validation"},
		{map[string]any{"pos": pos, "neg": neg, "folds": -2}, "folds"},
		{map[string]any{"pos": pos, "neg": neg, "patience": -1}, "patience"},
		{map[string]any{"pos": pos, "neg": neg, "iterations": -1}, "iterations"},
		{map[string]any{"pos": pos, "neg": neg, "validation_patience": -1, "folds": 3}, "validation_patience"},
		{map[string]any{"pos": pos, "neg": neg, "folds": 3, "validation": 0.3}, "folds"},
		{map[string]any{"pos": pos, "neg": neg, "folds": 3, "resume": "r-0123456789abcdef"}, "folds"},
		{map[string]any{"pos": pos, "neg": neg, "folds": 100000}, "folds"},
		{map[string]any{"pos": pos, "neg": neg, "folds": 3, "choose": "median"}, "choose"},
		{map[string]any{"pos": pos, "neg": neg, "folds": 3, "restarts": -1}, "restarts"},
	} {
		var e apiError
		st := call(t, "POST", ts.URL+"/api/learn", c.body, &e)
		wantError(t, st, e, 400, 0, 0, c.field)
		if e.Field != c.field {
			t.Errorf("%v: field %q, want %q", c.body, e.Field, c.field)
		}
	}
}

// TestLearnFolds starts a run that chooses its iterations and its pruning
// by cross-validation, as strata learn --folds --prune does, and checks it
// against the same steps through the library.
func TestLearnFolds(t *testing.T) {
	pos, neg := exampleFile(t, "birds.pos"), exampleFile(t, "birds.neg")
	rv, end, finalIterations := learnToEnd(t, map[string]any{"pos": pos, "neg": neg,
		"iterations": 15, "candidates": 30, "seed": 4, "folds": 3, "prune": true})
	if rv.Validation == nil || rv.Validation.Folds != 3 {
		t.Fatalf("start: %+v", rv)
	}
	val := end.Validation
	if end.State != stateDone || val == nil || val.Chosen < 1 || val.PruneThreshold == nil || finalIterations > val.Chosen {
		t.Fatalf("end %+v, validation %+v, %d iterations in the final run", end, val, finalIterations)
	}

	v, train := trainingSet(t, pos, neg)
	folds, res := library(t, learn.Problem{Vocab: v, Train: train}, learn.Settings{Iterations: 15, Candidates: 30, Seed: 4, Threads: 1, Folds: 3, Prune: true})
	sel := res.Selection
	held := 0
	for _, f := range folds {
		held += f.Held.Queries().Total()
	}
	if sel.Chosen != val.Chosen || len(sel.History) != len(val.History) || held != val.HeldExamples || val.HeldExamples != train.Total() {
		t.Fatalf("the library chose %d of %d iterations on %d held-out examples; the run %d of %d on %d",
			sel.Chosen, len(sel.History), held, val.Chosen, len(val.History), val.HeldExamples)
	}
	for i, it := range sel.History {
		if math.IsNaN(val.History[i].TestAccuracy) || val.History[i].TestAccuracy != it.TestAccuracy {
			t.Fatalf("iteration %d: the run's pooled accuracy %v, the library's %v", i+1, val.History[i].TestAccuracy, it.TestAccuracy)
		}
	}
	checkFinal(t, end, v, res)
}

// TestLearnChoose checks the choose field: best keeps the iteration with
// the best held-out score, one-se (the default) the smallest within one
// standard error of it, which is earlier here.
func TestLearnChoose(t *testing.T) {
	pos, neg := exampleFile(t, "birds.pos"), exampleFile(t, "birds.neg")
	body := map[string]any{"pos": pos, "neg": neg, "iterations": 15, "candidates": 30, "seed": 4, "folds": 3, "choose": "best", "restarts": 1}
	_, best, _ := learnToEnd(t, body)
	if v := best.Validation; v == nil || v.Chosen != v.Best || best.FinalRuns != 1 || best.KeptRun != 1 {
		t.Fatalf("choose best: validation %+v, final runs %d, kept %d", v, best.FinalRuns, best.KeptRun)
	}
	body["choose"] = "one-se"
	_, onese, _ := learnToEnd(t, body)
	// On these examples the two rules differ (13 and 6 of 15), so a
	// server that ignored choose would fail one of the checks.
	if v := onese.Validation; v == nil || v.Best != best.Validation.Best || v.Chosen >= v.Best {
		t.Fatalf("choose one-se: validation %+v; best's %+v", v, best.Validation)
	}
}
