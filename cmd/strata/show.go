package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newShowCmd) }

func newShowCmd() *cobra.Command {
	var asJSON, simplify bool
	cmd := &cobra.Command{
		Use:   "show THEORY",
		Short: "Print a theory's levels, inconsistency level and size",
		Long: `show prints a theory highest level first, preceded by comment lines giving its
size and inconsistency level, so that the output is itself a theory file.
--simplify first removes drowned levels, simplifies by unit propagation and
removes implied formulas (none of which changes any answer of query).`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			th, err := loadTheory(cmd, args[0], &logic.Vocabulary{})
			if err != nil {
				return err
			}
			if simplify {
				th = th.Simplify()
			}
			w := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(th)
			}
			nf, nl := th.Size()
			fmt.Fprintf(w, "# %d formulas in %d levels, %d literals over %d atoms\n", nf, len(th.Levels), nl, len(atomsOf(th)))
			fmt.Fprintf(w, "# inconsistency level: %s\n", possibilistic.FormatWeight(th.Inconsistency()))
			return th.WriteText(w)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the theory as JSON")
	cmd.Flags().BoolVar(&simplify, "simplify", false, "simplify the theory first, keeping every entailment")
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
