package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/xgboost"
	"github.com/strata-logic/strata/table/tabular"
)

func init() { registerBench(newBenchTabularCmd) }

func newBenchTabularCmd() *cobra.Command {
	var o tabular.Options
	var runWeka, runXGB bool
	var memory string
	var sems []string
	cmd := &cobra.Command{
		Use:   "tabular [-o DIR] [--data DIR] [--quick] [--tables a,b] [--timeout D]",
		Short: "Learn theories from the UCI tables of the rule learners and compare with RF, J48, JRip, XGBoost",
		Long: `tabular runs strata on every table of a suite folder (--data, by default the
shared UCI suite): a datasets.tsv listing each table's name, kind, files,
label, positive class, features and numeric columns (tab-separated, with that
header). A table given as one file is scored by --folds-fold cross-validation
(stratified by class); a table given as two files by its train and test split.

On every split it learns a theory under each --semantics from the training
rows (cut points and the number of iterations chosen on them alone: see
--select-folds) and predicts the test rows; runs Weka's RandomForest -I 100,
J48 and JRip and XGBoost (Debian's python3-xgboost, bench/install-xgboost.sh)
on the same rows; and predicts the majority class of the training rows.

DIR receives results.csv (table,method,accuracy,macro_f1,rules,literals,
seconds; methods strata-poss, strata-linear, strata-lex, rf, j48, jrip,
xgboost, majority) and results.md (accuracy, macro-F1, theory sizes and
times per table, J48's nodes and JRip's rules, and the published FOLD-R++ /
FOLD-RM figures beside them), and per table the files the baselines read.
--quick runs acute and wine with 3 folds and 5 iterations.`,
		Example: `  strata bench tabular -o out/bench-tabular
  strata bench tabular --quick -o /tmp/tab --weka=false --xgboost=false`,
		Args: argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.Semantics, err = parseSemanticsList(sems); err != nil {
				return err
			}
			if o.Weka, err = findWeka(runWeka, memory, "or pass --weka=false to leave those baselines out"); err != nil {
				return err
			}
			if runXGB {
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
			rep, err := tabular.Run(ctx, o)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
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
			fmt.Fprintf(w, "results in %s (results.md, results.csv)\n", o.Dir)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.Dir, "output", "o", filepath.Join("out", "bench-tabular"), "output directory")
	fl.StringVar(&o.Data, "data", filepath.Join("..", "shared", "data", "tabular"), "the suite folder, with datasets.tsv")
	fl.BoolVar(&o.Quick, "quick", false, "a small run: acute and wine, 3 folds, 5 iterations")
	fl.StringSliceVar(&o.Tables, "tables", nil, "run only these tables")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the folds and the learner")
	fl.IntVar(&o.Folds, "folds", 0, fmt.Sprintf("cross-validation folds of a table given as one file (0: %d, %d with --quick)", tabular.DefaultFolds, tabular.QuickFolds))
	fl.DurationVar(&o.Timeout, "timeout", 0, fmt.Sprintf("time of each learning run, the choice of iterations included (0: %s; none with --quick)", tabular.DefaultTimeout))
	fl.IntVar(&o.Iterations, "iterations", 0, "most iterations of a learning run (0: the learner's default, 5 with --quick)")
	fl.IntVar(&o.SelectFolds, "select-folds", 0, fmt.Sprintf("choose the number of iterations by cross-validation on this many folds of the training rows (0: %d; 1: none)", tabular.DefaultSelectFolds))
	fl.IntVar(&o.Workers, "workers", 0, "jobs run at once (0: all CPUs)")
	fl.StringSliceVar(&sems, "semantics", []string{"poss", "linear", "lex"}, "learn and score a theory under each of these semantics")
	fl.BoolVar(&runWeka, "weka", true, "run Weka's baselines (--weka=false leaves them out)")
	fl.BoolVar(&runXGB, "xgboost", true, "run XGBoost (--xgboost=false leaves it out)")
	fl.StringVar(&memory, "java-memory", defaultJavaMemory, "maximum Java heap for Weka")
	return cmd
}
