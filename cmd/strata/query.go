package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newQueryCmd) }

func newQueryCmd() *cobra.Command {
	var given string
	cmd := &cobra.Command{
		Use:   "query THEORY [QUERY]",
		Short: "Decide (Θ, α) ⊢poss β, or list the plausible conclusions of α",
		Long: `query decides whether a theory entails a default rule: (Θ, α) ⊢poss β, i.e.
β follows from α and the formulas above the inconsistency level of Θ ∪ {(α, 1)}.
The first line of output is "yes" or "no" alone, for scripts; the next line
names the level that decides the answer.

QUERY is a default rule such as 'penguin -> !flies' or 'bird, red |~ flies', or a
plain formula φ for Θ ⊢poss φ. With --given α instead of a QUERY, query lists
every literal entailed given α, with its necessity degree. THEORY is a file in
the text format ("WEIGHT: FORMULA" lines) or - for standard input.`,
		Example: `  strata query penguin.theory 'penguin -> !flies'
  strata query penguin.theory --given 'penguin, red'`,
		Args: argsBetween(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := &logic.Vocabulary{}
			th, err := loadTheory(cmd, args[0], v)
			if err != nil {
				return err
			}
			switch {
			case len(args) == 2 && cmd.Flags().Changed("given"):
				return usageError{errors.New("give either a QUERY or --given, not both")}
			case len(args) == 2:
				rule, err := parseQuery(v, args[1])
				if err != nil {
					return err
				}
				return printVerdict(cmd.OutOrStdout(), v, possibilistic.NewReasoner(th), rule)
			case cmd.Flags().Changed("given"):
				alpha, err := logic.ParseEvidence(v, given)
				if err != nil {
					return fmt.Errorf("--given: %w", err)
				}
				return printConclusions(cmd.OutOrStdout(), v, possibilistic.NewReasoner(th), alpha)
			}
			return usageError{errors.New("query needs a QUERY or --given")}
		},
	}
	cmd.Flags().StringVar(&given, "given", "", "list the plausible conclusions of this evidence (literals separated by ',')")
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

func printVerdict(w io.Writer, v *logic.Vocabulary, rs *possibilistic.Reasoner, rule logic.Rule) error {
	vd := rs.Decide(rule.Antecedent, rule.Consequent)
	beta := rule.Consequent.String(v)
	inc := possibilistic.FormatWeight(vd.Inconsistency)
	subject := func(formulas string) string {
		if rule.Antecedent.Op == logic.OpTrue {
			return "the formulas " + formulas
		}
		return rule.Antecedent.String(v) + ", with the formulas " + formulas + ","
	}
	switch {
	case vd.Entailed:
		n := possibilistic.FormatWeight(vd.Necessity)
		verb := " entail "
		if rule.Antecedent.Op != logic.OpTrue {
			verb = " entails "
		}
		fmt.Fprintf(w, "yes\nlevel %s: %s%s%s (inconsistency level %s)\n", n, subject("of weight >= "+n), verb, beta, inc)
	case vd.Inconsistency == 1:
		fmt.Fprintf(w, "no\n%s contradicts the formulas of weight 1, so only tautologies follow (inconsistency level 1)\n",
			rule.Antecedent.String(v))
	default:
		verb := " do not entail "
		if rule.Antecedent.Op != logic.OpTrue {
			verb = " does not entail "
		}
		fmt.Fprintf(w, "no\n%s%s%s\n", subject("above the inconsistency level "+inc), verb, beta)
	}
	return nil
}

func printConclusions(w io.Writer, v *logic.Vocabulary, rs *possibilistic.Reasoner, alpha *logic.Formula) error {
	inc := rs.Inconsistency(alpha)
	lits := rs.Conclusions(alpha)
	fmt.Fprintf(w, "plausible conclusions given %s (inconsistency level %s):\n", alpha.String(v), possibilistic.FormatWeight(inc))
	if len(lits) == 0 {
		fmt.Fprintln(w, "  none: the evidence contradicts the formulas of weight 1")
		return nil
	}
	width := 0
	for _, l := range lits {
		width = max(width, len(v.LitString(l)))
	}
	for _, l := range lits {
		n := rs.Necessity(alpha, logic.LitF(l))
		fmt.Fprintf(w, "  %-*s  necessity %s\n", width, v.LitString(l), possibilistic.FormatWeight(n))
	}
	return nil
}
