package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/spf13/cobra"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
)

// chooseIterations sets f.opts.Iterations by learning on part of the
// training examples and validating on the rest (learn.ChooseIterations),
// or on every fold (learn.ChooseIterationsCV) with --folds.
func chooseIterations(ctx context.Context, cmd *cobra.Command, f *learnFlags, d *learnData) error {
	var fits, helds []*learn.Examples
	stderr := cmd.ErrOrStderr()
	if f.folds > 0 {
		var err error
		if fits, helds, err = experiment.FoldsByAntecedent(d.train, f.folds, f.seed); err != nil {
			return fmt.Errorf("--folds: %w", err)
		}
		fmt.Fprintf(stderr, "choosing the number of iterations by %d-fold cross-validation: learning on about %d examples, validating on about %d, %d times\n",
			f.folds, fits[0].Total(), helds[0].Total(), f.folds)
	} else {
		fit, held := experiment.HoldOutByAntecedent(d.train, f.validation, f.seed)
		if len(fit.List) == 0 || len(held.List) == 0 {
			return fmt.Errorf("--validation %g leaves no examples on one side", f.validation)
		}
		fits, helds = []*learn.Examples{fit}, []*learn.Examples{held}
		fmt.Fprintf(stderr, "choosing the number of iterations: learning on %d examples, validating on %d\n", fit.Total(), held.Total())
	}
	opts := f.opts
	opts.Patience = -1
	var folds []learn.Validation
	bar := newProgress(stderr, opts.Iterations*len(fits), f.verbose)
	var mu sync.Mutex // folds that run at once report at once
	step := func(it learn.Iteration) {
		mu.Lock()
		defer mu.Unlock()
		bar.step(it)
	}
	for i := range fits {
		folds = append(folds, learn.Validation{Problem: learn.Problem{Vocab: d.vocab, Train: fits[i], Hard: d.hard, Test: helds[i]},
			Settings: opts, Patience: 10, OnIteration: step})
	}
	s, err := learn.ChooseIterationsCV(ctx, learn.CrossValidation{Folds: folds})
	bar.finish()
	if err != nil {
		return interruptedValidation(ctx, err)
	}
	fmt.Fprintf(stderr, "validation: best %.4f at iteration %d; chose %d iterations (%.4f, within one standard error %.4f)\n",
		s.BestAccuracy, s.Best, s.Chosen, s.ChosenAccuracy, s.StdErr)
	f.opts.Iterations = max(s.Chosen, 1)
	if !f.prune || s.Chosen == 0 {
		return nil
	}
	sup, err := learn.ChooseSupportCV(ctx, folds, s, experiment.MaxSupportShare)
	if err != nil {
		return interruptedValidation(ctx, err)
	}
	fmt.Fprintf(stderr, "support: pruning clauses that at most %.2f%% of the training examples need (held-out accuracy %.4f; unpruned %.4f)\n",
		100*sup.Share, sup.Accuracy[sup.Chosen], sup.Accuracy[0])
	f.support = sup
	return nil
}

// pruneFinal removes from m the clauses that at most the share of the
// training examples chosen by --prune need, and returns the pruned model
// with its training accuracy.
func pruneFinal(ctx context.Context, w io.Writer, f *learnFlags, d *learnData, m *learn.Hypothesis) (*learn.Hypothesis, float64, error) {
	t := f.support.Threshold(d.train.Total())
	pruned, err := learn.PruneSupport(ctx, learn.Problem{Vocab: d.vocab, Train: d.train, Hard: d.hard}, m, f.opts, t)
	if err != nil {
		return nil, 0, err
	}
	c, total := learn.Score(pruned, d.train, f.opts.Threads, f.opts.Semantics)
	fmt.Fprintf(w, "pruned the clauses that at most %d of the %d training examples need: %d → %d literals\n",
		t, d.train.Total(), m.NumLiterals(), pruned.NumLiterals())
	return pruned, float64(c) / float64(max(total, 1)), nil
}

// interruptedValidation says, when Ctrl-C ended the validation phase, that
// nothing was written: the theory and the checkpoint come from the final
// run, which had not started.
func interruptedValidation(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	return errors.New("interrupted while choosing the number of iterations, before the final run: no theory or checkpoint written (start again to choose them)")
}
