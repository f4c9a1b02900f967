//go:build unix

package learn_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/strata-logic/strata/internal/cputime"
	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
	"github.com/strata-logic/strata/mln/debd"
	"github.com/strata-logic/strata/possibilistic"
)

// mapExamples builds the paper's NLTCS setting with the MLN pipeline: a
// network learned from nltcs.train.data, 1000 training and 1000 test
// defaults labelled by exact MAP entailment (evidence of 1 to 5 literals).
func mapExamples(b testing.TB) (*logic.Vocabulary, *learn.Examples, *learn.Examples) {
	net, _, _, err := debd.Learn(shared.Path(b, "debd"), "nltcs", mln.LearnOptions{})
	if err != nil {
		b.Fatal(err)
	}
	train, test, err := mln.MAPExamples(context.Background(), net, mln.MAPOptions{})
	if err != nil {
		b.Fatal(err)
	}
	v := &logic.Vocabulary{}
	for i := range 16 {
		v.Intern("a" + strconv.Itoa(i+1))
	}
	sets := [2]*learn.Examples{{}, {}}
	for k, exs := range [][]mln.Example{train.Examples, test.Examples} {
		pos, neg := mln.Split(exs)
		if err := sets[k].AddRules(pos, true, v, "positives"); err != nil {
			b.Fatal(err)
		}
		if err := sets[k].AddRules(neg, false, v, "negatives"); err != nil {
			b.Fatal(err)
		}
	}
	return v, sets[0], sets[1]
}

// BenchmarkLearnNLTCS runs 20 learner iterations on 1000 NLTCS defaults
// labelled by MAP entailment in the learned Markov logic network (the issue's
// target: within 15 s on this 2-core machine), once per semantics (the
// issue's target: lex within 5 times poss).
func BenchmarkLearnNLTCS(b *testing.B) {
	for _, sem := range possibilistic.AllSemantics {
		b.Run(sem.String(), func(b *testing.B) { benchmarkLearnNLTCS(b, sem) })
	}
}

func benchmarkLearnNLTCS(b *testing.B, sem possibilistic.Semantics) {
	v, train, test := mapExamples(b)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := cputime.Process()
		l, err := learn.NewLearner(learn.Problem{Vocab: v, Train: train}, learn.Config{Seed: 1, Iterations: 20, Semantics: sem})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += cputime.Process() - start
		c, total := learn.Score(l.Final(), test, 0, sem)
		b.ReportMetric(l.TrainAccuracy(), "train-acc")
		b.ReportMetric(float64(c)/float64(total), "test-acc")
		b.ReportMetric(float64(l.Final().NumLiterals()), "literals")
		b.StartTimer()
	}
	// The process's CPU time per run: on a shared machine the wall time
	// also counts the time other programs held the cores.
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkChoose chooses the number of iterations on the NLTCS
// training examples by 5-fold cross-validation (60 iterations each), with the folds one after the
// other (each with every thread) and as many at once as there are threads
// (each with one): the same selection, in less time when the learner
// gains less from a second thread than a second fold does.
func BenchmarkChoose(b *testing.B) {
	v, train, _ := mapExamples(b)
	const k = 5
	var folds []learn.Fold
	fit, held := make([]*learn.Examples, k), make([]*learn.Examples, k)
	for i := range k {
		fit[i], held[i] = &learn.Examples{}, &learn.Examples{}
	}
	for i, e := range train.List {
		// Consecutive blocks: the examples of one evidence formula are
		// listed together, so the folds split few of them.
		f := i * k / len(train.List)
		for j := range k {
			if j == f {
				held[j].Add(e.Alpha, e.Beta, e.Positive, e.Count)
			} else {
				fit[j].Add(e.Alpha, e.Beta, e.Positive, e.Count)
			}
		}
	}
	for i := range k {
		folds = append(folds, learn.Fold{Train: fit[i], Held: learn.Binary{Examples: held[i]}})
	}
	for _, parallel := range []int{1, 0} {
		b.Run("parallel="+strconv.Itoa(parallel), func(b *testing.B) {
			var chosen int
			for i := 0; i < b.N; i++ {
				s, err := learn.ChooseFolds(context.Background(), learn.Problem{Vocab: v}, learn.Config{Seed: 1, Iterations: 60}, folds, parallel)
				if err != nil {
					b.Fatal(err)
				}
				chosen = s.Chosen
			}
			b.ReportMetric(float64(chosen), "chosen")
		})
	}
}
