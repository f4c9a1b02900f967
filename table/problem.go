package table

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

// Problem is what the learning protocol (learn.Protocol) learns from the
// training rows of a table: the final run's problem, over the encoding fit
// on all of them, and the held-out parts the number of iterations is
// chosen on, each over an encoding fit on its own training rows alone, so
// that no cut point and no value is chosen with the rows it is scored on.
type Problem struct {
	Encoding *Encoding // fit on all the training rows
	// Final is the final run's problem: a default and a non-default per
	// training row, and the encoding's hard rules as the learner reasons
	// with them (LearnerHard).
	Final learn.Problem
	// Folds are the held-out parts of Settings.Folds (none without): each
	// learns from its training rows, encoded by their own encoding, and
	// scores its held-out rows as the task is, one class per row
	// (learn.Answers).
	Folds []learn.Fold
	// Validation is the problem the folds are learned in: the vocabulary
	// of every fold's atoms and hard rules that hold in each fold's worlds
	// restricted to its own atoms (those of the union of the folds'
	// encodings), so that a fold reasons as with its own hard rules alone.
	// Its Train is nil; it is the zero Problem without folds.
	Validation learn.Problem
}

// NewProblem returns the problem of the rows of t (all of them when rows
// is nil) under the settings s (Label, Features, Group, Folds, Validation
// and the learner's seed): the encoding fit on the rows (Fit), a default
// and a non-default per row (Binding.Examples, the non-default's class
// drawn with the seed), the final theory's default classes (from the most
// frequent of the rows: learn.Problem.Fallback), and, with s.Folds, the
// held-out parts, each with its own encoding. Learn and the server both
// learn from it.
func NewProblem(t *Table, rows []int, s Settings) (*Problem, error) {
	if rows == nil {
		rows = allRows(t.Rows)
	}
	features, err := s.features(t)
	if err != nil {
		return nil, err
	}
	seed := s.Learner.Seed
	e, train, err := encode(t, rows, s.Label, features, s.Variant.Literals, s.Variant.MinCuts, &logic.Vocabulary{}, rand.New(rand.NewPCG(seed, 0x7ab1e)))
	if err != nil {
		return nil, err
	}
	fb, err := fallback(e, t, rows)
	if err != nil {
		return nil, err
	}
	p := &Problem{Encoding: e, Final: learn.Problem{Vocab: e.Vocab, Train: train, Hard: e.LearnerHard(), Fallback: fb}}
	held, err := heldOut(t, rows, s)
	if err != nil || held == nil {
		return p, err
	}
	v := &logic.Vocabulary{}
	var es []*Encoding
	for f, h := range held {
		fe, fitEx, err := encode(t, Complement(rows, h), s.Label, features, s.Variant.Literals, s.Variant.MinCuts, v, rand.New(rand.NewPCG(seed, uint64(f+1))))
		if err != nil {
			return nil, fmt.Errorf("held-out part %d: %w", f+1, err)
		}
		es = append(es, fe)
		p.Folds = append(p.Folds, learn.Fold{Train: fitEx})
	}
	u := union(es)
	classes := u.ClassAtoms()
	lc := t.Column(s.Label)
	sits := make([][]logic.Term, len(held))
	targets := make([][]logic.Atom, len(held))
	for f, h := range held {
		b, err := es[f].Bind(t)
		if err != nil {
			return nil, err
		}
		b.Literals = s.Variant.Literals
		for _, r := range h {
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
	for f := range held {
		task, err := learn.NewAnswers(classes, sits[f], targets[f])
		if err != nil {
			return nil, fmt.Errorf("held-out part %d: %w", f+1, err)
		}
		p.Folds[f].Held = task
	}
	p.Validation = learn.Problem{Vocab: v, Hard: u.LearnerHard()}
	return p, nil
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

// heldOut returns the held-out rows of each part of s.Folds: the folds of
// a cross-validation (Folds), or with Folds 1 one part of s.Validation's
// share (HoldOut); nil without.
func heldOut(t *Table, rows []int, s Settings) ([][]int, error) {
	switch {
	case s.Folds >= 2:
		return Folds(t, rows, s.Folds, s.Label, s.Group, s.Learner.Seed)
	case s.Folds == 1 && s.Validation > 0:
		h, err := HoldOut(t, rows, s.Validation, s.Label, s.Group, s.Learner.Seed)
		if err != nil {
			return nil, err
		}
		return [][]int{h}, nil
	}
	return nil, nil
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
		names, byGroup, err := groups(t, rows, group)
		if err != nil {
			return nil, err
		}
		if len(names) < k {
			return nil, tooFew(fmt.Sprintf("%s: %d groups in column %q are too few for %d folds", t.Name, len(names), group, k))
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
			return nil, tooFew(fmt.Sprintf("%s: %d rows are too few for %d folds", t.Name, len(rows), k))
		}
		next := 0
		for _, rs := range byClass(t, rows, label) {
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

// HoldOut returns the rows held out of rows for one held-out part of the
// given share, with the seed: whole groups of the group column, drawn in a
// random order until they hold the share of the rows; without a group
// column, that share of the rows of each class (stratified). The part
// and the rest are never empty.
func HoldOut(t *Table, rows []int, share float64, label, group string, seed uint64) ([]int, error) {
	if !(share > 0 && share < 1) {
		return nil, fmt.Errorf("held-out share %v outside ]0, 1[", share)
	}
	rng := rand.New(rand.NewPCG(seed, 0x4e1d))
	want := int(math.Round(share * float64(len(rows))))
	var held []int
	if group != "" {
		names, byGroup, err := groups(t, rows, group)
		if err != nil {
			return nil, err
		}
		if len(names) < 2 {
			return nil, tooFew(fmt.Sprintf("%s: %d group(s) in column %q: need two to hold one out", t.Name, len(names), group))
		}
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for i, g := range names {
			if len(held) >= want && len(held) > 0 || i == len(names)-1 {
				break
			}
			held = append(held, byGroup[g]...)
		}
	} else {
		for _, rs := range byClass(t, rows, label) {
			rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
			n := int(math.Round(share * float64(len(rs))))
			held = append(held, rs[:n]...)
		}
		if len(held) == 0 || len(held) == len(rows) {
			return nil, tooFew(fmt.Sprintf("%s: %d rows are too few to hold out a share %v of them", t.Name, len(rows), share))
		}
	}
	slices.Sort(held)
	return held, nil
}

// groups returns the values of the group column among rows, in order of
// first appearance, and the rows of each.
func groups(t *Table, rows []int, group string) ([]string, map[string][]int, error) {
	gc := t.Column(group)
	if gc == nil {
		return nil, nil, fmt.Errorf("%s: no group column %q", t.Name, group)
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
	return names, byGroup, nil
}

// byClass returns the rows of each class value (in byte order of the
// values; rows without a class, or without a class column, as one more).
func byClass(t *Table, rows []int, label string) [][]int {
	m := map[string][]int{}
	var classes []string
	lc := t.Column(label)
	for _, r := range rows {
		c := ""
		if lc != nil {
			c = lc.Value(r)
		}
		if _, ok := m[c]; !ok {
			classes = append(classes, c)
		}
		m[c] = append(m[c], r)
	}
	slices.Sort(classes)
	out := make([][]int, len(classes))
	for i, c := range classes {
		out[i] = m[c]
	}
	return out
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
// protocol's settings, not the table, are at fault.
var ErrTooFew = errors.New("too few rows or groups for the held-out parts")

// tooFew is an error that is ErrTooFew, with its own message.
type tooFew string

func (e tooFew) Error() string      { return string(e) }
func (tooFew) Is(target error) bool { return target == ErrTooFew }
