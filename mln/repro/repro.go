// Package repro reproduces the paper's second experiment (§5.3, the last
// four rows of its table "Test set accuracies"): approximating MAP
// inference in propositional Markov logic networks by possibilistic
// theories learned from examples of MAP entailment.
//
// For each density-estimation benchmark (NLTCS, MSNBC, Plants, DNA in
// ../shared/data/debd) it learns a network from the data (package mln; MSNBC
// from its valid split, the only one besides test in ../shared), draws
// training and test examples α |~ β labelled by (M, α) ⊢MAP β, learns a
// possibilistic theory from the training examples with the heuristic learner
// of §4.3 (package learn), scores it on the test examples (an example is
// predicted positive when the theory covers it, (Θ, α) ⊢poss β), runs Weka's
// RandomForest -I 100, J48 (C4.5) and JRip (RIPPER) on the same examples in
// the paper's attribute encoding (mln.MAPEncoding), and writes the
// results table in the paper's layout and the learned theories, highest
// level first.
//
// The number of learning iterations is chosen on training examples held out
// by whole evidence formulas, never on the test examples: see
// experiment.Settings.Folds.
package repro

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/mln"
	"github.com/strata-logic/strata/mln/debd"
)

// Options control a reproduction. A zero field of the embedded Settings has
// no effect (see experiment.Settings); strata bench map's defaults are
// those below and learn's. Without Weka the baselines are not run. Data
// holds debd/; Dir receives results.md,
// NAME.theory, and NAME/ with the network, examples and ARFF files. Quick
// runs NLTCS only (unless Datasets says otherwise) with QuickExamples +
// QuickExamples examples. The training examples are drawn with the seed
// Seed(Settings.Seed, Data), the test examples with that seed + 1.
type Options struct {
	experiment.Settings

	Train, Test int  // examples per dataset (0: DefaultExamples, the paper's; Quick: QuickExamples)
	MaxEvidence int  // most literals in the evidence α (0: DefaultMaxEvidence, the paper's)
	Approx      bool // label the examples with MaxWalkSAT instead of exact MAP
	Walk        mln.WalkOptions

	// Datasets selects datasets by Name (all of Datasets when empty; Quick:
	// nltcs).
	Datasets []string
}

// Defaults of Options.
const (
	// DefaultIterations bounds a learning run. On the four datasets the
	// learner's training accuracy stops improving after 100 to 250
	// iterations (it then stops by its patience), so the bound rarely binds.
	DefaultIterations = 300
	// DefaultTimeout is the learning time per dataset. The paper gave its
	// Java learner one hour per dataset; strata's learner reaches its
	// plateau on the 1000 training examples of the largest dataset (DNA) in
	// about two and a half minutes on 2 cores, so 4 minutes keeps the
	// whole reproduction under 20 minutes without cutting learning short.
	DefaultTimeout = 4 * time.Minute
	// DefaultValidation holds out 30% of the training examples (with
	// --folds 1).
	DefaultValidation = learn.DefaultValidation
	// DefaultFolds chooses the number of iterations by 5-fold
	// cross-validation: with 1000 training examples, one held-out part of
	// 300 measures each iteration's accuracy to one or two points, about
	// what the later iterations gain, and a cross-validation measures it
	// on all 1000.
	DefaultFolds = 5
	// DefaultExamples and DefaultMaxEvidence are the paper's: 1000
	// training and 1000 test examples per dataset, evidence of at most 5
	// literals.
	DefaultExamples    = 1000
	DefaultMaxEvidence = 5
	// QuickIterations and QuickExamples size the Quick run.
	QuickIterations = 10
	QuickExamples   = 200
)

var defaults = experiment.Defaults{QuickIterations: QuickIterations}

// Event reports progress; its Subject is a Dataset's Name. Counting
// events (Total > 0) count the trees and L-BFGS iterations of the "network"
// step (Stage says which) and the examples labelled in "examples".
type Event = experiment.Event

