package tabular

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/internal/learntest"
	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/internal/xgboost"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
	"github.com/strata-logic/strata/weka/wekatest"
)

func TestReadSuite(t *testing.T) {
	head := "name\tkind\tfiles\tlabel\tpositive\tfeatures\tnumeric\n"
	ds, err := readSuite(strings.NewReader(head+"a\tbinary\ta/a.csv\tlabel\tyes\tx,y\ty\n\nb\tmulticlass\tb/tr.csv b/te.csv\tc\t\tp,q\t\n"), "s.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[1].Files[1] != "b/te.csv" || len(ds[1].Numeric) != 0 || ds[0].Numeric[0] != "y" {
		t.Errorf("%+v", ds)
	}
	for _, c := range []struct{ src, want string }{
		{"name\tkind\n", "s.tsv:1:1: expected the header"},
		{head + "a\tbinary\ta.csv\tlabel\n", "s.tsv:2:1: 4 tab-separated fields, want 7"},
		{head + "a\tbinary\ta.csv\tlabel\t\tx\tz\n", `s.tsv:2:1: table a: numeric column "z" is not a feature`},
		{head + "a\tbinary\t\tlabel\t\tx\t\n", "s.tsv:2:1: table a: 0 files"},
		{head + "a\tbinary\ta.csv\tlabel\t\tx\t\na\tbinary\ta.csv\tlabel\t\tx\t\n", `s.tsv:3:1: table "a" listed twice`},
		{head, "s.tsv:1:1: no tables listed"},
	} {
		if _, err := readSuite(strings.NewReader(c.src), "s.tsv"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

// wekaReport is the end of a report of Weka 3.6 on a test file.
const wekaReport = `
=== Error on test data ===

Correctly Classified Instances          10               76.9231 %
Total Number of Instances               13     

=== Confusion Matrix ===

 a b c   <-- classified as
 4 1 0 | a = <=50K
 0 3 1 | b = >50K
 1 0 3 | c = some class
`

func TestWekaConfusion(t *testing.T) {
	c, err := WekaConfusion(wekaReport)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Labels, "|") != "<=50K|>50K|some class|none" || c.Total() != 13 || c.Correct() != 10 {
		t.Fatalf("labels %q, %d of %d right", c.Labels, c.Correct(), c.Total())
	}
	// F1: a 2*(4/5*4/5)/(8/5) = 0.8; b P 3/4 R 3/4 = 0.75; c P 3/4 R 3/4.
	if got := c.MacroF1(); got < 0.7666 || got > 0.7667 {
		t.Errorf("macro-F1 %v, want 0.7667", got)
	}
	if _, err := WekaConfusion("no matrix here"); err == nil {
		t.Error("a report without a matrix was read")
	}
}

// TestRunQuick runs the quick suite with every baseline that is installed
// and checks the files: a row per table and method, every method that ran
// above the majority class on acute.
func TestRunQuick(t *testing.T) {
	data := shared.Path(t, "tabular")
	o := Options{Data: data, Dir: t.TempDir(), Quick: true, Datasets: []string{"acute"}, Seed: 2, Learning: learntest.Legacy(learn.Settings{})}
	o.Weka = wekatest.Runner(t)
	if x, err := xgboost.Find(); err == nil {
		o.XGBoost = x
	} else if os.Getenv("STRATA_REQUIRE_XGBOOST") != "" {
		t.Fatalf("STRATA_REQUIRE_XGBOOST is set: %v", err)
	}
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	tr := rep.Tables[0]
	if tr.Splits != QuickTestFolds || tr.Rows != 120 {
		t.Errorf("%d splits of %d rows", tr.Splits, tr.Rows)
	}
	maj := tr.Result("majority").Confusion.Accuracy()
	for _, r := range tr.Results {
		ran := r.Confusion != nil
		want := strings.HasPrefix(r.Method, "strata-") || r.Method == "majority" ||
			o.Weka != nil && (r.Method == "rf" || r.Method == "j48" || r.Method == "jrip") || o.XGBoost != nil && r.Method == "xgboost"
		if ran != want {
			t.Errorf("%s: ran %v, want %v (%s)", r.Method, ran, want, r.Note)
			continue
		}
		if ran && r.Method != "majority" && r.Confusion.Accuracy() <= maj {
			t.Errorf("%s: accuracy %.3f, no better than the majority class's %.3f", r.Method, r.Confusion.Accuracy(), maj)
		}
		if ran && r.Confusion.Total() != 120 {
			t.Errorf("%s: %d rows predicted, want every row once", r.Method, r.Confusion.Total())
		}
	}
	f, err := os.Open(filepath.Join(o.Dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 1+len(Methods) {
		t.Fatalf("results.csv: %v, %d rows", err, len(rows))
	}
	md, err := os.ReadFile(filepath.Join(o.Dir, "results.md"))
	if err != nil || !strings.Contains(string(md), "| acute | 120 |") {
		t.Errorf("results.md: %v\n%s", err, md)
	}
}

// TestRunSkipsBadRows runs a suite whose table has a ragged row: the row
// is left out, results.md says which and where, and the other rows are
// learned and scored.
func TestRunSkipsBadRows(t *testing.T) {
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "small"), 0o755); err != nil {
		t.Fatal(err)
	}
	suite := "name\tkind\tfiles\tlabel\tpositive\tfeatures\tnumeric\nsmall\tbinary\tsmall/small.csv\tclass\tyes\tx,colour\tx\n"
	var b strings.Builder
	b.WriteString("id,x,colour,class\n")
	for i := range 60 {
		class := "no"
		if i%10 > 5 {
			class = "yes"
		}
		fmt.Fprintf(&b, "r%d,%d,%s,%s\n", i, i%10, []string{"red", "blue"}[i%2], class)
		if i == 20 {
			b.WriteString("bad,,3,red,yes\n") // line 23: an extra empty field
		}
	}
	for name, text := range map[string]string{"datasets.tsv": suite, "small/small.csv": b.String()} {
		if err := os.WriteFile(filepath.Join(data, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{Data: data, Dir: t.TempDir(), Quick: true, Datasets: []string{"small"}, Seed: 1, Learning: learntest.Legacy(learn.Settings{})}
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	tr := rep.Tables[0]
	if tr.Error != "" || tr.Rows != 60 || len(tr.Skipped) != 1 || !strings.Contains(tr.Skipped[0], "small.csv:23:12: row has 5 fields, the header 4") {
		t.Fatalf("error %q, %d rows, skipped %q", tr.Error, tr.Rows, tr.Skipped)
	}
	md, err := os.ReadFile(filepath.Join(o.Dir, "results.md"))
	if err != nil || !strings.Contains(string(md), "**small: 1 unreadable rows were left out**") || !strings.Contains(string(md), "small.csv:23:12") {
		t.Fatalf("results.md (%v):\n%s", err, md)
	}
	if acc := tr.Result("strata-lex").Confusion.Accuracy(); acc < 0.9 {
		t.Errorf("strata-lex: accuracy %.3f on a table a threshold separates", acc)
	}
}

// TestBinarize checks that a binary table whose class column has more
// values is learned as the positive class against the others.
func TestBinarize(t *testing.T) {
	tab, err := table.Read(strings.NewReader("x,label\n1,cp\n2,im\n3,?\n4,pp\n5,cp\n"), "e.csv", table.Options{Categorical: []string{"label"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := binarize(tab, "label", "cp"); err != nil {
		t.Fatal(err)
	}
	c := tab.Column("label")
	var got []string
	for r := range tab.Rows {
		got = append(got, c.Value(r))
	}
	if strings.Join(got, ",") != "cp,not cp,,not cp,cp" {
		t.Fatalf("classes %q", got)
	}
	if err := binarize(tab, "label", "zz"); err != nil {
		t.Fatalf("a two-valued column is left as it is: %v", err)
	}
	tab, _ = table.Read(strings.NewReader("x,label\n1,a\n2,b\n3,c\n"), "e.csv", table.Options{})
	if err := binarize(tab, "label", "zz"); err == nil {
		t.Fatal("a positive class that is not a value: no error")
	}
}

// TestHeldOut checks that a split of at most SmallRows training rows
// chooses on SmallFolds folds and one of more than LargeRows on LargeFolds
// held-out parts (one of the default share when Validation is 0), and only
// with cross-validation.
func TestHeldOut(t *testing.T) {
	for _, c := range []struct {
		o          Options
		rows, want int
		share      float64
	}{
		{Options{Learning: learn.Settings{Folds: 3}, SmallFolds: 5}, SmallRows, 5, 0},
		{Options{Learning: learn.Settings{Folds: 3}, SmallFolds: 5}, SmallRows + 1, 3, 0},
		{Options{Learning: learn.Settings{Folds: 3}}, 10, 3, 0},
		{Options{Learning: learn.Settings{Folds: 1, Validation: 0.2}, SmallFolds: 5}, 10, 1, 0.2},
		{Options{Learning: learn.Settings{Folds: 0}, SmallFolds: 5}, 10, 0, 0},
		{Options{Learning: learn.Settings{Folds: 3}, SmallFolds: 5, LargeFolds: 1}, LargeRows, 3, 0},
		{Options{Learning: learn.Settings{Folds: 3}, SmallFolds: 5, LargeFolds: 1}, LargeRows + 1, 1, learn.DefaultValidation},
		{Options{Learning: learn.Settings{Folds: 3, Validation: 0.2}, LargeFolds: 1}, LargeRows + 1, 1, 0.2},
		{Options{Learning: learn.Settings{Folds: 3}, LargeFolds: 2}, LargeRows + 1, 2, 0},
		{Options{Learning: learn.Settings{Folds: 1, Validation: 0.2}, LargeFolds: 2}, LargeRows + 1, 1, 0.2},
		{Options{Learning: learn.Settings{Folds: 0}, LargeFolds: 1}, LargeRows + 1, 0, 0},
	} {
		folds, share := c.o.heldOut(c.rows)
		if folds != c.want || share != c.share {
			t.Errorf("%+v, %d rows: %d folds of share %v, want %d of share %v", c.o, c.rows, folds, share, c.want, c.share)
		}
	}
}

// TestReportHeldOut checks that results.md states the held-out parts of
// small and large splits where they differ from Folds, and only there.
func TestReportHeldOut(t *testing.T) {
	for _, c := range []struct {
		o         Options
		want, not string
	}{
		{Options{Learning: learn.Settings{Folds: 3}, SmallFolds: 5, LargeFolds: 1},
			"3-fold cross-validation on the training rows (5-fold for a split of at most 2000 training rows; one held-out part of 30% for a split of more than 5000)", ""},
		{Options{Learning: learn.Settings{Folds: 3}, LargeFolds: 2}, "3-fold cross-validation on the training rows (2-fold for a split of more than 5000)", "at most"},
		{Options{Learning: learn.Settings{Folds: 3}, SmallFolds: 3, LargeFolds: 3}, "3-fold cross-validation on the training rows, each fold", "for a split"},
	} {
		var b strings.Builder
		if err := (&Report{Options: c.o}).WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("%+v: results.md does not say %q:\n%s", c.o, c.want, b.String())
		}
		if c.not != "" && strings.Contains(b.String(), c.not) {
			t.Errorf("%+v: results.md says %q", c.o, c.not)
		}
	}
}

// TestReportRulesAsFOLD checks how results.md compares rule counts with
// FOLD's published ones: on a FOLD-R++ table (binary) the theory's
// fallback is left out, as FOLD-R++ writes no rule for its other class,
// and on a FOLD-RM table (multi-class) every rule counts.
func TestReportRulesAsFOLD(t *testing.T) {
	right := func(n int) *eval.Confusion {
		c := eval.NewConfusion(nil)
		for range n {
			count(c, "a", "a")
		}
		return c
	}
	table := func(name string, rules, fallbacks float64) *TableResult {
		return &TableResult{Dataset: Dataset{Name: name}, Rows: 10, Splits: 1, Results: []*Result{
			{Method: "strata-linear", Confusion: right(10), Rules: rules, Fallbacks: fallbacks},
		}}
	}
	// acute: FOLD-R++, 2.6 rules; wine: FOLD-RM, 7.6 rules.
	rep := &Report{Options: Options{Learning: learn.Settings{Folds: 3}}, Tables: []*TableResult{table("acute", 3, 1), table("wine", 8, 1)}}
	var b strings.Builder
	if err := rep.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"| acute | 100.0 (linear) | 3.0 (2.0) | yes | – | – | – | yes |",
		"| wine | 100.0 (linear) | 8.0 | yes | – | – | – | **no** |",
		"no more rules than FOLD on 1 of 2 (0 of 2 counting the fallback too)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("results.md does not say %q:\n%s", want, md)
		}
	}
}

// TestTimeStoppedCounted: a run whose validation or final learning the time
// limit ended is counted per split in results.csv and results.md, and a
// run the limit does not reach is not.
func TestTimeStoppedCounted(t *testing.T) {
	if (&learn.Result{Stop: learn.StopIterations}).TimeStopped() {
		t.Error("a run that reached its iteration limit counted as stopped by the time")
	}
	for _, r := range []*learn.Result{
		{Stop: learn.StopTimeout},
		{Stop: learn.StopIterations, Selection: &learn.Selection{Stop: learn.StopTimeout}},
		{Stop: learn.StopPatience, Selection: &learn.Selection{Stop: learn.StopNoGain, Folds: []*learn.Selection{{Stop: learn.StopIterations}, {Stop: learn.StopTimeout}}}},
		{Stop: learn.StopPatience, Tried: []learn.Tried{{}, {Selection: &learn.Selection{Stop: learn.StopTimeout}}}},
		{Stop: learn.StopPatience, Tried: []learn.Tried{{OutOfTime: true}}},
	} {
		if !r.TimeStopped() {
			t.Errorf("%+v: not counted as stopped by the time", r)
		}
	}
	data := shared.Path(t, "tabular")
	for _, budget := range []time.Duration{0, time.Nanosecond} {
		o := Options{Data: data, Dir: t.TempDir(), Datasets: []string{"acute"}, TestFolds: 2, Seed: 2,
			Learning: learn.Settings{Iterations: 5, Timeout: budget, Folds: 2}, Semantics: []possibilistic.Semantics{possibilistic.Poss}}
		rep, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if budget > 0 {
			want = 2 // every split's run outlived a nanosecond
		}
		if got := rep.Tables[0].Result("strata-poss").TimeStopped; got != want {
			t.Errorf("budget %v: %d splits stopped by the time, want %d", budget, got, want)
		}
		b, err := os.ReadFile(filepath.Join(o.Dir, "results.csv"))
		if err != nil || !strings.Contains(string(b), "acute,strata-poss,") || !strings.Contains(string(b), ","+strconv.Itoa(want)+"\n") {
			t.Errorf("results.csv does not count %d stopped splits:\n%s", want, b)
		}
	}
}
