package learn

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// The learner's own pruning step (§4.3) removes a clause only when no
// training example needs it. A clause that one or two training examples
// need is as likely to fit their noise as a pattern, the way a deep branch
// of a decision tree is; reduced-support pruning, the theories' analogue
// of a tree's post-pruning, removes such clauses and lets held-out
// examples say how much support a clause must have (ChooseSupport).

// Supports returns, for every learned clause of m (level by level, lowest
// level first, as m.Levels lists them), its support on p.Train under
// s.Semantics: the training score lost when that clause alone is removed,
// the total weight of the examples classified correctly only because of it
// minus that of the examples it makes wrong.
func Supports(ctx context.Context, p Problem, m *Hypothesis, s Settings) ([]int64, error) {
	e, err := supportEngine(p, m, s)
	if err != nil {
		return nil, err
	}
	var out []int64
	for j, lv := range m.Levels {
		for i := range lv {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			out = append(out, -e.scoreRemoval(j, i))
			e.recompile()
		}
	}
	return out, nil
}

// PruneSupport removes from m, one at a time and least supported first,
// the learned clauses whose support on p.Train (see Supports) is at most
// maxLoss, until every clause left has a support above it. Supports change
// as clauses go (a clause that another one backed up may become needed), so
// each removal is of a clause whose support was measured on the hypothesis it is
// removed from. With maxLoss 0 it removes only what no training example
// needs, as the learner's pruning step does. Ties go to the lower level,
// then to the clause listed first. It changes nothing it is given.
func PruneSupport(ctx context.Context, p Problem, m *Hypothesis, s Settings, maxLoss int64) (*Hypothesis, error) {
	e, err := supportEngine(p, m, s)
	if err != nil {
		return nil, err
	}
	var es []supported
	for j, lv := range m.Levels {
		for i := range lv {
			es = append(es, supported{j: j, i: i, order: len(es), support: math.MinInt64, at: -1})
		}
	}
	version := 0
	measure := func(x *supported) {
		x.support, x.at = -e.scoreRemoval(x.j, x.i), version
		e.recompile()
	}
	for len(es) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		slices.SortStableFunc(es, func(a, b supported) int {
			if c := cmp.Compare(a.support, b.support); c != 0 {
				return c
			}
			return a.order - b.order
		})
		x := es[0]
		switch {
		case x.at != version:
			// A support measured on an earlier hypothesis is only a guess:
			// measure it again before acting on it.
			measure(&es[0])
		case x.support <= maxLoss:
			emptied := len(e.hyp.Levels[x.j]) == 1
			e.commitRemove(x.j, x.i)
			es = es[1:]
			for k := range es { // where the others now are
				y := &es[k]
				switch {
				case y.j == x.j && y.i > x.i:
					y.i--
				case emptied && y.j > x.j:
					y.j--
				}
			}
			version++
		default:
			stale := false
			for k := range es { // confirm the others on this hypothesis
				if es[k].at != version {
					measure(&es[k])
					stale = true
				}
			}
			if !stale {
				out := e.hyp.Clone()
				out.Hard = m.Hard
				return out, nil
			}
		}
	}
	return &Hypothesis{Hard: m.Hard}, nil
}

// supported is a clause with its support, measured on the hypothesis of the
// given version of a pruning.
type supported struct {
	j, i    int // where the clause is: clause i of level j
	order   int // rank in the hypothesis's list, for ties
	support int64
	at      int
}

// supportEngine decides every training example of p under m.
func supportEngine(p Problem, m *Hypothesis, s Settings) (*engine, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	s.defaults()
	if p.Train == nil || len(p.Train.List) == 0 {
		return nil, errors.New("learn: no training examples")
	}
	n := int(p.Train.MaxAtom()) + 1
	if p.Vocab != nil {
		n = max(n, p.Vocab.Len())
	}
	for _, lv := range append(slices.Clone(m.Levels), p.Hard, m.Hard) {
		for _, c := range lv {
			for _, l := range c {
				n = max(n, int(l.Atom())+1)
			}
		}
	}
	mm := m.Clone()
	mm.Hard = p.Hard
	e := newEngine(n, p.Train, p.Hard, s.Threads, s.Semantics)
	e.commit(mm)
	return e, nil
}

// SupportSelection is the outcome of ChooseSupport: the thresholds tried,
// each a number of training examples (by weight) that a clause with no more
// support is pruned at, with the held-out accuracy and the size of the
// pruned hypothesis.
type SupportSelection struct {
	Thresholds []int64
	Accuracy   []float64 // on the held-out examples
	Literals   []int     // of the pruned hypothesis
	Best       int       // index of the best held-out accuracy (the lowest threshold on ties)
	StdErr     float64   // the standard error of the best accuracy on the held-out examples
	Chosen     int       // index of the highest threshold within one standard error of the best
	// Share is the chosen threshold as a share of the training weight, so
	// that it carries over to a training set of another size.
	Share float64
}

