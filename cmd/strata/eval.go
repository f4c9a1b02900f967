package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newEvalCmd) }

func newEvalCmd() *cobra.Command {
	var pos, neg, hard string
	var sem possibilistic.Semantics
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
per-level table only counts formulas.`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pos == "" || neg == "" {
				return usageError{errors.New("eval needs --pos and --neg")}
			}
			v := &logic.Vocabulary{}
			th, err := loadTheory(cmd, args[0], v)
			if err != nil {
				return err
			}
			if hard != "" {
				// The reasoner names subformulas itself: no clausal form here.
				fs, err := readFormulaFile(cmd, v, hard)
				if err != nil {
					return err
				}
				if err := learn.CheckHard(v, fs); err != nil {
					return fmt.Errorf("--hard %s: %w", hard, err)
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
			return evaluate(cmd.Context(), cmd.OutOrStdout(), th, rules[0], rules[1], sem)
		},
	}
	cmd.Flags().StringVar(&pos, "pos", "", "positive examples (defaults)")
	cmd.Flags().StringVar(&neg, "neg", "", "negative examples (non-defaults)")
	cmd.Flags().StringVar(&hard, "hard", "", "hard rules to add at weight 1")
	cmd.Flags().TextVar(&sem, "semantics", possibilistic.Poss, semanticsUsage)
	return cmd
}

type levelStats struct{ decidesPos, decidesNeg, drowned int }

// evaluate scores th under sem and counts per level the covered examples it
// decides and the examples whose evidence sets it aside (drowns it, under
// poss).
func evaluate(ctx context.Context, w io.Writer, th *possibilistic.Theory, pos, neg []logic.Rule, sem possibilistic.Semantics) error {
	rs, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		return err
	}
	stats := make(map[float64]*levelStats)
	for _, l := range th.Levels {
		stats[l.Weight] = &levelStats{}
	}
	var tp, fn, fp, tn int
	for i, set := range [][]logic.Rule{pos, neg} {
		for _, r := range set {
			vd, err := rs.Decide(ctx, sem, r.Antecedent, r.Consequent)
			if err != nil {
				return err
			}
			for _, j := range vd.SetAside {
				stats[th.Levels[j].Weight].drowned++
			}
			switch {
			case vd.Entailed && i == 0:
				tp++
			case vd.Entailed:
				fp++
			case i == 0:
				fn++
			default:
				tn++
			}
			if s, ok := stats[vd.Necessity]; ok && vd.Entailed {
				if i == 0 {
					s.decidesPos++
				} else {
					s.decidesNeg++
				}
			}
		}
	}
	if err := writeConfusion(w, tp, fn, fp, tn); err != nil {
		return err
	}
	what := "drowns it"
	if sem != possibilistic.Poss {
		what = "sets it aside (" + sem.String() + ")"
	}
	fmt.Fprintln(w, "per level, highest first: formulas; covered examples it decides (positive, negative); examples whose evidence "+what)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "weight\tformulas\tdecides +\tdecides -\tdrowned\t")
	for _, l := range th.Levels {
		s := stats[l.Weight]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", possibilistic.FormatWeight(l.Weight), len(l.Formulas), s.decidesPos, s.decidesNeg, s.drowned)
	}
	return tw.Flush()
}

// writeConfusion prints the accuracy line, the confusion counts and
// precision and recall.
func writeConfusion(w io.Writer, tp, fn, fp, tn int) error {
	total := tp + fn + fp + tn
	if total == 0 {
		return errors.New("eval: no examples")
	}
	fmt.Fprintf(w, "accuracy: %.4f\n", float64(tp+tn)/float64(total))
	fmt.Fprintf(w, "examples: %d (%d positive, %d negative)\n\n", total, tp+fn, fp+tn)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tcovered\tnot covered\t")
	fmt.Fprintf(tw, "positive\t%d\t%d\t\n", tp, fn)
	fmt.Fprintf(tw, "negative\t%d\t%d\t\n", fp, tn)
	tw.Flush()
	fmt.Fprintf(w, "precision %.4f  recall %.4f\n\n", ratio(tp, tp+fp), ratio(tp, tp+fn))
	return nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
