package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

func init() { register(newPredictCmd) }

func newPredictCmd() *cobra.Command {
	var tf tableFlags
	var out string
	var sem possibilistic.Semantics
	var explain, degrees, asJSON bool
	var keep []string
	cmd := &cobra.Command{
		Use:   "predict THEORY --table FILE [--keep COL,...] [--degrees] [-o FILE] [--explain] [--json]",
		Short: "Predict the class of every row of a table with a theory",
		Long: `predict reads a theory over a table's comparison atoms (col=value,
col <= t, as strata learn --table writes them) and a table with a header (CSV,
TSV or another delimiter, ARFF or Parquet, gzip-compressed or not: see
--table-format), and writes one line per row: the row's line in the table (in
a Parquet file, its row number) and the class the theory entails from the
row's values under --semantics, or "none" when it entails no single class.
The class column is the one the theory's hard rules say exactly one value of
holds (--label names it otherwise); the table need not have it.

--keep copies columns of the table (an identifier, to join the predictions
back to the rows) after the line. --degrees adds the degree of the answer:
the necessity of the predicted class given the row (the highest weight whose
formulas, with the row, entail it; 0 for none), then one column per class,
degree:CLASS, its necessity (0 for a class not entailed). --explain adds the
level (weight) at which the class is entailed and the learned rules that
entail it, or the classes entailed when there is not exactly one; under lex,
the rules are every rule of that level that applies to the row and names its
class (the votes for it), and a last column, against, lists the rules the
answer sets aside.

The output is CSV (-o FILE, written atomically; no -o or -o -: standard
output). --json prints the predictions as one JSON object on standard output
instead (with -o FILE, the file gets the CSV). A row that cannot be read is
an error naming its line and column; --skip-bad-rows leaves such rows out
with a warning for each.`,
		Example: `  strata predict examples/loans.theory --table examples/applicants.csv --keep name --degrees
  strata predict examples/loans.theory --table examples/loans.csv --explain --json
  strata predict t.theory --table new.parquet --semantics lex -o predictions.csv`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if tf.file == "" {
				return usageError{errors.New("predict needs --table")}
			}
			if err := checkJSONOutput(asJSON, out); err != nil {
				return err
			}
			th, t, err := loadTheoryAndTable(cmd, args[0], &tf)
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			preds, err := table.Predict(ctx, th, t, table.PredictOptions{Semantics: sem, Label: tf.label, Explain: explain, Degrees: degrees, Keep: keep})
			if err != nil {
				return theoryError(args[0], err)
			}
			if !asJSON || !stdout(out) {
				if err := writeOutput(cmd, out, func(w io.Writer) error { return writePredictions(w, preds, keep, explain) }); err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), jsonview.NewPredictions(t, sem, keep, preds))
			}
			return nil
		},
	}
	fl := cmd.Flags()
	addTableFlags(fl, &tf, false)
	fl.StringVarP(&out, "output", "o", "", "write the predictions (CSV) to this file (-: standard output, the default)")
	addSemantics(fl, &sem, semanticsUsage)
	fl.BoolVar(&explain, "explain", false, "add the level and the rules that decide each row")
	fl.StringSliceVar(&keep, "keep", nil, "copy these columns of the table (an identifier) into the predictions, after the line")
	fl.BoolVar(&degrees, "degrees", false, "add the degree of each row's class (its necessity given the row) and of every class")
	fl.BoolVar(&asJSON, "json", false, "print the predictions as JSON")
	return cmd
}

// theoryError names the theory file in an error that is the theory's: it
// has no usable class column.
func theoryError(theory string, err error) error {
	if errors.Is(err, table.ErrClassColumn) {
		if theory == "-" {
			theory = "standard input"
		}
		return fmt.Errorf("%s: %w", theory, err)
	}
	return err
}

func loadTheoryAndTable(cmd *cobra.Command, theory string, tf *tableFlags) (*possibilistic.Theory, *table.Table, error) {
	if theory == "-" && tf.file == "-" {
		return nil, nil, usageError{errors.New("the theory and the table cannot both be standard input")}
	}
	th, err := loadTheory(cmd, theory, &logic.Vocabulary{})
	if err != nil {
		return nil, nil, err
	}
	o := tf.readOptions()
	o.Numeric = table.NumericColumns(th.Vocab)
	t, err := readTableFile(cmd, tf.file, o)
	if err != nil {
		return nil, nil, err
	}
	return th, t, nil
}

// writePredictions writes the predictions as CSV: the line, the kept
// columns, the class, with degrees its degree and one per class, with
// explain the level and the rules.
func writePredictions(w io.Writer, preds []table.Prediction, keep []string, explain bool) error {
	cw := csv.NewWriter(w)
	head := append(append([]string{"line"}, keep...), "predicted")
	if len(preds) > 0 && preds[0].Degrees != nil {
		head = append(head, "degree")
		for _, d := range preds[0].Degrees {
			head = append(head, "degree:"+d.Class)
		}
	}
	if explain {
		head = append(head, "level", "rules", "entailed", "against")
	}
	cw.Write(head)
	for _, p := range preds {
		rec := append(append([]string{fmt.Sprint(p.Line)}, p.Kept...), p.Class)
		if p.Degrees != nil {
			rec = append(rec, possibilistic.FormatWeight(p.Degree))
			for _, d := range p.Degrees {
				rec = append(rec, possibilistic.FormatWeight(d.Necessity))
			}
		}
		if explain && p.Why != nil {
			rec = append(rec, possibilistic.FormatWeight(p.Why.Level), strings.Join(p.Why.Rules, "; "), strings.Join(p.Why.Entailed, "; "),
				strings.Join(p.Why.Against, "; "))
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// evalTable is strata eval THEORY --table.
func evalTable(cmd *cobra.Command, theory string, tf *tableFlags, sem possibilistic.Semantics, asJSON bool) error {
	th, t, err := loadTheoryAndTable(cmd, theory, tf)
	if err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	c, err := table.Evaluate(ctx, th, t, table.PredictOptions{Semantics: sem, Label: tf.label})
	if err != nil {
		return theoryError(theory, err)
	}
	w := cmd.OutOrStdout()
	if asJSON {
		return writeJSON(w, tableEvalJSON{Table: t.Name, Semantics: sem.String(), Confusion: jsonview.NewConfusion(c)})
	}
	fmt.Fprintf(w, "accuracy: %.4f\nmacro-F1: %.4f\nrows: %d, right: %d\n\n", c.Accuracy(), c.MacroF1(), c.Total(), c.Correct())
	return c.Write(w)
}

// tableEvalJSON is strata eval --table --json: the table and the
// semantics, then the confusion table of one class per row with its scores
// (accuracy, macro_f1, rows, right, labels, counts), the view crowd eval
// --json and a table run of the server give too.
type tableEvalJSON struct {
	Table     string `json:"table"`
	Semantics string `json:"semantics"`
	*jsonview.Confusion
}
