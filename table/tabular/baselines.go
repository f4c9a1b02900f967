package tabular

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/internal/xgboost"
	"github.com/strata-logic/strata/table"
	"github.com/strata-logic/strata/weka"
)

// split is the training and test rows of one fold or of a given split.
type split struct {
	train, test         *table.Table
	trainRows, testRows []int
}

// arffOf writes the rows of t as an ARFF table: the features, numeric or
// nominal over values (the values of both parts of a split, so that Weka
// finds the two headers compatible), and the class.
func arffOf(d Dataset, t *table.Table, rows []int, values map[string][]string) *weka.ARFF {
	a := &weka.ARFF{Relation: d.Name}
	cols := append(slices.Clone(d.Features), d.Label)
	for _, name := range cols {
		c := t.Column(name)
		at := weka.Attribute{Name: name}
		if !c.Numeric {
			at.Values = values[name]
		}
		a.Attributes = append(a.Attributes, at)
	}
	for _, r := range rows {
		row := make([]string, len(cols))
		for i, name := range cols {
			c := t.Column(name)
			row[i] = "?"
			if !c.Missing(r) {
				row[i] = c.Value(r)
			}
		}
		a.Rows = append(a.Rows, row)
	}
	return a
}

// nominalValues returns, per categorical column of the split's tables, the
// sorted union of their values.
func nominalValues(d Dataset, tables ...*table.Table) map[string][]string {
	out := map[string][]string{}
	for _, name := range append(slices.Clone(d.Features), d.Label) {
		var vs []string
		for _, t := range tables {
			if c := t.Column(name); c != nil && !c.Numeric {
				vs = append(vs, c.Values...)
			}
		}
		slices.Sort(vs)
		out[name] = slices.Compact(vs)
	}
	return out
}

// runWeka trains and tests Weka's baselines on the split and returns their
// confusion tables and results.
func runWeka(ctx context.Context, w *weka.Runner, d Dataset, s split, dir string) ([]*weka.Result, []*eval.Confusion, error) {
	values := nominalValues(d, s.train, s.test)
	train, test := filepath.Join(dir, "train.arff"), filepath.Join(dir, "test.arff")
	if err := fileutil.WriteAtomic(train, arffOf(d, s.train, s.trainRows, values).Write); err != nil {
		return nil, nil, err
	}
	if err := fileutil.WriteAtomic(test, arffOf(d, s.test, s.testRows, values).Write); err != nil {
		return nil, nil, err
	}
	var res []*weka.Result
	var conf []*eval.Confusion
	for _, c := range weka.Baselines {
		r, err := w.Run(ctx, c, train, test)
		if err != nil {
			return nil, nil, err
		}
		m, err := WekaConfusion(r.Report)
		if err != nil {
			return nil, nil, fmt.Errorf("weka %s: %w", c.Name, err)
		}
		res = append(res, r)
		conf = append(conf, m)
	}
	return res, conf, nil
}

var matrixRow = regexp.MustCompile(`^\s*((?:\d+\s+)+)\|\s+\S+\s+=\s+(.*)$`)

// WekaConfusion reads the confusion matrix of the test data from a Weka
// report (its last "=== Confusion Matrix ===" section): one row per class,
// "  12   3 |   a = yes". The labels are the class values of the ARFF
// header, in order.
func WekaConfusion(report string) (*eval.Confusion, error) {
	i := strings.LastIndex(report, "=== Confusion Matrix ===")
	if i < 0 {
		return nil, errors.New("no confusion matrix in Weka's output")
	}
	var labels []string
	var rows [][]int
	for _, line := range strings.Split(report[i:], "\n")[1:] {
		m := matrixRow.FindStringSubmatch(line)
		if m == nil {
			if len(rows) > 0 && strings.TrimSpace(line) == "" {
				break
			}
			continue
		}
		var counts []int
		for _, f := range strings.Fields(m[1]) {
			n, _ := strconv.Atoi(f)
			counts = append(counts, n)
		}
		labels = append(labels, strings.TrimSpace(m[2]))
		rows = append(rows, counts)
	}
	if len(rows) == 0 {
		return nil, errors.New("an empty confusion matrix in Weka's output")
	}
	c := eval.NewConfusion(nil)
	c.AddLabels(labels...)
	if len(c.Labels) != len(labels)+1 {
		return nil, fmt.Errorf("the confusion matrix names a class twice (%s)", strings.Join(labels, ", "))
	}
	for t, counts := range rows {
		if len(counts) != len(labels) {
			return nil, fmt.Errorf("confusion matrix row %d has %d counts for %d classes", t+1, len(counts), len(labels))
		}
		copy(c.Counts[t], counts)
	}
	return c, nil
}

