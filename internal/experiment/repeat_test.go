package experiment

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/weka"
)

// learnedOf is a theory under sem with correct of 1000 test situations
// right and the given number of literals (one clause).
func learnedOf(sem possibilistic.Semantics, correct, literals int) *Learned {
	c := make(logic.Clause, literals)
	for i := range c {
		c[i] = logic.Pos(logic.Atom(i))
	}
	return &Learned{Semantics: sem, Correct: correct, Total: 1000,
		Learning: &Learning{Hypothesis: &learn.Hypothesis{Levels: [][]logic.Clause{{c}}}}}
}

// rowOf is a subject's row: theories under poss, linear and lex, then RF,
// C4.5 (a tree of nodes nodes), RIPPER and XGBoost with the given numbers
// right of 1000 (a negative number: not run), and the majority class.
func rowOf(poss, linear, lex [2]int, rf, c45, ripper, xgb, nodes, majority int) *Row {
	r := &Row{Label: "subject", Semantics: []*Learned{
		learnedOf(possibilistic.Poss, poss[0], poss[1]),
		learnedOf(possibilistic.Linear, linear[0], linear[1]),
		learnedOf(possibilistic.Lex, lex[0], lex[1]),
	}}
	for i, n := range []int{rf, c45, ripper} {
		if n >= 0 {
			res := &weka.Result{Classifier: weka.Baselines[i], Correct: n, Total: 1000}
			if weka.Baselines[i].Name == "C4.5" {
				res.TreeSize = nodes
			}
			r.Baselines = append(r.Baselines, res)
		}
	}
	if xgb >= 0 {
		r.Boosting = &weka.Result{Classifier: xgboostClassifier, Correct: xgb, Total: 1000}
	}
	r.Majority = &weka.Result{Classifier: majorityClassifier, Correct: majority, Total: 1000}
	return r
}

func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		name              string
		row               *Row
		sem               possibilistic.Semantics
		baseline          string
		accurate, smaller bool
	}{
		// Poss is never the drowning-free theory, however accurate; the
		// majority class is never the baseline to beat.
		{"poss left out", rowOf([2]int{900, 10}, [2]int{700, 30}, [2]int{710, 50}, 600, 650, 705, 690, 60, 950),
			possibilistic.Lex, "RIPPER", true, true},
		{"a tie goes to the smaller", rowOf([2]int{0, 1}, [2]int{710, 30}, [2]int{710, 50}, 600, 710, 705, 690, 31, 100),
			possibilistic.Linear, "C4.5", true, true},
		{"as many literals as nodes is not fewer", rowOf([2]int{0, 1}, [2]int{710, 30}, [2]int{700, 10}, 600, 650, 705, 690, 30, 100),
			possibilistic.Linear, "RIPPER", true, false},
		{"boosting wins", rowOf([2]int{0, 1}, [2]int{688, 30}, [2]int{687, 20}, 676, 692, 685, 729, 939, 486),
			possibilistic.Linear, "XGBoost", false, true},
	} {
		v := Judge(tc.row)
		if v.Theory == nil || v.Theory.Semantics != tc.sem || v.Baseline != tc.baseline || v.AtLeastAsAccurate() != tc.accurate || v.Smaller() != tc.smaller {
			t.Errorf("%s: theory %v, baseline %q, accurate %v, smaller %v; want %v, %q, %v, %v", tc.name,
				v.Theory, v.Baseline, v.AtLeastAsAccurate(), v.Smaller(), tc.sem, tc.baseline, tc.accurate, tc.smaller)
		}
	}
	// 70.96% and 71.0% print alike: a tie on the page is a tie.
	tie := rowOf([2]int{0, 1}, [2]int{0, 1}, [2]int{0, 5}, -1, 710, -1, -1, 50, 100)
	tie.Semantics[2].Correct, tie.Semantics[2].Total = 7096, 10000
	if v := Judge(tie); !v.AtLeastAsAccurate() {
		t.Errorf("70.96%% against 71.0%%: not a tie")
	}
	tie.Semantics[2].Correct = 7094
	if v := Judge(tie); v.AtLeastAsAccurate() {
		t.Errorf("70.94%% against 71.0%%: a tie")
	}
	// Without a baseline there is nothing to judge.
	r := rowOf([2]int{0, 1}, [2]int{700, 3}, [2]int{700, 3}, -1, -1, -1, -1, 0, 500)
	if v := Judge(r); v.Baseline != "" || v.AtLeastAsAccurate() || v.Smaller() {
		t.Errorf("no baselines: %+v", v)
	}
}

func TestSpreadOf(t *testing.T) {
	s := SpreadOf([]float64{70, math.NaN(), 64, 67})
	if s.N != 3 || s.Mean != 67 || s.Min != 64 || s.Max != 70 {
		t.Errorf("spread %+v, want mean 67 of 3 from 64 to 70", s)
	}
	if s := SpreadOf([]float64{math.NaN()}); s.N != 0 || !math.IsNaN(s.Mean) {
		t.Errorf("spread of nothing %+v", s)
	}
}

// TestRepeat runs a made-up reproduction three times and checks the
// seeds and directories each run gets, the counts and the summary.
func TestRepeat(t *testing.T) {
	dir := t.TempDir()
	s := &Settings{Dir: dir, Seed: 4, Semantics: semanticsList(nil)}
	runs := map[uint64]*Row{
		4: rowOf([2]int{700, 9}, [2]int{720, 40}, [2]int{715, 30}, 650, 710, 705, 690, 63, 400), // lex loses to linear, both win
		5: rowOf([2]int{700, 9}, [2]int{690, 40}, [2]int{715, 80}, 650, 710, 705, 690, 63, 400), // lex wins, larger than J48
		6: rowOf([2]int{700, 9}, [2]int{690, 40}, [2]int{695, 30}, 650, 710, 705, 690, 63, 400), // C4.5 wins
	}
	rep := &Repeated{Title: "made up"}
	err := Repeat(s, rep, 3, func(seed uint64, d string) ([]*Row, error) {
		if want := filepath.Join(dir, "seed"+string(rune('0'+seed))); d != want {
			t.Errorf("seed %d writes into %s, want %s", seed, d, want)
		}
		return []*Row{runs[seed]}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if judged, accurate, smaller := rep.Verdicts(0); judged != 3 || accurate != 2 || smaller != 1 {
		t.Errorf("verdicts %d judged, %d accurate, %d smaller; want 3, 2, 1", judged, accurate, smaller)
	}
	sp := rep.Spreads(0)
	if lin := sp[1]; math.Abs(lin.Mean-70) > 1e-9 || lin.Min != 69 || lin.Max != 72 || lin.N != 3 {
		t.Errorf("linear's spread %+v, want 70 from 69 to 72", lin)
	}
	data, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| subject | 2 of 3 | 1 of 3 |",
		"seed 4: linear 72.0 / C4.5 71.0, 40 / 63",
		"seed 5: lex 71.5 / C4.5 71.0, 80 / 63",
		"| subject | 70.0 (70.0–70.0) | 70.0 (69.0–72.0) | 70.8 (69.5–71.5) |",
		"| **71.0** (71.0–71.0) |",
		"(seed4, seed5, seed6)",
	} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("summary.md lacks %q:\n%s", want, data)
		}
	}
	if err := Repeat(s, &Repeated{}, 0, nil); err == nil || !strings.Contains(err.Error(), "at least one") {
		t.Errorf("no runs: %v", err)
	}
}
