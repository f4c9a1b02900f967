package main

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

//go:embed examples/penguin.theory
var penguinTheory string

func init() { register(newDemoCmd) }

// demoQueries are the paper's queries that demo asks, and demoGiven the
// evidence whose conclusions it lists.
var demoQueries = []string{"bird -> flies", "penguin -> !flies", "penguin -> bird", "bird, red -> flies", "penguin -> flies"}

const demoGiven = "penguin"

func newDemoCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "demo [--json]",
		Short: "Reason with the paper's penguin theory (built in)",
		Long: `demo shows the paper's penguin theory and asks it the paper's queries, each
as the strata query command that asks it, with its answer and why. The
theory is built in; strata examples writes it to examples/penguin.theory,
so that the commands shown run as written. --json prints the theory, and
each query with its command and the answer strata query --json gives.`,
		Example: `  strata demo
  strata demo --json`,
		Args: argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			answers, err := demoAnswers(cmd)
			if err != nil {
				return err
			}
			if asJSON {
				return demoJSON(cmd, answers)
			}
			w := cmd.OutOrStdout()
			th, _, rs, err := penguinReasoner(cmd)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "The paper's penguin theory, highest level first (strata examples writes it to examples/penguin.theory):\n\n%s\n", th)
			for _, a := range answers {
				fmt.Fprintf(w, "$ %s\n%s\n%s\n\n", demoCommand(a.query), jsonview.YesNo(a.e.Entailed), a.e.Reason())
			}
			alpha, _ := logic.ParseFormula(th.Vocab, demoGiven)
			fmt.Fprintf(w, "$ strata query examples/penguin.theory --given %s\n", demoGiven)
			return printConclusions(cmd.Context(), w, th.Vocab, rs, possibilistic.Poss, alpha)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the theory, the queries and their answers as JSON")
	return cmd
}

// penguinReasoner reads the built-in penguin theory into a vocabulary of
// its own, as each strata query command the demo shows reads it: an atom
// one query names (red) is then not in the worlds of the next.
func penguinReasoner(cmd *cobra.Command) (*possibilistic.Theory, *logic.Vocabulary, *possibilistic.Reasoner, error) {
	v := &logic.Vocabulary{}
	th, err := possibilistic.ReadText(cmd.Context(), strings.NewReader(penguinTheory), "penguin.theory", v)
	if err != nil {
		return nil, nil, nil, err
	}
	rs, err := possibilistic.NewReasoner(cmd.Context(), th)
	return th, v, rs, err
}

// demoCommand is the strata query command that asks q.
func demoCommand(q string) string { return fmt.Sprintf("strata query examples/penguin.theory '%s'", q) }

// demoView is strata demo --json: the theory as strata show --json gives
// it, each query with its command and the answer strata query --json
// gives, and the conclusions of the evidence as strata query --given
// --json gives them.
type demoView struct {
	File        string           `json:"file"`
	Theory      *jsonview.Theory `json:"theory"`
	Queries     []demoQuery      `json:"queries"`
	Conclusions demoConclusions  `json:"conclusions"`
}

type demoQuery struct {
	Command string           `json:"command"`
	Answer  *jsonview.Answer `json:"answer"`
}

type demoConclusions struct {
	Command string `json:"command"`
	*jsonview.Conclusions
}

// demoAnswer is the answer to one of the demo's queries, with the
// vocabulary it was asked in.
type demoAnswer struct {
	query string
	v     *logic.Vocabulary
	e     possibilistic.Explanation
}

// demoAnswers asks each of the demo's queries of the penguin theory, read
// anew for each.
func demoAnswers(cmd *cobra.Command) ([]demoAnswer, error) {
	var out []demoAnswer
	for _, q := range demoQueries {
		_, v, rs, err := penguinReasoner(cmd)
		if err != nil {
			return nil, err
		}
		rule, err := logic.ParseRule(v, q)
		if err != nil {
			return nil, err
		}
		e, err := rs.Explain(cmd.Context(), possibilistic.Poss, rule.Antecedent, rule.Consequent)
		if err != nil {
			return nil, err
		}
		out = append(out, demoAnswer{query: q, v: v, e: e})
	}
	return out, nil
}

func demoJSON(cmd *cobra.Command, answers []demoAnswer) error {
	ctx := cmd.Context()
	th, v, rs, err := penguinReasoner(cmd)
	if err != nil {
		return err
	}
	tv, err := jsonview.NewTheory(ctx, th)
	if err != nil {
		return err
	}
	out := demoView{File: "examples/penguin.theory", Theory: tv, Queries: []demoQuery{}}
	for _, a := range answers {
		out.Queries = append(out.Queries, demoQuery{Command: demoCommand(a.query), Answer: answerJSON(a.v, a.query, a.e)})
	}
	alpha, _ := logic.ParseFormula(v, demoGiven)
	c, err := jsonview.Conclude(ctx, rs, v, possibilistic.Poss, alpha)
	if err != nil {
		return err
	}
	out.Conclusions = demoConclusions{Command: "strata query examples/penguin.theory --given " + demoGiven, Conclusions: c}
	return writeJSON(cmd.OutOrStdout(), out)
}