// runXGBoost trains XGBoost on the split's training rows and predicts its
// test rows: numeric features as they are (missing values as NaN, which
// XGBoost routes itself), categorical ones one-hot over the training rows'
// values; classes numbered over the training rows.
func runXGBoost(ctx context.Context, x *xgboost.Runner, d Dataset, s split, dir string, threads int) (*eval.Confusion, error) {
	classes := nominalValues(d, s.train)[d.Label]
	index := map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	values := nominalValues(d, s.train)
	pred, err := x.Classify(ctx, dir,
		func(w io.Writer) error { return writeMatrix(w, d, s.train, s.trainRows, values, index) },
		func(w io.Writer) error { return writeMatrix(w, d, s.test, s.testRows, values, nil) },
		len(classes), threads)
	if err != nil {
		return nil, err
	}
	if len(pred) != len(s.testRows) {
		return nil, fmt.Errorf("xgboost: %d predictions for %d test rows", len(pred), len(s.testRows))
	}
	c := eval.NewConfusion(classes)
	for i, k := range pred {
		count(c, s.test.Column(d.Label).Value(s.testRows[i]), classes[k])
	}
	return c, nil
}

// writeMatrix writes the rows as numbers, comma-separated, one row per
// line; with classes, the class number first.
func writeMatrix(w io.Writer, d Dataset, t *table.Table, rows []int, values map[string][]string, classes map[string]int) error {
	bw := bufio.NewWriter(w)
	lc := t.Column(d.Label)
	for _, r := range rows {
		var cells []string
		if classes != nil {
			cells = append(cells, strconv.Itoa(classes[lc.Value(r)]))
		}
		for _, name := range d.Features {
			c := t.Column(name)
			switch {
			case c.Numeric && c.Missing(r):
				cells = append(cells, "nan")
			case c.Numeric:
				cells = append(cells, strconv.FormatFloat(c.Num[r], 'g', -1, 64))
			default:
				v, miss := c.Value(r), c.Missing(r)
				for _, u := range values[name] {
					switch {
					case miss:
						cells = append(cells, "nan")
					case u == v:
						cells = append(cells, "1")
					default:
						cells = append(cells, "0")
					}
				}
			}
		}
		bw.WriteString(strings.Join(cells, ","))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// majority predicts the most frequent class of the training rows (the
// first in sorted order on a tie).
func majority(d Dataset, s split) *eval.Confusion {
	lc := s.train.Column(d.Label)
	counts := map[string]int{}
	for _, r := range s.trainRows {
		counts[lc.Value(r)]++
	}
	best := ""
	for c, n := range counts {
		if best == "" || n > counts[best] || n == counts[best] && c < best {
			best = c
		}
	}
	conf := eval.NewConfusion(nil)
	tc := s.test.Column(d.Label)
	for _, r := range s.testRows {
		count(conf, tc.Value(r), best)
	}
	return conf
}

// count adds a row of target and answer to c, adding the labels c does
// not have yet (a test row's class that no training row has).
func count(c *eval.Confusion, target, answer string) {
	c.AddLabels(target, answer)
	c.Add(target, answer) // both are labels now
}
