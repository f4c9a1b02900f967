package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// examplesDir returns a directory strata examples has written.
func examplesDir(t *testing.T) string {
	t.Helper()
	ex := t.TempDir()
	if _, errs, code := strata(t, "", "examples", ex); code != 0 {
		t.Fatal(errs)
	}
	return ex
}

// TestLearnTableFormats learns from the same table as CSV, gzip-compressed
// CSV, TSV (by its name, and named by --table-format), a semicolon CSV and
// ARFF: every run writes the same theory.
func TestLearnTableFormats(t *testing.T) {
	dir := t.TempDir()
	csvText := loans(120)
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(csvText))
	w.Close()
	tsv := strings.ReplaceAll(csvText, ",", "\t")
	files := map[string][]byte{"t.csv": []byte(csvText), "t.csv.gz": gz.Bytes(), "t.tsv": []byte(tsv), "t.dat": []byte(tsv),
		"semi.csv": []byte(strings.ReplaceAll(csvText, ",", ";"))}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	learn := func(args ...string) string {
		t.Helper()
		out, stderr, code := strata(t, "", append([]string{"learn", "--label", "decision", "--iterations", "6", "--seed", "3"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		return out
	}
	want := learn("--table", filepath.Join(dir, "t.csv"))
	for _, args := range [][]string{{"--table", filepath.Join(dir, "t.csv.gz")}, {"--table", filepath.Join(dir, "t.tsv")},
		{"--table", filepath.Join(dir, "t.dat"), "--table-format", "tsv"}, {"--table", filepath.Join(dir, "t.dat"), "--delimiter", `\t`},
		{"--table", filepath.Join(dir, "semi.csv")}} {
		if got := learn(args...); got != want {
			t.Errorf("%v learned\n%s\nwant\n%s", args, got, want)
		}
	}
	_, stderr, code := strata(t, "", "learn", "--label", "decision", "--table", filepath.Join(dir, "t.csv"), "--table-format", "xlsx")
	if code != 2 || !strings.Contains(stderr, "--table-format") {
		t.Errorf("--table-format xlsx: exit %d, %q", code, stderr)
	}
	_, stderr, code = strata(t, "", "learn", "--label", "decision", "--table", filepath.Join(dir, "t.csv"), "--delimiter", "ab")
	if code != 2 || !strings.Contains(stderr, "want one character") {
		t.Errorf("--delimiter ab: exit %d, %q", code, stderr)
	}
	// A flag of tables given without --table is refused.
	if _, stderr, code = strata(t, "", "learn", "--table-format", "tsv"); code != 2 || !strings.Contains(stderr, "--table-format") {
		t.Errorf("--table-format without --table: exit %d, %q", code, stderr)
	}
}

// TestPredictKeepDegrees: predict --keep copies the identifier, --degrees
// adds the degree of the answer and of each class, as CSV and JSON; a
// column to keep that the table lacks is an error naming the file and the
// column.
func TestPredictKeepDegrees(t *testing.T) {
	ex := examplesDir(t)
	th, apps := filepath.Join(ex, "loans.theory"), filepath.Join(ex, "applicants.csv")
	out, stderr, code := strata(t, "", "predict", th, "--table", apps, "--keep", "name,region", "--degrees")
	want := "line,name,region,predicted,degree,degree:grant,degree:reject\n2,Ada,north,grant,0.75,0.75,0\n3,Ben,,reject,0.5,0,0.5\n" +
		"4,Cleo,south,reject,0.5,0,0.5\n5,Dan,east,grant,0.25,0.25,0\n"
	if code != 0 || out != want {
		t.Errorf("exit %d %s, predicted\n%s\nwant\n%s", code, stderr, out, want)
	}
	out, _, code = strata(t, "", "predict", th, "--table", apps, "--keep", "name", "--degrees", "--json")
	var js struct {
		Predictions []struct {
			Columns map[string]string `json:"columns"`
			Degree  *float64          `json:"degree"`
			Degrees []struct {
				Class  string  `json:"class"`
				Degree float64 `json:"degree"`
			} `json:"degrees"`
		} `json:"predictions"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != 0 || len(js.Predictions) != 4 {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if p := js.Predictions[2]; p.Columns["name"] != "Cleo" || p.Degree == nil || *p.Degree != 0.5 || len(p.Degrees) != 2 || p.Degrees[1].Class != "reject" {
		t.Errorf("--json, row 3: %+v", p)
	}
	_, stderr, code = strata(t, "", "predict", th, "--table", apps, "--keep", "id")
	if code != 1 || !strings.Contains(stderr, apps+`:1:1: no column "id" to keep (columns: name, income, debts, guarantor, region)`) {
		t.Errorf("--keep id: exit %d, %q", code, stderr)
	}
}

// TestTableErrorsNamed: the errors of predict and eval --table name the
// file and the column: a table without the class column, a theory
// without a usable one, a header that repeats a name (a warning).
func TestTableErrorsNamed(t *testing.T) {
	ex := examplesDir(t)
	th, apps := filepath.Join(ex, "loans.theory"), filepath.Join(ex, "applicants.csv")
	_, stderr, code := strata(t, "", "eval", th, "--table", apps)
	if code != 1 || !strings.Contains(stderr, apps+`: no row has a class to score the predictions against: the table has no class column "decision"`) {
		t.Errorf("eval on a table without its class: exit %d, %q", code, stderr)
	}
	_, stderr, code = strata(t, "", "predict", th, "--table", filepath.Join(ex, "loans.csv"), "--label", "nope")
	if code != 1 || !strings.Contains(stderr, th+`: the theory has 0 atom(s) of the class column "nope"`) {
		t.Errorf("predict --label nope: exit %d, %q", code, stderr)
	}
	dup := writeFile(t, "dup.csv", "name,income,income,debts,guarantor,region\nAda,70,1,yes,yes,north\n")
	out, stderr, code := strata(t, "", "predict", th, "--table", dup)
	if code != 0 || out != "line,predicted\n2,grant\n" || !strings.Contains(stderr, `strata: warning: `+dup+`:1:13: column "income" appears again (first as column 2): column 3 read as "income.2"`) {
		t.Errorf("a repeated column: exit %d, %q, %q", code, out, stderr)
	}
	if _, stderr, code = strata(t, "", "predict", th, "--table", dup, "--duplicate-columns", "error"); code != 1 || !strings.Contains(stderr, "appears twice") {
		t.Errorf("--duplicate-columns error: exit %d, %q", code, stderr)
	}
	cr := writeFile(t, "cr.csv", "name,income,debts,guarantor,region\rAda,70,yes,yes,north\rBen,30,no,no,west\r")
	if out, stderr, code = strata(t, "", "predict", th, "--table", cr); code != 0 || out != "line,predicted\n2,grant\n3,reject\n" {
		t.Errorf("a CR-only table: exit %d, %q, %q", code, out, stderr)
	}
}
