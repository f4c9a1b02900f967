package learn

import (
	"cmp"
	"context"
	"errors"
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
	if err := s.Validate(); err != nil {
		return nil, err
	}
	e, err := supportEngine(p, m, s.learner())
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
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return pruneSupport(ctx, p, m, s.learner(), maxLoss)
}

// pruneSupport is PruneSupport under the learner's settings s.
func pruneSupport(ctx context.Context, p Problem, m *Hypothesis, s config, maxLoss int64) (*Hypothesis, error) {
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
			emptied := len(e.hypothesis().Levels[x.j]) == 1
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
				out := e.hypothesis().Clone()
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
func supportEngine(p Problem, m *Hypothesis, s config) (coverage, error) {
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
	e := engineFor(n, p.Train, p.Hard, s.Threads, s.Semantics, literalsOf(mm.Levels...))
	e.commit(mm)
	return e, nil
}

// SupportSelection is the choice of the support a clause needs (see
// Settings.Prune): the thresholds tried, each a number of training
// examples (by weight) that a clause with no more support is pruned at,
// with the held-out score and the size of the pruned hypothesis.
type SupportSelection struct {
	Thresholds []int64
	Accuracy   []float64 // the held-out score
	Literals   []int     // of the pruned hypothesis
	Best       int       // index of the best held-out score (the lowest threshold on ties)
	StdErr     float64   // the standard error of the best score on the held-out total
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

// chooseSupport chooses how much support a clause needs to stay in a
// theory: the hypothesis of iteration chosen of every fold's run (or its
// last, for a run that stopped before) is pruned with PruneSupport at the
// thresholds 0, 1, 2, 3, 5, 8, 13, … training examples up to
// proto.PruneShare of the fold's training weight (at least 0 and 1), each
// pruned hypothesis is scored on the fold's held-out part as its Task
// says, the scores are pooled over the folds, and the highest threshold
// whose score is within one standard error of the best is kept: the
// one-standard-error rule, which prefers the smaller theory as the choice
// of iterations does. The share is of the folds' mean training weight.
func chooseSupport(ctx context.Context, p Problem, proto protocol, runs []*Selection, chosen int) (*SupportSelection, error) {
	s := proto.Settings
	var most, held, total int64 = math.MaxInt64, 0, 0
	hyps := make([]*Hypothesis, len(runs))
	for i, f := range proto.Folds {
		if len(runs[i].Hypotheses) == 0 {
			return nil, errors.New("learn: a fold without hypotheses to prune")
		}
		hyps[i] = runs[i].Hypotheses[min(chosen, len(runs[i].Hypotheses))-1]
		most = min(most, int64(math.Floor(proto.PruneShare*float64(f.Train.Total()))))
		held += int64(runs[i].Held)
		total += int64(f.Train.Total())
	}
	sel := &SupportSelection{}
	for _, t := range thresholds(most) {
		var correct, n int
		literals := 0
		for i, f := range proto.Folds {
			fp := Problem{Vocab: p.Vocab, Train: f.Train, Hard: p.Hard}
			pruned, err := pruneSupport(ctx, fp, hyps[i], s, t)
			if err != nil {
				return nil, err
			}
			c, m := f.Held.Score(Covers(pruned, f.Held.Queries(), threadsOf(s), s.Semantics))
			correct, n, literals = correct+c, n+m, literals+pruned.NumLiterals()
		}
		sel.Thresholds = append(sel.Thresholds, t)
		sel.Accuracy = append(sel.Accuracy, float64(correct)/float64(max(n, 1)))
		sel.Literals = append(sel.Literals, (literals+len(runs)/2)/len(runs))
	}
	for k, a := range sel.Accuracy {
		if a > sel.Accuracy[sel.Best] {
			sel.Best = k
		}
	}
	best := sel.Accuracy[sel.Best]
	sel.StdErr = accuracyStdErr(best, int(held))
	for k, a := range sel.Accuracy {
		if a >= best-sel.StdErr {
			sel.Chosen = k
		}
	}
	sel.Share = float64(sel.Thresholds[sel.Chosen]) / (float64(total) / float64(len(runs)))
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