// Threshold returns the chosen share of a training weight total, in
// examples: the maxLoss for PruneSupport on that training set.
func (s *SupportSelection) Threshold(total int) int64 {
	return int64(math.Floor(s.Share*float64(total) + 1e-9))
}

// ChooseSupport chooses, on held-out examples, how much support a clause
// needs to stay in a theory: it prunes m, the hypothesis learned on
// val.Problem.Train, with PruneSupport at the thresholds 0, 1, 2, 3, 5, 8,
// 13, … examples up to maxShare of the training weight (at least 0 and 1),
// scores each pruned hypothesis on val.Problem.Test, and keeps the highest
// threshold whose held-out accuracy is within one standard error of the
// best: the one-standard-error rule, which prefers the smaller theory as
// ChooseIterations does. Only val.Problem and val.Settings are used.
func ChooseSupport(ctx context.Context, val Validation, m *Hypothesis, maxShare float64) (*SupportSelection, error) {
	return chooseSupport(ctx, []Validation{val}, []*Hypothesis{m}, maxShare)
}

// ChooseSupportCV chooses the support a clause needs as ChooseSupport
// does, on the folds of a cross-validation and sel, its outcome
// (ChooseIterationsCV): every fold's hypothesis at the chosen iteration (or at
// its last, for a fold that stopped before) is pruned at each threshold,
// the held-out accuracies are pooled over the folds, and the share is of
// the folds' mean training weight. With a single fold it is ChooseSupport
// on the chosen iteration's hypothesis.
func ChooseSupportCV(ctx context.Context, folds []Validation, sel *Selection, maxShare float64) (*SupportSelection, error) {
	if sel.Chosen == 0 {
		return nil, errors.New("learn: no iterations chosen to prune the hypothesis of")
	}
	runs := sel.Folds
	if len(runs) == 0 { // one held-out part: sel is its run
		runs = []*Selection{sel}
	}
	if len(runs) != len(folds) {
		return nil, fmt.Errorf("learn: a selection of %d folds for %d folds", len(runs), len(folds))
	}
	var models []*Hypothesis
	for _, f := range runs {
		if len(f.Models) == 0 {
			return nil, errors.New("learn: a fold without models")
		}
		models = append(models, f.Models[min(sel.Chosen, len(f.Models))-1])
	}
	return chooseSupport(ctx, folds, models, maxShare)
}

// chooseSupport prunes models[i], learned on folds[i].Problem.Train, at
// every threshold and pools the accuracies on the folds' held-out
// examples.
func chooseSupport(ctx context.Context, folds []Validation, models []*Hypothesis, maxShare float64) (*SupportSelection, error) {
	var most, held, total int64 = math.MaxInt64, 0, 0
	for _, val := range folds {
		if val.Problem.Test == nil || len(val.Problem.Test.List) == 0 {
			return nil, errors.New("learn: no held-out examples to choose the support on")
		}
		train := val.Problem.Train
		if train == nil || len(train.List) == 0 {
			return nil, errors.New("learn: no training examples")
		}
		if err := val.Settings.check(); err != nil {
			return nil, err
		}
		most = min(most, int64(math.Floor(maxShare*float64(train.Total()))))
		held += int64(val.Problem.Test.Total())
		total += int64(train.Total())
	}
	sel := &SupportSelection{}
	for _, t := range thresholds(most) {
		var correct, n int
		literals := 0
		for i, val := range folds {
			s := val.Settings
			s.defaults()
			pruned, err := PruneSupport(ctx, val.Problem, models[i], s, t)
			if err != nil {
				return nil, err
			}
			c, m := Score(pruned, val.Problem.Test, s.Threads, s.Semantics)
			correct, n, literals = correct+c, n+m, literals+pruned.NumLiterals()
		}
		sel.Thresholds = append(sel.Thresholds, t)
		sel.Accuracy = append(sel.Accuracy, float64(correct)/float64(max(n, 1)))
		sel.Literals = append(sel.Literals, (literals+len(folds)/2)/len(folds))
	}
	for k, a := range sel.Accuracy {
		if a > sel.Accuracy[sel.Best] {
			sel.Best = k
		}
	}
	p := sel.Accuracy[sel.Best]
	sel.StdErr = accuracyStdErr(p, int(held))
	for k, a := range sel.Accuracy {
		if a >= p-sel.StdErr {
			sel.Chosen = k
		}
	}
	sel.Share = float64(sel.Thresholds[sel.Chosen]) / (float64(total) / float64(len(folds)))
	return sel, nil
}

// thresholds returns 0, 1, 2, 3, 5, 8, 13, … up to most (at least 0 and 1):
// a support of one example more matters less the more examples it has.
func thresholds(most int64) []int64 {
	ts := []int64{0, 1}
	for a, b := int64(1), int64(2); b <= most; a, b = b, a+b {
		ts = append(ts, b)
	}
	return ts
}
