package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

// tableFlags are the flags that read a table (learn, eval, predict).
type tableFlags struct {
	file, test, label, group string
	features, numeric        []string
	numericSet               bool
}

func addTableFlags(fl *pflag.FlagSet, t *tableFlags, learning bool) {
	fl.StringVar(&t.file, "table", "", "a CSV table with a header: one row per case, the class in --label")
	fl.StringVar(&t.label, "label", "", "the class column of --table (predict and eval: default, the one the theory's hard rules name)")
	if !learning {
		return
	}
	fl.StringVar(&t.test, "test-table", "", "with --table: a test table with the same columns, scored at the end")
	fl.StringVar(&t.group, "group", "", "with --table and --folds: rows with the same value in this column stay in one fold")
	fl.StringSliceVar(&t.features, "features", nil, "with --table: the columns to learn from (default: all but --label and --group, and identifier-like columns)")
	fl.StringSliceVar(&t.numeric, "numeric", nil, "with --table: the columns that are numbers; the others are categorical (default: inferred, numeric when every value is a number)")
}

// options returns how to read the tables: --numeric given (even empty)
// fixes every column's type.
func (t *tableFlags) options(cmd *cobra.Command) table.Options {
	var o table.Options
	if cmd.Flags().Changed("numeric") {
		o.Numeric = append([]string{}, t.numeric...)
	}
	for _, c := range []string{t.label, t.group} {
		if c != "" {
			o.Categorical = append(o.Categorical, c)
		}
	}
	return o
}

func readCSVTable(cmd *cobra.Command, path string, o table.Options) (*table.Table, error) {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return table.Read(r, name, o)
}

// runLearnTable is strata learn --table.
func runLearnTable(cmd *cobra.Command, f *learnFlags) error {
	tf := &f.table
	if err := f.protocol.resolve(cmd.Flags()); err != nil {
		return usageError{err}
	}
	pf := &f.protocol
	switch {
	case tf.label == "":
		return usageError{errors.New("--table needs --label, the class column")}
	case f.pos != "" || f.neg != "" || f.testPos != "" || f.testNeg != "" || f.hard != "":
		return usageError{errors.New("--table learns from the table alone: --pos, --neg, --test-pos, --test-neg and --hard do not go with it")}
	case pf.folds == 1 || pf.prune || f.checkpoint != "" || f.resume != "":
		return usageError{errors.New("--table chooses the iterations with --folds K (K >= 2); --validation, --prune, --checkpoint and --resume do not go with it")}
	}
	stderr := cmd.ErrOrStderr()
	opts := tf.options(cmd)
	t, err := readCSVTable(cmd, tf.file, opts)
	if err != nil {
		return err
	}
	s := table.Settings{Learner: pf.settings(f.semantics, f.seed), Label: tf.label, Group: tf.group, Folds: pf.folds,
		ValidationPatience: pf.validationPatience}
	if tf.features != nil {
		s.Features = tf.features
	} else {
		var notes []string
		s.Features, notes = table.DefaultFeatures(t, tf.label, tf.group)
		for _, n := range notes {
			fmt.Fprintf(stderr, "strata: %s: %s\n", t.Name, n)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lr, err := table.Learn(ctx, t, nil, s)
	if err != nil {
		if ctx.Err() != nil {
			return errors.New("interrupted: nothing was written")
		}
		return err
	}
	if f.out != "" {
		if err := fileutil.WriteAtomic(f.out, lr.Theory.WriteText); err != nil {
			return err
		}
	} else if err := lr.Theory.WriteText(cmd.OutOrStdout()); err != nil {
		return err
	}
	if f.history != "" {
		if err := writeHistoryFile(f.history, lr); err != nil {
			return err
		}
	}
	e := lr.Encoding
	atoms := 0
	for _, ft := range e.Features {
		atoms += len(ft.Values) + len(ft.Cuts)
	}
	fmt.Fprintf(stderr, "table %s: %d rows, %d features (%d atoms), %d classes of %s\n", t.Name, t.Rows, len(e.Features), atoms, len(e.Classes), e.Label)
	if sel := lr.Selection; sel != nil {
		fmt.Fprintf(stderr, "iterations chosen by %d-fold cross-validation: %d (held-out accuracy %.4f; best %.4f at %d)\n",
			pf.folds, sel.Chosen, sel.ChosenAccuracy, sel.BestAccuracy, sel.Best)
	}
	fmt.Fprintf(stderr, "stopped: %s after %d iterations (%s)\n", lr.Stop, len(lr.History), lr.Elapsed.Round(1e6))
	train, err := table.Evaluate(ctx, lr.Theory, t, table.PredictOptions{Semantics: f.semantics, Label: tf.label})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "training rows: accuracy %.4f, macro-F1 %.4f\n", train.Accuracy(), train.MacroF1())
	if tf.test != "" {
		tt, err := readCSVTable(cmd, tf.test, opts)
		if err != nil {
			return err
		}
		c, err := table.Evaluate(ctx, lr.Theory, tt, table.PredictOptions{Semantics: f.semantics, Label: tf.label})
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "test rows: accuracy %.4f, macro-F1 %.4f\n", c.Accuracy(), c.MacroF1())
	}
	fmt.Fprintf(stderr, "theory: %d rules in %d levels, %d literals (plus %d hard rules)\n",
		lr.Model.NumClauses(), len(lr.Model.Levels), lr.Model.NumLiterals(), len(lr.Model.Hard))
	return nil
}

