package main

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

//go:embed examples/penguin.theory
var penguinTheory string

func init() { register(newDemoCmd) }

func newDemoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Reason with the paper's penguin theory (built in)",
		Long: `demo shows the paper's penguin theory and asks it the paper's queries, each
as the strata query command that asks it, with its answer and why. The
theory is built in; strata examples writes it to examples/penguin.theory,
so that the commands shown run as written.`,
		Example: `  strata demo`,
		Args:    argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, w := cmd.Context(), cmd.OutOrStdout()
			v := &logic.Vocabulary{}
			th, err := possibilistic.ReadText(ctx, strings.NewReader(penguinTheory), "penguin.theory", v)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "The paper's penguin theory, highest level first (strata examples writes it to examples/penguin.theory):\n\n%s\n", th)
			rs, err := possibilistic.NewReasoner(ctx, th)
			if err != nil {
				return err
			}
			for _, q := range []string{"bird -> flies", "penguin -> !flies", "penguin -> bird", "bird, red -> flies", "penguin -> flies"} {
				rule, err := logic.ParseRule(v, q)
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "$ strata query examples/penguin.theory '%s'\n", q)
				if err := printExplanation(ctx, w, rs, possibilistic.Poss, rule); err != nil {
					return err
				}
				fmt.Fprintln(w)
			}
			alpha, _ := logic.ParseFormula(v, "penguin")
			fmt.Fprintln(w, "$ strata query examples/penguin.theory --given penguin")
			return printConclusions(ctx, w, v, rs, possibilistic.Poss, alpha)
		},
	}
}
