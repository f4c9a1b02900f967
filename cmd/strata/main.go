// Command strata learns possibilistic logic theories from default rules and
// reasons with them. Each subcommand lives in its own file; all of them are
// thin layers over the library packages.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status: 0 on success,
// 1 on any error, whose one-line message goes to stderr.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.Execute(); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "strata: %v (see 'strata help')\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "strata: %v\n", err)
		return 1
	}
	return 0
}

// usageError marks a malformed command line, reported with exit status 2.
type usageError struct{ error }

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "strata",
		Short: "Learn possibilistic logic theories from default rules, and reason with them",
		Long: `strata learns possibilistic logic theories from default rules ("if alpha then
typically beta", written  bird -> flies ) and reasons with them: possibilistic
entailment, plausible conclusions, most plausible worlds. It implements
Kuzelka, Davis and Schockaert, "Learning Possibilistic Logic Theories from
Default Rules", IJCAI 2016.

Start with:  strata demo    (reasoning with the paper's penguin theory)
             strata learn   (learning from a built-in example dataset)`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	for _, c := range commands {
		root.AddCommand(c())
	}
	return root
}

// commands holds the constructors of the subcommands. Each command's file
// registers its own in an init function, so adding a command touches only
// its file.
var commands []func() *cobra.Command

func register(c func() *cobra.Command) { commands = append(commands, c) }

// argsBetween accepts lo to hi positional arguments, reporting a usage error.
func argsBetween(lo, hi int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			if lo == hi {
				return usageError{fmt.Errorf("%s takes %d argument(s), got %d", cmd.Name(), lo, len(args))}
			}
			return usageError{fmt.Errorf("%s takes %d to %d arguments, got %d", cmd.Name(), lo, hi, len(args))}
		}
		return nil
	}
}