func writeHistoryFile(path string, lr *table.Learned) error {
	return fileutil.WriteAtomic(path, func(w io.Writer) error { return learn.WriteHistoryCSV(w, lr.History) })
}

func init() { register(newPredictCmd) }

func newPredictCmd() *cobra.Command {
	var tf tableFlags
	var out string
	var sem possibilistic.Semantics
	var explain bool
	cmd := &cobra.Command{
		Use:   "predict THEORY --table FILE.csv [-o FILE] [--explain]",
		Short: "Predict the class of every row of a table with a theory",
		Long: `predict reads a theory over a table's comparison atoms (col=value,
col <= t, as strata learn --table writes them) and a CSV table with a header,
and writes one line per row: the row's line in the table and the class the
theory entails from the row's values under --semantics, or "none" when it
entails no single class. The class column is the one the theory's hard rules
say exactly one value of holds (--label names it otherwise); the table need
not have it. --explain adds the level (weight) at which the class is entailed
and the learned rules that entail it, or the classes entailed when there is
not exactly one.

The output is CSV (-o FILE, written atomically; -o - or no -o: standard
output).`,
		Example: `  strata learn --table train.csv --label class -o t.theory
  strata predict t.theory --table new.csv --explain`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if tf.file == "" {
				return usageError{errors.New("predict needs --table")}
			}
			th, t, err := loadTheoryAndTable(cmd, args[0], &tf)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			preds, err := table.Predict(ctx, th, t, table.PredictOptions{Semantics: sem, Label: tf.label, Explain: explain})
			if err != nil {
				return err
			}
			write := func(w io.Writer) error { return writePredictions(w, preds, explain) }
			if out == "" || out == "-" {
				return write(cmd.OutOrStdout())
			}
			return fileutil.WriteAtomic(out, write)
		},
	}
	fl := cmd.Flags()
	addTableFlags(fl, &tf, false)
	fl.StringVarP(&out, "output", "o", "-", "write the predictions to this file (-: standard output)")
	fl.TextVar(&sem, "semantics", possibilistic.Poss, semanticsUsage)
	fl.BoolVar(&explain, "explain", false, "add the level and the rules that decide each row")
	return cmd
}

func loadTheoryAndTable(cmd *cobra.Command, theory string, tf *tableFlags) (*possibilistic.Theory, *table.Table, error) {
	if theory == "-" && tf.file == "-" {
		return nil, nil, usageError{errors.New("the theory and the table cannot both be standard input")}
	}
	th, err := loadTheory(cmd, theory, &logic.Vocabulary{})
	if err != nil {
		return nil, nil, err
	}
	// Every column the theory compares with a threshold is read as numeric,
	// every other one as categorical.
	var o table.Options
	o.Numeric = []string{}
	for _, name := range th.Vocab.Names() {
		if c, ok := logic.ParseComparison(name); ok && c.Op == logic.OpLe {
			o.Numeric = append(o.Numeric, c.Column)
		}
	}
	t, err := readCSVTable(cmd, tf.file, o)
	if err != nil {
		return nil, nil, err
	}
	return th, t, nil
}

func writePredictions(w io.Writer, preds []table.Prediction, explain bool) error {
	cw := csv.NewWriter(w)
	head := []string{"line", "predicted"}
	if explain {
		head = append(head, "level", "rules", "entailed")
	}
	cw.Write(head)
	for _, p := range preds {
		rec := []string{fmt.Sprint(p.Line), p.Class}
		if explain && p.Why != nil {
			rec = append(rec, possibilistic.FormatWeight(p.Why.Level), strings.Join(p.Why.Rules, "; "), strings.Join(p.Why.Entailed, "; "))
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// evalTable is strata eval THEORY --table.
func evalTable(cmd *cobra.Command, theory string, tf *tableFlags, sem possibilistic.Semantics) error {
	th, t, err := loadTheoryAndTable(cmd, theory, tf)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := table.Evaluate(ctx, th, t, table.PredictOptions{Semantics: sem, Label: tf.label})
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "accuracy: %.4f\nmacro-F1: %.4f\nrows: %d, right: %d\n\n", c.Accuracy(), c.MacroF1(), c.Total(), c.Correct())
	return c.Write(w)
}
