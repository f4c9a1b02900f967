package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newEvalCmd) }

func newEvalCmd() *cobra.Command {
	var pos, neg, hard string
	var sem possibilistic.Semantics
	var tf tableFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "eval THEORY --pos P --neg N [--hard H]",
		Short: "Score a theory on positive and negative defaults",
		Long: `eval classifies each default α |~ β as positive when the theory covers it,
(Θ, α) ⊢poss β, and compares with the labels. The first line is
"accuracy: 0.8250" for scripts; then come the confusion counts and, per level,
how many covered examples that level decides (the highest level at which the
example is entailed) and how many examples have evidence that drowns it.
--hard adds hard rules at weight 1.

--semantics linear or lex decides coverage under that semantics instead (the
theory must then be made of clauses and the defaults must have a conjunction
of literals before the arrow and a clause after it); nothing drowns, so the
per-level table only counts formulas.

--json prints the same as POST /api/eval answers: the accuracy, the
confusion counts, precision and recall, and the per-level counts.

--table FILE scores a theory over a table's comparison atoms (as strata
learn --table writes it) on the rows of a table instead (CSV, TSV, ARFF or
Parquet, gzip-compressed or not: see --table-format): each row's
predicted class is the one the theory entails from its values (strata
predict), and eval prints the accuracy, the macro-F1 and the confusion table
of the predictions against the class column (--label, by default the one the
theory's hard rules name); with --json, the same as one JSON object.`,
		Example: `  strata eval learned.theory --pos examples/animals/test.defaults --neg examples/animals/test.nondefaults
  strata eval calls.theory --pos calls/test.defaults --neg calls/test.nondefaults --hard calls/hard.rules --json
  strata eval examples/loans.theory --table examples/loans.csv`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if tf.file != "" {
				return evalTable(cmd, args[0], &tf, sem, asJSON) // table.go
			}
			if pos == "" || neg == "" {
				return usageError{errors.New("eval needs --pos and --neg, or --table")}
			}
			v := &logic.Vocabulary{}
			th, err := loadTheory(cmd, args[0], v)
			if err != nil {
				return err
			}
			if hard != "" {
				// The reasoner names subformulas itself: no clausal form here.
				fs, err := readHardFile(cmd, v, hard)
				if err != nil {
					return err
				}
				for _, f := range fs {
					th.Add(f, 1)
				}
			}
			var rules [2][]logic.Rule
			for i, path := range []string{pos, neg} {
				if rules[i], err = readRuleFile(cmd, v, path); err != nil {
					return err
				}
			}
			if len(rules[0])+len(rules[1]) == 0 {
				return noExamples("", "--pos", pos, "--neg", neg)
			}
			return evaluate(cmd.Context(), cmd.OutOrStdout(), th, rules[0], rules[1], sem, asJSON)
		},
	}
	cmd.Flags().StringVar(&pos, "pos", "", "positive examples (defaults)")
	cmd.Flags().StringVar(&neg, "neg", "", "negative examples (non-defaults)")
	cmd.Flags().StringVar(&hard, "hard", "", "hard rules to add at weight 1")
	addSemantics(cmd.Flags(), &sem, semanticsUsage)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the evaluation as JSON")
	addTableFlags(cmd.Flags(), &tf, false)
	return cmd
}

// noExamples is the error of example files that hold no example, naming
// them: what ("training", "test" or "") examples, the flags and the files.
func noExamples(what, posFlag, pos, negFlag, neg string) error {
	if what != "" {
		what += " "
	}
	return fmt.Errorf("no %sexamples: %s %s and %s %s hold none (only blank lines and comments)", what, posFlag, pos, negFlag, neg)
}

// evaluate scores th under sem (eval.Defaults) and prints the confusion
// counts and, per level, the covered examples it decides and the examples
// whose evidence sets it aside (drowns it, under poss).
func evaluate(ctx context.Context, w io.Writer, th *possibilistic.Theory, pos, neg []logic.Rule, sem possibilistic.Semantics, asJSON bool) error {
	r, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		return err
	}
	b, err := eval.Defaults(ctx, r, sem, pos, neg)
	if err != nil {
		return err
	}
	if asJSON {
		if b.Examples() == 0 {
			return errors.New("eval: no examples")
		}
		return writeJSON(w, jsonview.NewEval(th, sem, b))
	}
	if err := writeConfusion(w, b); err != nil {
		return err
	}
	what := "drowns it"
	if sem != possibilistic.Poss {
		what = "sets it aside (" + sem.String() + ")"
	}
	fmt.Fprintln(w, "per level, highest first: formulas; covered examples it decides (positive, negative); examples whose evidence "+what)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "weight\tformulas\tdecides +\tdecides -\t"+setAsideHeading(sem)+"\t")
	for i, l := range th.Levels {
		s := b.Levels[i]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", possibilistic.FormatWeight(l.Weight), len(l.Formulas), s.DecidesPos, s.DecidesNeg, s.SetAside)
	}
	return tw.Flush()
}

// setAsideHeading names the column of eval.Level.SetAside: drowned under
// poss, set aside otherwise.
func setAsideHeading(sem possibilistic.Semantics) string {
	if sem == possibilistic.Poss {
		return "drowned"
	}
	return "set aside"
}

// writeConfusion prints the accuracy line, the confusion counts and
// precision and recall.
func writeConfusion(w io.Writer, b *eval.Binary) error {
	if b.Examples() == 0 {
		return errors.New("eval: no examples")
	}
	fmt.Fprintf(w, "accuracy: %.4f\n", b.Accuracy())
	fmt.Fprintf(w, "examples: %d (%d positive, %d negative)\n\n", b.Examples(), b.TruePositives+b.FalseNegatives, b.FalsePositives+b.TrueNegatives)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tcovered\tnot covered\t")
	fmt.Fprintf(tw, "positive\t%d\t%d\t\n", b.TruePositives, b.FalseNegatives)
	fmt.Fprintf(tw, "negative\t%d\t%d\t\n", b.FalsePositives, b.TrueNegatives)
	tw.Flush()
	fmt.Fprintf(w, "precision %.4f  recall %.4f\n\n", b.Precision(), b.Recall())
	return nil
}
