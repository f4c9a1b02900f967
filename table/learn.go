package table

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
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
	// Variant says how the rows are encoded for the learner: the cut
	// points and the literals of a situation.
	Variant Variant
	// Variants, with held-out parts, are encodings to choose among: each
	// is validated on the same held-out parts with an equal share of the
	// validation time, and the one whose held-out accuracy at its chosen
	// iteration is the highest (the first on a tie) is learned on all the
	// training rows. Variant is then ignored.
	Variants []Variant
	// Rule chooses the number of iterations on the held-out curve
	// (learn.Protocol.Rule; the zero value is the one-standard-error
	// rule).
	Rule learn.Rule
	// Restarts, with held-out parts, is the number of final runs, each
	// with its own seed, of which the one with the best training score is
	// kept (learn.Protocol.Restarts; 0 or 1: one run).
	Restarts int
	// PruneShare, with held-out parts, prunes the final theory of the
	// rules too few training rows need, at the support chosen on the
	// held-out parts (learn.Protocol.PruneShare; 0: no pruning).
	PruneShare float64
}

// DefaultGrow is the number of candidates per iteration grown by
// information gain (learn.Settings.Grow) of strata learn --table, bench
// tabular and the server's tables. Measured on training rows only (each
// split's theory learned on two thirds of its training rows and scored on
// the other third, under linear and lex): on adult, nursery and
// page_blocks (two splits each) and pendigits (its split), where the data
// are many and the minute binds, 10 grown candidates were more accurate in
// 10 of 14 runs and less in 4, by 0.4 points on average (pendigits +2.0,
// adult +0.1, nursery +0.2, page_blocks +0.1); on the first nine splits of
// the 13 tables of at most 3,200 rows, more in 87 of 234 runs and less in
// 88, by −0.09 points (breastw and voting gained in each batch of three
// splits, wine and heart, the two smallest, lost in two of three).
const DefaultGrow = 10

// DefaultTally is learn.Settings.Tally of strata learn --table, bench
// tabular and the server's tables: under lex, a level of one-literal rules
// that vote is a candidate of the first iteration and of the powers of
// two. Measured on training rows only (each split's theory learned on two
// thirds of its training rows and scored on the other third, lex): on
// the first nine splits of the 13 tables of at most 3,200 rows, more
// accurate in 47 of 105 runs and less in 30, by +1.15 points on average
// (wine +5.1, heart +2.6, kidney +2.1, ionosphere +1.6, breastw +1.1;
// ecoli −0.4, credit −0.1); on two splits of adult, nursery and page_blocks
// and pendigits' one, +0.1 (pendigits +1.3, adult −0.35).
const DefaultTally = true

// Variant is a way to encode a table's rows for the learner. The zero
// value has the cut points of the MDL criterion and states every
// threshold's literal and a categorical value's atom.
type Variant struct {
	// MinCuts gives a numeric column at least this many cut points where
	// its training rows have that many boundary points: beyond those the
	// MDL criterion pays for, the best of the recursive partition by
	// information gain (0: MDL's alone).
	MinCuts int
	// Literals says which literals of a row's values the learner's
	// situations state (the reasoner's answers do not depend on it).
	Literals Literals
}

// String names the variant as the command line's --variants does.
func (v Variant) String() string {
	var parts []string
	if v.MinCuts > 0 {
		parts = append(parts, fmt.Sprintf("cuts>=%d", v.MinCuts))
	} else {
		parts = append(parts, "mdl")
	}
	if v.Literals.Nearest {
		parts = append(parts, "nearest")
	}
	if v.Literals.Unequal {
		parts = append(parts, "unequal")
	}
	return strings.Join(parts, "+")
}

