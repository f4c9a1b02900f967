package repro

import (
	"context"
	"fmt"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
)

// Learning says how a domain's theory was learned; its Validation's
// HeldOut are the held-out training annotators.
type Learning = experiment.Learning

// Validation is the choice of the number of iterations on held-out
// training annotators.
type Validation = experiment.Validation

// learnTheory chooses the number of iterations on held-out training
// annotators and learns the theory on all of them (learn.Learn).
func learnTheory(ctx context.Context, opts *Options, d Domain, ds *crowd.Datasets, dir string, sem possibilistic.Semantics) (*Learning, error) {
	tp, tn := ds.TrainPos, ds.TrainNeg
	if opts.Typical {
		tp, tn = crowd.TypicalExamples(ds.Vocab, ds.Actions, ds.Split.Train, learn.RandFor(opts.Seed, learn.ForTrainingExamples))
	}
	train, err := learn.FromRules(ds.Vocab, tp, tn)
	if err != nil {
		return nil, err
	}
	p := learn.Problem{Vocab: ds.Vocab, Train: train, Hard: ds.Hard}
	return experiment.Learn(ctx, &opts.Settings, sem, d.Name, p, &annotators{opts: opts, ds: ds}, dir)
}

// annotators holds out training annotators: with opts.Learning.Folds 2 or
// more in that many folds, with 1 a share of them. Each part learns from
// the others' examples, drawn as the final run's are, and is scored as the
// test is: the most typical action of each of its situations (crowd.Task).
type annotators struct {
	opts *Options
	ds   *crowd.Datasets
}

func (h *annotators) Items(int) learn.Items {
	names := make([]string, len(h.ds.Split.Train))
	for i, a := range h.ds.Split.Train {
		names[i] = a.Annotator
	}
	return learn.Items{Group: names, What: "annotators", Rand: learn.RandFor(h.opts.Seed, learn.ForValidationSplit)}
}

func (h *annotators) Folds(held [][]int) ([]learn.Fold, error) {
	ds := h.ds
	rng := learn.RandFor(h.opts.Seed, learn.ForValidationExamples)
	examples := crowd.Examples
	if h.opts.Typical {
		examples = crowd.TypicalExamples
	}
	var out []learn.Fold
	for _, hp := range held {
		fitAnswers, heldAnswers := learn.Apart(ds.Split.Train, hp)
		fp, fn := examples(ds.Vocab, ds.Actions, fitAnswers, rng)
		fit, err := learn.FromRules(ds.Vocab, fp, fn)
		if err != nil {
			return nil, err
		}
		task, err := crowd.Task(ds.Vocab, ds.Actions, heldAnswers)
		if err != nil {
			return nil, err
		}
		out = append(out, learn.Fold{Train: fit, Held: task})
	}
	return out, nil
}

func (h *annotators) What() string         { return "annotators" }
func (h *annotators) Scored() string       { return "situations" }
func (h *annotators) Name(a string) string { return a }
func (h *annotators) Skipped(err error) string {
	return fmt.Sprintf("%d training annotators: %v", len(crowd.Annotators(h.ds.Split.Train)), err)
}
