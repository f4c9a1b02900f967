package repro

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/strata-logic/strata/weka"

	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
	"github.com/strata-logic/strata/mln/debd"
)

// NetworkInfo describes the network learned for a dataset.
type NetworkInfo struct {
	Source string // the table it was learned from, relative to the data directory
	mln.Stats
	// PLL and IndPLL are the test pseudo-log-likelihoods per variable of the
	// network and of the independent-variables model: the first is higher
	// when learning found structure.
	PLL, IndPLL float64
}

// ExampleCounts are the sizes of a dataset's example sets.
type ExampleCounts struct {
	TrainPos, TrainNeg, TestPos, TestNeg int
}

// exampleSets are a dataset's examples as the learner sees them.
type exampleSets struct {
	vocab       *logic.Vocabulary
	train, test []mln.Example // in the order drawn
	// trainARFF and testARFF are their encoding for the baselines.
	trainARFF, testARFF *weka.ARFF
}

// prepare learns the network of d, draws and labels the examples, and writes
// them into dir: the network (NAME.mln), the default-rule datasets and their
// ARFF encoding.
func prepare(ctx context.Context, opts *Options, d Dataset, row *Row, dir string) (*exampleSets, error) {
	start := time.Now()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	from, _, err := debd.Splits(opts.debd(), d.Name)
	if err != nil {
		return nil, err
	}
	row.Network.Source, _ = filepath.Rel(opts.Data, from)
	opts.Emit(Event{Subject: d.Name, Step: "network", Message: "learning the network from " + row.Network.Source})
	lo := mln.LearnOptions{Progress: func(stage string, done, total int) {
		opts.Emit(Event{Subject: d.Name, Step: "network", Stage: stage, Done: done, Total: total})
	}}
	net, pll, ind, err := debd.Learn(opts.debd(), d.Name, lo)
	if err != nil {
		return nil, err
	}
	row.Network.Stats, row.Network.PLL, row.Network.IndPLL = net.Stats(), pll, ind
	netPath := filepath.Join(dir, d.Name+".mln")
	if err := fileutil.WriteAtomic(netPath, func(w io.Writer) error { return mln.WriteAlchemy(w, net) }); err != nil {
		return nil, err
	}
	row.NetworkTime = time.Since(start)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	start = time.Now()
	how := "exact MAP"
	if opts.Approx {
		how = "MaxWalkSAT"
	}
	opts.Emit(Event{Subject: d.Name, Step: "examples", Message: fmt.Sprintf(
		"%d atoms, %d formulas; drawing %d + %d examples (evidence of 1 to %d literals), labelled by %s",
		row.Network.Atoms, row.Network.Weighted+row.Network.Hard, opts.Train, opts.Test, opts.MaxEvidence, how)})
	mo := mln.MAPOptions{Train: opts.Train, Test: opts.Test, Approx: opts.Approx, Walk: opts.Walk,
		Examples: mln.ExampleOptions{MaxEvidence: opts.MaxEvidence, Seed: learn.SeedFor(opts.Seed, learn.ForData), Progress: func(done, total int) {
			opts.Emit(Event{Subject: d.Name, Step: "examples", Stage: "labelling", Done: done, Total: total})
		}}}
	ex := &exampleSets{vocab: net.Vocab}
	train, test, err := mln.MAPExamples(ctx, net, mo)
	if err != nil {
		return nil, err
	}
	ex.train, ex.test = train.Examples, test.Examples
	if err := mln.WriteExamples(dir, net.Vocab, ex.train, ex.test); err != nil {
		return nil, err
	}
	enc := mln.MAPEncoding{Vocab: net.Vocab, Atoms: net.NumAtoms()}
	for _, set := range []struct {
		name string
		exs  []mln.Example
	}{{"train", ex.train}, {"test", ex.test}} {
		pos, neg := mln.Split(set.exs)
		a, err := enc.ARFF(d.Name+"-map-"+set.name, pos, neg)
		if err != nil {
			return nil, err
		}
		if err := fileutil.WriteAtomic(filepath.Join(dir, set.name+".arff"), a.Write); err != nil {
			return nil, err
		}
		if set.name == "train" {
			ex.trainARFF = a
		} else {
			ex.testARFF = a
		}
	}
	row.Counts = counts(ex.train, ex.test)
	row.ExamplesTime = time.Since(start)
	return ex, ctx.Err()
}

func counts(train, test []mln.Example) ExampleCounts {
	var c ExampleCounts
	for _, e := range train {
		if e.Positive {
			c.TrainPos++
		} else {
			c.TrainNeg++
		}
	}
	for _, e := range test {
		if e.Positive {
			c.TestPos++
		} else {
			c.TestNeg++
		}
	}
	return c
}

// toExamples turns MAP-entailment examples into the learner's multiset.
func toExamples(v *logic.Vocabulary, exs []mln.Example) (*learn.Examples, error) {
	pos, neg := mln.Split(exs)
	return learn.FromRules(v, pos, neg)
}
