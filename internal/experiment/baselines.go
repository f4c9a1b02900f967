package experiment

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/weka"
)

// OtherColumns name the baselines beyond the paper's, in the accuracy
// table after its columns: gradient boosting (XGBoost) and the majority
// class.
var OtherColumns = []string{"XGBoost", "majority"}

// The baselines beyond Weka's, as their results name them.
var (
	xgboostClassifier  = weka.Classifier{Name: "XGBoost", Class: "xgboost (python3-xgboost), XGBClassifier's defaults"}
	majorityClassifier = weka.Classifier{Name: "majority", Class: "the most frequent class of the training rows"}
)

// Others returns the accuracies in % of the baselines of OtherColumns;
// one that was not run is NaN.
func (r *Row) Others() []float64 {
	out := make([]float64, 0, len(OtherColumns))
	for _, b := range []*weka.Result{r.Boosting, r.Majority} {
		if b == nil {
			out = append(out, math.NaN())
		} else {
			out = append(out, 100*b.Accuracy())
		}
	}
	return out
}

// runOthers scores the majority class of the training table on the test
// table, and XGBoost trained on the one and tested on the other when
// s.XGBoost is set (its files go into dir/xgboost). The class is the last
// attribute of both tables.
func runOthers(ctx context.Context, s *Settings, row *Row, name, dir string, train, test *weka.ARFF) error {
	var err error
	if row.Majority, err = majority(train, test); err != nil {
		return err
	}
	if s.XGBoost == nil {
		return nil
	}
	s.Emit(Event{Subject: name, Step: "xgboost", Message: "XGBoost (python3-xgboost)"})
	classes := train.Attributes[len(train.Attributes)-1].Values
	index := map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	xdir := filepath.Join(dir, "xgboost")
	if err := os.MkdirAll(xdir, 0o755); err != nil {
		return err
	}
	threads := s.Learning.Threads
	if threads == 0 {
		threads = 1
	}
	pred, err := s.XGBoost.Classify(ctx, xdir,
		func(w io.Writer) error { return writeMatrix(w, train, index) },
		func(w io.Writer) error { return writeMatrix(w, test, nil) },
		len(classes), threads)
	if err != nil {
		return err
	}
	if len(pred) != len(test.Rows) {
		return fmt.Errorf("xgboost: %d predictions for %d test rows", len(pred), len(test.Rows))
	}
	res := &weka.Result{Classifier: xgboostClassifier, Total: len(test.Rows)}
	for i, k := range pred {
		if classes[k] == test.Rows[i][len(test.Attributes)-1] {
			res.Correct++
		}
	}
	row.Boosting = res
	return nil
}

// majority returns the result of answering the most frequent class of the
// training rows (the first in byte order on a tie) on the test rows.
func majority(train, test *weka.ARFF) (*weka.Result, error) {
	if len(train.Attributes) == 0 || len(test.Attributes) != len(train.Attributes) {
		return nil, fmt.Errorf("majority class: tables of %d and %d attributes", len(train.Attributes), len(test.Attributes))
	}
	last := len(train.Attributes) - 1
	freq := map[string]int{}
	for _, r := range train.Rows {
		freq[r[last]]++
	}
	var best string
	for c, n := range freq {
		if best == "" || n > freq[best] || n == freq[best] && c < best {
			best = c
		}
	}
	res := &weka.Result{Classifier: majorityClassifier, Total: len(test.Rows)}
	res.Classifier.Options = []string{best}
	for _, r := range test.Rows {
		if r[last] == best {
			res.Correct++
		}
	}
	return res, nil
}

// writeMatrix writes the rows of a as XGBoost's numbers: the class number
// first when classes is not nil, then the features: a numeric attribute or
// a nominal one of values 0 and 1 as its number, another nominal one
// one-hot over its values, a missing value as nan.
func writeMatrix(w io.Writer, a *weka.ARFF, classes map[string]int) error {
	last := len(a.Attributes) - 1
	var b strings.Builder
	for n, r := range a.Rows {
		b.Reset()
		if classes != nil {
			k, ok := classes[r[last]]
			if !ok {
				return fmt.Errorf("row %d: class %q is not a value of the class attribute", n+1, r[last])
			}
			b.WriteString(strconv.Itoa(k))
		}
		for i, at := range a.Attributes[:last] {
			v := r[i]
			switch {
			case at.Values == nil || slices.Equal(at.Values, []string{"0", "1"}):
				if v == "?" {
					v = "nan"
				} else if _, err := strconv.ParseFloat(v, 64); err != nil {
					return fmt.Errorf("row %d: attribute %s: %q is not a number", n+1, at.Name, v)
				}
				sep(&b)
				b.WriteString(v)
			default:
				for _, u := range at.Values {
					sep(&b)
					switch {
					case v == "?":
						b.WriteString("nan")
					case u == v:
						b.WriteString("1")
					default:
						b.WriteString("0")
					}
				}
			}
		}
		b.WriteByte('\n')
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// sep writes a comma unless b is empty.
func sep(b *strings.Builder) {
	if b.Len() > 0 {
		b.WriteByte(',')
	}
}
