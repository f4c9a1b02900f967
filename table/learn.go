package table

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
)

// Settings say how to learn from a table. The zero value of a field has no
// effect; Label is required.
type Settings struct {
	// Learner holds the heuristic learner's settings (iterations, timeout,
	// candidates, seed, threads, patience, semantics). Its Timeout bounds
	// the whole of Learn, the choice of iterations included.
	Learner learn.Settings

	Label    string   // the class column
	Features []string // the columns to learn from; nil: DefaultFeatures
	Group    string   // rows with the same value of this column are never split between held-out parts ("" : every row alone)

	// Folds chooses the number of iterations by the learning protocol
	// (learn.Protocol) on held-out training rows (whole groups): with 2 or
	// more on that many folds of a cross-validation, with 1 on one part
	// of share Validation, with 0 not at all (learn up to
	// Learner.Iterations). Each held-out part's theory is learned on its
	// other rows, encoded with the cut points and values of those rows
	// alone, and the held-out rows are scored after every iteration as the
	// task is, one class per row (learn.Answers); the one-standard-error
	// rule applied to the (pooled) curve gives the iterations of the final
	// run on all the training rows.
	Folds int
	// Validation is the share of the training rows one held-out part
	// holds out (Folds 1; 0: none, so nothing is chosen).
	Validation float64
	// ValidationPatience stops a held-out part's run this many iterations
	// after its held-out score last improved (0: never; the command line's
	// default is learn.DefaultValidationPatience).
	ValidationPatience int
	// Literals says which literals of a row's values the learner's
	// situations state (the reasoner's answers do not depend on it).
	Literals Literals
	// PruneShare, with held-out parts, prunes the final theory of the
	// rules too few training rows need, at the support chosen on the
	// held-out parts (learn.Protocol.PruneShare; 0: no pruning).
	PruneShare float64
}

// features returns the feature columns of s for t.
func (s Settings) features(t *Table) ([]string, error) {
	if s.Label == "" {
		return nil, errors.New("table: no class column given")
	}
	features := s.Features
	if features == nil {
		features, _ = DefaultFeatures(t, s.Label, s.Group)
	}
	if len(features) == 0 {
		return nil, fmt.Errorf("%s: no feature columns to learn from", t.Name)
	}
	return features, nil
}

// Learned is a theory learned from a table.
type Learned struct {
	Encoding *Encoding
	Model    *learn.Hypothesis // implied rules removed (learn.Learner.Final), pruned as chosen
	// Theory is the model as a theory (Encoding.Theory), its rules written
	// as rules (RuleForm): conditions -> class.
	Theory *possibilistic.Theory
	// Pruning is what pruning did (Settings.PruneShare); nil without.
	Pruning *learn.Pruning
	// Selection is the cross-validation that chose the number of
	// iterations; nil without Settings.Folds.
	Selection *learn.Selection
	// NoSelection says why Settings.Folds chose nothing, when it did not.
	NoSelection   string
	Iterations    int // the final run's iteration limit
	History       []learn.Iteration
	Stop          learn.Stop
	TrainAccuracy float64 // on the learner's examples (defaults and non-defaults)
	Elapsed       time.Duration
	Examples      int // the final run's examples, counting multiplicities
}

// DefaultFeatures returns every column of t but the class and group
// columns and those that look like identifiers: numbers in which every row
// has its own whole number (a row number), or text with more distinct
// values than half the rows that have one (a name, a key: as categories,
// each would be an atom seen once or twice, and "at most one value" would
// take a hard rule per pair of them); notes says which were left out.
func DefaultFeatures(t *Table, label, group string) (features, notes []string) {
	for _, c := range t.Columns {
		switch {
		case c.Name == label || c.Name == group:
		case identifier(c, t.Rows):
			what := "every row has its own number"
			if !c.Numeric {
				what = fmt.Sprintf("%d distinct values in %d rows", len(c.Values), t.Rows)
			}
			notes = append(notes, fmt.Sprintf("column %q left out of the features: %s, as an identifier (name it among the features to keep it)", c.Name, what))
		default:
			features = append(features, c.Name)
		}
	}
	return features, notes
}

// identifier reports whether c looks like an identifier among the rows:
// whole numbers, one per row, or text with more distinct values than half
// the rows that have a value.
func identifier(c *Column, rows int) bool {
	if rows < 2 {
		return false
	}
	if !c.Numeric {
		present := 0
		for _, code := range c.Codes {
			if code >= 0 {
				present++
			}
		}
		return len(c.Values) > 1 && 2*len(c.Values) > present
	}
	seen := make(map[float64]bool, rows)
	for _, x := range c.Num {
		if math.IsNaN(x) || x != math.Trunc(x) || seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

// Learn learns a theory from the rows of t (all of them when rows is nil)
// by the learning protocol on NewProblem's problem: with s.Folds the number
// of iterations (and with s.PruneShare the support a rule needs) is chosen
// on held-out rows, each held-out part with its own cut points, then the
// theory is learned on all the rows with the encoding fit on them. The
// theory's atoms read as the table's comparisons, and Predict on it answers
// as the learned model does. When ctx is done it returns ctx's error.
func Learn(ctx context.Context, t *Table, rows []int, s Settings) (*Learned, error) {
	start := time.Now()
	p, err := NewProblem(t, rows, s)
	if err != nil {
		return nil, err
	}
	proto := learn.Protocol{Settings: s.Learner, ValidationPatience: s.ValidationPatience, PruneShare: s.PruneShare, Folds: p.Folds}
	e := p.Encoding
	lr := &Learned{Encoding: e, Iterations: s.Learner.Iterations}
	sel, err := learn.Choose(ctx, p.Validation, proto)
	switch {
	case err != nil && ctx.Err() == nil && s.Learner.Timeout > 0 && strings.Contains(err.Error(), "made no iteration"):
		// A fold's share of the time did not finish one iteration: there
		// is no curve to choose on, and the final run learns up to the
		// iteration limit in the time that is left.
		lr.NoSelection = "a held-out part's share of the learning time did not finish one iteration"
		sel = nil
	case err != nil:
		return nil, err
	}
	lr.Selection = sel
	final := proto.Final(sel)
	if sel == nil && lr.NoSelection != "" {
		final.Timeout = max(s.Learner.Timeout-time.Since(start), time.Second)
	}
	lr.Iterations = final.Iterations
	l, err := learn.NewLearner(p.Final, final)
	if err != nil {
		return nil, err
	}
	out, err := proto.Finish(ctx, p.Final, sel, l)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lr.Model, lr.Stop, lr.TrainAccuracy, lr.Pruning = out.Hypothesis, out.Stop, out.TrainAccuracy, out.Pruning
	lr.Theory = e.Theory(lr.Model)
	lr.History, lr.Examples = l.History(), p.Final.Train.Total()
	lr.Elapsed = time.Since(start)
	return lr, nil
}
