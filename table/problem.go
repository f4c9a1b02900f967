package table

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

// Problem is what Learn learns from the training rows of a table: the
// problem of each encoding to choose among (Settings.Variants), over the
// encoding fit on all the rows, whose held-out parts are each encoded on
// their own training rows alone, so that no cut point and no value is
// chosen with the rows it is scored on.
type Problem struct {
	// Encodings are the encodings fit on all the training rows, one per
	// variant (Settings.Variant, or each of Settings.Variants).
	Encodings []*Encoding
	// Learn is the problem of the first encoding, with the others as its
	// alternatives (learn.Problem.Alternatives): a default and a
	// non-default per training row, the encoding's hard rules as the
	// learner reasons with them (LearnerHard), the classes from the most
	// frequent as fallbacks, and the held-out parts of Settings.Folds
	// (Holdout: whole groups of Settings.Group, or rows stratified by
	// class), each learned on its own encoding and scored as the task is,
	// one class per row (learn.Answers).
	Learn learn.Problem
}

// NewProblem returns the problem of the rows of t (all of them when rows
// is nil) under the settings s (Label, Features, Group, Variant or
// Variants and the learner's seed): the encoding fit on the rows (Fit), a
// default and a non-default per row (Binding.Examples, the non-default's
// class drawn with the seed), the final theory's default classes (from
// the most frequent of the rows: learn.Problem.Fallback), and how its
// rows are held out.
func NewProblem(t *Table, rows []int, s Settings) (*Problem, error) {
	if rows == nil {
		rows = allRows(t.Rows)
	}
	features, err := s.features(t)
	if err != nil {
		return nil, err
	}
	if s.Group != "" && t.Column(s.Group) == nil {
		return nil, fmt.Errorf("%s: no group column %q", t.Name, s.Group)
	}
	variants := s.Variants
	if len(variants) == 0 {
		variants = []Variant{s.Variant}
	}
	seed := s.Learning.SeedOrDefault()
	p := &Problem{}
	var problems []learn.Problem
	for _, v := range variants {
		e, train, err := encode(t, rows, s.Label, features, v.Literals, v.MinCuts, &logic.Vocabulary{}, rand.New(rand.NewPCG(seed, 0x7ab1e)))
		if err != nil {
			return nil, err
		}
		fb, err := fallback(e, t, rows)
		if err != nil {
			return nil, err
		}
		p.Encodings = append(p.Encodings, e)
		problems = append(problems, learn.Problem{Vocab: e.Vocab, Train: train, Hard: e.LearnerHard(), Fallback: fb, Render: e.Theory,
			Holdout: &holdout{t: t, rows: rows, label: s.Label, group: s.Group, features: features, variant: v, seed: seed}})
	}
	p.Learn = problems[0]
	p.Learn.Alternatives = problems[1:]
	return p, nil
}

// holdout holds out a table's rows for learn.Learn: whole groups of the
// group column, or without one rows stratified by class, each part
// encoded on its own training rows.
type holdout struct {
	t            *Table
	rows         []int
	label, group string
	features     []string
	variant      Variant
	seed         uint64
}

// Items returns the rows with their groups, or their classes as strata;
// their order is drawn with the seed, on a stream of its own for folds and
// for one held-out part.
func (h *holdout) Items(parts int) learn.Items {
	stream := uint64(0xf01d5)
	if parts == 1 {
		stream = 0x4e1d
	}
	it := learn.Items{Rand: rand.New(rand.NewPCG(h.seed, stream)), What: "rows"}
	if h.group != "" {
		gc := h.t.Column(h.group)
		it.Group, it.What = make([]string, len(h.rows)), fmt.Sprintf("groups in column %q", h.group)
		for i, r := range h.rows {
			it.Group[i] = gc.Value(r)
		}
		return it
	}
	lc := h.t.Column(h.label)
	it.Stratum = make([]string, len(h.rows))
	for i, r := range h.rows {
		if lc != nil {
			it.Stratum[i] = lc.Value(r)
		}
	}
	return it
}

