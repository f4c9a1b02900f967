package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newBenchCmd) }

// benchCommands holds the reproductions of the paper's experiments; each
// lives in its own file and registers itself with registerBench.
var benchCommands []func() *cobra.Command

func registerBench(c func() *cobra.Command) { benchCommands = append(benchCommands, c) }

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Reproduce the paper's experiments",
		Long: `bench runs the paper's experiments end to end: building the datasets,
learning possibilistic theories, running the baselines (Weka's J48 = C4.5,
JRip = RIPPER, RandomForest with 100 trees) and writing the results table.`,
	}
	group(cmd)
	for _, c := range benchCommands {
		cmd.AddCommand(c())
	}
	return cmd
}

// benchFlags are the flags every bench command has beside its protocol
// flags (addProtocolFlags) and its own: where it writes and reads, how big
// a run, its seed, the semantics to learn under, the baselines to run and
// --json.
type benchFlags struct {
	dir, data *string
	quick     *bool
	seed      *uint64
	sems      []string
	weka      bool
	xgboost   bool
	memory    string
	asJSON    bool
}

// benchUsage is what a bench command's common flags mean for it: the
// default output directory and the help of --data, --quick, --seed and
// --semantics-list.
type benchUsage struct {
	output, data, quick, seed, semanticsList string
}

// addBenchFlags registers the common flags of a bench command on fl, into
// b: -o/--output DIR, --data, --quick, --seed, --semantics-list (poss,
// linear, lex unless given), --weka, --xgboost, --java-memory and --json,
// and --semantics, the old spelling of --semantics-list.
func addBenchFlags(fl *pflag.FlagSet, b *benchFlags, u benchUsage) {
	fl.StringVarP(b.dir, "output", "o", u.output, "output directory")
	fl.StringVar(b.data, "data", "", u.data)
	fl.BoolVar(b.quick, "quick", false, u.quick)
	fl.Uint64Var(b.seed, "seed", 1, u.seed)
	b.sems = []string{"poss", "linear", "lex"}
	fl.Var(semanticsList{&b.sems}, "semantics-list", u.semanticsList)
	alias(fl, "semantics", "semantics-list", true)
	fl.BoolVar(&b.weka, "weka", true, "run Weka's baselines (--weka=false leaves them out)")
	fl.BoolVar(&b.xgboost, "xgboost", true, "run the gradient-boosting baseline, XGBoost (--xgboost=false leaves it out)")
	fl.StringVar(&b.memory, "java-memory", defaultJavaMemory, "maximum Java heap for Weka")
	fl.BoolVar(&b.asJSON, "json", false, "print the results table as JSON")
}

// semantics checks the output directory and returns the semantics of
// --semantics-list: what every bench command does first.
func (b *benchFlags) semantics() ([]possibilistic.Semantics, error) {
	sems, err := parseSemanticsList(b.sems)
	if err != nil {
		return nil, err
	}
	return sems, checkOutputDir(*b.dir)
}
