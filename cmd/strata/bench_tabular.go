package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/strata-logic/strata/internal/xgboost"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/table"
	"github.com/strata-logic/strata/table/tabular"
)

func init() { registerBench(newBenchTabularCmd) }

func newBenchTabularCmd() *cobra.Command {
	var o tabular.Options
	var pf protocolFlags
	var grow int
	var tally bool
	bf := benchFlags{dir: &o.Dir, data: &o.Data, quick: &o.Quick, seed: &o.Seed}
	cmd := &cobra.Command{
		Use:   "tabular [-o DIR] [--data DIR] [--quick] [--datasets a,b] [--timeout D]",
		Short: "Learn theories from the UCI tables of the rule learners and compare with RF, J48, JRip, XGBoost",
		Long: `tabular runs strata on every table of a suite: a datasets.tsv listing each
table's name, kind, files, label, positive class, features and numeric
columns (tab-separated, with that header), and the tables' files beside it.
The suite is --data DIR when DIR has a datasets.tsv, else DIR/tabular (the
shared UCI suite of the public data; see docs/data.md). A table given as one
file is scored by cross-validation with --test-folds folds (stratified by class); a
table given as two files by its train and test split. A row of a table's file
that cannot be read (the shared yeast.csv has ragged rows) is left out, for
every method alike, and results.md lists each with its line and column; a
table that cannot be run at all is reported as not run, and the command then
exits with status 1 once the others are done.

On every split it learns a theory under each semantics of --semantics-list
from the training rows and predicts the test rows. Every choice is made on
the training rows alone: the cut points, and the number of iterations, chosen
as strata learn --table chooses it (--folds K: by K-fold cross-validation on
the training rows, each fold with the cut points of its own training rows;
--folds 1 on one held-out part of --validation's share; --folds 0 not at all)
within --timeout per learning run. It runs Weka's RandomForest -I 100, J48
and JRip and XGBoost (Debian's python3-xgboost, bench/install-xgboost.sh) on
the same rows, and predicts the majority class of the training rows.

DIR receives results.csv (table,method,accuracy,macro_f1,rules,literals,
seconds,time_stopped; methods strata-poss, strata-linear, strata-lex, rf,
j48, jrip, xgboost, majority; time_stopped counts the splits whose learning
the time limit stopped) and results.md (accuracy, macro-F1, theory sizes,
times and time-stopped splits per table, J48's nodes and JRip's rules, the
published FOLD-R++ / FOLD-RM figures beside them, and how the best
drowning-free theory compares),
and per table the files the baselines read. --quick runs acute and wine with
3 test folds and 5 iterations. --json prints the results table as JSON.`,
		Example: `  strata bench tabular -o out/bench-tabular
  strata bench tabular --quick -o /tmp/tab --weka=false --xgboost=false
  strata bench tabular --datasets adult,voting --timeout 5m --semantics-list linear,lex -o out/tab`,
		Args: argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.Semantics, err = bf.semantics(); err != nil {
				return err
			}
			if err := pf.tabular(cmd.Flags(), &o, grow, tally); err != nil {
				return err
			}
			if o.TestFolds < 0 || o.TestFolds == 1 {
				return usageError{fmt.Errorf("--test-folds %d: give 2 or more (0: %d)", o.TestFolds, tabular.DefaultTestFolds)}
			}
			if o.Data, err = findSuite(o.Data); err != nil {
				return err
			}
			if err := o.Validate(); err != nil { // before the baselines' tools are looked for
				return err
			}
			if o.Weka, err = findWeka(bf.weka, bf.memory, "or pass --weka=false to leave those baselines out"); err != nil {
				return err
			}
			if bf.xgboost {
				if o.XGBoost, err = xgboost.Find(); err != nil {
					return fmt.Errorf("%w; or pass --xgboost=false", err)
				}
			}
			o.Command = commandLine(cmd)
			stderr := cmd.ErrOrStderr()
			o.Progress = func(e tabular.Event) {
				if e.Message != "" {
					fmt.Fprintf(stderr, "%s: %s\n", e.Table, e.Message)
					return
				}
				fmt.Fprintf(stderr, "%s: split %d of %d: %s done\n", e.Table, e.Split, e.Splits, e.Method)
			}
			ctx, stop := interruptible()
			defer stop()
			var rep *tabular.Report
			err = runInDir(o.Dir, func() (err error) {
				rep, err = tabular.Run(ctx, o)
				return err
			})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if bf.asJSON {
				if err := writeJSON(w, newTabularJSON(rep)); err != nil {
					return err
				}
				return notRunError(rep)
			}
			fmt.Fprintf(w, "%-12s %8s %8s %8s %8s %8s %8s %8s %8s\n", "table", "poss", "linear", "lex", "rf", "j48", "jrip", "xgboost", "majority")
			for _, t := range rep.Tables {
				fmt.Fprintf(w, "%-12s", t.Dataset.Name)
				if t.Error != "" {
					fmt.Fprintf(w, " not run: %s\n", t.Error)
					continue
				}
				for _, m := range tabular.Methods {
					if r := t.Result(m); r != nil && r.Confusion != nil {
						fmt.Fprintf(w, " %8.1f", 100*r.Confusion.Accuracy())
					} else {
						fmt.Fprintf(w, " %8s", "-")
					}
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "results in %s (results.md, results.csv), %s in all\n", o.Dir, rep.Elapsed.Round(time.Second))
			return notRunError(rep)
		},
	}
	fl := cmd.Flags()
	addBenchFlags(fl, &bf, benchUsage{output: filepath.Join("out", "bench-tabular"),
		data: "the suite: a directory with a datasets.tsv, or the public data directory whose tabular/ has one (default: $" + dataEnv + ", else ../shared/data from the current directory; see docs/data.md)",
		quick: fmt.Sprintf("a small version: %s, %d test folds, %d iterations unless --iterations says, no timeout",
			orList(tabular.QuickTables), tabular.QuickTestFolds, tabular.QuickIterations),
		seed:          "seed of the test folds, the held-out parts, the learner and XGBoost",
		semanticsList: "learn and score a theory under each of these semantics, comma-separated"})
	fl.StringSliceVar(&o.Datasets, "datasets", nil, "run only these tables of the suite")
	fl.IntVar(&o.TestFolds, "test-folds", tabular.DefaultTestFolds, "the cross-validation folds that score a table given as one file")
	addProtocolFlags(fl, &pf, protocolDefaults{iterations: tabular.DefaultIterations, patience: learn.DefaultPatience, folds: tabular.DefaultFolds,
		validationPatience: tabular.DefaultValidationPatience, rule: tabular.DefaultRule,
		timeout: tabular.DefaultTimeout, timeoutPer: " per table, split and semantics", heldOut: "training rows"})
	fl.IntVar(&o.SmallFolds, "small-folds", tabular.DefaultSmallFolds, fmt.Sprintf("with --folds K >= 2, the folds of a split of at most %d training rows (0: K)", tabular.SmallRows))
	fl.IntVar(&o.LargeFolds, "large-folds", tabular.DefaultLargeFolds, fmt.Sprintf("with --folds K >= 2, the held-out parts of a split of more than %d training rows: 1 is one part of %.0f%% (0: K)", tabular.LargeRows, 100*learn.DefaultValidation))
	fl.Lookup("threads").Usage = "jobs run at once, each a learning run with one thread or a baseline (0: all CPUs)"
	o.Variants = []table.Variant{{}}
	fl.Var(variantsValue{&o.Variants}, "variants", variantsUsage)
	fl.IntVar(&grow, "grow", table.DefaultGrow, growUsage)
	fl.BoolVar(&tally, "tally", table.DefaultTally, tallyUsage)
	alias(fl, "tables", "datasets", true)
	alias(fl, "workers", "threads", true)
	alias(fl, "select-folds", "folds", true)
	return cmd
}

