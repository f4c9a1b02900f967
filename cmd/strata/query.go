package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newQueryCmd) }

func newQueryCmd() *cobra.Command {
	var given string
	var sem possibilistic.Semantics
	cmd := &cobra.Command{
		Use:   "query THEORY [QUERY]",
		Short: "Decide (Θ, α) ⊢poss β, or list the plausible conclusions of α",
		Long: `query decides whether a theory entails a default rule: (Θ, α) ⊢poss β, i.e.
β follows from α and the formulas above the inconsistency level of Θ ∪ {(α, 1)}.
The first line of output is "yes" or "no" alone, for scripts; the next line
names the level that decides the answer.

--semantics linear keeps, from the top down, every level consistent with α and
the levels kept so far instead of drowning all levels at or below the
inconsistency level; --semantics lex keeps as many formulas of each level as it
can, from the top down. Under both, the next lines say what the evidence set
aside and which formulas entail β (or a preferred world where β fails).

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
				if sem != possibilistic.Poss {
					return printExplanation(cmd.OutOrStdout(), th, possibilistic.NewReasoner(th), sem, rule)
				}
				return printVerdict(cmd.OutOrStdout(), v, possibilistic.NewReasoner(th), rule)
			case cmd.Flags().Changed("given"):
				alpha, err := logic.ParseEvidence(v, given)
				if err != nil {
					return fmt.Errorf("--given: %w", err)
				}
				return printConclusionsUnder(cmd.OutOrStdout(), v, possibilistic.NewReasoner(th), sem, alpha)
			}
			return usageError{errors.New("query needs a QUERY or --given")}
		},
	}
	cmd.Flags().StringVar(&given, "given", "", "list the plausible conclusions of this evidence (literals separated by ',')")
	cmd.Flags().TextVar(&sem, "semantics", possibilistic.Poss, "how evidence that clashes with the theory is handled: poss (drowning), linear or lex")
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
		fmt.Fprintf(w, "no\n%s, so only tautologies follow (inconsistency level 1)\n", impossible(v, rule.Antecedent))
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
	return printConclusionsUnder(w, v, rs, possibilistic.Poss, alpha)
}

func printConclusionsUnder(w io.Writer, v *logic.Vocabulary, rs *possibilistic.Reasoner, sem possibilistic.Semantics, alpha *logic.Formula) error {
	inc := rs.Inconsistency(alpha)
	cs := rs.ConcludeUnder(sem, alpha)
	under := ""
	if sem != possibilistic.Poss {
		under = " under " + sem.String()
	}
	fmt.Fprintf(w, "plausible conclusions given %s%s (inconsistency level %s):\n", alpha.String(v), under, possibilistic.FormatWeight(inc))
	switch {
	case len(cs) == 0 && inc == 1:
		fmt.Fprintf(w, "  none: %s\n", impossible(v, alpha))
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

// printExplanation answers a query under linear or lex: yes or no, the
// deciding level, what the evidence set aside, and the formulas that entail
// β or a preferred world where it fails.
func printExplanation(w io.Writer, th *possibilistic.Theory, rs *possibilistic.Reasoner, sem possibilistic.Semantics, rule logic.Rule) error {
	v := th.Vocab
	e := rs.Explain(sem, rule.Antecedent, rule.Consequent)
	alpha, beta := rule.Antecedent.String(v), rule.Consequent.String(v)
	weight := func(j int) string { return possibilistic.FormatWeight(th.Levels[j].Weight) }
	if len(e.SetAside) == len(th.Levels) && len(th.Levels) > 0 && e.Inconsistency == 1 {
		fmt.Fprintf(w, "%s\n%s, so only tautologies follow\n", yesNo(e.Entailed), impossible(v, rule.Antecedent))
		return nil
	}
	if e.Entailed {
		fmt.Fprintf(w, "yes\nlevel %s: %s, with the formulas of weight >= %s that %s keeps, entails %s (inconsistency level %s)\n",
			possibilistic.FormatWeight(e.Necessity), alpha, possibilistic.FormatWeight(e.Necessity), sem, beta, possibilistic.FormatWeight(e.Inconsistency))
	} else {
		fmt.Fprintf(w, "no\n%s, with the formulas %s keeps, does not entail %s (inconsistency level %s)\n",
			alpha, sem, beta, possibilistic.FormatWeight(e.Inconsistency))
	}
	var aside []string
	if sem == possibilistic.Lex {
		for _, f := range e.Formulas {
			aside = append(aside, weight(f.Level)+": "+f.Formula.String(v))
		}
	} else {
		for _, j := range e.SetAside {
			aside = append(aside, "level "+weight(j))
		}
	}
	if len(aside) == 0 {
		aside = []string{"nothing"}
	}
	fmt.Fprintf(w, "set aside by the evidence: %s\n", strings.Join(aside, "; "))
	switch {
	case e.Entailed && len(e.Support) > 0:
		var sup []string
		for _, f := range e.Support {
			sup = append(sup, weight(f.Level)+": "+f.Formula.String(v))
		}
		fmt.Fprintf(w, "because %s with %s entails %s\n", alpha, strings.Join(sup, "; "), beta)
	case e.Entailed:
		fmt.Fprintf(w, "because %s alone entails %s\n", alpha, beta)
	case e.Counter != nil:
		fmt.Fprintf(w, "counter-example, a preferred world: %s\n", worldText(v, e.Counter))
	}
	return nil
}

// worldText lists a world's literals over the vocabulary.
func worldText(v *logic.Vocabulary, w []bool) string {
	lits := make([]string, len(w))
	for a, val := range w {
		lits[a] = v.LitString(logic.MkLit(logic.Atom(a), !val))
	}
	return strings.Join(lits, ", ")
}

// impossible says why evidence α of inconsistency level 1 leaves no
// plausible world: α is contradictory in itself, or it contradicts the
// formulas of weight 1. The two call for different fixes (the query or the
// theory), so the message names the one that applies.
func impossible(v *logic.Vocabulary, alpha *logic.Formula) string {
	if possibilistic.NewReasoner(possibilistic.New(v)).Inconsistency(alpha) == 1 {
		return alpha.String(v) + " is contradictory"
	}
	return alpha.String(v) + " contradicts the formulas of weight 1"
}
