package server

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

const loansTheory = `1: decision=grant | decision=reject
1: decision!=grant | decision!=reject
1: debts!=no | debts!=yes
1: guarantor!=no | guarantor!=yes

0.75: income > 51 & guarantor=yes -> decision=grant

0.5: debts=yes -> decision=reject
0.5: income <= 51 -> decision=reject

0.25: decision=grant
`

const loansRows = `income,debts,guarantor,decision
80,yes,yes,grant
80,yes,no,reject
30,no,no,reject
60,no,no,grant
`

// TestPredictTable answers a table's rows with a theory given as text and
// as a stored one, each semantics with and without explanations: the
// answers are the library's (table.Predict), in the view strata predict
// --json prints.
func TestPredictTable(t *testing.T) {
	_, ts := newTest(t, Config{})
	var stored theoryView
	if st := call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": loansTheory}, &stored); st != 201 {
		t.Fatalf("load: %d", st)
	}
	tab, err := table.Read(strings.NewReader(loansRows), "table", table.Options{Numeric: []string{"income"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, sem := range possibilistic.AllSemantics {
		for _, explain := range []bool{false, true} {
			preds, err := table.Predict(context.Background(), readTheory(t, loansTheory), tab, table.PredictOptions{Semantics: sem, Explain: explain})
			if err != nil {
				t.Fatal(err)
			}
			want := jsonview.NewPredictions(tab, sem, nil, preds)
			for _, target := range []map[string]any{{"theory": loansTheory}, {"theory_id": stored.ID}} {
				req := map[string]any{"table": loansRows, "semantics": sem.String(), "explain": explain}
				for k, v := range target {
					req[k] = v
				}
				var got jsonview.Predictions
				if st := call(t, "POST", ts.URL+"/api/predict", req, &got); st != 200 || !reflect.DeepEqual(&got, want) {
					t.Errorf("%s, explain %v, %v: %d %+v, want %+v", sem, explain, target, st, got, want)
				}
			}
		}
	}
	// Under lex the exception the first row's rule overrides is set aside.
	var lex jsonview.Predictions
	call(t, "POST", ts.URL+"/api/predict", map[string]any{"theory_id": stored.ID, "table": loansRows, "semantics": "lex", "explain": true}, &lex)
	if p := lex.Predictions[0]; p.Predicted != "grant" || !reflect.DeepEqual(p.Against, []string{"0.5: debts=yes -> decision=reject"}) {
		t.Errorf("lex, first row: %+v", p)
	}
}

// TestPredictTableErrors: a request without a table, a table with a
// ragged row and a class column the theory does not have are 400s naming
// the field (and the line and column of the ragged row).
func TestPredictTableErrors(t *testing.T) {
	_, ts := newTest(t, Config{})
	for _, c := range []struct {
		req       map[string]any
		field     string
		line, col int
		inMessage string
	}{
		{map[string]any{"theory": loansTheory}, "table", 0, 0, "needs a table"},
		{map[string]any{"theory": loansTheory, "table": "income,debts\n80,yes,yes\n"}, "table", 2, 8, "fields"},
		{map[string]any{"theory": loansTheory, "table": loansRows, "label": "colour"}, "label", 0, 0, "colour"},
		{map[string]any{"theory": "0.5: income > 51 -> decision=grant", "table": loansRows}, "label", 0, 0, "name the class column"},
		{map[string]any{"theory": loansTheory, "table": "debts,guarantor\nyes,no\n"}, "table", 1, 1, "income"},
		{map[string]any{"table": loansRows}, "theory", 0, 0, "theory"},
		{map[string]any{"theory": loansTheory, "table": loansRows, "semantics": "best"}, "semantics", 0, 0, "best"},
	} {
		var e apiError
		st := call(t, "POST", ts.URL+"/api/predict", c.req, &e)
		if st != 400 || e.Field != c.field || e.Line != c.line || c.line > 0 && e.Column != c.col || !strings.Contains(e.Message, c.inMessage) {
			t.Errorf("%v: %d %+v, want a 400 on %s at %d:%d saying %q", c.req, st, e, c.field, c.line, c.col, c.inMessage)
		}
	}
}

// TestPredictTableFormats answers the same rows given as CSV, as TSV (by
// table_format and by delimiter), as ARFF text and as a Parquet file of
// the server's directory: the same classes, the kept column copied and the
// degrees given; a wrong format, delimiter or kept column is a 400 naming
// its field.
func TestPredictTableFormats(t *testing.T) {
	dir := t.TempDir()
	f := func(x float64) *float64 { return &x }
	type row struct {
		Income    *float64 `parquet:"income,optional"`
		Debts     string   `parquet:"debts"`
		Guarantor string   `parquet:"guarantor"`
		Decision  string   `parquet:"decision"`
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, []row{{f(80), "yes", "yes", "grant"}, {f(80), "yes", "no", "reject"}, {f(30), "no", "no", "reject"}, {f(60), "no", "no", "grant"}}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "loans.parquet"), buf.Bytes(), 0o644)
	_, ts := newTest(t, Config{Dir: dir})
	tsv := strings.ReplaceAll(loansRows, ",", "\t")
	arff := "@relation loans\n@attribute income numeric\n@attribute debts {yes,no}\n@attribute guarantor {yes,no}\n@attribute decision {grant,reject}\n@data\n" +
		strings.SplitN(loansRows, "\n", 2)[1]
	for _, req := range []map[string]any{
		{"table": loansRows},
		{"table": tsv, "table_format": "tsv"},
		{"table": tsv, "delimiter": "\t"},
		{"table": arff},
		{"table_path": "loans.parquet"},
	} {
		req["theory"], req["keep"], req["degrees"] = loansTheory, []string{"debts"}, true
		var got jsonview.Predictions
		if st := call(t, "POST", ts.URL+"/api/predict", req, &got); st != 200 || len(got.Predictions) != 4 {
			t.Fatalf("%v: %d %+v", req["table_format"], st, got)
		}
		var answers []string
		for _, p := range got.Predictions {
			answers = append(answers, fmt.Sprintf("%s:%s:%v:%s", p.Columns["debts"], p.Predicted, *p.Degree, p.Target))
		}
		if want := "yes:grant:0.75:grant yes:reject:0.5:reject no:reject:0.5:reject no:grant:0.25:grant"; strings.Join(answers, " ") != want {
			t.Errorf("%v: %s, want %s", req, strings.Join(answers, " "), want)
		}
	}
	for _, c := range []struct {
		req   map[string]any
		field string
	}{
		{map[string]any{"table": loansRows, "table_format": "xlsx"}, "table_format"},
		{map[string]any{"table": loansRows, "delimiter": "ab"}, "delimiter"},
		{map[string]any{"table": loansRows, "duplicate_columns": "last"}, "duplicate_columns"},
		{map[string]any{"table": loansRows, "keep": []string{"name"}}, "keep"},
		{map[string]any{"table": loansRows, "table_format": "parquet"}, "table"},
	} {
		c.req["theory"] = loansTheory
		var e apiError
		if st := call(t, "POST", ts.URL+"/api/predict", c.req, &e); st != 400 || e.Field != c.field {
			t.Errorf("%v: %d %+v, want a 400 on %s", c.req, st, e, c.field)
		}
	}
}
