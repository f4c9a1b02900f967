package tabular

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/strata-logic/strata/internal/cputime"
	"github.com/strata-logic/strata/internal/learntest"
	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

// BenchmarkAdultFold learns one fold of a 10-fold cross-validation of
// adult (29,305 training rows, 14 columns) with bench tabular's defaults
// but its time limit and its iteration limit (learn's default, 100, not
// DefaultIterations, so that versions of the engine that took minutes
// compare on the same work): learn's patience, grown
// candidates (table.DefaultGrow), the iterations chosen on the held-out
// parts of a split that large (one part, DefaultLargeFolds) with
// DefaultValidationPatience and DefaultRule, the final run's restarts, on
// -cpu threads; it reports the wall and CPU seconds, the test accuracy and
// the theory's size:
//
//	go test -run XXX -bench AdultFold -benchtime 1x -cpu 2 ./table/tabular
func BenchmarkAdultFold(b *testing.B) {
	suite, err := ReadSuite(shared.Path(b, "tabular"))
	if err != nil {
		b.Fatal(err)
	}
	var d Dataset
	for _, x := range suite {
		if x.Name == "adult" {
			d = x
		}
	}
	path := shared.Path(b, "tabular/"+d.Files[0])
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	t, err := table.Read(f, path, table.Options{Numeric: d.Numeric, Categorical: []string{d.Label}})
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	all := make([]int, t.Rows)
	for i := range all {
		all[i] = i
	}
	folds, err := table.Folds(t, all, DefaultTestFolds, d.Label, "", 1)
	if err != nil {
		b.Fatal(err)
	}
	train := table.Complement(all, folds[0])
	held, share := Options{Learning: learn.Settings{Folds: DefaultFolds}, SmallFolds: DefaultSmallFolds, LargeFolds: DefaultLargeFolds}.heldOut(len(train))
	for _, sem := range possibilistic.AllSemantics {
		b.Run(sem.String(), func(b *testing.B) {
			for b.Loop() {
				start, cpu := time.Now(), cputime.Process()
				lr, err := table.Learn(context.Background(), t, train, table.Settings{Label: d.Label, Features: d.Features,
					Learning: learn.Settings{Folds: held, Validation: share, ValidationPatience: DefaultValidationPatience, Rule: DefaultRule,
						Seed: 1, Semantics: sem, Threads: runtime.GOMAXPROCS(0)}}, nil)
				if err != nil {
					b.Fatal(err)
				}
				elapsed, used := time.Since(start), cputime.Process()-cpu
				preds, err := lr.Predict(context.Background(), t, table.PredictOptions{Semantics: sem, Rows: folds[0]})
				if err != nil {
					b.Fatal(err)
				}
				c, _ := table.Confusion(preds)
				b.ReportMetric(elapsed.Seconds(), "s/learn")
				b.ReportMetric(used.Seconds(), "cpu-s/learn")
				b.ReportMetric(100*c.Accuracy(), "test%")
				b.ReportMetric(float64(lr.Selection.Chosen), "chosen")
				b.ReportMetric(float64(lr.Hypothesis.NumLiterals()), "literals")
			}
		})
	}
}

// BenchmarkPendigits learns 8 iterations from pendigits' training file
// (7,494 rows, 16 numeric columns, 10 classes) on one thread under each
// semantics, without a choice of iterations: the cost of an iteration on a
// multi-class table of thresholds, where the drowning-free engines are
// slowest.
//
//	go test -run XXX -bench Pendigits -benchtime 3x ./table/tabular
func BenchmarkPendigits(b *testing.B) {
	path := shared.Path(b, "tabular/pendigits/train.csv")
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	t, err := table.Read(f, path, table.Options{Categorical: []string{"class"}})
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	for _, sem := range possibilistic.AllSemantics {
		b.Run(sem.String(), func(b *testing.B) {
			for b.Loop() {
				lr, err := table.Learn(context.Background(), t, nil, table.Settings{Label: "class",
					Learning: learntest.Legacy(learn.Settings{Seed: 1, Semantics: sem, Iterations: 8, Threads: 1})}, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(lr.TrainAccuracy, "train-acc")
			}
		})
	}
}

// BenchmarkAdultIterations learns 12 iterations from all of adult (32,561
// rows, 14 columns) under poss on one thread, without a choice of
// iterations or restarts: the cost of the learner's iterations on the
// largest table, a small part of BenchmarkAdultFold that is quick enough
// to compare versions of the engine.
//
//	go test -run XXX -bench AdultIterations -benchtime 3x ./table/tabular
func BenchmarkAdultIterations(b *testing.B) {
	path := shared.Path(b, "tabular/adult/adult.csv")
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	t, err := table.Read(f, path, table.Options{Categorical: []string{"label"}})
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		lr, err := table.Learn(context.Background(), t, nil, table.Settings{Label: "label",
			Learning: learntest.Legacy(learn.Settings{Seed: 1, Semantics: possibilistic.Poss, Iterations: 12, Threads: 1})}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(lr.TrainAccuracy, "train-acc")
	}
}
