package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newClosureCmd) }

// baseFlags are the options shared by closure and entails for reading a
// default base.
type baseFlags struct {
	format, base, background string
	weak                     bool
}

// baseFormats are the formats of a default base that --format names.
var baseFormats = []string{"auto", "rules", "cl"}

func (f *baseFlags) add(cmd *cobra.Command) {
	addFormat(cmd.Flags(), &f.format, baseFormats, "format of RULES: rules (one default per line), cl (a .cl knowledge base) or auto (cl for a .cl name or a file that begins with 'signature')")
	cmd.Flags().StringVar(&f.base, "base", "", "the belief base to use when a .cl file holds several")
	cmd.Flags().StringVar(&f.background, "hard", "", "a file of hard rules, the background knowledge (one clause or formula per line) that holds in every world; --background is another name")
	alias(cmd.Flags(), "background", "hard", false)
	cmd.Flags().BoolVar(&f.weak, "weak", false, "accept a weakly consistent base: the defaults no level takes (Δ^∞) make their antecedents impossible")
}

func newClosureCmd() *cobra.Command {
	var flags baseFlags
	var out, ocf string
	var ranks, asJSON bool
	cmd := &cobra.Command{
		Use:   "closure RULES",
		Short: "Print the Z-ordering of a default base and its possibilistic theory Θ_Z",
		Long: `closure computes the Z-ordering Δ1, ..., Δk of a consistent set of defaults
(Δ1: the defaults tolerated by all of them; Δ2: those tolerated by the rest; ...)
and prints it as comment lines, followed by the possibilistic theory Θ_Z in the
theory format: the material counterpart !α | β of every default of Δj at weight
j/(k+1) (rounded to a few decimals), and the background knowledge at weight 1. The output is a theory file:
strata query on it decides rational closure, for every antecedent consistent
with the background knowledge. An antecedent that contradicts it entails
every consequent under rational closure (as strata entails answers), and only
tautologies under possibilistic entailment (as strata query answers, saying so).

RULES is a file of defaults, one per line ('bird -> flies', 'penguin |~ !flies'),
or a .cl knowledge base ('signature ... conditionals kb{ (f|b), (!f|p) }'), or -
for standard input. An inconsistent base is reported with a minimal set of
defaults that clash.

With --ranks, closure prints the ranking functions (OCFs) of the base
instead: κ_Z of System Z (the Z-rank of every default, j for Δj, as --json
gives it; κ_Z(ω) is 0, or the highest Z-rank of a default ω falsifies) and a
minimal c-representation κ_c (the impact of every default, least in sum;
κ_c(ω) sums the impacts of the defaults ω falsifies), and, for at most 12
atoms, the rank of every world under both (∞ for worlds the background
knowledge excludes). --ocf z or c prints one of them.

-o FILE writes the output to FILE instead of standard output. --json prints
the result on standard output as JSON (and -o FILE still receives the
text): the Z-ordering and Θ_Z with the field names of POST /api/bases
(z_ordering, defaults with their lines and ranks, theory), or with --ranks
the ranking functions as POST /api/ranks gives them (atoms, defaults with
their Z-rank and impact, worlds with their ranks z and c; with --ocf, the
other function's fields are left out).`,
		Example: `  strata closure examples/penguins.rules
  strata closure examples/birds.cl --base birds -o birds.theory
  strata closure examples/penguins.rules --hard hard.rules
  strata closure examples/birds.cl --ranks --json`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if flags.format == "json" { // the old spelling of --json
				fmt.Fprintln(cmd.ErrOrStderr(), "strata: --format json is deprecated; use --json")
				asJSON, flags.format = true, "auto"
			}
			if ranks {
				return runRanks(cmd, args[0], flags, ocf, asJSON, out)
			}
			if flags.weak {
				return usageError{errors.New("--weak needs --ranks (Θ_Z is the theory of a strongly consistent base)")}
			}
			b, err := loadBase(cmd, args[0], flags)
			if err != nil {
				return err
			}
			ord, err := defaults.ZOrdering(cmd.Context(), b)
			if err != nil {
				return err
			}
			return writeTheoryOutputs(cmd, out, asJSON, func(w io.Writer) error { return writeClosure(w, ord) },
				func() (any, error) { return newClosureJSON(cmd.Context(), ord) })
		},
	}
	flags.add(cmd)
	// --format json, the old spelling of --json, is not among the formats
	// the shell completes or the help lists.
	cmd.Flags().Lookup("format").Value.(*choice).accept = []string{"json"}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to this file (atomically; -: standard output, the default)")
	cmd.Flags().BoolVar(&ranks, "ranks", false, "print the ranking functions κ_Z and κ_c of the base instead of Θ_Z")
	addChoice(cmd.Flags(), &ocf, "ocf", "all", []string{"z", "c", "all"}, "with --ranks: the ranking function to print: z (κ_Z), c (κ_c) or all")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the Z-ordering and Θ_Z (with --ranks, the ranking functions) as JSON")
	return cmd
}

// writeClosure writes the Z-ordering as comments, then Θ_Z.
func writeClosure(w io.Writer, ord *defaults.Ordering) error {
	bw := bufio.NewWriter(logic.LineLimit(w, "theory"))
	b := ord.Base
	fmt.Fprintf(bw, "# Z-ordering of %d defaults: %d levels, %d solver calls\n", len(b.Defaults), len(ord.Levels), ord.Calls)
	ws := ord.Weights()
	for j, l := range ord.Levels {
		fmt.Fprintf(bw, "# Δ%d (weight %s):\n", j+1, possibilistic.FormatWeight(ws[j]))
		for _, i := range l {
			fmt.Fprintf(bw, "#   %s\n", b.Defaults[i].Describe(b.Vocab))
		}
	}
	if n := len(b.Background); n > 0 {
		fmt.Fprintf(bw, "# background knowledge (weight 1): %d formulas\n", n)
		fmt.Fprintln(bw, "# strata query here decides rational closure for an antecedent consistent with it; one that contradicts it")
		fmt.Fprintln(bw, "# entails every consequent under rational closure (strata entails) but only tautologies here (possibilistic entailment)")
	}
	if err := ord.Theory().WriteText(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// loadBase reads a default base in the rule or .cl format ("-" is stdin,
// defaults.ReadBase), and its background knowledge.
func loadBase(cmd *cobra.Command, path string, flags baseFlags) (*defaults.Base, error) {
	data, name, err := readAll(cmd, path)
	if err != nil {
		return nil, err
	}
	v := &logic.Vocabulary{}
	b, _, err := defaults.ReadBase(data, name, defaults.BaseOptions{Format: flags.format, Base: flags.base}, v)
	if ce := (*defaults.BaseChoiceError)(nil); errors.As(err, &ce) {
		return nil, errors.New(ce.Explain(name, "--base"))
	}
	if errors.Is(err, defaults.ErrBaseOfRules) {
		return nil, usageError{fmt.Errorf("--base needs a .cl knowledge base, and %s is a rule file", name)}
	}
	if err != nil {
		return nil, err
	}
	if flags.background != "" {
		if b.Background, b.BackgroundPos, err = readFormulaFile(cmd, v, flags.background); err != nil {
			return nil, err
		}
	}
	return b, nil
}
