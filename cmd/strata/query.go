package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newQueryCmd) }

func newQueryCmd() *cobra.Command {
	var given string
	var sem possibilistic.Semantics
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "query THEORY [QUERY]",
		Short: "Decide (Θ, α) ⊢poss β and say why, or list the plausible conclusions of α",
		Long: `query decides whether a theory entails a default rule: (Θ, α) ⊢poss β, i.e.
β follows from α and the formulas above the inconsistency level of Θ ∪ {(α, 1)}.
The first line of output is "yes" or "no" alone, for scripts; the next line
names the level that decides the answer (by its weight, as the theory file
shows it), the next what the evidence set aside, and the last the formulas
that entail β (a minimal set) or a preferred world where β fails. The server's
explanations say the same, in the same words.

--semantics linear keeps, from the top down, every level consistent with α and
the levels kept so far instead of drowning all levels at or below the
inconsistency level; --semantics lex keeps as many formulas of each level as it
can, from the top down.

QUERY is a default rule such as 'penguin -> !flies' or 'bird, red |~ flies', or a
plain formula φ for Θ ⊢poss φ. With --given α instead of a QUERY, query lists
every literal entailed given α, with its necessity degree. THEORY is a file in
the text format ("WEIGHT: FORMULA" lines) or - for standard input.

--json prints the answer as POST /api/query does (with --given, as POST
/api/conclusions does): levels are numbered from 0, the highest.`,
		Example: `  strata query examples/penguin.theory 'penguin -> !flies'
  strata query examples/penguin.theory --given 'penguin, red'
  strata query --semantics lex examples/wings.theory 'penguin -> wings' --json`,
		Args: argsBetween(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 2 && cmd.Flags().Changed("given"):
				return usageError{errors.New("give either a QUERY or --given, not both")}
			case len(args) == 1 && !cmd.Flags().Changed("given"):
				return usageError{errors.New("query needs a QUERY or --given")}
			}
			ctx := cmd.Context()
			v := &logic.Vocabulary{}
			th, err := loadTheory(cmd, args[0], v)
			if err != nil {
				return err
			}
			rs, err := possibilistic.NewReasoner(ctx, th)
			if err != nil {
				return err
			}
			if len(args) == 2 {
				rule, err := parseQuery(v, args[1])
				if err != nil {
					return err
				}
				if asJSON {
					e, err := rs.Explain(ctx, sem, rule.Antecedent, rule.Consequent)
					if err != nil {
						return err
					}
					return writeJSON(cmd.OutOrStdout(), answerJSON(v, args[1], e))
				}
				return printExplanation(ctx, cmd.OutOrStdout(), rs, sem, rule)
			}
			alpha, err := logic.ParseEvidence(v, given)
			if err != nil {
				return fmt.Errorf("--given: %w", err)
			}
			if asJSON {
				c, err := jsonview.Conclude(ctx, rs, v, sem, alpha)
				if err != nil {
					return err
				}
				return writeJSON(cmd.OutOrStdout(), c)
			}
			return printConclusions(ctx, cmd.OutOrStdout(), v, rs, sem, alpha)
		},
	}
	cmd.Flags().StringVar(&given, "given", "", "list the plausible conclusions of this evidence (literals separated by ',')")
	addSemantics(cmd.Flags(), &sem, "how evidence that clashes with the theory is handled: poss (drowning), linear or lex")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the answer as JSON")
	return cmd
}

// parseQuery reads a default rule, or a plain formula as the rule true |~ φ.
func parseQuery(v *logic.Vocabulary, src string) (logic.Rule, error) {
	rule, err := logic.ParseQuery(v, src)
	if err != nil {
		return logic.Rule{}, fmt.Errorf("query: %w", err)
	}
	return rule, nil
}

// printExplanation answers a query: yes or no, then why, in the words of
// possibilistic.Explanation.Reason.
func printExplanation(ctx context.Context, w io.Writer, rs *possibilistic.Reasoner, sem possibilistic.Semantics, rule logic.Rule) error {
	e, err := rs.Explain(ctx, sem, rule.Antecedent, rule.Consequent)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n%s\n", jsonview.YesNo(e.Entailed), e.Reason())
	return err
}

// printConclusions lists the plausible conclusions of α under sem with
// their necessity degrees.
func printConclusions(ctx context.Context, w io.Writer, v *logic.Vocabulary, rs *possibilistic.Reasoner, sem possibilistic.Semantics, alpha *logic.Formula) error {
	inc, err := rs.Inconsistency(ctx, alpha)
	if err != nil {
		return err
	}
	cs, err := rs.Conclude(ctx, sem, alpha)
	if err != nil {
		return err
	}
	under := ""
	if sem != possibilistic.Poss {
		under = " under " + sem.String()
	}
	fmt.Fprintf(w, "plausible conclusions given %s%s (inconsistency level %s):\n", alpha.String(v), under, possibilistic.FormatWeight(inc))
	switch {
	case len(cs) == 0 && inc == 1:
		// Why α has no world of positive possibility: the verdict on
		// α |~ ⊥ says, in the words of every other answer.
		e, err := rs.Explain(ctx, sem, alpha, logic.False())
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  none: %s\n", e.Reason())
		return nil
	case len(cs) == 0:
		fmt.Fprintln(w, "  none: no literal follows")
		return nil
	}
	width := 0
	for _, c := range cs {
		width = max(width, len(v.LitString(c.Lit)))
	}
	for _, c := range cs {
		fmt.Fprintf(w, "  %-*s  necessity %s\n", width, v.LitString(c.Lit), possibilistic.FormatWeight(c.Necessity))
	}
	return nil
}
