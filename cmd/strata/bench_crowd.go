package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/crowd/repro"
	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
)

func init() { registerBench(newBenchCrowdCmd) }

func newBenchCrowdCmd() *cobra.Command {
	var o repro.Options
	var pf protocolFlags
	bf := benchFlags{dir: &o.Dir, data: &o.Data, quick: &o.Quick, seed: &o.Seed}
	var noWeka, tally bool
	var specialise, grow int
	var examples string
	var runs int
	cmd := &cobra.Command{
		Use:   "crowd [-o DIR] [--quick] [--seed N] [--iterations N] [--timeout D]",
		Short: "Reproduce the paper's crowdsourcing experiment (Tables 1 and 2) on real football and poker decisions",
		Long: `crowd runs the paper's crowdsourcing experiment (§5.2) end to end on the public
stand-ins for its crowd data: NFL playoff play calls (the team is the
annotator), the fourth-down decisions of 2014-18 as a second football row, and
the Pluribus poker hands (the player is the annotator).

For each domain it builds the datasets split by annotator (as strata crowd
does), learns a theory with the heuristic learner (the pairwise exclusions of
the actions are the hard rules) from the training defaults and non-defaults
(--examples typical: each answer stating its situation's most typical action,
the test's target, instead of its own), scores it on the most typical action
of each test situation and on the test defaults / non-defaults, and runs Weka's
RandomForest -I 100, J48 (C4.5) and JRip (RIPPER), gradient boosting
(XGBoost with XGBClassifier's defaults) and the majority class on the same
situations.

The number of iterations is chosen on held-out training annotators, never
on the test annotators, and scored as the test is: the most typical action
of each held-out situation. By default by cross-validation on 3 folds of
whole training annotators (--folds; 3 validation runs, each learning on the
other folds and scoring its own; --folds 1 holds out one part, --validation
of the training answers, instead; --folds 0 learns up to --iterations): the
smallest iteration whose pooled held-out accuracy is below the best's by at
most one standard error of their paired difference is kept (--choose
paired: near the best where the curve still rises, the first iteration of a
plateau; --choose best keeps the best, --choose one-se the smallest within
one standard error of the best score, which stops well before it), and the
theory is learned on all training annotators with that many iterations. --timeout bounds the learning time of
each domain and semantics (the validation gets 60% of it, 40% with one
held-out part).

DIR receives results.md (the table in the paper's layout, the model sizes,
the command, an excerpt of each theory), poker.theory, football.theory and
fourth_down.theory (highest level first, as the paper's Table 1), and one
directory per domain with the datasets and learning histories. --quick runs
a small version (a few hundred decisions per domain, 5 iterations).

One run's table rests on the few annotators its seed holds out for testing
(5 players, 7 or 10 teams). --runs N runs the whole experiment N times with the
seeds --seed, --seed+1, … (other test annotators each time), each into
DIR/seedS as above, and writes DIR/summary.md: each column's mean accuracy
with the least and the greatest, and in how many runs the best drowning-free
theory was at least as accurate as every baseline.

Each domain gets one theory per semantics of --semantics-list (poss, linear, lex; poss always
runs, as the paper's column), each with its own validation run and
--timeout; the others are written as DOMAIN.linear.theory and
DOMAIN.lex.theory.

Weka is needed for its baselines (bench/install-weka.sh), --weka=false leaves
them out; XGBoost (Debian's python3-xgboost, bench/install-xgboost.sh) for
gradient boosting, --xgboost=false leaves it out.`,
		Example: `  strata bench crowd -o out/bench-crowd
  strata bench crowd --quick -o /tmp/crowd-quick --weka=false --xgboost=false
  strata bench crowd --runs 3 -o out/bench-crowd-runs`,
		Args: argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.Semantics, err = bf.semantics(); err != nil {
				return err
			}
			if err := pf.apply(cmd.Flags(), &o.Settings); err != nil {
				return usageError{err}
			}
			if specialise < 0 {
				return usageError{fmt.Errorf("--specialise %d: give a positive number, or 0 for never", specialise)}
			}
			var err2 error
			if o.Learning.Grow, err2 = zeroIsNone("grow", grow, "none"); err2 != nil {
				return usageError{err2}
			}
			o.Learning.Specialise, o.Learning.Tally = specialise, learn.SwitchOf(tally)
			if err := o.Learning.Validate(); err != nil {
				return settingsError(err)
			}
			switch examples {
			case "answers":
			case "typical":
				o.Typical = true
			default:
				return usageError{fmt.Errorf("--examples %q: give answers or typical", examples)}
			}
			return runBenchCrowd(cmd, o, runs, benchBaselines{weka: bf.weka && !noWeka, xgboost: bf.xgboost, memory: bf.memory}, bf.asJSON)
		},
	}
	fl := cmd.Flags()
	addBenchFlags(fl, &bf, benchUsage{output: filepath.Join("out", "bench-crowd"), data: dataUsage,
		quick:         fmt.Sprintf("a small version: a few hundred decisions per domain, %d iterations unless --iterations says, no timeout", repro.QuickIterations),
		seed:          "seed of the splits, the negative examples and the learner",
		semanticsList: "learn and score a theory under each of these semantics, comma-separated (poss always runs)"})
	fl.Float64Var(&o.TestFraction, "test-fraction", repro.DefaultTestFraction, "share of the answers held out for testing, by whole annotators")
	atLeast(fl, "test-fraction", 0, true)
	atMost(fl, "test-fraction", 1, true)
	addProtocolFlags(fl, &pf, protocolDefaults{iterations: repro.DefaultIterations, folds: repro.DefaultFolds, timeout: repro.DefaultTimeout, rule: repro.DefaultRule,
		timeoutPer: " per domain and semantics", heldOut: "whole training annotators"})
	fl.IntVar(&specialise, "specialise", repro.DefaultSpecialise, "add up to this many literals to each iteration's chosen clause, from the antecedent of the example it was drawn from, while the training score rises (0: never)")
	fl.IntVar(&grow, "grow", repro.DefaultGrow, "also grow this many of each iteration's candidates by information gain, as RIPPER grows a rule, from the situations they are drawn from (0: none)")
	fl.BoolVar(&tally, "tally", repro.DefaultTally, "under lex, also try a level of one-literal rules that vote (\"descriptor → action\"), lex answering what most of those that apply say")
	fl.StringVar(&examples, "examples", "answers", "the action each training answer's default states: answers (its own, as the paper's examples) or typical (its situation's most typical action, the test's target)")
	cmd.RegisterFlagCompletionFunc("examples", words("answers", "typical"))
	fl.IntVar(&runs, "runs", 1, "run the whole experiment this many times, with the seeds --seed, --seed+1, …, each into DIR/seedN, and summarise the runs in DIR/summary.md")
	atLeast(fl, "runs", 1, false)
	fl.StringSliceVar(&o.Domains, "domains", nil, "run only these domains (poker, football, fourth_down)")
	var domains []string
	for _, d := range repro.Domains {
		domains = append(domains, d.Name)
	}
	cmd.RegisterFlagCompletionFunc("domains", words(domains...))
	alias(fl, "out", "output", true)
	fl.BoolVar(&noWeka, "no-weka", false, "do not run the Weka baselines")
	deprecate(fl, "no-weka", "use --weka=false")
	return cmd
}

