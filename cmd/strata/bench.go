package main

import "github.com/spf13/cobra"

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
