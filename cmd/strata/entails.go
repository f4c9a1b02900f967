package main

import (
	"bufio"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/logic"
)

func init() { register(newEntailsCmd) }

func newEntailsCmd() *cobra.Command {
	var flags baseFlags
	var semantics, queries string
	cmd := &cobra.Command{
		Use:   "entails RULES [QUERY]",
		Short: "Decide whether a default base entails α |~ β under System P, rational or lexicographic closure",
		Long: `entails decides whether a consistent set of defaults entails the default QUERY:

  --semantics p         System P (p-entailment): Δ ∪ {α |~ ¬β} is inconsistent;
                        the cautious core every rational reasoner accepts
  --semantics rational  rational closure / System Z: (Θ_Z, α) ⊢poss β (default)
  --semantics lex       lexicographic closure: β holds in the α-worlds that violate
                        the fewest defaults, Z-level by Z-level from the top; it
                        keeps the defaults an exception does not contradict

The first line of output is "yes" or "no" alone, for scripts; the next lines say
why. QUERY is a default: 'penguin -> !flies', 'bird, red |~ flies', ' -> bird',
or a conditional '(!f|p)' in the .cl syntax. With --queries FILE instead, every
query of FILE (a .clq file, or a rule file) is decided, one "yes" or "no" per
line, a tab, and the query as written.

RULES is a rule file, a .cl knowledge base or - for standard input (see
'strata help closure'). A query whose antecedent contradicts the background
knowledge is entailed in every semantics.`,
		Example: `  strata entails --semantics lex penguins.rules 'penguin -> wings'
  strata entails --semantics p birds.cl '(b|p)'
  strata entails --semantics rational birds.cl --queries birds.clq`,
		Args: argsBetween(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			sem, err := defaults.ParseSemantics(semantics)
			if err != nil {
				return usageError{fmt.Errorf("--semantics: %w", err)}
			}
			switch {
			case len(args) == 2 && queries != "":
				return usageError{errors.New("give either a QUERY or --queries, not both")}
			case len(args) == 1 && queries == "":
				return usageError{errors.New("entails needs a QUERY or --queries")}
			case args[0] == "-" && queries == "-":
				return usageError{errors.New("RULES and --queries cannot both be standard input")}
			}
			b, err := loadBase(cmd, args[0], flags)
			if err != nil {
				return err
			}
			var qs []defaults.Default
			if queries != "" {
				if qs, err = loadQueries(cmd, queries, b.Vocab); err != nil {
					return err
				}
			} else {
				q, err := parseDefault(b.Vocab, args[1])
				if err != nil {
					return fmt.Errorf("query: %w", err)
				}
				qs = []defaults.Default{q}
			}
			rs, err := defaults.NewReasoner(b)
			if err != nil {
				return err
			}
			w := bufio.NewWriter(cmd.OutOrStdout())
			if queries == "" {
				a := rs.Explain(sem, qs[0])
				fmt.Fprintf(w, "%s\n%s\n", yesNo(a.Entailed), a.Reason())
				return w.Flush()
			}
			for _, q := range qs {
				fmt.Fprintf(w, "%s\t%s\n", yesNo(rs.Entails(sem, q.Antecedent, q.Consequent)), q.Text)
			}
			return w.Flush()
		},
	}
	flags.add(cmd)
	cmd.Flags().StringVar(&semantics, "semantics", "rational", "p, rational or lex")
	cmd.Flags().StringVar(&queries, "queries", "", "decide every query of this file (.clq, or one rule per line) instead of QUERY")
	return cmd
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// parseDefault reads a query: a rule or a .cl conditional (defaults.ParseQuery).
func parseDefault(v *logic.Vocabulary, src string) (defaults.Default, error) {
	return defaults.ParseQuery(v, src)
}

// loadQueries reads a .clq file, or a rule file of queries.
func loadQueries(cmd *cobra.Command, path string, v *logic.Vocabulary) ([]defaults.Default, error) {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if strings.EqualFold(filepath.Ext(path), ".clq") {
		return defaults.ReadCLQ(r, name, v)
	}
	return defaults.ReadRules(r, name, v)
}
