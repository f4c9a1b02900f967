package learn

import (
	"context"
	"fmt"
	"math"
)

// pairedChoice applies the rule Paired to the validation runs of proto's
// folds (runs[i] learned proto.Folds[i], one hypothesis per iteration)
// whose pooled curve is hist, best its best iteration: it returns the
// smallest iteration whose pooled held-out score is below the best's by at
// most one standard error of their paired difference, and that error. The
// difference is taken case by case on the same held-out cases, d_i = w_i
// (r_i(best) − r_i(t)) with w_i the case's weight and r_i 1 when it is
// right; its standard error is sqrt(Σ d_i²) over the total weight
// (McNemar's: the root of the cases answered differently, over the cases).
// An iteration below the best by more than any two hypotheses' error could
// be, sqrt(Σ w_i²) over the total, is not scored.
func pairedChoice(ctx context.Context, proto protocol, runs []*Selection, hist []Iteration, best int) (chosen int, se float64, err error) {
	tasks := make([]CaseTask, len(runs))
	var weights []int
	for i := range runs {
		t, ok := proto.Folds[i].Held.(CaseTask)
		if !ok {
			return 0, 0, fmt.Errorf("learn: the rule %s needs held-out tasks that score their cases apart (%T does not)", Paired, proto.Folds[i].Held)
		}
		tasks[i] = t
		weights = append(weights, t.CaseWeights()...)
	}
	var total, squares float64
	for _, w := range weights {
		total += float64(w)
		squares += float64(w) * float64(w)
	}
	if total == 0 || best <= 1 {
		return best, 0, nil
	}
	threads, sem := threadsOf(proto.Settings), proto.Settings.Semantics
	// right says which held-out cases are right after iteration t (from
	// 1) of the pooled curve, the folds' cases in turn; a fold that ended
	// earlier stands at its last hypothesis, as in the pooled curve.
	right := func(t int) []bool {
		var out []bool
		for i, r := range runs {
			h := r.Hypotheses[min(t, len(r.Hypotheses))-1]
			out = tasks[i].RightCases(out, Covers(h, tasks[i].Queries(), threads, sem))
		}
		return out
	}
	top := right(best)
	widest := math.Sqrt(squares) / total
	for t := 1; t < best; t++ {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		if hist[best-1].TestAccuracy-hist[t-1].TestAccuracy > widest {
			continue
		}
		other := right(t)
		var diff, sq float64
		for k, w := range weights {
			if top[k] != other[k] {
				d := float64(w)
				if !top[k] {
					d = -d
				}
				diff += d
				sq += d * d
			}
		}
		if e := math.Sqrt(sq) / total; diff/total <= e {
			return t, e, nil
		}
	}
	return best, 0, nil
}
