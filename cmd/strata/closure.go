package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newClosureCmd) }

// baseFlags are the options shared by closure and entails for reading a
// default base.
type baseFlags struct {
	format, base, background string
}

func (f *baseFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.format, "format", "auto", "format of RULES: rules (one default per line), cl (a .cl knowledge base) or auto")
	cmd.Flags().StringVar(&f.base, "base", "", "the belief base to use when a .cl file holds several")
	cmd.Flags().StringVar(&f.background, "background", "", "a file of hard rules (one clause or formula per line) that hold in every world")
}

func newClosureCmd() *cobra.Command {
	var flags baseFlags
	var out string
	cmd := &cobra.Command{
		Use:   "closure RULES",
		Short: "Print the Z-ordering of a default base and its possibilistic theory Θ_Z",
		Long: `closure computes the Z-ordering Δ1, ..., Δk of a consistent set of defaults
(Δ1: the defaults tolerated by all of them; Δ2: those tolerated by the rest; ...)
and prints it as comment lines, followed by the possibilistic theory Θ_Z in the
theory format: the material counterpart !α | β of every default of Δj at weight
j/(k+1) (rounded to a few decimals), and the background knowledge at weight 1. The output is a theory file:
strata query on it decides rational closure.

RULES is a file of defaults, one per line ('bird -> flies', 'penguin |~ !flies'),
or a .cl knowledge base ('signature ... conditionals kb{ (f|b), (!f|p) }'), or -
for standard input. An inconsistent base is reported with a minimal set of
defaults that clash.`,
		Example: `  strata closure penguins.rules
  strata closure birds.cl --base birds005 -o birds.theory
  strata closure penguins.rules --background hard.rules`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := loadBase(cmd, args[0], flags)
			if err != nil {
				return err
			}
			ord, err := defaults.ZOrdering(b)
			if err != nil {
				return err
			}
			write := func(w io.Writer) error { return writeClosure(w, ord) }
			if out != "" {
				return fileutil.WriteAtomic(out, write)
			}
			return write(cmd.OutOrStdout())
		},
	}
	flags.add(cmd)
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to this file (atomically) instead of standard output")
	return cmd
}

// writeClosure writes the Z-ordering as comments, then Θ_Z.
func writeClosure(w io.Writer, ord *defaults.Ordering) error {
	bw := bufio.NewWriter(w)
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
	}
	if err := ord.Theory().WriteText(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// loadBase reads a default base in the rule or .cl format ("-" is stdin),
// and its background knowledge.
func loadBase(cmd *cobra.Command, path string, flags baseFlags) (*defaults.Base, error) {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	isCL, err := clFormat(flags.format, path, data)
	if err != nil {
		return nil, err
	}
	v := &logic.Vocabulary{}
	var b *defaults.Base
	if isCL {
		bases, err := defaults.ReadCL(bytes.NewReader(data), name, v)
		if err != nil {
			return nil, err
		}
		if b, err = pickBase(name, bases, flags.base); err != nil {
			return nil, err
		}
	} else {
		if flags.base != "" {
			return nil, usageError{fmt.Errorf("--base needs a .cl knowledge base, and %s is a rule file", name)}
		}
		ds, err := defaults.ReadRules(bytes.NewReader(data), name, v)
		if err != nil {
			return nil, err
		}
		b = &defaults.Base{Vocab: v, Defaults: ds}
	}
	if flags.background != "" {
		if b.Background, err = readFormulaFile(cmd, v, flags.background); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// clFormat decides whether data is a .cl knowledge base: by --format, else
// by the extension .cl, else by a first word "signature" on a line that is
// not a rule.
func clFormat(format, path string, data []byte) (bool, error) {
	switch format {
	case "cl":
		return true, nil
	case "rules":
		return false, nil
	case "auto", "":
	default:
		return false, usageError{fmt.Errorf("--format %q: want rules, cl or auto", format)}
	}
	if strings.EqualFold(filepath.Ext(path), ".cl") {
		return true, nil
	}
	return defaults.LooksLikeCL(data), nil
}

func pickBase(name string, bases []*defaults.Base, want string) (*defaults.Base, error) {
	var names []string
	for _, b := range bases {
		if b.Name == want {
			return b, nil
		}
		names = append(names, b.Name)
	}
	if want == "" && len(bases) == 1 {
		return bases[0], nil
	}
	if want == "" {
		return nil, fmt.Errorf("%s holds %d belief bases (%s); choose one with --base", name, len(bases), strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("%s holds no belief base %q; it has %s", name, want, strings.Join(names, ", "))
}
