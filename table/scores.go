package table

import (
	"context"
	"errors"
	"slices"

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
	return Confusion(preds)
}

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
		return nil, errors.New("no row has a class to score the predictions against")
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