// tabular sets the protocol flags, --grow and --tally in the options of
// bench tabular; with --quick and no --iterations, the quick run's own
// limit. --threads is the jobs at once.
func (p *protocolFlags) tabular(fl *pflag.FlagSet, o *tabular.Options, grow int, tally bool) error {
	if err := p.settings(fl, &o.Learning); err != nil {
		return usageError{err}
	}
	o.Threads, o.Learning.Threads = o.Learning.Threads, 0
	if fl.Changed("grow") {
		var err error
		if o.Learning.Grow, err = zeroIsNone("grow", grow, "none"); err != nil {
			return usageError{err}
		}
	}
	if fl.Changed("tally") {
		o.Learning.Tally = learn.SwitchOf(tally)
	}
	if o.Quick && !fl.Changed("iterations") {
		o.Learning.Iterations = 0
	}
	if o.Quick && !fl.Changed("test-folds") {
		o.TestFolds = 0
	}
	return settingsError(o.Learning.Validate())
}

// findSuite returns the folder of the suite of bench tabular: --data when
// it has a datasets.tsv, else the tabular folder of the data directory
// (findData).
func findSuite(flag string) (string, error) {
	if flag != "" {
		if _, err := os.Stat(filepath.Join(flag, "datasets.tsv")); err == nil {
			return flag, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	dir, err := findData(flag, filepath.Join("tabular", "datasets.tsv"))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "tabular"), nil
}

// tabularJSON is bench tabular --json: per table and method what
// results.csv holds (null where a method did not run or a size has no
// meaning).
type tabularJSON struct {
	Output  string             `json:"output"`
	Command string             `json:"command"`
	Seconds float64            `json:"seconds"`
	Tables  []tabularTableJSON `json:"tables"`
}

type tabularTableJSON struct {
	Name        string                `json:"name"`
	Rows        int                   `json:"rows"`
	Splits      int                   `json:"splits"`
	SkippedRows []string              `json:"skipped_rows"`
	Error       string                `json:"error,omitempty"`
	Methods     []tabularMethodJSON   `json:"methods"`
	Published   *tabularPublishedJSON `json:"published"`
}

type tabularMethodJSON struct {
	Method   string   `json:"method"`
	Accuracy *float64 `json:"accuracy"`
	MacroF1  *float64 `json:"macro_f1"`
	Rules    *float64 `json:"rules"`
	Literals *float64 `json:"literals"`
	Seconds  *float64 `json:"seconds"`
}

type tabularPublishedJSON struct {
	Method   string  `json:"method"`
	Accuracy float64 `json:"accuracy"`
	Rules    float64 `json:"rules"`
}

func newTabularJSON(rep *tabular.Report) *tabularJSON {
	out := &tabularJSON{Output: rep.Options.Dir, Command: rep.Options.Command, Seconds: rep.Elapsed.Seconds(), Tables: []tabularTableJSON{}}
	num := func(x float64) *float64 {
		if math.IsNaN(x) {
			return nil
		}
		return &x
	}
	for _, t := range rep.Tables {
		tj := tabularTableJSON{Name: t.Dataset.Name, Rows: t.Rows, Splits: t.Splits, SkippedRows: append([]string{}, t.Skipped...),
			Error: t.Error, Methods: []tabularMethodJSON{}}
		for _, r := range t.Results {
			m := tabularMethodJSON{Method: r.Method}
			if r.Confusion != nil {
				m.Accuracy, m.MacroF1 = num(r.Confusion.Accuracy()), num(r.Confusion.MacroF1())
				m.Rules, m.Literals, m.Seconds = num(r.Rules), num(r.Literals), num(r.Seconds)
			}
			tj.Methods = append(tj.Methods, m)
		}
		if p, ok := tabular.PublishedFigures[t.Dataset.Name]; ok {
			tj.Published = &tabularPublishedJSON{Method: p.Method, Accuracy: p.Accuracy, Rules: p.Rules}
		}
		out.Tables = append(out.Tables, tj)
	}
	return out
}

// notRunError is the failure of a suite run some of whose tables could not
// be run: the others' results are written, and the run still fails.
func notRunError(rep *tabular.Report) error {
	bad := rep.NotRun()
	if len(bad) == 0 {
		return nil
	}
	parts := make([]string, len(bad))
	for i, t := range bad {
		parts[i] = t.Dataset.Name + " (" + t.Error + ")"
	}
	return fmt.Errorf("%d of %d tables could not be run: %s", len(bad), len(rep.Tables), strings.Join(parts, "; "))
}
