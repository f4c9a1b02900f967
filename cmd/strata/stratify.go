package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newStratifyCmd) }

func newStratifyCmd() *cobra.Command {
	var pos, neg, hard, out string
	var exact bool
	var threads int
	var sem possibilistic.Semantics
	cmd := &cobra.Command{
		Use:   "stratify CLAUSES --pos P --neg N [--hard H] [--exact]",
		Short: "Learn the levels of a fixed set of clauses (parameter learning, §4.1)",
		Long: `stratify learns only the weights of a fixed set of formulas (one per line in
CLAUSES). By default it is greedy: each clause goes where the training accuracy
is highest (ties: fewer levels), then every clause is re-inserted at its best
level until nothing improves. --exact runs the paper's Stratify-Separable
instead, which returns a stratification covering every positive and no
negative example if one exists (exponential: at most 24 formulas), and
otherwise fails with "no separating stratification exists". --semantics
(poss, linear or lex) says when a stratification covers a default; --exact
holds for poss only (the paper's algorithm rests on drowning).`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pos == "" || neg == "" {
				return usageError{errors.New("stratify needs --pos and --neg")}
			}
			v := &logic.Vocabulary{}
			name := args[0]
			fs, err := readFormulaFile(cmd, v, name)
			if err != nil {
				return err
			}
			var hardF []*logic.Formula
			if hard != "" {
				if hardF, err = readFormulaFile(cmd, v, hard); err != nil {
					return err
				}
			}
			var rules [2][]logic.Rule
			for i, path := range []string{pos, neg} {
				if rules[i], err = readRuleFile(cmd, v, path); err != nil {
					return err
				}
			}
			var th *possibilistic.Theory
			if exact && sem != possibilistic.Poss {
				return usageError{fmt.Errorf("--exact is the paper's Stratify-Separable, which is correct for poss only; use the greedy stratifier (no --exact) with --semantics %s", sem)}
			}
			if exact {
				levels, err := learn.Separate(fs, rules[0], rules[1], hardF)
				if err != nil {
					return err
				}
				th = possibilistic.New(v)
				ws := possibilistic.LevelWeights(len(levels))
				for j, l := range levels {
					for _, f := range l {
						th.Add(f, ws[j])
					}
				}
				for _, f := range hardF {
					th.Add(f, 1)
				}
			} else {
				th, err = stratifyGreedy(v, name, fs, hardF, rules, threads, sem)
				if err != nil {
					return err
				}
			}
			if out != "" {
				return fileutil.WriteAtomic(out, th.WriteText)
			}
			return th.WriteText(cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&pos, "pos", "", "positive examples (defaults)")
	cmd.Flags().StringVar(&neg, "neg", "", "negative examples (non-defaults)")
	cmd.Flags().StringVar(&hard, "hard", "", "hard rules, kept at the top level")
	cmd.Flags().BoolVar(&exact, "exact", false, "find a separating stratification exactly (Stratify-Separable)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the theory to this file")
	cmd.Flags().IntVar(&threads, "threads", 0, "worker threads for the greedy stratifier (0: all CPUs)")
	cmd.Flags().TextVar(&sem, "semantics", possibilistic.Poss, semanticsUsage)
	return cmd
}

func stratifyGreedy(v *logic.Vocabulary, name string, fs, hardF []*logic.Formula, rules [2][]logic.Rule, threads int, sem possibilistic.Semantics) (*possibilistic.Theory, error) {
	var cs []logic.Clause
	for i, f := range fs {
		c, ok := f.AsClause()
		if !ok {
			return nil, fmt.Errorf("%s: formula %d (%s) is not a clause; the greedy stratifier needs clauses (--exact takes any formula)", name, i+1, f.String(v))
		}
		cs = append(cs, c)
	}
	hard, named := hardClauses(v, hardF)
	ex := &learn.Examples{}
	if err := ex.AddRules(rules[0], true, v, "--pos"); err != nil {
		return nil, err
	}
	if err := ex.AddRules(rules[1], false, v, "--neg"); err != nil {
		return nil, err
	}
	m := learn.StratifyGreedy(context.Background(), cs, ex, hard, threads, sem)
	if !named {
		hardF = nil
	}
	return withHardFormulas(m.Theory(v), hardF), nil
}
