//go:build unix

package learn_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/crowd/poker"
	"github.com/strata-logic/strata/internal/cputime"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

// pokerIterations is where the poker benchmarks start: the hypothesis of the
// 40th iteration of seed 1, where the theory has grown to the size that
// made long poker runs slow.
const pokerIterations = 40

type pokerData struct {
	vocab *logic.Vocabulary
	train *learn.Examples
	hard  []logic.Clause
	ckpt  []byte
	err   error
}

var (
	pokerOnce sync.Once
	pokerSet  pokerData
)

// pokerSetup builds the training defaults of `strata crowd poker` (seed 1,
// 30% of the answers held out by annotator) and a checkpoint after
// pokerIterations iterations. The checkpoint takes minutes to learn, so it
// is kept in the temporary directory and reused while the data and the
// learner's results stay the same (ResumeLearner refuses other data).
func pokerSetup(b *testing.B) *pokerData {
	path := shared.Path(b, "poker/pluribus_hands.txt.gz")
	pokerOnce.Do(func() { pokerSet = loadPoker(path) })
	if pokerSet.err != nil {
		b.Fatal(pokerSet.err)
	}
	return &pokerSet
}

// pokerTrain reads the training defaults of `strata crowd poker` (seed 1)
// and the hard rules.
func pokerTrain(path string) (*logic.Vocabulary, *learn.Examples, []logic.Clause, error) {
	r, name, err := fileutil.Open(path, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	answers, _, _, err := poker.ReadAnswers(r, name, poker.Options{})
	r.Close()
	if err != nil {
		return nil, nil, nil, err
	}
	t := &crowd.AnswerTable{Actions: poker.Actions, Answers: answers, Descriptors: poker.DescriptorNames()}
	ds, err := crowd.Build("poker", t, crowd.Options{Seed: 1})
	if err != nil {
		return nil, nil, nil, err
	}
	train := &learn.Examples{}
	if err := train.AddRules(ds.TrainPos, true, ds.Vocab, "train.defaults"); err != nil {
		return nil, nil, nil, err
	}
	if err := train.AddRules(ds.TrainNeg, false, ds.Vocab, "train.nondefaults"); err != nil {
		return nil, nil, nil, err
	}
	return ds.Vocab, train, ds.Hard, nil
}

func loadPoker(path string) pokerData {
	var d pokerData
	var err error
	if d.vocab, d.train, d.hard, err = pokerTrain(path); err != nil {
		return pokerData{err: err}
	}
	cache := filepath.Join(os.TempDir(), fmt.Sprintf("strata-poker-bench-%d.ckpt", pokerIterations))
	if ck, err := os.ReadFile(cache); err == nil {
		if _, err := learn.ResumeLearner(bytes.NewReader(ck), learn.Problem{Vocab: d.vocab, Train: d.train, Hard: d.hard}, pokerOptions(pokerIterations, 2)); err == nil {
			d.ckpt = ck
			return d
		}
	}
	l, err := learn.NewLearner(learn.Problem{Vocab: d.vocab, Train: d.train, Hard: d.hard}, pokerOptions(pokerIterations, 0))
	if err != nil {
		return pokerData{err: err}
	}
	if _, err := l.Run(context.Background()); err != nil {
		return pokerData{err: err}
	}
	var buf bytes.Buffer
	if err := l.WriteCheckpoint(&buf); err != nil {
		return pokerData{err: err}
	}
	d.ckpt = buf.Bytes()
	if err := fileutil.WriteAtomic(cache, func(w io.Writer) error { _, err := w.Write(d.ckpt); return err }); err != nil {
		return pokerData{err: err}
	}
	return d
}

func pokerOptions(iterations, threads int) learn.Config {
	return learn.Config{Seed: 1, Iterations: iterations, Threads: threads}
}

// resume restores the checkpoint with one worker per processor that the
// benchmark may use (-cpu).
func (d *pokerData) resume(b *testing.B, iterations int) *learn.Learner {
	l, err := learn.ResumeLearner(bytes.NewReader(d.ckpt), learn.Problem{Vocab: d.vocab, Train: d.train, Hard: d.hard}, pokerOptions(iterations, runtime.GOMAXPROCS(0)))
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// BenchmarkPokerScore scores the candidates of iteration 41 at every
// position of the hypothesis of iteration 40 (the learner's inner loop).
func BenchmarkPokerScore(b *testing.B) {
	d := pokerSetup(b)
	l := d.resume(b, pokerIterations)
	var cpu time.Duration
	n := 0
	for b.Loop() {
		start := cputime.Process()
		learn.ScoreSample(l)
		cpu += cputime.Process() - start
		n++
	}
	b.ReportMetric(cpu.Seconds()/float64(n), "cpu-s/op")
}

// BenchmarkPokerIteration runs iteration 41 from the checkpoint: sampling,
// scoring, minimising, inserting, pruning and re-inserting.
func BenchmarkPokerIteration(b *testing.B) { benchmarkPokerTo(b, pokerIterations+1) }

// pokerChosen is a number of iterations that validation chooses on these
// defaults (`strata learn --validation 0.3` chose 55).
const pokerChosen = 55

// BenchmarkPokerRun continues from the checkpoint to the validation-chosen
// number of iterations (41 to 55, one op), the part of the final learning
// run where the theory is largest and iterations cost most.
func BenchmarkPokerRun(b *testing.B) { benchmarkPokerTo(b, pokerChosen) }

// benchmarkPokerTo learns from the checkpoint up to the given iteration,
// and reports the CPU time too: it is steadier than wall time on a loaded
// machine.
func benchmarkPokerTo(b *testing.B, iterations int) {
	d := pokerSetup(b)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		l := d.resume(b, iterations)
		b.StartTimer()
		start := cputime.Process()
		if _, err := l.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Process() - start
		if n := len(l.History()); n != iterations {
			b.Fatalf("%d iterations, want %d", n, iterations)
		}
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}
