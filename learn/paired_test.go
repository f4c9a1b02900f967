package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestChoosePaired checks the rule Paired against its definition, each
// held-out default scored alone: the chosen iteration is the first whose
// pooled score is below the best's by at most the standard error of their
// paired difference, and the folds' cases right at the best add up to the
// pooled curve's score.
func TestChoosePaired(t *testing.T) {
	earlier := 0 // runs that chose before their best: the rule was tested
	for _, sem := range possibilistic.AllSemantics {
		r := rand.New(rand.NewPCG(9, 1))
		th := hiddenTheory(r, 10, 5)
		p, q := Generate(th, atomsUpTo(10), 300, 300, 3, 0.05, r)
		prob := Problem{Vocab: th.Vocab}
		proto := protocol{Settings: Config{Seed: 2, Iterations: 25, Threads: 1, Semantics: sem}, Folds: cvFolds(Merge(p, q), 3), ValidationPatience: 10, Rule: Paired}
		sel, err := choose(context.Background(), prob, proto)
		if err != nil {
			t.Fatal(err)
		}
		// right[t][k]: the k-th held-out default (the folds' in turn) is
		// right after pooled iteration t+1, scored alone.
		var weights []float64
		right := make([][]bool, len(sel.History))
		for i, f := range proto.Folds {
			for _, e := range f.Held.Queries().List {
				weights = append(weights, float64(e.Count))
				one := &Examples{}
				one.Add(e.Alpha, e.Beta, e.Positive, e.Count)
				for it := range sel.History {
					hyps := sel.Folds[i].Hypotheses
					c, _ := Score(hyps[min(it+1, len(hyps))-1], one, 1, sem)
					right[it] = append(right[it], c > 0)
				}
			}
		}
		total := 0.0
		for _, w := range weights {
			total += w
		}
		score := func(it int) float64 {
			s := 0.0
			for k, w := range weights {
				if right[it][k] {
					s += w
				}
			}
			return s / total
		}
		for it, h := range sel.History {
			if math.Abs(score(it)-h.TestAccuracy) > 1e-12 {
				t.Fatalf("%v: iteration %d: the cases add up to %v, the pooled curve says %v", sem, it+1, score(it), h.TestAccuracy)
			}
		}
		want, wantSE := sel.Best, 0.0
		for it := 0; it < sel.Best-1; it++ {
			var diff, sq float64
			for k, w := range weights {
				switch {
				case right[sel.Best-1][k] && !right[it][k]:
					diff, sq = diff+w, sq+w*w
				case !right[sel.Best-1][k] && right[it][k]:
					diff, sq = diff-w, sq+w*w
				}
			}
			if se := math.Sqrt(sq) / total; diff/total <= se {
				want, wantSE = it+1, se
				break
			}
		}
		if sel.Chosen != want || math.Abs(sel.StdErr-wantSE) > 1e-12 {
			t.Errorf("%v: chose %d (s.e. %v), want %d (s.e. %v); best %d of %d", sem, sel.Chosen, sel.StdErr, want, wantSE, sel.Best, len(sel.History))
		}
		if sel.Chosen < sel.Best {
			earlier++
		}
		if sel.Chosen > sel.Best || sel.ChosenAccuracy > sel.BestAccuracy {
			t.Errorf("%v: chose %d after the best %d", sem, sel.Chosen, sel.Best)
		}
	}
	if earlier == 0 {
		t.Error("every run chose its best iteration: the test does not test the rule")
	}
}

// TestRightCases: the cases RightCases finds right, weighted by
// CaseWeights, are Score's right, for the binary and the multi-class task
// and any coverage.
func TestRightCases(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	v := &logic.Vocabulary{}
	classes := []logic.Atom{v.Intern("a"), v.Intern("b"), v.Intern("c")}
	var sits []logic.Term
	var targets []logic.Atom
	bin := &Examples{}
	for i := range 40 {
		s := logic.Term{logic.Pos(v.Intern("d" + string(rune('0'+i%7)))), logic.Pos(v.Intern("e" + string(rune('0'+i%5))))}
		sits = append(sits, s)
		target := NoClass
		if i%4 != 0 {
			target = classes[i%3]
		}
		targets = append(targets, target)
		bin.Add(s, logic.Clause{logic.Pos(classes[i%3])}, i%2 == 0, 1+i%3)
	}
	ans, err := NewAnswers(classes, sits, targets)
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range []CaseTask{ans, Binary{bin}} {
		n := len(task.Queries().List)
		for range 50 {
			covered := make([]bool, n)
			for i := range covered {
				covered[i] = r.IntN(2) == 0
			}
			want, total := task.Score(covered)
			got, sum := 0, 0
			w := task.CaseWeights()
			for k, ok := range task.RightCases(nil, covered) {
				if ok {
					got += w[k]
				}
				sum += w[k]
			}
			if got != want || sum != total {
				t.Fatalf("%T: cases right %d of %d, Score %d of %d", task, got, sum, want, total)
			}
		}
	}
}
