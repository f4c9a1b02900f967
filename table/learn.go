package table

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Settings say how to learn from a table. The zero value of a field has no
// effect or means its default; Label is required.
type Settings struct {
	// Learner holds the heuristic learner's settings (iterations, timeout,
	// candidates, seed, threads, patience, semantics). Its Timeout bounds
	// the whole of Learn, the choice of iterations included.
	Learner learn.Settings

	Label    string   // the class column
	Features []string // the columns to learn from; nil: DefaultFeatures
	Group    string   // rows with the same value of this column are never split between folds ("" : every row alone)

	// Folds, when 2 or more, chooses the number of iterations by the
	// learning protocol (learn.Protocol) on that many folds of the
	// training rows (whole groups): a theory is learned on the other
	// folds, the held-out fold scored after every iteration as the task
	// is, one class per row (learn.Answers), and the one-standard-error
	// rule applied to the pooled curve; the theory is then learned on all
	// the training rows with that many iterations. The cut points are
	// those of all the training rows. 0 or 1: no choice, learn up to
	// Learner.Iterations.
	Folds int
	// ValidationPatience stops a fold's run this many iterations after its
	// held-out score last improved (0: learn.DefaultValidationPatience).
	ValidationPatience int
}

// Learned is a theory learned from a table.
type Learned struct {
	Encoding *Encoding
	Model    *learn.Hypothesis // implied rules removed (learn.Learner.Final), pruned as chosen
	// Theory is the model as a theory, its rules written as rules
	// (RuleForm): conditions -> class.
	Theory *possibilistic.Theory
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
// columns and those that look like identifiers: in which every row has its
// own value, text or whole numbers (a row number); notes says which were
// left out.
func DefaultFeatures(t *Table, label, group string) (features, notes []string) {
	for _, c := range t.Columns {
		switch {
		case c.Name == label || c.Name == group:
		case identifier(c, t.Rows):
			notes = append(notes, fmt.Sprintf("column %q left out of the features: every row has its own value, as an identifier (name it among the features to keep it)", c.Name))
		default:
			features = append(features, c.Name)
		}
	}
	return features, notes
}

// identifier reports whether every one of the rows has its own value in
// c, text or a whole number.
func identifier(c *Column, rows int) bool {
	if rows < 2 {
		return false
	}
	if !c.Numeric {
		return len(c.Values) == rows
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

// Learn learns a theory from the rows of t (all of them when rows is nil):
// the encoding is fit on them (Fit), every row gives a default and a
// non-default (Binding.Examples) and the hard rules say that exactly one
// class holds, a column has one value and thresholds are ordered. With
// s.Folds the number of iterations is chosen by cross-validation on the
// rows. The theory's atoms read as the table's comparisons, and Predict
// on it answers as the learned model does. When ctx is done it returns
// ctx's error.
func Learn(ctx context.Context, t *Table, rows []int, s Settings) (*Learned, error) {
	start := time.Now()
	if rows == nil {
		rows = allRows(t.Rows)
	}
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
	e, p, err := NewProblem(t, rows, s.Label, features, s.Learner.Seed)
	if err != nil {
		return nil, err
	}
	proto := learn.Protocol{Settings: s.Learner, ValidationPatience: s.ValidationPatience}
	if proto.ValidationPatience == 0 {
		proto.ValidationPatience = learn.DefaultValidationPatience
	}
	if s.Folds >= 2 {
		if proto.Folds, err = heldOutFolds(t, e, rows, s); err != nil {
			return nil, err
		}
	}
	lr := &Learned{Encoding: e, Iterations: s.Learner.Iterations}
	sel, err := learn.Choose(ctx, p, proto)
	switch {
	case err != nil && ctx.Err() == nil && s.Learner.Timeout > 0 && strings.Contains(err.Error(), "made no iteration"):
		// A fold's share of the time did not finish one iteration: there
		// is no curve to choose on, and the final run learns up to the
		// iteration limit in the time that is left.
		lr.NoSelection = "a fold's share of the learning time did not finish one iteration"
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
	l, err := learn.NewLearner(p, final)
	if err != nil {
		return nil, err
	}
	out, err := proto.Finish(ctx, p, sel, l)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lr.Model, lr.Stop, lr.TrainAccuracy = out.Hypothesis, out.Stop, out.TrainAccuracy
	lr.Theory = RuleForm(lr.Model.Theory(e.Vocab), s.Label)
	lr.History, lr.Examples = l.History(), p.Train.Total()
	lr.Elapsed = time.Since(start)
	return lr, nil
}

// NewProblem returns the learner's problem of the rows of t (all of them
// when rows is nil) and its encoding: the encoding fit on the rows (Fit),
// a default and a non-default per row (Binding.Examples, the non-default's
// class drawn with the seed), and the encoding's hard rules (Hard). The
// server and Learn both learn from it.
func NewProblem(t *Table, rows []int, label string, features []string, seed uint64) (*Encoding, learn.Problem, error) {
	if rows == nil {
		rows = allRows(t.Rows)
	}
	e, err := Fit(t, label, features, rows)
	if err != nil {
		return nil, learn.Problem{}, err
	}
	b, err := e.Bind(t)
	if err != nil {
		return nil, learn.Problem{}, err
	}
	train, err := b.Examples(rows, rand.New(rand.NewPCG(seed, 0x7ab1e)))
	if err != nil {
		return nil, learn.Problem{}, err
	}
	return e, learn.Problem{Vocab: e.Vocab, Train: train, Hard: e.Hard()}, nil
}

// heldOutFolds returns the folds of Settings.Folds for the learning
// protocol: each learns from the other folds' defaults and non-defaults
// and is scored the way the task is, one class per held-out row
// (learn.Answers: right when the hypothesis covers the row's class alone).
// The rows are encoded with e, fit on all the training rows.
func heldOutFolds(t *Table, e *Encoding, rows []int, s Settings) ([]learn.Fold, error) {
	folds, err := Folds(t, rows, s.Folds, s.Label, s.Group, s.Learner.Seed)
	if err != nil {
		return nil, err
	}
	b, err := e.Bind(t)
	if err != nil {
		return nil, err
	}
	atoms := e.ClassAtoms()
	var out []learn.Fold
	for f, held := range folds {
		fitEx, err := b.Examples(Complement(rows, held), rand.New(rand.NewPCG(s.Learner.Seed, uint64(f+1))))
		if err != nil {
			return nil, err
		}
		var sits []logic.Term
		var targets []logic.Atom
		for _, r := range held {
			sits = append(sits, b.Situation(r))
			targets = append(targets, atoms[b.Class(r)])
		}
		task, err := learn.NewAnswers(atoms, sits, targets)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		out = append(out, learn.Fold{Train: fitEx, Held: task})
	}
	return out, nil
}

// Folds splits rows into k folds for cross-validation, with the seed: rows
// of one group (equal values of the group column) stay together and the
// groups are dealt to the folds in a random order; without a group column
// the rows of each class are dealt in turn (stratified), so that every fold
// has about the class shares of the whole.
func Folds(t *Table, rows []int, k int, label, group string, seed uint64) ([][]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("%d folds: need at least 2", k)
	}
	rng := rand.New(rand.NewPCG(seed, 0xf01d5))
	folds := make([][]int, k)
	if group != "" {
		gc := t.Column(group)
		if gc == nil {
			return nil, fmt.Errorf("%s: no group column %q", t.Name, group)
		}
		byGroup := map[string][]int{}
		var names []string
		for _, r := range rows {
			g := gc.Value(r)
			if _, ok := byGroup[g]; !ok {
				names = append(names, g)
			}
			byGroup[g] = append(byGroup[g], r)
		}
		if len(names) < k {
			return nil, fmt.Errorf("%s: %d groups in column %q are too few for %d folds", t.Name, len(names), group, k)
		}
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		// Deal each group to the fold with the fewest rows so far, so that
		// folds are about equal in rows and not only in groups.
		for _, g := range names {
			f := 0
			for i := range folds {
				if len(folds[i]) < len(folds[f]) {
					f = i
				}
			}
			folds[f] = append(folds[f], byGroup[g]...)
		}
	} else {
		if len(rows) < k {
			return nil, fmt.Errorf("%s: %d rows are too few for %d folds", t.Name, len(rows), k)
		}
		byClass := map[string][]int{}
		var classes []string
		lc := t.Column(label)
		for _, r := range rows {
			c := ""
			if lc != nil {
				c = lc.Value(r)
			}
			if _, ok := byClass[c]; !ok {
				classes = append(classes, c)
			}
			byClass[c] = append(byClass[c], r)
		}
		slices.Sort(classes)
		next := 0
		for _, c := range classes {
			rs := byClass[c]
			rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
			for _, r := range rs {
				folds[next] = append(folds[next], r)
				next = (next + 1) % k
			}
		}
	}
	for i := range folds {
		slices.Sort(folds[i])
	}
	return folds, nil
}

// Complement returns the rows not in held (which is sorted).
func Complement(rows, held []int) []int {
	out := make([]int, 0, len(rows)-len(held))
	for _, r := range rows {
		if _, ok := slices.BinarySearch(held, r); !ok {
			out = append(out, r)
		}
	}
	return out
}
