package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/mln/repro"
)

func init() { registerBench(newBenchMapCmd) }

func newBenchMapCmd() *cobra.Command {
	var o repro.Options
	var pf protocolFlags
	bf := benchFlags{dir: &o.Dir, data: &o.Data, quick: &o.Quick, seed: &o.Seed}
	var noWeka bool
	cmd := &cobra.Command{
		Use:   "map [-o DIR] [--quick] [--seed N] [--datasets nltcs,msnbc,plants,dna] [--timeout D]",
		Short: "Reproduce the paper's MAP experiment: compile Markov logic networks into possibilistic theories",
		Long: `map runs the paper's second experiment (section 5.3) end to end on the
density-estimation benchmarks in DATA/debd: NLTCS, MSNBC, Plants and DNA.

For each dataset it learns a Markov logic network from the data (as strata
mln learn does; MSNBC from its valid split), draws --train-examples training
and --test-examples test examples alpha |~ beta (evidence alpha of 1 to --max-evidence
literals, beta one literal), labels them by MAP entailment (exact MAP, or
MaxWalkSAT with --map approx), learns a possibilistic theory from the
training examples with the heuristic learner, scores it on the test examples
(covered = predicted positive), and runs Weka's RandomForest -I 100, J48
(C4.5) and JRip (RIPPER), gradient boosting (XGBoost) and the majority class
on the same examples in the paper's encoding (two Boolean attributes per
variable for the antecedent, two for the consequent).

The number of iterations is chosen on the training examples, never on the
test examples, by cross-validation on --folds folds of whole evidence formulas:
a run on the other folds scores each fold after every iteration, the
smallest iteration whose pooled accuracy is within one standard error of the
best is kept, and the theory is learned on all training examples with that
many iterations. --folds 1 holds out one part instead (--validation of
them); --folds 0 learns up to --iterations. --timeout bounds the learning time of each dataset and semantics (the
validation gets 60% of it with folds, 40% with one held-out part).

DIR receives results.md (the accuracy table in the paper's layout next to
the paper's numbers, theory literals against J48 tree sizes, the command, an
excerpt of the NLTCS theory), NAME.theory for each dataset (highest level
first), and one directory per dataset with the network, the examples, their
ARFF files and the learning histories. --quick runs a small version (NLTCS,
200 + 200 examples, at most 10 iterations).

Each dataset gets one theory per semantics of --semantics-list (poss, linear, lex; poss always
runs, as the paper's column), each with its own validation run and
--timeout; the others are written as NAME.linear.theory and NAME.lex.theory
and their histories in NAME/linear and NAME/lex.

Weka is needed for its baselines (bench/install-weka.sh), --weka=false leaves
them out; XGBoost (Debian's python3-xgboost, bench/install-xgboost.sh) for
gradient boosting, --xgboost=false leaves it out.`,
		Example: `  strata bench map -o out/bench-map
  strata bench map --quick -o /tmp/map-quick --weka=false --xgboost=false
  strata bench map --datasets nltcs,msnbc --seed 2`,
		Args: argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.Semantics, err = bf.semantics(); err != nil {
				return err
			}
			if err := pf.apply(cmd.Flags(), &o.Settings); err != nil {
				return usageError{err}
			}
			if err := o.Learning.Validate(); err != nil {
				return settingsError(err)
			}
			return runBenchMap(cmd, o, benchBaselines{weka: bf.weka && !noWeka, xgboost: bf.xgboost, memory: bf.memory}, bf.asJSON)
		},
	}
	fl := cmd.Flags()
	addBenchFlags(fl, &bf, benchUsage{output: filepath.Join("out", "bench-map"), data: dataUsage,
		quick: fmt.Sprintf("a small version: NLTCS, %d + %d examples, %d iterations unless --iterations says, no timeout",
			repro.QuickExamples, repro.QuickExamples, repro.QuickIterations),
		seed:          "seed of the examples (the test set uses seed+1), the validation split and the learner",
		semanticsList: "learn and score a theory under each of these semantics, comma-separated (poss always runs)"})
	fl.StringSliceVar(&o.Datasets, "datasets", nil, "run only these datasets (nltcs, msnbc, plants, dna)")
	var datasets []string
	for _, d := range repro.Datasets {
		datasets = append(datasets, d.Name)
	}
	cmd.RegisterFlagCompletionFunc("datasets", words(datasets...))
	fl.IntVar(&o.Train, "train-examples", 0, fmt.Sprintf("training examples per dataset (0: %d, or the quick size)", repro.DefaultExamples))
	fl.IntVar(&o.Test, "test-examples", 0, fmt.Sprintf("test examples per dataset (0: %d, or the quick size)", repro.DefaultExamples))
	alias(fl, "train", "train-examples", true)
	fl.IntVar(&o.MaxEvidence, "max-evidence", repro.DefaultMaxEvidence, "most literals in the evidence alpha")
	atLeast(fl, "max-evidence", 1, false)
	addMapFlag(cmd, &o.Approx, "MAP solver labelling the examples: exact or approx (MaxWalkSAT)")
	addProtocolFlags(fl, &pf, protocolDefaults{iterations: repro.DefaultIterations, folds: repro.DefaultFolds, timeout: repro.DefaultTimeout, rule: learn.OneStandardError,
		timeoutPer: " per dataset and semantics", heldOut: "whole evidence formulas"})
	alias(fl, "out", "output", true)
	fl.BoolVar(&noWeka, "no-weka", false, "do not run the Weka baselines")
	deprecate(fl, "no-weka", "use --weka=false")
	return cmd
}

func runBenchMap(cmd *cobra.Command, o repro.Options, b benchBaselines, asJSON bool) error {
	if o.Train < 0 || o.Test < 0 || o.MaxEvidence < 1 {
		return usageError{errors.New("--train-examples and --test-examples must not be negative, --max-evidence at least 1")}
	}
	var err error
	if o.Data, err = findData(o.Data, "debd"); err != nil {
		return err
	}
	if err := o.Validate(); err != nil { // before the baselines' tools are looked for
		return err
	}
	return runBench(cmd, &o.Settings, b, asJSON, func(ctx context.Context) (string, []*repro.Row, error) {
		rep, err := repro.Reproduce(ctx, o)
		if err != nil {
			return "", nil, err
		}
		return rep.Options.Dir, rep.Rows, nil
	}, func(r *repro.Row) string { return r.Dataset.Label }, "theory literals per semantics / J48 size", "results, theories, networks and examples")
}
