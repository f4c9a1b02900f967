package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/spf13/cobra"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
)

// learnProtocol returns the learning protocol of strata learn's flags,
// with its folds drawn from the training examples by whole antecedents.
func learnProtocol(cmd *cobra.Command, f *learnFlags, d *learnData) (learn.Protocol, error) {
	pf := &f.protocol
	proto := learn.Protocol{Settings: pf.settings(f.semantics, f.seed), ValidationPatience: pf.validationPatience, Rule: pf.rule(),
		Restarts: pf.restarts, PruneShare: pf.pruneShare()}
	if !pf.selects() {
		return proto, nil
	}
	var err error
	proto.Folds, err = learn.FoldsByAntecedent(d.train, pf.folds, pf.validation, experiment.Rand(f.seed, experiment.ValidationSplit))
	if err != nil {
		if pf.folds == 1 {
			return proto, fmt.Errorf("--validation %g: %w", pf.validation, err)
		}
		return proto, fmt.Errorf("--folds %d: %w", pf.folds, err)
	}
	fit, held := proto.Folds[0].Train.Total(), proto.Folds[0].Held.Queries().Total()
	if len(proto.Folds) > 1 {
		fmt.Fprintf(cmd.ErrOrStderr(), "choosing the number of iterations by %d-fold cross-validation: learning on about %d examples, validating on about %d, %d times\n",
			len(proto.Folds), fit, held, len(proto.Folds))
	} else {
		fmt.Fprintf(cmd.ErrOrStderr(), "choosing the number of iterations: learning on %d examples, validating on %d\n", fit, held)
	}
	return proto, nil
}

// chooseIterations runs the protocol's validation (learn.Choose) with a
// progress bar and says what it chose; nil without folds.
func chooseIterations(ctx context.Context, cmd *cobra.Command, f *learnFlags, p learn.Problem, proto learn.Protocol) (*learn.Selection, error) {
	if len(proto.Folds) == 0 {
		return nil, nil
	}
	stderr := cmd.ErrOrStderr()
	bar := newProgress(stderr, proto.Settings.Iterations*len(proto.Folds), f.verbose)
	var mu sync.Mutex // folds that run at once report at once
	proto.OnValidation = func(_ int, it learn.Iteration) {
		mu.Lock()
		defer mu.Unlock()
		bar.step(it)
	}
	s, err := learn.Choose(ctx, p, proto)
	bar.finish()
	if err != nil {
		return nil, interruptedValidation(ctx, err)
	}
	fmt.Fprintf(stderr, "validation: best %.4f at iteration %d; chose %d iterations (%.4f, within one standard error %.4f)\n",
		s.BestAccuracy, s.Best, s.Chosen, s.ChosenAccuracy, s.StdErr)
	if note := toLimitsNote(s.Censored(), s.Saturated()); note != "" {
		fmt.Fprintln(stderr, note)
	}
	if sup := s.Support; sup != nil {
		fmt.Fprintf(stderr, "support: pruning clauses that at most %.2f%% of the training examples need (held-out accuracy %.4f; unpruned %.4f)\n",
			100*sup.Share, sup.Accuracy[sup.Chosen], sup.Accuracy[0])
	}
	return s, nil
}

// toLimitsNote says why the final run is not held to the chosen
// iterations, when it is not (learn.Selection.ToLimits).
func toLimitsNote(censored, saturated bool) string {
	switch {
	case censored:
		return "the held-out accuracy was still at its best when the validation's share of --timeout ran out: the final run learns up to --iterations, --patience or the time left"
	case saturated:
		return "every held-out example was right at the chosen iteration: the final run learns until every training example is right, up to --iterations, --patience or the time left"
	}
	return ""
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
