package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/learn/curve"
	"github.com/strata-logic/strata/table"
)

// tableFlags are the flags that read a table (learn, eval, predict).
type tableFlags struct {
	file, test, label, group string
	features, numeric        []string
	skipBadRows              bool
	variants                 []table.Variant
	grow                     int
	tally                    bool
	format, duplicates       string
	delimiter                delimiterValue
}

func addTableFlags(fl *pflag.FlagSet, t *tableFlags, learning bool) {
	fl.StringVar(&t.file, "table", "", "a table with a header (CSV, TSV or another delimiter, ARFF, Parquet; gzip-compressed or not): one row per case, the class in --label")
	fl.StringVar(&t.label, "label", "", "the class column of --table (predict and eval: default, the one the theory's hard rules name)")
	fl.BoolVar(&t.skipBadRows, "skip-bad-rows", false, "leave out the rows of the table that cannot be read (a ragged row, text in a numeric column), with a warning naming each, instead of failing on the first")
	addChoice(fl, &t.format, "table-format", "auto", table.Formats(), "the format of --table: csv, tsv, arff, parquet, or auto (by the name: .csv, .tsv, .tab, .arff, .parquet, each maybe .gz; else by the content)")
	fl.Var(&t.delimiter, "delimiter", "the character between the fields of a delimited --table (default: a tab for tsv; for csv the one its header line shows of , ; tab |)")
	addChoice(fl, &t.duplicates, "duplicate-columns", table.Rename.String(), table.DuplicatesNames(),
		"what to do with a column name the header of --table repeats: rename (the second NAME is read as NAME.2, with a warning), first (keep the first, with a warning) or error")
	for _, name := range []string{"table-format", "delimiter", "duplicate-columns"} {
		fl.SetAnnotation(name, tableOnly, nil)
	}
	if !learning {
		return
	}
	fl.StringVar(&t.test, "test-table", "", "with --table: a test table with the same columns, scored at the end")
	fl.StringVar(&t.group, "group", "", "with --table and --folds: rows with the same value in this column stay in one held-out part")
	fl.StringSliceVar(&t.features, "features", nil, "with --table: the columns to learn from (default: all but --label and --group, and identifier-like columns)")
	fl.StringSliceVar(&t.numeric, "numeric", nil, "with --table: the columns that are numbers; the others are categorical (default: inferred, numeric when every value is a number)")
	t.variants = []table.Variant{{}}
	fl.Var(variantsValue{&t.variants}, "variants", "with --table: "+variantsUsage)
	fl.IntVar(&t.grow, "grow", table.DefaultGrow, "with --table: "+growUsage)
	fl.BoolVar(&t.tally, "tally", table.DefaultTally, "with --table: "+tallyUsage)
	for _, name := range []string{"label", "skip-bad-rows", "test-table", "group", "features", "numeric", "variants", "grow", "tally"} {
		fl.SetAnnotation(name, tableOnly, nil)
	}
}

// tableOnly marks the flags of learn that have a meaning with --table alone.
const tableOnly = "strata-table-only"

// strayTableFlag returns a flag of fl given without --table that has a
// meaning only with it, or "".
func strayTableFlag(fl *pflag.FlagSet) (name string) {
	fl.Visit(func(f *pflag.Flag) {
		if _, ok := f.Annotations[tableOnly]; ok && name == "" {
			name = f.Name
		}
	})
	return name
}

const tallyUsage = "under lex, also try a level of one-literal rules that vote (\"col <= t → class\"), lex answering what most of those that apply say"

const growUsage = "also grow this many of each iteration's candidates by information gain, as RIPPER grows a rule, from the rows they are drawn from (0: none)"

// learning sets the table's learning flags (--grow, --tally, --variants)
// into s: a flag not given leaves the table's default.
func (t *tableFlags) learning(fl *pflag.FlagSet, s *table.Settings) error {
	if fl.Changed("grow") {
		var err error
		if s.Learning.Grow, err = zeroIsNone("grow", t.grow, "none"); err != nil {
			return err
		}
	}
	if fl.Changed("tally") {
		s.Learning.Tally = learn.SwitchOf(t.tally)
	}
	if len(t.variants) > 1 {
		s.Variants = t.variants
	}
	return nil
}

