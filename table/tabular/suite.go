// Package tabular runs strata on a suite of classification tables against
// the usual learners of readable and of accurate classifiers: Weka's
// RandomForest, J48 (C4.5) and JRip (RIPPER), XGBoost, and the majority
// class, beside the published figures of the FOLD-R++ and FOLD-RM rule
// learners (strata bench tabular).
//
// A suite is a folder with a datasets.tsv that lists each table (name,
// kind, files, label, positive, features, numeric; see ReadSuite). A table
// given as one file is scored by 10-fold cross-validation (stratified by
// class, with the run's seed); a table given as two files by its train and
// test split. Every choice of every method is made on the training rows of
// a split alone: strata's cut points and number of iterations, Weka's and
// XGBoost's models; the test rows are only predicted.
package tabular

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// Dataset is one line of a suite's datasets.tsv.
type Dataset struct {
	Name     string
	Kind     string   // "binary" or "multiclass"
	Files    []string // one: cross-validate; two: train and test, relative to the suite's folder
	Label    string
	Positive string   // the class a binary rule learner learns rules for (FOLD-R++); informative only
	Features []string // the columns to learn from
	Numeric  []string // those of the features that are numbers
}

// suiteColumns are the columns of datasets.tsv, in order.
var suiteColumns = []string{"name", "kind", "files", "label", "positive", "features", "numeric"}

// ReadSuite reads a suite's datasets.tsv: a header naming the columns
// name, kind, files, label, positive, features and numeric (tab-separated,
// in that order), then one table per line; files are separated by blanks,
// features and numeric columns by commas.
func ReadSuite(dir string) ([]Dataset, error) {
	path := filepath.Join(dir, "datasets.tsv")
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSuite(f, path)
}

func readSuite(r io.Reader, name string) ([]Dataset, error) {
	sc := bufio.NewScanner(logic.SkipBOM(r))
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	var out []Dataset
	line := 0
	seen := map[string]bool{}
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if line == 1 {
			if strings.Join(fields, "\t") != strings.Join(suiteColumns, "\t") {
				return nil, logic.Errorf(logic.Position{File: name, Line: 1, Col: 1}, "expected the header %q", strings.Join(suiteColumns, "\\t"))
			}
			continue
		}
		if len(fields) != len(suiteColumns) {
			return nil, logic.Errorf(logic.Position{File: name, Line: line, Col: 1}, "%d tab-separated fields, want %d (%s)", len(fields), len(suiteColumns), strings.Join(suiteColumns, ", "))
		}
		d := Dataset{Name: fields[0], Kind: fields[1], Files: strings.Fields(fields[2]), Label: fields[3], Positive: fields[4],
			Features: list(fields[5]), Numeric: list(fields[6])}
		pos := logic.Position{File: name, Line: line, Col: 1}
		switch {
		case d.Name == "" || strings.ContainsAny(d.Name, `/\ `):
			return nil, logic.Errorf(pos, "table name %q: give a name without blanks or slashes", d.Name)
		case seen[d.Name]:
			return nil, logic.Errorf(pos, "table %q listed twice", d.Name)
		case len(d.Files) < 1 || len(d.Files) > 2:
			return nil, logic.Errorf(pos, "table %s: %d files; give one (cross-validated) or two (train and test)", d.Name, len(d.Files))
		case d.Label == "":
			return nil, logic.Errorf(pos, "table %s: no label column", d.Name)
		case len(d.Features) == 0:
			return nil, logic.Errorf(pos, "table %s: no features", d.Name)
		}
		for _, n := range d.Numeric {
			if !contains(d.Features, n) {
				return nil, logic.Errorf(pos, "table %s: numeric column %q is not a feature", d.Name, n)
			}
		}
		seen[d.Name] = true
		out = append(out, d)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, logic.Errorf(logic.Position{File: name, Line: 1, Col: 1}, "no tables listed")
	}
	return out, nil
}

func list(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Published is a published result of a rule learner on a table.
type Published struct {
	Method   string  // FOLD-R++ (binary) or FOLD-RM (multi-class)
	Accuracy float64 // in [0, 1]
	Rules    float64 // the mean number of rules
	XGBoost  float64 // XGBoost's accuracy beside it in the same paper; 0 when not given
}

// PublishedFigures are the FOLD-R++ and FOLD-RM figures of the FOLD-R++
// paper (arXiv 2202.06913, Tables 4 and 6; 10-fold cross-validation), as
// the shared data's README quotes them, by table name.
var PublishedFigures = map[string]Published{
	"acute":       {"FOLD-R++", 0.99, 2.6, 1.00},
	"autism":      {"FOLD-R++", 0.95, 24.3, 0.97},
	"breastw":     {"FOLD-R++", 0.96, 10.2, 0.95},
	"cars":        {"FOLD-R++", 0.98, 12.2, 1.00},
	"credit":      {"FOLD-R++", 0.84, 10.0, 0.85},
	"heart":       {"FOLD-R++", 0.79, 11.7, 0.80},
	"ionosphere":  {"FOLD-R++", 0.92, 12.0, 0.88},
	"kidney":      {"FOLD-R++", 0.99, 5.0, 0.98},
	"krkp":        {"FOLD-R++", 0.99, 18.4, 0.99},
	"mushroom":    {"FOLD-R++", 1.00, 8.0, 1.00},
	"voting":      {"FOLD-R++", 0.95, 10.5, 0.95},
	"adult":       {"FOLD-R++", 0.84, 16.7, 0.86},
	"anneal":      {"FOLD-RM", 0.99, 17.9, 0},
	"nursery":     {"FOLD-RM", 0.97, 59.8, 0},
	"page_blocks": {"FOLD-RM", 0.97, 72.3, 0},
	"pendigits":   {"FOLD-RM", 0.96, 219.2, 0},
	"wine":        {"FOLD-RM", 0.94, 7.6, 0},
	"yeast":       {"FOLD-RM", 0.08, 8.7, 0.45},
}
