// Package debd knows the layout of the density-estimation benchmarks
// (../shared/data/debd: NAME/NAME.train.data, NAME.valid.data,
// NAME.test.data, binary tables as mln.ReadTable reads them) on which the
// paper learned its Markov logic networks, and learns the network of one.
package debd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/strata-logic/strata/mln"
)

// Splits returns the table a network is learned from and the test table of
// the benchmark name in dir: the train split, or the valid split when there
// is no train split (MSNBC in ../shared has only valid and test).
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

// Learn learns the network of the benchmark name in dir (see Splits) and
// returns it with the test PLL per variable of the network and of the
// independent-variables model.
func Learn(dir, name string, o mln.LearnOptions) (n *mln.Network, pll, indep float64, err error) {
	from, testPath, err := Splits(dir, name)
	if err != nil {
		return nil, 0, 0, err
	}
	train, err := mln.ReadTableFile(from)
	if err != nil {
		return nil, 0, 0, err
	}
	test, err := mln.ReadTableFile(testPath)
	if err != nil {
		return nil, 0, 0, err
	}
	if train.Cols != test.Cols {
		return nil, 0, 0, errors.New("mln: the learning and test tables have different widths")
	}
	n, err = mln.Learn(train, o)
	if err != nil {
		return nil, 0, 0, err
	}
	if pll, err = mln.PLL(n, test); err != nil {
		return nil, 0, 0, err
	}
	indep, err = mln.IndependentPLL(train, test)
	return n, pll, indep, err
}
