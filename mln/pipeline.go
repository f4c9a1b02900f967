package mln

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-logic/strata/dataset"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/logic"
)

// ReadTableFile reads a binary 0/1 table (see dataset.ReadTable).
func ReadTableFile(path string) (*dataset.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return dataset.ReadTable(f, path)
}

// Splits returns the table a network is learned from and the test table of
// the density-estimation benchmark name in dir (../shared/data/debd): the
// train split, or the valid split when there is no train split (MSNBC in
// ../shared has only valid and test).
func Splits(dir, name string) (learnFrom, test string, err error) {
	base := filepath.Join(dir, name, name)
	learnFrom = base + ".train.data"
	if _, err := os.Stat(learnFrom); err != nil {
		learnFrom = base + ".valid.data"
	}
	test = base + ".test.data"
	for _, p := range []string{learnFrom, test} {
		if _, err := os.Stat(p); err != nil {
			return "", "", fmt.Errorf("mln: dataset %s: %w", name, err)
		}
	}
	return learnFrom, test, nil
}

// MAPOptions configure MAPExamples.
type MAPOptions struct {
	Train, Test int  // numbers of examples (default 1000 each, the paper's)
	Approx      bool // label with MaxWalkSAT instead of exactly
	Walk        WalkOptions
	Examples    ExampleOptions // Seed seeds both sets
}

// EngineFactory returns a function that makes MAP engines for n: exact, or
// MaxWalkSAT with the given options.
func EngineFactory(n *Network, approx bool, walk WalkOptions) func() (Engine, error) {
	if approx {
		return func() (Engine, error) { return NewApprox(n, walk) }
	}
	return func() (Engine, error) { return NewExact(n) }
}

// MAPExamples generates the training and test examples of the paper's MAP
// experiment for a network: two independent draws (seeds Seed and Seed+1)
// of α |~ β labelled by MAP entailment. Progress, if set, counts both sets
// together, and Examples.Timeout bounds both sets together.
func MAPExamples(ctx context.Context, n *Network, o MAPOptions) (train, test *Labelling, err error) {
	if o.Train <= 0 {
		o.Train = 1000
	}
	if o.Test <= 0 {
		o.Test = 1000
	}
	mk := EngineFactory(n, o.Approx, o.Walk)
	eo := o.Examples
	progress := eo.Progress
	total := o.Train + o.Test
	if progress != nil {
		eo.Progress = func(done, _ int) { progress(done, total) }
	}
	start := time.Now()
	train, err = Generate(ctx, mk, n.NumAtoms(), o.Train, eo)
	if err != nil {
		return nil, nil, err
	}
	eo.Seed++
	if progress != nil {
		eo.Progress = func(done, _ int) { progress(o.Train+done, total) }
	}
	if eo.Timeout > 0 {
		// What the training set left; a nanosecond when nothing is left, so
		// that every test example is out of budget.
		eo.Timeout = max(eo.Timeout-time.Since(start), time.Nanosecond)
	}
	test, err = Generate(ctx, mk, n.NumAtoms(), o.Test, eo)
	return train, test, err
}

// WriteExamples writes the example sets in the default-rule dataset format
// as dir/train.defaults, train.nondefaults, test.defaults and
// test.nondefaults (positive examples are the defaults), each atomically.
func WriteExamples(dir string, v *logic.Vocabulary, train, test []Example) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, set := range []struct {
		name string
		exs  []Example
	}{{"train", train}, {"test", test}} {
		pos, neg := Split(set.exs)
		for _, part := range []struct {
			ext   string
			rules []logic.Rule
		}{{".defaults", pos}, {".nondefaults", neg}} {
			path := filepath.Join(dir, set.name+part.ext)
			err := fileutil.WriteAtomic(path, func(w io.Writer) error { return dataset.WriteRules(w, v, part.rules) })
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// LearnDataset learns the network of a density-estimation benchmark (see
// Splits) and returns it with the test PLL per variable of the network and
// of the independent-variables model.
func LearnDataset(dir, name string, o LearnOptions) (n *Network, pll, indep float64, err error) {
	from, testPath, err := Splits(dir, name)
	if err != nil {
		return nil, 0, 0, err
	}
	train, err := ReadTableFile(from)
	if err != nil {
		return nil, 0, 0, err
	}
	test, err := ReadTableFile(testPath)
	if err != nil {
		return nil, 0, 0, err
	}
	if train.Cols != test.Cols {
		return nil, 0, 0, errors.New("mln: the learning and test tables have different widths")
	}
	n, err = Learn(train, o)
	if err != nil {
		return nil, 0, 0, err
	}
	if pll, err = PLL(n, test); err != nil {
		return nil, 0, 0, err
	}
	indep, err = IndependentPLL(train, test)
	return n, pll, indep, err
}

// DatasetOptions configure DatasetExamples.
type DatasetOptions struct {
	// Network, when set, is a network file (Alchemy syntax, or WCNF for a
	// .wcnf name) to use instead of learning one.
	Network string
	Learn   LearnOptions
	MAP     MAPOptions
}

// DatasetResult is what DatasetExamples produces for one benchmark.
type DatasetResult struct {
	Network     *Network
	PLL, IndPLL float64 // test PLL per variable: network, independent model (learned networks only)
	Train, Test []Example
}

// DatasetExamples runs the example side of the paper's MAP experiment for
// one density-estimation benchmark in dir: it learns the network (see
// LearnDataset), or loads it from o.Network, and generates the training and
// test examples (see MAPExamples). The result depends only on the data, the
// options and o.MAP.Examples.Seed.
func DatasetExamples(dir, name string, o DatasetOptions) (*DatasetResult, error) {
	res := &DatasetResult{}
	var err error
	if o.Network != "" {
		res.Network, err = ReadNetworkFile(o.Network)
	} else {
		res.Network, res.PLL, res.IndPLL, err = LearnDataset(dir, name, o.Learn)
	}
	if err != nil {
		return nil, err
	}
	train, test, err := MAPExamples(context.Background(), res.Network, o.MAP)
	if err != nil {
		return nil, err
	}
	res.Train, res.Test = train.Examples, test.Examples
	return res, nil
}

// ReadNetworkFile reads a network in Alchemy syntax, or in WCNF when the
// name ends in .wcnf.
func ReadNetworkFile(path string) (*Network, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if strings.EqualFold(filepath.Ext(path), ".wcnf") {
		return ReadWCNF(f, path)
	}
	return ReadAlchemy(f, path)
}