func runBenchCrowd(cmd *cobra.Command, o repro.Options, runs int, b benchBaselines, asJSON bool) error {
	if !(o.TestFraction > 0 && o.TestFraction < 1) {
		return usageError{fmt.Errorf("--test-fraction %v outside ]0, 1[", o.TestFraction)}
	}
	var needs []string
	for _, d := range repro.Domains {
		if len(o.Domains) == 0 || slices.Contains(o.Domains, d.Name) {
			needs = append(needs, d.Source)
		}
	}
	var err error
	if o.Data, err = findData(o.Data, needs...); err != nil {
		return err
	}
	if err := o.Validate(); err != nil { // before the baselines' tools are looked for
		return err
	}
	if runs > 1 {
		return runBenchRepeat(cmd, &o.Settings, b, asJSON, func(ctx context.Context) (*experiment.Repeated, error) {
			rep, err := repro.Repeat(ctx, o, runs)
			if err != nil {
				return nil, err
			}
			return &rep.Repeated, nil
		})
	}
	return runBench(cmd, &o.Settings, b, asJSON, func(ctx context.Context) (string, []*repro.Row, error) {
		rep, err := repro.Reproduce(ctx, o)
		if err != nil {
			return "", nil, err
		}
		return rep.Options.Dir, rep.Rows, nil
	}, func(r *repro.Row) string { return r.Domain.Label }, "theory size / J48 nodes", "results, theories and datasets")
}
