package table

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/learn"
)

// Settings say how to learn from a table: how its rows are encoded, and
// how the encoding is learned (Learning). The zero value, with Label, is
// strata learn --table with no flags; Label is required.
type Settings struct {
	// Learning says how Learn learns (learn.Settings): the learner's runs
	// and the protocol, whose held-out parts are rows (whole groups of
	// Group). Its zero value is learn's default, but that a table's
	// problem grows DefaultGrow candidates an iteration (Grow 0) and tries
	// a level of votes under lex (Tally: on unless switched off);
	// Learning.Timeout bounds the whole of Learn.
	Learning learn.Settings

	Label    string   // the class column
	Features []string // the columns to learn from; nil: DefaultFeatures
	Group    string   // rows with the same value of this column are never split between held-out parts ("" : every row alone, stratified by class)

	// Variant says how the rows are encoded for the learner: the cut
	// points and the literals of a situation.
	Variant Variant
	// Variants, with held-out parts, are encodings to choose among: each
	// is validated on the same held-out parts with an equal share of the
	// validation time, and the one whose held-out accuracy at its chosen
	// iteration is the highest (the first on a tie) is learned on all the
	// training rows (learn.Problem.Alternatives). Variant is then ignored.
	Variants []Variant
}

// learning returns s.Learning with a table's defaults in its zero fields.
func (s Settings) learning() learn.Settings { return Learning(s.Learning) }

// Learning returns the settings a table's problem learns with under l: l
// with the defaults of a table's problem in its zero fields (DefaultGrow,
// DefaultTally), for a report that says what a run learned with.
func Learning(l learn.Settings) learn.Settings {
	if l.Grow == 0 {
		l.Grow = DefaultGrow
	}
	if l.Tally == learn.SwitchDefault {
		l.Tally = learn.SwitchOn
	}
	return l
}

// DefaultGrow is the number of candidates per iteration grown by
// information gain (learn.Settings.Grow) of a table's problem: what a zero
// Settings.Learning.Grow grows. Measured on training rows only (each
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

// DefaultTally is learn.Settings.Tally of a table's problem, what its
// default switch means: under lex, a level of one-literal rules that vote
// is a candidate of the first iteration and of the powers of two. Measured on training rows only (each split's theory learned on two
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

// ParseVariants reads a comma-separated list of variants (ParseVariant),
// each once, as strata learn --variants takes it.
func ParseVariants(s string) ([]Variant, error) {
	var out []Variant
	for _, w := range strings.Split(s, ",") {
		v, err := ParseVariant(strings.TrimSpace(w))
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
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
	// Result is what learn.Learn learned: its Hypothesis (implied rules
	// removed, pruned as chosen, and the most frequent training class
	// alone at its lowest level unless a level decides the class already,
	// with below it the less frequent classes that answer a training row
	// right the levels above leave with no class: learn.Problem.Fallback)
	// and its Theory, the hypothesis over the table's comparisons
	// (Encoding.Theory), its rules written as rules (RuleForm): conditions
	// -> class.
	*learn.Result
	// Encoding is the encoding learned with, and Variant its variant:
	// Settings.Variant, or the variant of Settings.Variants the held-out
	// parts chose; Tried holds each variant's validation then, in the
	// order of Settings.Variants.
	Encoding *Encoding
	Variant  Variant
	Tried    []Tried
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
// by learn.Learn on NewProblem's problem: with held-out parts
// (Learning.Folds) the number of iterations (and with Learning.Prune the
// support a rule needs) is chosen on held-out rows, each held-out part with
// its own cut points, then the theory is learned on all the rows with the
// encoding fit on them. The theory's atoms read as the table's
// comparisons, and Predict on it answers as the learned model does. When
// ctx is done during the validation it returns ctx's error; during the
// final run, what learn.Learn returns then. rec may be nil. Learn is
// NewPlan and Plan.Learn.
func Learn(ctx context.Context, t *Table, rows []int, s Settings, rec learn.Recorder) (*Learned, error) {
	p, err := NewPlan(t, rows, s)
	if err != nil {
		return nil, err
	}
	return p.Learn(ctx, rec)
}

// A Plan is a table's learning run checked and ready (learn.Plan): its
// rows encoded, its held-out parts drawn and encoded.
type Plan struct {
	*learn.Plan
	problem  *Problem
	variants []Variant
}

// NewPlan encodes the rows of t (all of them when rows is nil) under s
// (NewProblem) and checks the settings against them (learn.NewPlan): an
// error of the settings, or of settings that do not fit the rows (too few
// groups for the folds: ErrTooFew), is a *learn.SettingsError naming the
// field of Settings.Learning, or "Variants".
func NewPlan(t *Table, rows []int, s Settings) (*Plan, error) {
	if err := s.Learning.Validate(); err != nil {
		return nil, err
	}
	if parts, _ := s.Learning.Parts(); len(s.Variants) > 1 && parts == 0 {
		return nil, &learn.SettingsError{Field: "Variants",
			Reason: "{Variants} with more than one chooses among them on held-out rows: give {Folds} or {Validation} too"}
	}
	p, err := NewProblem(t, rows, s)
	if err != nil {
		return nil, err
	}
	lp, err := learn.NewPlan(p.Learn, s.learning())
	if err != nil {
		return nil, err
	}
	variants := s.Variants
	if len(variants) == 0 {
		variants = []Variant{s.Variant}
	}
	return &Plan{Plan: lp, problem: p, variants: variants}, nil
}

// Learn runs the plan (see Learn).
func (p *Plan) Learn(ctx context.Context, rec learn.Recorder) (*Learned, error) {
	res, err := p.Plan.Learn(ctx, rec)
	if err != nil {
		return nil, err
	}
	lr := &Learned{Result: res, Encoding: p.problem.Encodings[res.Alternative], Variant: p.variants[res.Alternative]}
	for i, tr := range res.Tried {
		lr.Tried = append(lr.Tried, Tried{Variant: p.variants[i], Selection: tr.Selection, NoSelection: tr.NoSelection})
	}
	return lr, nil
}

// Problem returns the problem the plan learns.
func (p *Plan) Problem() *Problem { return p.problem }

// Tried is the validation of one of Settings.Variants.
type Tried struct {
	Variant   Variant
	Selection *learn.Selection // nil when the validation chose nothing (NoSelection says why)
	// NoSelection says why the validation chose nothing, when it did not.
	NoSelection string
}

// Fallbacks returns how many of the hypothesis's rules are its fallback
// (learn.Problem.Fallback): the classes alone at its lowest levels, which
// answer the rows no other rule decides. A learner that writes rules for
// one class only, as FOLD-R++ does, gives that answer with no rule at all
// (the other class holds by negation as failure), so its rule counts
// compare with the hypothesis's rules less these.
func (lr *Learned) Fallbacks() int {
	classes := lr.Encoding.ClassAtoms()
	n := 0
	for _, lv := range lr.Hypothesis.Levels { // lowest first
		if len(lv) != 1 || len(lv[0]) != 1 || lv[0][0].IsNeg() || !slices.Contains(classes, lv[0][0].Atom()) {
			break
		}
		n++
	}
	return n
}