// ParseVariant reads a variant as String writes it: "mdl" or "cuts>=K",
// then optionally "+nearest" and "+unequal".
func ParseVariant(s string) (Variant, error) {
	var v Variant
	for i, part := range strings.Split(s, "+") {
		switch {
		case i == 0 && part == "mdl":
		case i == 0 && strings.HasPrefix(part, "cuts>="):
			k, err := strconv.Atoi(strings.TrimPrefix(part, "cuts>="))
			if err != nil || k < 1 {
				return v, fmt.Errorf("variant %q: cuts>=K takes a positive whole K", s)
			}
			v.MinCuts = k
		case i > 0 && part == "nearest" && !v.Literals.Nearest:
			v.Literals.Nearest = true
		case i > 0 && part == "unequal" && !v.Literals.Unequal:
			v.Literals.Unequal = true
		default:
			return v, fmt.Errorf("variant %q: want mdl or cuts>=K, then +nearest, +unequal", s)
		}
	}
	return v, nil
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
	// Model is the final run's hypothesis: implied rules removed
	// (learn.Learner.Final), pruned as chosen, and the most frequent
	// training class alone at its lowest level unless a level decides the
	// class already, with below it the less frequent classes that answer
	// a training row right the levels above leave with no class
	// (learn.Problem.Fallback).
	Model *learn.Hypothesis
	// Theory is the model as a theory (Encoding.Theory), its rules written
	// as rules (RuleForm): conditions -> class.
	Theory *possibilistic.Theory
	// Pruning is what pruning did (Settings.PruneShare); nil without.
	Pruning *learn.Pruning
	// Selection is the cross-validation that chose the number of
	// iterations; nil without Settings.Folds.
	Selection *learn.Selection
	// Variant is the encoding learned with: Settings.Variant, or the
	// variant of Settings.Variants the held-out parts chose; Tried holds
	// each variant's validation then, in the order of Settings.Variants.
	Variant Variant
	Tried   []Tried
	// NoSelection says why Settings.Folds chose nothing, when it did not.
	NoSelection string
	Iterations  int // the final run's iteration limit
	// Runs is the number of final runs (Settings.Restarts), Kept the one
	// kept, counted from 0.
	Runs, Kept    int
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
	// Not sized for every row: most numeric columns repeat a value within
	// their first rows and are no identifier.
	seen := map[float64]bool{}
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
	lr := &Learned{Iterations: s.Learner.Iterations}
	p, sel, err := choose(ctx, t, rows, s, lr)
	if err != nil {
		return nil, err
	}
	e := p.Encoding
	lr.Encoding, lr.Selection = e, sel
	proto := s.protocol(p.Folds)
	final := proto.Final(sel)
	if s.Learner.Timeout > 0 {
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
	lr.History, lr.Examples, lr.Runs, lr.Kept = out.Learner.History(), p.Final.Train.Total(), out.Runs, out.Kept
	lr.Elapsed = time.Since(start)
	return lr, nil
}

// protocol returns the learning protocol of s on the held-out parts folds.
func (s Settings) protocol(folds []learn.Fold) learn.Protocol {
	return learn.Protocol{Settings: s.Learner, Folds: folds, ValidationPatience: s.ValidationPatience, Rule: s.Rule,
		Restarts: s.Restarts, PruneShare: s.PruneShare}
}

// Tried is the validation of one of Settings.Variants.
type Tried struct {
	Variant   Variant
	Selection *learn.Selection // nil when the validation chose nothing (NoSelection says why)
	// NoSelection says why the validation chose nothing, when it did not.
	NoSelection string
}

// choose returns the problem to learn (of the variant the held-out parts
// chose, with Settings.Variants) and the selection of its iterations,
// filling in lr's Variant, Tried and NoSelection.
func choose(ctx context.Context, t *Table, rows []int, s Settings, lr *Learned) (*Problem, *learn.Selection, error) {
	variants := s.Variants
	if len(variants) == 0 {
		variants = []Variant{s.Variant}
	}
	var best *Problem
	var bestSel *learn.Selection
	for i, v := range variants {
		sv := s
		sv.Variant = v
		p, err := NewProblem(t, rows, sv)
		if err != nil {
			return nil, nil, err
		}
		proto := s.protocol(p.Folds)
		// Every variant's validation has an equal share of the time the
		// protocol gives validation.
		proto.Settings.Timeout /= time.Duration(len(variants))
		sel, err := learn.Choose(ctx, p.Validation, proto)
		tried := Tried{Variant: v, Selection: sel}
		switch {
		case err != nil && ctx.Err() == nil && s.Learner.Timeout > 0 && strings.Contains(err.Error(), "made no iteration"):
			// A held-out part's share of the time did not finish one
			// iteration: there is no curve to choose on, and the final
			// run learns up to the iteration limit in the time left.
			tried.NoSelection = "a held-out part's share of the learning time did not finish one iteration"
			tried.Selection, sel = nil, nil
		case err != nil:
			return nil, nil, err
		}
		lr.Tried = append(lr.Tried, tried)
		if i == 0 || sel != nil && (bestSel == nil || sel.ChosenAccuracy > bestSel.ChosenAccuracy) {
			best, bestSel = p, sel
			lr.Variant, lr.NoSelection = v, tried.NoSelection
		}
	}
	if len(s.Variants) == 0 {
		lr.Tried = nil
	}
	return best, bestSel, nil
}

// Fallbacks returns how many of the model's rules are its fallback
// (learn.Problem.Fallback): the classes alone at its lowest levels, which
// answer the rows no other rule decides. A learner that writes rules for
// one class only, as FOLD-R++ does, gives that answer with no rule at all
// (the other class holds by negation as failure), so its rule counts
// compare with the model's rules less these.
func (lr *Learned) Fallbacks() int {
	classes := lr.Encoding.ClassAtoms()
	n := 0
	for _, lv := range lr.Model.Levels { // lowest first
		if len(lv) != 1 || len(lv[0]) != 1 || lv[0][0].IsNeg() || !slices.Contains(classes, lv[0][0].Atom()) {
			break
		}
		n++
	}
	return n
}
