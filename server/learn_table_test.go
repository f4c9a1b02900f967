package server

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/tabletest"
	"github.com/strata-logic/strata/table"
)

// TestLearnTable learns from an uploaded table: the run ends with a theory
// over the table's comparison atoms, and a malformed table is a 400 naming
// the line and column.
func TestLearnTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("income,debts,decision\n")
	for i := range 120 {
		income, debts := (i*37)%100, []string{"yes", "no"}[i%2]
		decision := "reject"
		if income > 50 && debts == "no" {
			decision = "grant"
		}
		fmt.Fprintf(&b, "%d,%s,%s\n", income, debts, decision)
	}
	_, ts := newTest(t, Config{})
	var start, end runView
	if st := call(t, "POST", ts.URL+"/api/learn", map[string]any{"table": b.String(), "label": "decision", "iterations": 10}, &start); st != 201 {
		t.Fatalf("start: %d %+v", st, start)
	}
	evs := readEvents(t, ts.URL+"/api/learn/"+start.ID+"/events")
	if err := json.Unmarshal(evs[len(evs)-1].data, &end); err != nil {
		t.Fatal(err)
	}
	if end.State != stateDone {
		t.Fatalf("run %s: %s", end.State, end.Error)
	}
	for _, want := range []string{"decision=grant | decision=reject", "income > 50", "debts=no", "-> decision"} {
		if !strings.Contains(end.Theory, want) {
			t.Errorf("theory lacks %q:\n%s", want, end.Theory)
		}
	}
	// The theory's answers for the rows, class by class, as the library
	// scores the learned theory on the table.
	tab, err := table.Read(strings.NewReader(b.String()), "t.csv", table.Options{Categorical: []string{"decision"}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := table.Evaluate(context.Background(), readTheory(t, end.Theory), tab, table.PredictOptions{Label: "decision"})
	if err != nil {
		t.Fatal(err)
	}
	if conf := end.Confusion; conf == nil || conf.Rows != 120 || conf.Accuracy != c.Accuracy() || !reflect.DeepEqual(conf.Labels, c.Labels) || !reflect.DeepEqual(conf.Counts, c.Counts) {
		t.Errorf("per-class results %+v; the library's %+v", end.Confusion, c)
	}
	// With folds, the held-out parts are rows, each scored once per class
	// (one class per row), and the theory has no auxiliary atom of the
	// learner's hard rules.
	if st := call(t, "POST", ts.URL+"/api/learn", map[string]any{"table": b.String(), "label": "decision", "iterations": 10, "folds": 3}, &start); st != 201 {
		t.Fatalf("start with folds: %d %+v", st, start)
	}
	evs = readEvents(t, ts.URL+"/api/learn/"+start.ID+"/events")
	if err := json.Unmarshal(evs[len(evs)-1].data, &end); err != nil {
		t.Fatal(err)
	}
	if end.State != stateDone || end.Validation == nil || end.Validation.Folds != 3 || end.Validation.HeldExamples != 2*120 || end.Validation.Chosen == 0 {
		t.Fatalf("run with folds %s (%s): validation %+v", end.State, end.Error, end.Validation)
	}
	if strings.Contains(end.Theory, "_m") || !strings.Contains(end.Theory, "decision=grant | decision=reject") {
		t.Errorf("theory with folds:\n%s", end.Theory)
	}
	var few apiError
	if st := call(t, "POST", ts.URL+"/api/learn", map[string]any{"table": "a,b\n1,x\n1,y\n", "label": "b", "folds": 3}, &few); st != 400 || few.Field != "folds" {
		t.Errorf("3 folds of 2 rows: %d %+v", st, few)
	}
	var neg apiError
	if st := call(t, "POST", ts.URL+"/api/learn", map[string]any{"table": b.String(), "label": "decision", "grow": -1}, &neg); st != 400 || neg.Field != "grow" {
		t.Errorf("grow -1: %d %+v", st, neg)
	}
	var e apiError
	st := call(t, "POST", ts.URL+"/api/learn", map[string]any{"table": "income,debts,decision\n70,no,grant\n60,yes\n", "label": "decision"}, &e)
	if st != 400 || e.Field != "table" || e.Line != 3 || e.Column != 4 || !strings.Contains(e.Message, "row has 2 fields") {
		t.Errorf("ragged table: %d %+v", st, e)
	}
	st = call(t, "POST", ts.URL+"/api/learn", map[string]any{"table": "a,b\n1,2\n", "label": "b", "pos": "-> a"}, &e)
	if st != 400 || e.Field != "table" {
		t.Errorf("table with examples: %d %+v", st, e)
	}
}

// TestLearnTableTally: under lex, a table whose class is the majority of
// five yes/no columns is learned in one iteration as a level of votes by
// default, and is not with "tally": false.
func TestLearnTableTally(t *testing.T) {
	_, ts := newTest(t, Config{})
	learnOnce := func(tally any) runView {
		req := map[string]any{"table": tabletest.Majority(), "label": "class", "iterations": 1, "semantics": "lex"}
		if tally != nil {
			req["tally"] = tally
		}
		var start, end runView
		if st := call(t, "POST", ts.URL+"/api/learn", req, &start); st != 201 {
			t.Fatalf("start (tally %v): %d %+v", tally, st, start)
		}
		evs := readEvents(t, ts.URL+"/api/learn/"+start.ID+"/events")
		if err := json.Unmarshal(evs[len(evs)-1].data, &end); err != nil {
			t.Fatal(err)
		}
		if end.State != stateDone || end.Confusion == nil {
			t.Fatalf("run (tally %v) %s: %s", tally, end.State, end.Error)
		}
		return end
	}
	if end := learnOnce(nil); end.Confusion.Accuracy != 1 || !strings.Contains(end.Theory, "a=yes -> class=majority") {
		t.Errorf("default: accuracy %v, theory:\n%s", end.Confusion.Accuracy, end.Theory)
	}
	if end := learnOnce(false); end.Confusion.Accuracy == 1 {
		t.Errorf(`"tally": false: accuracy 1 after one iteration, theory:%s`, end.Theory)
	}
	// Without a table, a table's field would do nothing: a 400 naming it.
	var stray apiError
	if st := call(t, "POST", ts.URL+"/api/learn", map[string]any{"pos": "a -> b\n", "neg": "a -> !b\n", "tally": false}, &stray); st != 400 || stray.Field != "tally" {
		t.Errorf("tally without a table: %d %+v", st, stray)
	}
}

// TestLearnTableFormats learns from the same table as CSV text and as TSV
// text read with table_format: the runs end with the same theory; a
// table_format without a table is a 400 naming it.
func TestLearnTableFormats(t *testing.T) {
	var b strings.Builder
	b.WriteString("income,debts,decision\n")
	for i := range 60 {
		income, debts := (i*37)%100, []string{"yes", "no"}[i%2]
		decision := map[bool]string{true: "grant", false: "reject"}[income > 50 && debts == "no"]
		fmt.Fprintf(&b, "%d,%s,%s\n", income, debts, decision)
	}
	_, ts := newTest(t, Config{})
	theory := func(req map[string]any) string {
		t.Helper()
		req["label"], req["iterations"], req["seed"] = "decision", 5, 1
		var start, end runView
		if st := call(t, "POST", ts.URL+"/api/learn", req, &start); st != 201 {
			t.Fatalf("start: %d %+v", st, start)
		}
		evs := readEvents(t, ts.URL+"/api/learn/"+start.ID+"/events")
		if err := json.Unmarshal(evs[len(evs)-1].data, &end); err != nil || end.State != stateDone {
			t.Fatalf("run %s: %v %s", end.State, err, end.Error)
		}
		return end.Theory
	}
	want := theory(map[string]any{"table": b.String()})
	if got := theory(map[string]any{"table": strings.ReplaceAll(b.String(), ",", "\t"), "table_format": "tsv"}); got != want {
		t.Errorf("from TSV:\n%s\nfrom CSV:\n%s", got, want)
	}
	var e apiError
	if st := call(t, "POST", ts.URL+"/api/learn", map[string]any{"pos": "a -> b\n", "neg": "a -> !b\n", "table_format": "tsv"}, &e); st != 400 || e.Field != "table_format" {
		t.Errorf("table_format without a table: %d %+v", st, e)
	}
}
