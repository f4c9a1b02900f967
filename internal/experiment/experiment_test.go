package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/weka"
)

func TestCells(t *testing.T) {
	for _, tc := range []struct {
		acc  []float64
		want []string
	}{
		{[]float64{40.51, 38.6, 40.54, math.NaN()}, []string{"**40.5**", "38.6", "**40.5**", "–"}},
		// 78.05 prints as 78.0 (its binary value is below 78.05): not a tie.
		{[]float64{78.14, 69.6, 78.05, math.NaN(), 78.1}, []string{"**78.1**", "69.6", "78.0", "–", "**78.1**"}},
		{[]float64{math.NaN()}, []string{"–"}},
	} {
		if got := cells(tc.acc); !slices.Equal(got, tc.want) {
			t.Errorf("cells(%v) = %q, want %q", tc.acc, got, tc.want)
		}
	}
}

func TestBaselinesAccuracies(t *testing.T) {
	b := Baselines{{Classifier: weka.J48, Correct: 3, Total: 4}}
	acc := b.Accuracies(0.5)
	if len(acc) != len(Columns) || acc[0] != 50 || !math.IsNaN(acc[1]) || acc[2] != 75 || !math.IsNaN(acc[3]) {
		t.Errorf("accuracies %v, want [50 NaN 75 NaN]", acc)
	}
	if b.Result("C4.5") != b[0] || b.Result("RF") != nil {
		t.Error("Result does not find baselines by the paper's names")
	}
}

func TestValidationCells(t *testing.T) {
	var none *Validation
	if b, c := none.cells(); b != "–" || c != "–" {
		t.Errorf("no validation: %q, %q", b, c)
	}
	v := &Validation{}
	v.History = make([]learn.Iteration, 12)
	v.Best, v.BestAccuracy, v.Chosen, v.ChosenAccuracy, v.StdErr, v.Stop = 9, 0.8, 4, 0.78, 0.04, learn.StopNoGain
	b, c := v.cells()
	if b != "9 of 12 (80.0%), held-out accuracy stopped improving" || c != "4 (78.0%, within one s.e. 4.0 of the best)" {
		t.Errorf("cells %q, %q", b, c)
	}
	v.Chosen, v.ChosenAccuracy = 9, 0.8
	if _, c := v.cells(); c != "9 (80.0%, the best)" {
		t.Errorf("the best chosen: %q", c)
	}
}

// TestExcerpt checks that an excerpt of a theory with many levels keeps
// the highest and lowest levels, says what it leaves out, and still reads
// as a theory whose formulas all come from the original.
func TestExcerpt(t *testing.T) {
	v := &logic.Vocabulary{}
	th := possibilistic.New(v)
	for j := 1; j <= 15; j++ {
		for i := 0; i < j%4+1; i++ {
			th.AddClause(logic.Clause{logic.Neg(v.Intern(fmt.Sprintf("s%d_%d", j, i))), logic.Pos(v.Intern("call"))}, float64(j)/16)
		}
	}
	th.AddClause(logic.Clause{logic.Neg(v.Intern("call")), logic.Neg(v.Intern("raise"))}, 1)
	ex := Excerpt(th, 2, 6)
	back, err := possibilistic.ReadText(context.Background(), strings.NewReader(ex), "excerpt", v)
	if err != nil {
		t.Fatalf("%v\n%s", err, ex)
	}
	if len(back.Levels) != 6 {
		t.Errorf("%d levels shown, want 6:\n%s", len(back.Levels), ex)
	}
	// Top three (1, 15/16, 14/16) and bottom three (3/16, 2/16, 1/16).
	for i, w := range []float64{1, 15. / 16, 14. / 16, 3. / 16, 2. / 16, 1. / 16} {
		if i < len(back.Levels) && back.Levels[i].Weight != w {
			t.Errorf("level %d has weight %v, want %v", i, back.Levels[i].Weight, w)
		}
	}
	for _, l := range back.Levels {
		if len(l.Formulas) > 2 {
			t.Errorf("level %v shows %d formulas", l.Weight, len(l.Formulas))
		}
	}
	if !regexp.MustCompile(`# … 10 levels not shown`).MatchString(ex) || !strings.Contains(ex, "# … and 1 more at 0.875") {
		t.Errorf("excerpt does not say what it leaves out:\n%s", ex)
	}
	full := th.String()
	for _, line := range strings.Split(ex, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") && !strings.Contains(full, line+"\n") {
			t.Errorf("excerpt line %q is not in the theory", line)
		}
	}
}

func TestEach(t *testing.T) {
	id := func(s string) string { return s }
	rows, err := selectedRows([]string{"a", "b", "c"}, []string{"c", "a"}, id, func(s string) (string, error) { return s + s, nil })
	if err != nil || !slices.Equal(rows, []string{"aa", "cc"}) {
		t.Fatalf("rows %q, %v: want the selected subjects in their own order", rows, err)
	}
	boom := errors.New("boom")
	_, err = selectedRows([]string{"a", "b"}, []string{"a", "b"}, id, func(s string) (int, error) {
		if s == "b" {
			return 0, boom
		}
		return 1, nil
	})
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "b: ") {
		t.Fatalf("error %v does not name its subject", err)
	}
}
