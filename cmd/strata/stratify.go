package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() { register(newStratifyCmd) }

func newStratifyCmd() *cobra.Command {
	var pos, neg, hard, out string
	var exact, asJSON bool
	var threads int
	var timeout time.Duration
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
otherwise fails with "no separating stratification exists". It first prints
its bound on the work (3^n cuts for n formulas), then its progress; --timeout
and Ctrl-C stop it with an error that says how far it got. --semantics
(poss, linear or lex) says when a stratification covers a default; --exact
holds for poss only (the paper's algorithm rests on drowning).

The theory is printed highest level first, or written to -o FILE; --json
prints it on standard output as JSON (its levels, size and inconsistency
level).`,
		Example: `  strata stratify clauses.txt --pos train.defaults --neg train.nondefaults -o stratified.theory
  strata stratify clauses.txt --pos train.defaults --neg train.nondefaults --exact --timeout 1m --json`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pos == "" || neg == "" {
				return usageError{errors.New("stratify needs --pos and --neg")}
			}
			v := &logic.Vocabulary{}
			name := args[0]
			fs, at, err := readFormulaFile(cmd, v, name)
			if err != nil {
				return err
			}
			var hardF []*logic.Formula
			if hard != "" {
				if hardF, err = readHardFile(cmd, v, hard); err != nil {
					return err
				}
			}
			var rules [2][]logic.Rule
			for i, path := range []string{pos, neg} {
				if rules[i], err = readRuleFile(cmd, v, path); err != nil {
					return err
				}
			}
			ctx, stop := interruptible()
			defer stop()
			if timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			var th *possibilistic.Theory
			if exact && sem != possibilistic.Poss {
				return usageError{fmt.Errorf("--exact is the paper's Stratify-Separable, which is correct for poss only; use the greedy stratifier (no --exact) with --semantics %s", sem)}
			}
			if exact {
				levels, err := separate(ctx, cmd.ErrOrStderr(), fs, rules, hardF)
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
				th, err = stratifyGreedy(ctx, v, fs, at, hardF, rules, threads, sem)
				if err != nil {
					return err
				}
				if ctx.Err() != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "strata: stratify stopped early (%v); the levels are the best found so far\n", ctx.Err())
				}
			}
			return writeTheoryOutputs(cmd, out, asJSON, th.WriteText, func() (any, error) { return jsonview.NewTheory(cmd.Context(), th) })
		},
	}
	cmd.Flags().StringVar(&pos, "pos", "", "positive examples (defaults)")
	cmd.Flags().StringVar(&neg, "neg", "", "negative examples (non-defaults)")
	cmd.Flags().StringVar(&hard, "hard", "", "hard rules, kept at the top level")
	cmd.Flags().BoolVar(&exact, "exact", false, "find a separating stratification exactly (Stratify-Separable)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the theory to this file (-: standard output, the default)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the theory, its size and its inconsistency level as JSON")
	cmd.Flags().IntVar(&threads, "threads", 0, "worker threads for the greedy stratifier (0: all CPUs)")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "stop after this long, e.g. 10m (0: no limit); the greedy stratifier returns its best so far, --exact fails")
	addSemantics(cmd.Flags(), &sem, semanticsUsage)
	return cmd
}

// separate runs Stratify-Separable with its estimate and progress on w.
func separate(ctx context.Context, w io.Writer, fs []*logic.Formula, rules [2][]logic.Rule, hard []*logic.Formula) ([][]*logic.Formula, error) {
	if len(fs) <= learn.MaxExact {
		fmt.Fprintf(w, "exact stratification of %d formulas on %d positive and %d negative examples: at most 3^%d = %s cuts, each up to %d solver calls (--timeout or Ctrl-C stops it)\n",
			len(fs), len(rules[0]), len(rules[1]), len(fs), thousands(learn.MaxSeparateCuts(len(fs))), len(rules[0])+len(rules[1]))
	}
	pr := newProgress(w)
	defer pr.finish()
	levels, err := learn.Separate(ctx, fs, rules[0], rules[1], hard, func(p learn.SeparateProgress) {
		if pr.terminal {
			pr.count("cuts (at most)", p.Cuts, learn.MaxSeparateCuts(len(fs)), "")
		} else if pr.due() {
			fmt.Fprintf(w, "exact: %s of at most %s cuts, %s solver calls\n", thousands(p.Cuts), thousands(p.MaxCuts), thousands(p.Calls))
		}
	})
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("%w (--timeout)", err)
	}
	return levels, err
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func stratifyGreedy(ctx context.Context, v *logic.Vocabulary, fs []*logic.Formula, at []logic.Position, hardF []*logic.Formula, rules [2][]logic.Rule, threads int, sem possibilistic.Semantics) (*possibilistic.Theory, error) {
	var cs []logic.Clause
	for i, f := range fs {
		c, ok := f.AsClause()
		switch {
		case !ok && f.IsTautologicalClause():
			return nil, fmt.Errorf("%s: %s is a tautology: it holds in every world, so no level of it decides anything; leave it out", at[i], f.String(v))
		case !ok:
			return nil, fmt.Errorf("%s: %s is not a clause; the greedy stratifier needs clauses (--exact takes any formula)", at[i], f.String(v))
		}
		cs = append(cs, c)
	}
	hard, named, err := learn.HardClauses(v, hardF)
	if err != nil {
		return nil, fmt.Errorf("--hard: %w", err)
	}
	ex := &learn.Examples{}
	if err := ex.AddRules(rules[0], true, v, "--pos"); err != nil {
		return nil, err
	}
	if err := ex.AddRules(rules[1], false, v, "--neg"); err != nil {
		return nil, err
	}
	m := learn.StratifyGreedy(ctx, cs, ex, hard, threads, sem)
	if !named {
		hardF = nil
	}
	return learn.WithHardRules(m.Theory(v), hardF), nil
}
