// Command fold writes one fold of strata bench tabular's cross-validation
// of a table of the public suite as two CSV files, train.csv and test.csv
// (the header and the rows as the table's file has them), so that a peer
// learner can be run on the rows strata's BenchmarkAdultFold learns from
// and is scored on: see foldrpp.sh.
//
//	go run ./bench/peer/fold [-suite DIR] [-table adult] [-fold 0] -o DIR
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/table"
	"github.com/strata-logic/strata/table/tabular"
)

func main() {
	suite := flag.String("suite", "../shared/data/tabular", "the suite's folder (its datasets.tsv)")
	name := flag.String("table", "adult", "the table")
	fold := flag.Int("fold", 0, "the fold whose rows are the test rows, from 0")
	out := flag.String("o", "", "the folder to write train.csv and test.csv to")
	flag.Parse()
	if err := run(*suite, *name, *fold, *out); err != nil {
		fmt.Fprintln(os.Stderr, "fold:", err)
		os.Exit(1)
	}
}

func run(suite, name string, fold int, out string) error {
	if out == "" {
		return fmt.Errorf("no -o folder")
	}
	sets, err := tabular.ReadSuite(suite)
	if err != nil {
		return err
	}
	var d *tabular.Dataset
	for i := range sets {
		if sets[i].Name == name {
			d = &sets[i]
		}
	}
	if d == nil || len(d.Files) != 1 {
		return fmt.Errorf("%s: no table %q given as one file", suite, name)
	}
	path := filepath.Join(suite, d.Files[0])
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	t, err := table.Read(f, path, table.Options{Numeric: d.Numeric, Categorical: []string{d.Label}})
	f.Close()
	if err != nil {
		return err
	}
	all := make([]int, t.Rows)
	for i := range all {
		all[i] = i
	}
	// As BenchmarkAdultFold and bench tabular split it.
	folds, err := table.Folds(t, all, tabular.DefaultTestFolds, d.Label, "", 1)
	if err != nil {
		return err
	}
	if fold < 0 || fold >= len(folds) {
		return fmt.Errorf("fold %d: the table has folds 0 to %d", fold, len(folds)-1)
	}
	lines, err := readLines(path)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for file, rows := range map[string][]int{"train.csv": table.Complement(all, folds[fold]), "test.csv": folds[fold]} {
		err := fileutil.WriteAtomic(filepath.Join(out, file), func(w io.Writer) error {
			bw := bufio.NewWriter(w)
			bw.WriteString(lines[0] + "\n")
			for _, r := range rows {
				bw.WriteString(lines[t.Lines[r]-1] + "\n")
			}
			return bw.Flush()
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, sc.Err()
}
