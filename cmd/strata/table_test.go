package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/internal/tabletest"
)

// loans is a small table whose class follows a rule with an exception:
// income above 50 gets a loan, unless the applicant has debts, which a
// guarantor overrides.
func loans(rows int) string {
	var b strings.Builder
	b.WriteString("id,income,debts,guarantor,decision\n")
	for i := range rows {
		income := (i * 37) % 100
		debts := []string{"yes", "no"}[i%2]
		guarantor := []string{"yes", "no", "no"}[i%3]
		decision := "<=50K reject"
		if income > 50 && (debts == "no" || guarantor == "yes") {
			decision = "grant"
		}
		fmt.Fprintf(&b, "%d,%d,%s,%s,%s\n", i, income, debts, guarantor, decision)
	}
	return b.String()
}

func TestLearnPredictEvalTable(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	if err := os.WriteFile(train, []byte(loans(240)), 0o644); err != nil {
		t.Fatal(err)
	}
	theory := filepath.Join(dir, "loans.theory")
	_, stderr, code := strata(t, "", "learn", "--table", train, "--label", "decision", "-o", theory, "--folds", "3", "--seed", "2")
	if code != 0 {
		t.Fatalf("learn: exit %d: %s", code, stderr)
	}
	for _, want := range []string{`column "id" left out of the features`, "iterations chosen by 3-fold cross-validation", "training rows: accuracy 1.0000"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("learn's summary lacks %q:\n%s", want, stderr)
		}
	}
	text, err := os.ReadFile(theory)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), `decision="<=50K reject" | decision=grant`) {
		t.Errorf("the theory lacks the hard rule of the class:\n%s", text)
	}
	// The rule of the data, in either direction: the threshold is the
	// one the class changes at, printed as a person writes it.
	if !strings.Contains(string(text), "income > 50") && !strings.Contains(string(text), "income <= 50") {
		t.Errorf("the theory lacks the threshold income 50:\n%s", text)
	}
	// eval on new rows, with the class column found from the hard rules.
	test := filepath.Join(dir, "test.csv")
	if err := os.WriteFile(test, []byte(loans(60)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := strata(t, "", "eval", theory, "--table", test)
	if code != 0 || !strings.HasPrefix(stdout, "accuracy: 1.0000\nmacro-F1: 1.0000\n") || !strings.Contains(stdout, "target \\ predicted") {
		t.Errorf("eval: exit %d, stdout:\n%s\nstderr: %s", code, stdout, stderr)
	}
	// predict without the class column, to standard output, explained.
	noClass := filepath.Join(dir, "new.csv")
	if err := os.WriteFile(noClass, []byte("income,debts,guarantor\n70,yes,yes\n70,yes,no\n10,?,no\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = strata(t, "", "predict", theory, "--table", noClass, "--explain", "-o", "-")
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || strings.Join(recs[0], ",") != "line,predicted,level,rules,entailed,against" {
		t.Fatalf("predict output:\n%s", stdout)
	}
	if recs[1][1] != "grant" || recs[2][1] != "<=50K reject" || recs[3][1] != "<=50K reject" {
		t.Errorf("predictions %q, %q, %q; want grant, reject, reject", recs[1][1], recs[2][1], recs[3][1])
	}
	if recs[1][0] != "2" || recs[1][3] == "" || recs[1][2] == "" {
		t.Errorf("explanation of row 1: %q", recs[1])
	}
	// Bad tables: positioned errors.
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("income,debts,guarantor,decision\n70,yes,yes,grant\n60,no\n"), 0o644)
	_, stderr, code = strata(t, "", "learn", "--table", bad, "--label", "decision")
	if code != 1 || !strings.Contains(stderr, bad+":3:4: row has 2 fields, the header 4") {
		t.Errorf("ragged row: exit %d: %s", code, stderr)
	}
	_, stderr, code = strata(t, "", "learn", "--table", train, "--label", "class")
	if code != 1 || !strings.Contains(stderr, train+`:1:1: no column "class" in the header`) {
		t.Errorf("missing label: exit %d: %s", code, stderr)
	}
	_, stderr, code = strata(t, "", "learn", "--table", train, "--label", "decision", "--numeric", "income,debts")
	if code != 1 || !strings.Contains(stderr, train+`:2:5: column "debts": "yes" is not a number`) {
		t.Errorf("text in a numeric column: exit %d: %s", code, stderr)
	}
	_, stderr, code = strata(t, "", "learn", "--table", train)
	if code != 2 || !strings.Contains(stderr, "--label") {
		t.Errorf("no --label: exit %d: %s", code, stderr)
	}
	_, stderr, code = strata(t, "", "learn", "--table", train, "--label", "decision", "--grow", "-1")
	if code != 2 || !strings.Contains(stderr, "--grow -1") {
		t.Errorf("--grow -1: exit %d: %s", code, stderr)
	}
}

func TestBenchTabularQuick(t *testing.T) {
	data := shared.Path(t, "tabular")
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := strata(t, "", "bench", "tabular", "--quick", "--weka=false", "--xgboost=false", "-o", out, "--data", data, "--datasets", "acute")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "acute") || !strings.Contains(stderr, "acute: split 3 of 3: strata-lex done") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	rows, err := csv.NewReader(mustOpen(t, filepath.Join(out, "results.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+8 || strings.Join(rows[0], ",") != "table,method,accuracy,macro_f1,rules,literals,seconds,time_stopped" {
		t.Fatalf("results.csv:\n%q", rows)
	}
	for _, r := range rows[1:] {
		switch r[1] {
		case "strata-poss", "strata-linear", "strata-lex":
			// acute is separable by two attributes: every theory gets it.
			if r[2] != "1.0000" || r[4] == "" {
				t.Errorf("%s on acute: %q", r[1], r)
			}
		case "majority":
			if r[2] == "" || r[2] == "1.0000" {
				t.Errorf("majority: %q", r)
			}
		default:
			if r[2] != "" {
				t.Errorf("%s ran with --weka=false --xgboost=false: %q", r[1], r)
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil || !strings.Contains(string(md), "| acute | 120 | 100.0 | 100.0 | 100.0 |") || !strings.Contains(string(md), "99 (FOLD-R++)") {
		t.Errorf("results.md (%v):\n%s", err, md)
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestLoansExample checks that examples/loans.theory is the theory its
// description says learn --table writes, and that predict, eval --table
// and their --json agree on it.
func TestLoansExample(t *testing.T) {
	dir := t.TempDir()
	if _, errs, code := strata(t, "", "examples", dir); code != 0 {
		t.Fatal(errs)
	}
	csvPath, theory := filepath.Join(dir, "loans.csv"), filepath.Join(dir, "loans.theory")
	learned, errs, code := strata(t, "", "learn", "--table", csvPath, "--label", "decision", "--folds", "3")
	want, _ := os.ReadFile(theory)
	if code != 0 || learned != string(want) {
		t.Fatalf("learn --table examples/loans.csv (exit %d, %s):\n%s\nexamples/loans.theory:\n%s", code, errs, learned, want)
	}
	// eval --table: text and JSON agree with predict's predictions.
	text, errs, code := strata(t, "", "eval", theory, "--table", csvPath)
	if code != 0 || !strings.HasPrefix(text, "accuracy: 0.9833\nmacro-F1: ") {
		t.Fatalf("eval --table: exit %d %s\n%s", code, errs, text)
	}
	js, _, code := strata(t, "", "eval", theory, "--table", csvPath, "--json")
	var ev struct {
		Accuracy float64  `json:"accuracy"`
		MacroF1  float64  `json:"macro_f1"`
		Rows     int      `json:"rows"`
		Right    int      `json:"right"`
		Labels   []string `json:"labels"`
		Counts   [][]int  `json:"counts"`
	}
	if err := json.Unmarshal([]byte(js), &ev); code != 0 || err != nil || ev.Rows != 120 || ev.Right != 118 ||
		strings.Join(ev.Labels, ",") != "grant,reject,none" || ev.Counts[1][1] != 75 {
		t.Fatalf("eval --table --json: exit %d %v %+v\n%s", code, err, ev, js)
	}
	js, _, code = strata(t, "", "predict", theory, "--table", csvPath, "--json", "--explain")
	var pr struct {
		Predictions []struct {
			Line      int      `json:"line"`
			Predicted string   `json:"predicted"`
			Target    string   `json:"target"`
			Level     *float64 `json:"level"`
			Rules     []string `json:"rules"`
		} `json:"predictions"`
	}
	if err := json.Unmarshal([]byte(js), &pr); code != 0 || err != nil || len(pr.Predictions) != 120 {
		t.Fatalf("predict --json: exit %d %v\n%s", code, err, js)
	}
	right := 0
	for _, p := range pr.Predictions {
		if p.Predicted == p.Target {
			right++
		}
		if p.Level == nil || p.Predicted == "reject" && len(p.Rules) == 0 {
			t.Errorf("line %d: predicted %s without its level or rules", p.Line, p.Predicted)
		}
	}
	if right != ev.Right || pr.Predictions[0].Line != 2 {
		t.Errorf("predict --json has %d right, eval %d; first line %d", right, ev.Right, pr.Predictions[0].Line)
	}
	// With -o FILE, the file has the CSV and standard output the JSON.
	out := filepath.Join(dir, "p.csv")
	js2, _, code := strata(t, "", "predict", theory, "--table", csvPath, "--json", "--explain", "-o", out)
	if b, err := os.ReadFile(out); code != 0 || err != nil || js2 != js || !strings.HasPrefix(string(b), "line,predicted,level,rules,entailed,against\n2,") {
		t.Errorf("predict --json -o FILE: exit %d %v", code, err)
	}
	if _, errs, code := strata(t, "", "predict", theory, "--table", csvPath, "--json", "-o", "-"); code != 2 || !strings.Contains(errs, "-o - and --json") {
		t.Errorf("predict --json -o -: exit %d %s", code, errs)
	}
}

// TestLearnTableProtocol checks learn --table with one held-out part,
// with folds and pruning, and --json; and that the options that do not go
// with a table say why.
func TestLearnTableProtocol(t *testing.T) {
	train := writeFile(t, "train.csv", loans(240))
	test := writeFile(t, "test.csv", loans(60))
	_, errs, code := strata(t, "", "learn", "--table", train, "--label", "decision", "--folds", "1", "--seed", "3")
	if code != 0 || !strings.Contains(errs, "iterations chosen by one held-out part") {
		t.Errorf("--folds 1: exit %d\n%s", code, errs)
	}
	js, errs, code := strata(t, "", "learn", "--table", train, "--label", "decision", "--folds", "3", "--prune", "--json", "--test-table", test)
	var sum struct {
		Rows         int      `json:"rows"`
		Skipped      int      `json:"skipped_rows"`
		TestAccuracy *float64 `json:"test_accuracy"`
		Validation   *struct {
			Folds  int `json:"folds"`
			Chosen int `json:"chosen"`
		} `json:"validation"`
		Theory *struct {
			Atoms []string `json:"atoms"`
		} `json:"theory"`
	}
	if err := json.Unmarshal([]byte(js), &sum); code != 0 || err != nil || sum.Rows != 240 || sum.TestAccuracy == nil || *sum.TestAccuracy != 1 ||
		sum.Validation == nil || sum.Validation.Folds != 3 || sum.Validation.Chosen == 0 || sum.Theory == nil {
		t.Fatalf("--folds 3 --prune --json: exit %d %v %s\n%s", code, err, errs, js)
	}
	for _, a := range sum.Theory.Atoms {
		if strings.ContainsRune(a, 0) {
			t.Errorf("the theory's atoms show an auxiliary atom %q", a)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--checkpoint", filepath.Join(t.TempDir(), "c")}, "--checkpoint and --resume do not go with --table"},
		{[]string{"--prune"}, "--prune chooses its threshold on held-out data"},
		{[]string{"--folds", "2", "--validation", "0.2"}, "give one of them"},
	} {
		_, errs, code := strata(t, "", append([]string{"learn", "--table", train, "--label", "decision"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d %q, want %q", c.args, code, errs, c.want)
		}
	}
}

// TestSkipBadRowsFlag checks that a ragged row fails learn, eval and
// predict with its position, and that --skip-bad-rows leaves it out with
// a warning naming it and a count.
func TestSkipBadRowsFlag(t *testing.T) {
	good := loans(60)
	lines := strings.Split(good, "\n")
	lines = append(lines[:5], append([]string{"999,,70,yes,no,grant"}, lines[5:]...)...) // line 6: an extra empty field
	bad := writeFile(t, "bad.csv", strings.Join(lines, "\n"))
	theory := filepath.Join(t.TempDir(), "t.theory")
	if _, errs, code := strata(t, "", "learn", "--table", writeFile(t, "good.csv", good), "--label", "decision", "-o", theory); code != 0 {
		t.Fatal(errs)
	}
	for _, args := range [][]string{
		{"learn", "--table", bad, "--label", "decision"},
		{"eval", theory, "--table", bad},
		{"predict", theory, "--table", bad},
	} {
		_, errs, code := strata(t, "", args...)
		if code != 1 || !strings.Contains(errs, bad+":6:16: row has 6 fields, the header 5") {
			t.Errorf("%v: exit %d %q", args[0], code, errs)
		}
		out, errs, code := strata(t, "", append(args, "--skip-bad-rows")...)
		if code != 0 || !strings.Contains(errs, "strata: warning: "+bad+":6:16: row has 6 fields, the header 5; row left out (--skip-bad-rows)\n") ||
			!strings.Contains(errs, "strata: "+bad+": 1 unreadable row left out, 60 read\n") {
			t.Errorf("%v --skip-bad-rows: exit %d\nstdout %s\nstderr %s", args[0], code, out, errs)
		}
	}
}

// TestBenchTabularJSON checks bench tabular --json against results.csv.
func TestBenchTabularJSON(t *testing.T) {
	data := shared.Path(t, "tabular")
	out := filepath.Join(t.TempDir(), "out")
	js, errs, code := strata(t, "", "bench", "tabular", "--quick", "--weka=false", "--xgboost=false", "-o", out, "--data", data,
		"--datasets", "acute", "--json", "--semantics-list", "lex", "--threads", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Tables []struct {
			Name    string `json:"name"`
			Rows    int    `json:"rows"`
			Splits  int    `json:"splits"`
			Methods []struct {
				Method   string   `json:"method"`
				Accuracy *float64 `json:"accuracy"`
			} `json:"methods"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Tables) != 1 || rep.Tables[0].Splits != 3 || rep.Tables[0].Rows != 120 {
		t.Fatalf("%v\n%s", err, js)
	}
	ran := map[string]bool{}
	for _, m := range rep.Tables[0].Methods {
		ran[m.Method] = m.Accuracy != nil
	}
	if !ran["strata-lex"] || ran["strata-poss"] || !ran["majority"] || ran["j48"] {
		t.Errorf("methods run: %v", ran)
	}
}

// TestLearnTableTally: learn --table under lex learns the majority of five
// columns in one iteration, as a level of votes, unless --tally=false.
func TestLearnTableTally(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "majority.csv")
	if err := os.WriteFile(file, []byte(tabletest.Majority()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tally := range []string{"--tally=true", "--tally=false"} {
		theory := filepath.Join(dir, tally+".theory")
		_, stderr, code := strata(t, "", "learn", "--table", file, "--label", "class", "--semantics", "lex", "--iterations", "1", tally, "-o", theory)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tally, code, stderr)
		}
		if all := strings.Contains(stderr, "training rows: accuracy 1.0000"); all != (tally == "--tally=true") {
			t.Errorf("%s: stderr:\n%s", tally, stderr)
		}
	}
	// On examples the table's flags would do nothing: a usage error.
	if err := os.WriteFile(filepath.Join(dir, "pos.defaults"), []byte("a -> b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "neg.defaults"), []byte("a -> !b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--tally", "--grow=3"} {
		_, stderr, code := strata(t, "", "learn", "--pos", filepath.Join(dir, "pos.defaults"), "--neg", filepath.Join(dir, "neg.defaults"), flag, "-o", filepath.Join(dir, "x.theory"))
		if code != 2 || !strings.Contains(stderr, "goes with --table") {
			t.Errorf("%s without --table: exit %d: %s", flag, code, stderr)
		}
	}
}

// TestBenchTabularFailsWhenATableCannotBeRun: a suite whose only table
// does not read writes its report and exits 1, naming the table and why,
// rather than 0 with nothing scored.
func TestBenchTabularFailsWhenATableCannotBeRun(t *testing.T) {
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "datasets.tsv"), []byte("name\tkind\tfiles\tlabel\tpositive\tfeatures\tnumeric\nbroken\tbinary\tbroken.csv\tc\t1\tx\t\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "broken.csv"), []byte("x,c\n\"unterminated,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	for _, json := range []bool{false, true} {
		args := []string{"bench", "tabular", "--weka=false", "--xgboost=false", "-o", out, "--data", data}
		if json {
			args = append(args, "--json")
		}
		_, errs, code := strata(t, "", args...)
		if code != 1 || !strings.Contains(errs, `1 of 1 tables could not be run: broken (`) || !strings.Contains(errs, `broken.csv:2:`) {
			t.Errorf("json %v: exit %d, %q", json, code, errs)
		}
		if _, err := os.Stat(filepath.Join(out, "results.md")); err != nil {
			t.Errorf("no report: %v", err)
		}
	}
}