// withDefaults checks the options and fills in the zero fields that have a
// default.
func (o Options) withDefaults() (Options, error) {
	var err error
	if o.Settings, err = o.Settings.Resolve(defaults); err != nil {
		return o, err
	}
	n := DefaultExamples
	if o.Quick {
		n = QuickExamples
	}
	if o.Train == 0 {
		o.Train = n
	}
	if o.Test == 0 {
		o.Test = n
	}
	if o.Train < 0 || o.Test < 0 {
		return o, fmt.Errorf("repro: %d training and %d test examples", o.Train, o.Test)
	}
	if o.MaxEvidence == 0 {
		o.MaxEvidence = DefaultMaxEvidence
	}
	if o.MaxEvidence < 0 {
		return o, fmt.Errorf("repro: evidence of at most %d literals", o.MaxEvidence)
	}
	switch {
	case len(o.Datasets) > 0:
	case o.Quick:
		o.Datasets = []string{"nltcs"}
	default:
		for _, d := range Datasets {
			o.Datasets = append(o.Datasets, d.Name)
		}
	}
	for _, name := range o.Datasets {
		if _, ok := datasetByName(name); !ok {
			return o, fmt.Errorf("repro: unknown dataset %q (have %s)", name, datasetNames())
		}
	}
	return o, nil
}

// debd returns the directory of the density-estimation benchmarks.
func (o *Options) debd() string { return filepath.Join(o.Data, "debd") }

// Validate reports what Reproduce would refuse in the options (an unknown
// dataset, a setting out of range, a dataset's missing files) without
// reading any data, so that a command can say so before it looks for the
// baselines' tools.
func (o Options) Validate() error {
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	for _, name := range o.Datasets {
		if _, _, err := debd.Splits(o.debd(), name); err != nil {
			return err
		}
	}
	return nil
}

// Reproduce runs the experiment on every selected dataset and writes into
// opts.Dir: for each dataset its directory NAME/ (the network NAME.mln, the
// examples as train/test .defaults and .nondefaults, their ARFF encoding
// train.arff and test.arff, the learning histories), the learned theory
// NAME.theory, and at the end results.md. It does no printing; progress goes
// to opts.Progress. After an error only the report's Options are meaningful.
func Reproduce(ctx context.Context, opts Options) (*Report, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	rep := &Report{Options: opts}
	return rep, experiment.Reproduce(&opts.Settings, &rep.Run, &rep.Rows, Datasets, opts.Datasets, Dataset.name,
		func(d Dataset) (*Row, error) { return runDataset(ctx, &opts, d) }, rep.WriteMarkdown)
}

// runDataset runs the protocol on one dataset.
func runDataset(ctx context.Context, opts *Options, d Dataset) (*Row, error) {
	row := &Row{Row: experiment.Row{Label: d.Label, Paper: d.Paper}, Dataset: d}
	dir := filepath.Join(opts.Dir, d.Name)
	ex, err := prepare(ctx, opts, d, row, dir)
	if err != nil {
		return nil, err
	}
	for _, sem := range opts.Semantics {
		lr, err := learnTheory(ctx, opts, d, ex, dir, sem)
		if err != nil {
			return nil, err
		}
		row.Semantics = append(row.Semantics, &experiment.Learned{Semantics: sem, Learning: lr, Theory: lr.Hypothesis.Theory(ex.vocab)})
	}
	poss := row.Semantics[0]
	row.Learning, row.Hypothesis, row.Theory = poss.Learning, poss.Learning.Hypothesis, poss.Theory

	opts.Emit(Event{Subject: d.Name, Step: "evaluate", Message: fmt.Sprintf("scoring the theory on %d test examples", len(ex.test))})
	start := time.Now()
	// The diagnostics decide every test example once; the accuracy is their sum.
	row.Diagnostics = diagnose(row.Theory, row.Network.Atoms, ex.train, ex.test)
	dg := row.Diagnostics
	row.Correct, row.Total = dg.ConsistentCorrect+dg.InconsistentCorrect, dg.Consistent+dg.Inconsistent
	poss.Correct, poss.Total = row.Correct, row.Total
	if len(row.Semantics) > 1 {
		test, err := toExamples(ex.vocab, ex.test)
		if err != nil {
			return nil, err
		}
		for _, l := range row.Semantics[1:] {
			l.Correct, l.Total = learn.Score(l.Learning.Hypothesis, test, opts.Learning.Threads, l.Semantics)
		}
	}
	row.Evaluate = time.Since(start)
	if row.Baseline, err = experiment.Finish(ctx, &opts.Settings, &row.Row, d.Name, dir, ex.trainARFF, ex.testARFF, row.about); err != nil {
		return nil, err
	}
	return row, nil
}
