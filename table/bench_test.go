package table

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/internal/cputime"
	"github.com/strata-logic/strata/internal/learntest"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// millionRows writes a generated table of n rows and 20 columns: ten
// categorical columns of five values and ten numeric ones of whole numbers
// below 1000; the class (three values) follows rules with exceptions on
// four of the columns, with 5% noise.
func millionRows(n int) []byte {
	r := rand.New(rand.NewPCG(42, 42))
	var b bytes.Buffer
	var head []string
	for i := range 10 {
		head = append(head, fmt.Sprintf("c%d", i))
	}
	for i := range 10 {
		head = append(head, fmt.Sprintf("n%d", i))
	}
	b.WriteString(strings.Join(append(head, "class"), ",") + "\n")
	row := make([]string, 21)
	for range n {
		cs := make([]int, 10)
		ns := make([]int, 10)
		for i := range 10 {
			cs[i] = r.IntN(5)
			row[i] = string(rune('a' + cs[i]))
		}
		for i := range 10 {
			ns[i] = r.IntN(1000)
			row[10+i] = fmt.Sprint(ns[i])
		}
		class := "low"
		switch {
		case ns[0] > 700 && cs[0] != 2:
			class = "high"
		case ns[1] <= 200:
			class = "mid"
		case cs[1] == 4 && ns[0] > 400:
			class = "high"
		}
		if r.Float64() < 0.05 {
			class = []string{"low", "mid", "high"}[r.IntN(3)]
		}
		row[20] = class
		b.WriteString(strings.Join(row, ",") + "\n")
	}
	return b.Bytes()
}

// BenchmarkLearnMillionRows reads a generated table of 10^6 rows and 20
// columns from CSV and learns 10 iterations from it under poss, with the
// grown candidates of strata learn --table (DefaultGrow); its peak memory
// is that of the test process:
//
//	cd table && go test -c -o table.test . && /usr/bin/time -v ./table.test -test.run XXX -test.bench LearnMillionRows -test.benchtime 1x -test.cpu 2
func BenchmarkLearnMillionRows(b *testing.B) {
	data := millionRows(1_000_000)
	dir := b.TempDir()
	path := filepath.Join(dir, "million.csv")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	data = nil
	for b.Loop() {
		start, cpu := time.Now(), cputime.Process()
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		t, err := Read(f, path, Options{})
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		read := time.Since(start)
		features, _ := DefaultFeatures(t, "class", "")
		lr, err := Learn(context.Background(), t, nil, Settings{Label: "class", Features: features,
			Learning: learntest.Legacy(learn.Settings{Iterations: 10, Seed: 1, Grow: DefaultGrow})}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(read.Seconds(), "s/read")
		b.ReportMetric(time.Since(start).Seconds()-read.Seconds(), "s/learn")
		b.ReportMetric((cputime.Process() - cpu).Seconds(), "cpu-s")
		b.ReportMetric(float64(lr.Examples), "examples")
		b.ReportMetric(100*lr.TrainAccuracy, "train%")
		b.ReportMetric(float64(lr.Hypothesis.NumLiterals()), "literals")
	}
}

// BenchmarkPredictRows predicts the classes of 10^6 generated rows (those of
// BenchmarkLearnMillionRows) with a theory learned from 20,000 of them, the
// theory read back from its text as strata predict reads it, under each
// semantics; it reports rows per second:
//
//	go test -run XXX -bench PredictRows -benchtime 3x -cpu 1 ./table
func BenchmarkPredictRows(b *testing.B) {
	t, err := Read(bytes.NewReader(millionRows(1_000_000)), "million.csv", Options{})
	if err != nil {
		b.Fatal(err)
	}
	features, _ := DefaultFeatures(t, "class", "")
	sample := make([]int, 20_000)
	for i := range sample {
		sample[i] = i
	}
	for _, sem := range possibilistic.AllSemantics {
		lr, err := Learn(context.Background(), t, sample, Settings{Label: "class", Features: features,
			Learning: learntest.Legacy(learn.Settings{Iterations: 20, Seed: 1, Semantics: sem, Grow: DefaultGrow})}, nil)
		if err != nil {
			b.Fatal(err)
		}
		th, err := possibilistic.ReadText(context.Background(), strings.NewReader(lr.Theory.String()), "learned.theory", &logic.Vocabulary{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(sem.String(), func(b *testing.B) {
			var right int
			for b.Loop() {
				preds, err := Predict(context.Background(), th, t, PredictOptions{Semantics: sem, Label: "class"})
				if err != nil {
					b.Fatal(err)
				}
				right = 0
				for _, p := range preds {
					if p.Class == p.Target {
						right++
					}
				}
			}
			b.ReportMetric(float64(t.Rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(100*float64(right)/float64(t.Rows), "accuracy%")
		})
	}
}
