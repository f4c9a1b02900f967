package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/possibilistic"
)

// Evaluate predicts every row of t that has a class (Predict) and returns
// the confusion table of the predictions against the rows' classes:
// accuracy, macro-F1 (eval.Confusion).
func Evaluate(ctx context.Context, th *possibilistic.Theory, t *Table, opts PredictOptions) (*eval.Confusion, error) {
	opts.Explain = false
	preds, err := Predict(ctx, th, t, opts)
	if err != nil {
		return nil, err
	}
	c, err := Confusion(preds)
	if errors.Is(err, ErrNoClasses) {
		label := opts.Label
		if label == "" {
			label, _ = classColumnOf(th.Vocab, hardOf(th))
		}
		if t.Column(label) == nil {
			return nil, fmt.Errorf("%s: %w: the table has no class column %q (columns: %s)", t.Name, err, label, strings.Join(headerNames(t), ", "))
		}
		return nil, fmt.Errorf("%s: %w: every row's class column %q is missing", t.Name, err, label)
	}
	return c, err
}

// ErrNoClasses is the error of Confusion, and of Evaluate, when no row has
// a class to score its prediction against.
var ErrNoClasses = errors.New("no row has a class to score the predictions against")

// Confusion returns the confusion table of the predictions of the rows
// that have a class, over their classes and predictions in byte order
// (NoClass last); an error when no row has a class.
func Confusion(preds []Prediction) (*eval.Confusion, error) {
	var labels []string
	for _, p := range preds {
		if p.Target != "" {
			labels = append(labels, p.Target, p.Class)
		}
	}
	if len(labels) == 0 {
		return nil, ErrNoClasses
	}
	slices.Sort(labels)
	labels = slices.DeleteFunc(slices.Compact(labels), func(l string) bool { return l == NoClass })
	c := eval.NewConfusion(labels)
	for _, p := range preds {
		if p.Target != "" {
			if err := c.Add(p.Target, p.Class); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}
