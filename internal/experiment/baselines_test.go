package experiment

import (
	"strings"
	"testing"

	"github.com/strata-logic/strata/weka"
)

// TestMajority: the most frequent training class, the first in byte order
// on a tie, scored on the test rows.
func TestMajority(t *testing.T) {
	at := []weka.Attribute{{Name: "a", Values: []string{"0", "1"}}, {Name: "class", Values: []string{"x", "y", "z"}}}
	train := &weka.ARFF{Attributes: at, Rows: [][]string{{"0", "y"}, {"1", "x"}, {"1", "y"}, {"0", "x"}, {"0", "z"}}}
	test := &weka.ARFF{Attributes: at, Rows: [][]string{{"0", "x"}, {"0", "y"}, {"1", "x"}}}
	r, err := majority(train, test)
	if err != nil {
		t.Fatal(err)
	}
	if r.Classifier.Options[0] != "x" || r.Correct != 2 || r.Total != 3 {
		t.Errorf("majority %v: %d of %d, want x: 2 of 3", r.Classifier.Options, r.Correct, r.Total)
	}
	if _, err := majority(train, &weka.ARFF{}); err == nil {
		t.Error("tables of different attributes: no error")
	}
}

// TestWriteMatrix: 0/1 and numeric attributes as numbers, other nominal
// ones one-hot, missing values as nan, the class number first.
func TestWriteMatrix(t *testing.T) {
	a := &weka.ARFF{Attributes: []weka.Attribute{
		{Name: "b", Values: []string{"0", "1"}}, {Name: "n"}, {Name: "c", Values: []string{"r", "g", "b"}}, {Name: "class", Values: []string{"no", "yes"}}},
		Rows: [][]string{{"1", "2.5", "g", "yes"}, {"?", "?", "?", "no"}}}
	var w strings.Builder
	if err := writeMatrix(&w, a, map[string]int{"no": 0, "yes": 1}); err != nil {
		t.Fatal(err)
	}
	if want := "1,1,2.5,0,1,0\n0,nan,nan,nan,nan,nan\n"; w.String() != want {
		t.Errorf("matrix\n%s\nwant\n%s", w.String(), want)
	}
	w.Reset()
	if err := writeMatrix(&w, a, nil); err != nil || w.String() != "1,2.5,0,1,0\nnan,nan,nan,nan,nan\n" {
		t.Errorf("features alone: %q, %v", w.String(), err)
	}
	a.Rows[0][1] = "two"
	if err := writeMatrix(&w, a, nil); err == nil || !strings.Contains(err.Error(), `row 1: attribute n: "two"`) {
		t.Errorf("text in a numeric attribute: error %v", err)
	}
	a.Rows[0][1], a.Rows[0][3] = "2", "maybe"
	if err := writeMatrix(&w, a, map[string]int{"no": 0, "yes": 1}); err == nil {
		t.Error("a class that is not a value: no error")
	}
}
