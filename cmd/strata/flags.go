package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The flag vocabulary shared by the commands (flagMeanings, and
// docs/cli-conventions.md): -o/--output for what a command writes, --hard
// for hard rules, --map exact|approx for the MAP solver, --weka and
// --java-memory for the baselines, and counts named *-examples so that no
// count shares a name with a file.

// group makes cmd a command that only holds subcommands: alone it prints
// its usage on stderr (exit status 2), and an unknown subcommand is a usage
// error of one line.
func group(cmd *cobra.Command) {
	cmd.Args = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
		if c.SuggestionsMinimumDistance <= 0 {
			c.SuggestionsMinimumDistance = 2
		}
		if s := c.SuggestionsFor(args[0]); len(s) > 0 {
			msg += fmt.Sprintf("; did you mean %q?", s[0])
		}
		return usageError{errors.New(msg)}
	}
	cmd.RunE = func(c *cobra.Command, _ []string) error {
		c.SetOut(c.ErrOrStderr())
		if err := c.Help(); err != nil {
			return err
		}
		return errUsageShown
	}
}

// suggestFlag adds to an unknown flag's error the flag of c it most likely
// misspells, as a mistyped command gets one: a flag whose name starts with
// the one typed, or is at most two edits from it (a swap of two adjacent
// letters is one), the one that begins with the same letter first.
func suggestFlag(c *cobra.Command, err error) error {
	typed, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || typed == "" {
		return err
	}
	best, bestRank := "", [3]int{3}
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(typed, f.Name)
		if strings.HasPrefix(f.Name, typed) {
			d = min(d, 1)
		}
		rank := [3]int{d, 1, 0}
		if f.Name[0] == typed[0] {
			rank[1] = 0
		}
		if rank[0] < bestRank[0] || rank[0] == bestRank[0] && (rank[1] < bestRank[1] || rank[1] == bestRank[1] && f.Name < best) {
			best, bestRank = f.Name, rank
		}
	})
	if best == "" {
		return err
	}
	return fmt.Errorf("%w; did you mean --%s?", err, best)
}

// editDistance is the optimal string alignment distance of a and b, in
// bytes: the insertions, deletions, substitutions and swaps of two
// adjacent bytes that turn one into the other.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// alias defines old as another spelling of the flag name, sharing its value
// and hidden from the help; a deprecated alias is reported when used.
func alias(fs *pflag.FlagSet, old, name string, deprecated bool) {
	f := fs.Lookup(name)
	fs.AddFlag(&pflag.Flag{Name: old, Usage: f.Usage, Value: f.Value, DefValue: f.DefValue, NoOptDefVal: f.NoOptDefVal, Hidden: true})
	if deprecated {
		use := "use --" + name
		if f.Shorthand != "" {
			use = "use -" + f.Shorthand + "/--" + name
		}
		deprecate(fs, old, use)
	}
}

// deprecate hides the flag name and has a note printed when it is used.
// (pflag's own deprecation notes do not reach the user under cobra.)
func deprecate(fs *pflag.FlagSet, name, use string) {
	f := fs.Lookup(name)
	f.Hidden = true
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[deprecatedNote] = []string{use}
}

// deprecatedNote is the flag annotation holding what to use instead, and
// spelledNote how the deprecated flag is spelled when that is not --NAME
// (a shorthand).
const (
	deprecatedNote = "strata-deprecated"
	spelledNote    = "strata-spelled"
)

// deprecateShorthand keeps the shorthand -short of the flag name working,
// hidden and with a note when used, and takes it off the flag itself.
func deprecateShorthand(fs *pflag.FlagSet, short, name string) {
	f := fs.Lookup(name)
	fs.AddFlag(&pflag.Flag{Name: name + "-" + short, Shorthand: short, Usage: f.Usage, Value: f.Value, DefValue: f.DefValue, NoOptDefVal: f.NoOptDefVal})
	deprecate(fs, name+"-"+short, "use --"+name)
	fs.Lookup(name + "-" + short).Annotations[spelledNote] = []string{"-" + short}
}

// noteDeprecated prints a note on stderr for every deprecated flag given.
func noteDeprecated(cmd *cobra.Command) {
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if use := f.Annotations[deprecatedNote]; len(use) > 0 {
			spelled := "--" + f.Name
			if s := f.Annotations[spelledNote]; len(s) > 0 {
				spelled = s[0]
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "strata: %s is deprecated; %s\n", spelled, use[0])
		}
	})
}

// mapSolver is the value of --map: exact MAP (false) or MaxWalkSAT (true).
type mapSolver bool

func (m *mapSolver) String() string {
	if *m {
		return "approx"
	}
	return "exact"
}

func (m *mapSolver) Set(s string) error {
	switch s {
	case "exact":
		*m = false
	case "approx":
		*m = true
	default:
		return errors.New("want exact or approx")
	}
	return nil
}

func (m *mapSolver) Type() string { return "exact|approx" }

func (m *mapSolver) Choices() []string { return []string{"exact", "approx"} }

// addMapFlag defines --map on cmd, and the deprecated --approx, which means
// --map approx.
func addMapFlag(cmd *cobra.Command, approx *bool, usage string) {
	m := (*mapSolver)(approx)
	cmd.Flags().Var(m, "map", usage)
	cmd.Flags().AddFlag(&pflag.Flag{Name: "approx", Usage: "same as --map approx", Value: approxFlag{m}, DefValue: "false", NoOptDefVal: "true"})
	deprecate(cmd.Flags(), "approx", "use --map approx")
}

// approxFlag is the boolean --approx, another spelling of --map approx.
type approxFlag struct{ m *mapSolver }

func (a approxFlag) String() string { return fmt.Sprint(bool(*a.m)) }
func (a approxFlag) Type() string   { return "bool" }

func (a approxFlag) Set(s string) error {
	switch s {
	case "true":
		*a.m = true
	case "false":
		*a.m = false
	default:
		return fmt.Errorf("want true or false, not %q", s)
	}
	return nil
}
