// Command strata learns possibilistic logic theories from default rules and
// reasons with them. Each subcommand lives in its own file; all of them are
// thin layers over the library packages.
package main

// The CLI reference (docs/cli.md) and the built-in example's data are
// generated from the code:
//go:generate go test -run ^(TestCLIReference|TestExampleFiles|TestExampleTables)$ -update .

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

func main() {
	out := &resultWriter{w: os.Stdout, closed: closedStdout()}
	code := run(os.Args[1:], os.Stdin, out, os.Stderr)
	if err := os.Stdout.Close(); err != nil && out.n > 0 && code == 0 {
		// A file system may report a failed write only when the file closes.
		fmt.Fprintf(os.Stderr, "strata: close standard output: %v\n", err)
		code = 1
	}
	os.Exit(code)
}

// run executes the command line and returns the exit status: 0 on success,
// 1 on a failed command and 2 on a malformed command line, with a one-line
// message on stderr; strata alone prints the usage on stderr with status 2.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetErr(stderr)
	rw, ok := stdout.(*resultWriter)
	if !ok {
		rw = &resultWriter{w: stdout}
	}
	root.SetOut(rw)
	cmd, err := root.ExecuteC()
	if err = rw.result(err); err != nil {
		if errors.Is(err, errUsageShown) {
			return 2
		}
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "strata: %v (see '%s')\n", err, helpFor(cmd))
			return 2
		}
		fmt.Fprintf(stderr, "strata: %v\n", err)
		return 1
	}
	return 0
}

// helpFor names the help of the command a malformed command line was
// meant for: "strata help query", or "strata help" for strata itself and
// for the help command.
func helpFor(cmd *cobra.Command) string {
	if cmd == nil || cmd == cmd.Root() || cmd.Name() == "help" {
		return "strata help"
	}
	return "strata help " + strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// usageError marks a malformed command line, reported with exit status 2.
type usageError struct{ error }

// errUsageShown reports a command line that asked for nothing: the usage has
// been printed on stderr, and the exit status is 2.
var errUsageShown = errors.New("usage shown")

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "strata",
		Short: "Learn possibilistic logic theories from default rules, and reason with them",
		Long: `strata learns possibilistic logic theories from default rules ("if alpha then
typically beta", written  bird -> flies ) and reasons with them: possibilistic
entailment, plausible conclusions, most plausible worlds. It implements
Kuzelka, Davis and Schockaert, "Learning Possibilistic Logic Theories from
Default Rules", IJCAI 2016.

Start with:  strata demo       (reasoning with the paper's penguin theory)
             strata learn      (learning from a built-in example dataset)
             strata examples   (writes the example files the help names)`,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		// Deprecated spellings of flags still work, with a note on stderr;
		// every numeric flag is checked against its range.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			noteDeprecated(cmd)
			return checkNumbers(cmd)
		},
	}
	root.SetVersionTemplate("strata {{.Version}}\n")
	root.InitDefaultVersionFlag() // so that strata help lists -v, --version
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{suggestFlag(c, err)} })
	for _, c := range commands {
		root.AddCommand(c())
	}
	group(root)
	completeChoices(root)
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return usageError{fmt.Errorf("unknown help topic %q", strings.Join(args, " "))}
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	})
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
