package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
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
	for _, want := range []string{`decision="<=50K reject" | decision=grant`, "income > 50 & debts=no -> decision=grant"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the theory lacks %q:\n%s", want, text)
		}
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
	if len(recs) != 4 || strings.Join(recs[0], ",") != "line,predicted,level,rules,entailed" {
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
}

func TestBenchTabularQuick(t *testing.T) {
	data := shared.Path(t, "tabular")
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := strata(t, "", "bench", "tabular", "--quick", "--weka=false", "--xgboost=false", "-o", out, "--data", data, "--tables", "acute")
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
	if len(rows) != 1+8 || strings.Join(rows[0], ",") != "table,method,accuracy,macro_f1,rules,literals,seconds" {
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
