package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestCoverage: what a formula decides, on examples given as text and on a
// learning run's own training examples, is what eval.Decides says.
func TestCoverage(t *testing.T) {
	_, ts := newTest(t, Config{})
	var th theoryView
	call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": penguin}, &th)
	// The exception !penguin | !flies (level 0, index 1) is needed for
	// penguin -> !flies and, by drowning the level of weight 0.5, keeps
	// penguin -> flies and penguin -> wings from being covered.
	var cv coverageView
	st := call(t, "POST", ts.URL+"/api/coverage", map[string]any{"theory_id": th.ID, "level": 0, "index": 1,
		"test_pos": "penguin -> !flies\npenguin -> !flies\nbird -> flies\n", "test_neg": "penguin -> flies\npenguin -> wings\n"}, &cv)
	if st != 200 || cv.Formula != "!penguin | !flies" || cv.Weight != 1 || cv.Semantics != "poss" || len(cv.Sets) != 1 {
		t.Fatalf("%d %+v", st, cv)
	}
	set := cv.Sets[0]
	var listed []string
	for _, d := range set.Decided {
		listed = append(listed, d.Example+map[bool]string{true: " right", false: " wrong"}[d.Right]+" x"+string(rune('0'+d.Count)))
	}
	if set.Name != "test" || set.Examples != 5 || set.Right != 4 || set.Wrong != 0 ||
		strings.Join(listed, "; ") != "penguin -> !flies right x2; penguin -> flies right x1; penguin -> wings right x1" {
		t.Errorf("%+v: %s", set, strings.Join(listed, "; "))
	}
	// Under lex penguins keep their wings with or without the exception.
	call(t, "POST", ts.URL+"/api/coverage", map[string]any{"theory_id": th.ID, "level": 0, "index": 1, "semantics": "lex",
		"pos": "penguin -> !flies", "neg": "penguin -> wings"}, &cv)
	if s := cv.Sets[0]; s.Name != "training" || s.Right != 1 || s.Wrong != 0 {
		t.Errorf("under lex: %+v", s)
	}

	// A learning run's training examples, scored on its learned theory.
	pos, neg := exampleFile(t, "birds.pos"), exampleFile(t, "birds.neg")
	var start, end runView
	call(t, "POST", ts.URL+"/api/learn", map[string]any{"pos": pos, "neg": neg, "iterations": 8, "candidates": 30}, &start)
	evs := readEvents(t, ts.URL+"/api/learn/"+start.ID+"/events")
	if err := json.Unmarshal(evs[len(evs)-1].data, &end); err != nil || end.State != stateDone {
		t.Fatalf("run: %v %+v", err, end)
	}
	var learned theoryView
	call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": end.Theory}, &learned)
	lib := readTheory(t, end.Theory)
	_, train := trainingSet(t, pos, neg)
	decided := 0
	for level, l := range learned.Levels {
		for index := range l.Formulas {
			var cv coverageView
			if st := call(t, "POST", ts.URL+"/api/coverage", map[string]any{"theory_id": learned.ID, "run_id": start.ID, "level": level, "index": index}, &cv); st != 200 {
				t.Fatalf("coverage of %d/%d: %d", level, index, st)
			}
			p, n := train.Size()
			s := cv.Sets[0]
			if len(cv.Sets) != 1 || s.Name != "training" || s.Examples != p+n {
				t.Fatalf("coverage on the run's examples: %+v, want %d training examples", cv, p+n)
			}
			posR, negR := defaultsOf(t, lib, pos), defaultsOf(t, lib, neg)
			d, err := eval.Decides(context.Background(), lib, level, index, possibilistic.Poss, posR, negR)
			if err != nil {
				t.Fatal(err)
			}
			if s.Right != d.Right || s.Wrong != d.Wrong {
				t.Errorf("%s: right %d wrong %d; eval.Decides on the example files: %d and %d", cv.Formula, s.Right, s.Wrong, d.Right, d.Wrong)
			}
			n = s.Unlisted
			for _, x := range s.Decided {
				n += x.Count
			}
			if n != s.Right+s.Wrong {
				t.Errorf("%s: %d decided listed or counted, %d right and %d wrong", cv.Formula, n, s.Right, s.Wrong)
			}
			decided += n
		}
	}
	if decided == 0 {
		t.Error("no formula of the learned theory decides a training example")
	}

	var e apiError
	for _, c := range []struct {
		body   map[string]any
		status int
		field  string
	}{
		{map[string]any{"theory_id": th.ID, "level": 2, "index": 0, "pos": "a -> b"}, 400, "level"},
		{map[string]any{"theory_id": th.ID, "level": 0, "index": 0}, 400, "pos"},
		{map[string]any{"theory_id": th.ID, "level": 0, "index": 0, "run_id": "r-0000000000000000"}, 404, "run_id"},
		{map[string]any{"theory_id": th.ID, "level": 0, "index": 0, "run_id": start.ID, "pos": "a -> b"}, 400, "pos"},
		{map[string]any{"theory_id": th.ID, "level": 0, "index": 0, "pos": "a -> (b"}, 400, "pos"},
		{map[string]any{"base": birdsRules, "level": 0, "index": 0, "pos": "a -> b"}, 400, "theory_id"},
	} {
		st := call(t, "POST", ts.URL+"/api/coverage", c.body, &e)
		if st != c.status || e.Field != c.field {
			t.Errorf("%v: %d %+v, want %d on field %s", c.body, st, e, c.status, c.field)
		}
	}
}

// defaultsOf reads an example file into th's vocabulary.
func defaultsOf(t *testing.T, th *possibilistic.Theory, text string) []logic.Rule {
	t.Helper()
	ds, err := defaults.ReadRules(strings.NewReader(text), "examples", th.Vocab)
	if err != nil {
		t.Fatal(err)
	}
	return defaults.Rules(ds)
}