// options returns how to read the tables: --numeric given (even empty)
// fixes every column's type.
func (t *tableFlags) options(cmd *cobra.Command) table.Options {
	o := t.readOptions()
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

// readOptions returns how to read the tables as far as the flags of
// every command that reads one say: the format, the delimiter, repeated
// column names and bad rows.
func (t *tableFlags) readOptions() table.Options {
	f, _ := table.ParseFormat(t.format) // a choice flag: one of its words
	d, _ := table.ParseDuplicates(t.duplicates)
	return table.Options{SkipBadRows: t.skipBadRows, Format: f, Delimiter: t.delimiter.r, Duplicates: d}
}

// delimiterValue is the value of --delimiter: one character, written as
// itself or as \t for a tab.
type delimiterValue struct{ r rune }

func (d *delimiterValue) String() string {
	switch d.r {
	case 0:
		return ""
	case '\t':
		return `\t`
	}
	return string(d.r)
}

func (d *delimiterValue) Set(s string) error {
	if s == `\t` || s == "tab" {
		s = "\t"
	}
	r := []rune(s)
	if len(r) != 1 || r[0] == '"' || r[0] == '\r' || r[0] == '\n' {
		return fmt.Errorf("want one character other than a quote or a line break (\\t for a tab), not %q", s)
	}
	d.r = r[0]
	return nil
}

func (d *delimiterValue) Type() string { return "char" }

// readTableFile reads a table. It warns on stderr of what the reader changed
// in the header (a repeated column name renamed) and, with
// --skip-bad-rows, of every row it left out, naming its position, and of
// how many.
func readTableFile(cmd *cobra.Command, path string, o table.Options) (*table.Table, error) {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	t, err := table.Read(r, name, o)
	if err != nil {
		return nil, err
	}
	for _, e := range t.Warnings {
		fmt.Fprintf(cmd.ErrOrStderr(), "strata: warning: %v\n", e)
	}
	if n := len(t.Skipped); n > 0 {
		w := cmd.ErrOrStderr()
		for _, e := range t.Skipped {
			fmt.Fprintf(w, "strata: warning: %v; row left out (--skip-bad-rows)\n", e)
		}
		fmt.Fprintf(w, "strata: %s: %s left out, %d read\n", t.Name, count(n, "unreadable row"), t.Rows)
	}
	return t, nil
}

// runLearnTable is strata learn --table.
func runLearnTable(cmd *cobra.Command, f *learnFlags) error {
	tf := &f.table
	s := table.Settings{Learning: learn.Settings{Semantics: f.semantics, Seed: f.seed}, Label: tf.label, Group: tf.group, Variant: tf.variants[0]}
	if err := f.protocol.settings(cmd.Flags(), &s.Learning); err != nil {
		return usageError{err}
	}
	if err := tf.learning(cmd.Flags(), &s); err != nil {
		return usageError{err}
	}
	switch {
	case tf.label == "":
		return usageError{errors.New("--table needs --label, the class column")}
	case f.pos != "" || f.neg != "" || f.testPos != "" || f.testNeg != "" || f.hard != "":
		return usageError{errors.New("--table learns from the table alone: --pos, --neg, --test-pos, --test-neg and --hard do not go with it")}
	case f.checkpoint != "" || f.resume != "":
		// A checkpoint holds the learner's state on its examples, and a
		// table's examples are drawn (the non-default classes) and encoded
		// (the cut points) anew by each run.
		return usageError{errors.New("--checkpoint and --resume do not go with --table: a table is encoded anew by each run")}
	}
	if err := s.Learning.Validate(); err != nil {
		return settingsError(err)
	}
	if f.plot != "" { // before a long run, not after it
		if _, err := curve.Format(f.plot); err != nil {
			return usageError{err}
		}
	}
	if err := checkJSONOutput(f.json, f.out); err != nil {
		return err
	}
	for _, o := range []struct{ flag, path string }{{"-o", f.out}, {"--history", f.history}, {"--plot", f.plot}} {
		if !stdout(o.path) {
			if err := fileutil.CheckWritable(o.path); err != nil { // before a long run, not after it
				return fmt.Errorf("%s: %w", o.flag, err)
			}
		}
	}
	stderr := cmd.ErrOrStderr()
	opts := tf.options(cmd)
	t, err := readTableFile(cmd, tf.file, opts)
	if err != nil {
		return err
	}
	if tf.features != nil {
		s.Features = tf.features
	} else {
		var notes []string
		s.Features, notes = table.DefaultFeatures(t, tf.label, tf.group)
		for _, n := range notes {
			fmt.Fprintf(stderr, "strata: %s: %s\n", t.Name, n)
		}
	}
	var test *table.Table
	if tf.test != "" { // read before a long run, not after it
		if test, err = readTableFile(cmd, tf.test, opts); err != nil {
			return err
		}
	}
	plan, err := table.NewPlan(t, nil, s)
	if err != nil {
		return settingsError(err)
	}
	ctx, stop := interruptible()
	defer stop()
	lr, err := plan.Learn(ctx, nil)
	if ctx.Err() != nil {
		return errors.New("interrupted: nothing was written")
	}
	if err != nil {
		return err
	}
	if !stdout(f.out) || !f.json {
		if err := writeOutput(cmd, f.out, lr.Theory.WriteText); err != nil {
			return err
		}
	}
	if f.history != "" {
		if err := writeHistoryFile(f.history, lr); err != nil {
			return err
		}
	}
	if f.plot != "" {
		format, _ := curve.Format(f.plot)
		if err := fileutil.WriteAtomic(f.plot, func(w io.Writer) error { return curve.Write(w, format, lr.History, "strata learn --table "+t.Name) }); err != nil {
			return err
		}
	}
	sum, err := summariseTable(ctx, t, test, lr, len(t.Skipped))
	if err != nil {
		return err
	}
	if f.json {
		if sum.Theory, err = jsonview.NewTheory(ctx, lr.Theory); err != nil {
			return err
		}
		return writeJSON(cmd.OutOrStdout(), sum)
	}
	sum.write(stderr)
	return nil
}

// tableSummary is what strata learn --table says of its run: on stderr as
// text, or with --json on stdout with the theory. It is strata learn's
// summary (runSummary) of a run on a table, whose accuracies are those of
// one class per row, as strata eval --table gives them, with their
// macro-F1.
type tableSummary struct {
	Table    string `json:"table"`
	Rows     int    `json:"rows"`
	Skipped  int    `json:"skipped_rows"`
	Label    string `json:"label"`
	Classes  int    `json:"classes"`
	Features int    `json:"features"`
	Atoms    int    `json:"atoms"` // of the features: values and thresholds
	runSummary
	TrainMacroF1 float64  `json:"train_macro_f1"`
	TestMacroF1  *float64 `json:"test_macro_f1"` // null without --test-table
	// Variant is the encoding learned with; Variants, with --variants
	// to choose among, what each scored on the held-out rows.
	Variant  string            `json:"variant"`
	Variants []variantJSON     `json:"variants,omitempty"`
	Test     *tableTestSummary `json:"-"`
}

// variantJSON is what one encoding of --variants scored on the held-out
// rows: its chosen iteration and the accuracy there (0 when it chose
// nothing).
type variantJSON struct {
	Variant        string  `json:"variant"`
	Chosen         int     `json:"chosen"`
	ChosenAccuracy float64 `json:"chosen_accuracy"`
}

type tableTestSummary struct {
	name string
	rows int
}

func summariseTable(ctx context.Context, t, test *table.Table, lr *table.Learned, skipped int) (*tableSummary, error) {
	e, sem := lr.Encoding, lr.Semantics
	atoms := 0
	for _, ft := range e.Features {
		atoms += len(ft.Values) + len(ft.Cuts)
	}
	s := &tableSummary{Table: t.Name, Rows: t.Rows, Skipped: skipped, Label: e.Label, Classes: len(e.Classes), Features: len(e.Features), Atoms: atoms,
		runSummary: newRunSummary(lr.Result, len(e.Hard()))}
	s.Seconds = lr.Total.Seconds()
	train, err := table.Evaluate(ctx, lr.Theory, t, table.PredictOptions{Semantics: sem, Label: e.Label})
	if err != nil {
		return nil, err
	}
	s.TrainAccuracy, s.TrainMacroF1 = train.Accuracy(), train.MacroF1()
	if test != nil {
		c, err := table.Evaluate(ctx, lr.Theory, test, table.PredictOptions{Semantics: sem, Label: e.Label})
		if err != nil {
			return nil, err
		}
		acc, f1 := c.Accuracy(), c.MacroF1()
		s.TestAccuracy, s.TestMacroF1 = &acc, &f1
		s.Test = &tableTestSummary{test.Name, test.Rows}
	}
	s.Variant = lr.Variant.String()
	for _, tr := range lr.Tried {
		v := variantJSON{Variant: tr.Variant.String()}
		if tr.Selection != nil {
			v.Chosen, v.ChosenAccuracy = tr.Selection.Chosen, tr.Selection.ChosenAccuracy
		}
		s.Variants = append(s.Variants, v)
	}
	return s, nil
}

// write prints the summary as text.
func (s *tableSummary) write(w io.Writer) {
	fmt.Fprintf(w, "table %s: %d rows, %d features (%d atoms), %d classes of %s\n", s.Table, s.Rows, s.Features, s.Atoms, s.Classes, s.Label)
	if len(s.Variants) > 0 {
		var ws []string
		for _, v := range s.Variants {
			ws = append(ws, fmt.Sprintf("%s %.4f at %d", v.Variant, v.ChosenAccuracy, v.Chosen))
		}
		fmt.Fprintf(w, "encodings on the held-out rows: %s; learning with %s\n", strings.Join(ws, ", "), s.Variant)
	}
	if v := s.Validation; v != nil {
		how := fmt.Sprintf("%d-fold cross-validation", v.Folds)
		if v.Folds == 1 {
			how = "one held-out part"
		}
		fmt.Fprintf(w, "iterations chosen by %s: %d (held-out accuracy %.4f; best %.4f at %d)\n", how, v.Chosen, v.ChosenAccuracy, v.BestAccuracy, v.Best)
		if note := toLimitsNote(v.Censored, v.Saturated); note != "" {
			fmt.Fprintln(w, note)
		}
	}
	elapsed := time.Duration(s.Seconds * float64(time.Second))
	fmt.Fprintf(w, "stopped: %s after %d iterations (%s)\n", s.Stop, s.Iterations, elapsed.Round(time.Millisecond))
	s.writeRestarts(w)
	if p := s.Pruning; p != nil {
		fmt.Fprintf(w, "pruned the rules that at most %d training examples need: %d -> %d literals\n", p.Threshold, p.Before, p.After)
	}
	fmt.Fprintf(w, "training rows: accuracy %.4f, macro-F1 %.4f\n", s.TrainAccuracy, s.TrainMacroF1)
	if s.TestAccuracy != nil {
		fmt.Fprintf(w, "test rows (%s, %d): accuracy %.4f, macro-F1 %.4f\n", s.Test.name, s.Test.rows, *s.TestAccuracy, *s.TestMacroF1)
	}
	fmt.Fprintf(w, "theory: %s in %s, %s (plus %s)\n", count(s.Formulas, "rule"), count(s.Levels, "level"), count(s.Literals, "literal"), count(s.HardRules, "hard rule"))
}

func writeHistoryFile(path string, lr *table.Learned) error {
	return fileutil.WriteAtomic(path, func(w io.Writer) error { return learn.WriteHistoryCSV(w, lr.History) })
}
