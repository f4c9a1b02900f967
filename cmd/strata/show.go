package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newShowCmd) }

func newShowCmd() *cobra.Command {
	var asJSON, simplify bool
	var sem possibilistic.Semantics
	cmd := &cobra.Command{
		Use:   "show THEORY",
		Short: "Print a theory's levels, inconsistency level and size",
		Long: `show prints a theory highest level first, preceded by comment lines giving its
size and inconsistency level, so that the output is itself a theory file.
--simplify first removes drowned levels, simplifies by unit propagation and
removes implied formulas (none of which changes any answer of query).
With --semantics linear or lex, --simplify keeps every answer of query under
that semantics instead, which allows much less: a level below the
inconsistency level, or a formula that a higher one implies, still counts when
the evidence sets the higher one aside. Only what the formulas of weight 1
imply is simplified.

--json prints the theory as POST /api/theories describes it: its atoms,
its levels highest first ({"weight": 1, "formulas": ["!penguin | bird"]}),
its inconsistency level and its numbers of formulas and literals.`,
		Example: `  strata show examples/penguin.theory
  strata show --simplify learned.theory
  strata show --json examples/penguin.theory`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			th, err := loadTheory(cmd, args[0], &logic.Vocabulary{})
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("semantics") && !simplify {
				return usageError{errors.New("--semantics only applies with --simplify")}
			}
			if simplify {
				if th, err = th.SimplifyUnder(sem); err != nil {
					return err
				}
			}
			w := cmd.OutOrStdout()
			rs, err := possibilistic.NewReasoner(cmd.Context(), th)
			if err != nil {
				return err
			}
			inc, err := rs.Inconsistency(cmd.Context(), logic.True())
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(w, jsonview.DescribeTheory(th, inc))
			}
			nf, nl := th.Size()
			fmt.Fprintf(w, "# %d formulas in %d levels, %d literals over %d atoms\n", nf, len(th.Levels), nl, len(atomsOf(th)))
			fmt.Fprintf(w, "# inconsistency level: %s\n", possibilistic.FormatWeight(inc))
			return th.WriteText(w)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the theory, its size and its inconsistency level as JSON")
	cmd.Flags().BoolVar(&simplify, "simplify", false, "simplify the theory first, keeping every entailment")
	addSemantics(cmd.Flags(), &sem, "with --simplify: the semantics whose answers to keep (poss, linear or lex)")
	return cmd
}

func atomsOf(th *possibilistic.Theory) map[logic.Atom]bool {
	seen := map[logic.Atom]bool{}
	for _, l := range th.Levels {
		for _, f := range l.Formulas {
			for _, a := range f.Atoms() {
				seen[a] = true
			}
		}
	}
	return seen
}