// Folds encodes the held-out parts: each on its own training rows, in one
// vocabulary whose hard rules (those of the union of the parts'
// encodings) hold in each part's worlds restricted to its own atoms, so
// that a part reasons as with its own hard rules alone.
func (h *holdout) Folds(parts [][]int) ([]learn.Fold, error) {
	held := make([][]int, len(parts))
	for f, items := range parts {
		for _, i := range items {
			held[f] = append(held[f], h.rows[i])
		}
		slices.Sort(held[f])
	}
	v := &logic.Vocabulary{}
	var es []*Encoding
	var folds []learn.Fold
	lits := h.variant.Literals
	for f, hr := range held {
		fe, fitEx, err := encode(h.t, Complement(h.rows, hr), h.label, h.features, lits, h.variant.MinCuts, v, rand.New(rand.NewPCG(h.seed, uint64(f+1))))
		if err != nil {
			return nil, fmt.Errorf("held-out part %d: %w", f+1, err)
		}
		es = append(es, fe)
		folds = append(folds, learn.Fold{Train: fitEx})
	}
	u := union(es)
	classes := u.ClassAtoms()
	lc := h.t.Column(h.label)
	sits := make([][]logic.Term, len(held))
	targets := make([][]logic.Atom, len(held))
	for f, hr := range held {
		b, err := es[f].Bind(h.t)
		if err != nil {
			return nil, err
		}
		b.Literals = lits
		for _, r := range hr {
			sits[f] = append(sits[f], b.Situation(r))
			// A class that only held-out rows have is one no hypothesis
			// of the fold answers: its rows count as wrong.
			a := u.classAtom(lc.Value(r))
			if !slices.Contains(classes, a) {
				classes = append(classes, a)
			}
			targets[f] = append(targets[f], a)
		}
	}
	hard := u.LearnerHard()
	for f := range held {
		task, err := learn.NewAnswers(classes, sits[f], targets[f])
		if err != nil {
			return nil, fmt.Errorf("held-out part %d: %w", f+1, err)
		}
		folds[f].Held, folds[f].Vocab, folds[f].Hard = task, v, hard
	}
	return folds, nil
}

// fallback returns the unit clauses of the classes from the one most of
// rows have to the one fewest have (e.Classes' order on a tie), the final
// theory's lowest levels (learn.Problem.Fallback): the answer of a row its
// rules leave undecided, as FOLD's default class and a tree's majority
// leaf give one, and the prior among the classes they leave open. A row
// scored against its class has one, so a row answered no class is wrong
// and the fallback can only turn wrong rows right.
func fallback(e *Encoding, t *Table, rows []int) ([]logic.Clause, error) {
	y, classes, err := classesOf(t, t.Column(e.Label), rows) // fit read the same classes
	if err != nil {
		return nil, err
	}
	counts := make([]int, len(classes))
	for _, c := range y {
		counts[c]++
	}
	order := make([]int, len(classes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return counts[b] - counts[a] })
	out := make([]logic.Clause, len(order))
	for i, c := range order {
		out[i] = logic.Clause{logic.Pos(e.classAtom(classes[c]))}
	}
	return out, nil
}

// encode fits the encoding of rows with its atoms in v and returns it with
// the rows' examples, whose situations state lits.
func encode(t *Table, rows []int, label string, features []string, lits Literals, minCuts int, v *logic.Vocabulary, rng *rand.Rand) (*Encoding, *learn.Examples, error) {
	e, err := fit(t, label, features, rows, minCuts, v)
	if err != nil {
		return nil, nil, err
	}
	b, err := e.Bind(t)
	if err != nil {
		return nil, nil, err
	}
	b.Literals = lits
	ex, err := b.Examples(rows, rng)
	if err != nil {
		return nil, nil, err
	}
	return e, ex, nil
}

// Folds splits rows into k folds for cross-validation, with the seed, as
// Learn's held-out parts are split (learn.SplitItems): rows of one group
// (equal values of the group column) stay together and the groups are
// dealt to the folds in a random order; without a group column the rows of
// each class are dealt in turn (stratified), so that every fold has about
// the class shares of the whole.
func Folds(t *Table, rows []int, k int, label, group string, seed uint64) ([][]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("%d folds: need at least 2", k)
	}
	return split(t, rows, k, 0, label, group, seed)
}

// HoldOut returns the rows held out of rows for one held-out part of the
// given share, with the seed, as Learn's held-out part is drawn: whole
// groups of the group column, drawn in a random order until they hold the
// share of the rows; without a group column, that share of the rows of
// each class (stratified). The part and the rest are never empty.
func HoldOut(t *Table, rows []int, share float64, label, group string, seed uint64) ([]int, error) {
	if !(share > 0 && share < 1) {
		return nil, fmt.Errorf("held-out share %v outside ]0, 1[", share)
	}
	held, err := split(t, rows, 1, share, label, group, seed)
	if err != nil {
		return nil, err
	}
	return held[0], nil
}

// split returns the rows each of parts held-out parts holds out (sorted).
func split(t *Table, rows []int, parts int, share float64, label, group string, seed uint64) ([][]int, error) {
	if group != "" && t.Column(group) == nil {
		return nil, fmt.Errorf("%s: no group column %q", t.Name, group)
	}
	h := &holdout{t: t, rows: rows, label: label, group: group, seed: seed}
	s, err := learn.SplitItems(h.Items(parts), parts, share)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	held := make([][]int, parts)
	for i, p := range s.Of {
		if p >= 0 {
			held[p] = append(held[p], rows[i])
		}
	}
	for _, h := range held {
		slices.Sort(h)
	}
	return held, nil
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

// ErrTooFew is matched (errors.Is) by the error of a problem whose rows or
// groups are too few for the folds or the held-out share asked for: the
// protocol's settings, not the table, are at fault (learn.ErrTooFew).
var ErrTooFew = learn.ErrTooFew
