package mln

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/logic"
)

// ReadTableFile reads a binary 0/1 table (see ReadTable).
func ReadTableFile(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadTable(f, path)
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

// exampleFiles are the files WriteExamples writes.
var exampleFiles = []string{"train.defaults", "train.nondefaults", "test.defaults", "test.nondefaults"}

// WriteExamples writes the example sets in the default-rule dataset format
// as dir/train.defaults, train.nondefaults, test.defaults and
// test.nondefaults (positive examples are the defaults), all four at once
// (fileutil.WriteDir): dir is created if needed, and a failed write leaves
// no mix of old and new files. Other files of dir are kept.
func WriteExamples(dir string, v *logic.Vocabulary, train, test []Example) error {
	owned := func(name string, isDir bool) bool { return !isDir && slices.Contains(exampleFiles, name) }
	return fileutil.WriteDir(dir, owned, func(tmp string) error { return writeExamples(tmp, v, train, test) })
}

func writeExamples(dir string, v *logic.Vocabulary, train, test []Example) error {
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
			err := fileutil.WriteAtomic(path, func(w io.Writer) error { return defaults.WriteRules(w, v, part.rules) })
			if err != nil {
				return err
			}
		}
	}
	return nil
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
