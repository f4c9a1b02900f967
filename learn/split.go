package learn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Held-out data must ask about what the learner has not seen: the answers
// of other annotators, other situations, other evidence formulas, other
// antecedents. So every split here is by whole groups: all the items of a
// group land on one side. The splits of strata's test sets (crowd, by
// annotator) and of its held-out training data (Split) are all made of
// GroupBy, Groups.HoldOut and Groups.KFold, each with its own order of the
// groups.

// Groups are the groups of a list of items.
type Groups struct {
	Names []string // in the order of their first item
	Of    []int    // the group of each item, an index into Names
	Sizes []int    // the number of items of each group
}

// GroupBy groups items by the name group gives each.
func GroupBy[T any](items []T, group func(T) string) Groups {
	var g Groups
	idx := map[string]int{}
	g.Of = make([]int, len(items))
	for i, x := range items {
		k := group(x)
		j, ok := idx[k]
		if !ok {
			j = len(g.Names)
			idx[k] = j
			g.Names = append(g.Names, k)
			g.Sizes = append(g.Sizes, 0)
		}
		g.Of[i] = j
		g.Sizes[j]++
	}
	return g
}

// HoldOut returns which groups a held-out part takes: the groups in the
// given order (indices into Names) until they hold at least want items,
// but never the last group of the order, so that some are left to learn
// from.
func (g Groups) HoldOut(order []int, want float64) []bool {
	held := make([]bool, len(g.Names))
	n := 0
	for _, j := range order[:max(len(order)-1, 0)] {
		if float64(n) >= want {
			break
		}
		held[j] = true
		n += g.Sizes[j]
	}
	return held
}

// KFold assigns the groups, in the given order, each to the fold with the
// fewest items so far (the first on ties), so that the k folds are about
// equal in size, and returns each group's fold.
func (g Groups) KFold(order []int, k int) []int {
	fold := make([]int, len(g.Names))
	load := make([]int, k)
	for _, j := range order {
		f := 0
		for i := range load {
			if load[i] < load[f] {
				f = i
			}
		}
		fold[j] = f
		load[f] += g.Sizes[j]
	}
	return fold
}

// A Split divides items into the held-out parts a Protocol chooses on
// (see SplitGroups).
type Split struct {
	// Parts is the number of held-out parts: 0 (nothing held out), 1 or
	// the number of folds.
	Parts int
	// Of is the part that holds out each item; -1 for an item that no
	// part holds out (with one held-out part).
	Of []int
	// Held names the held-out groups: those of the one held-out part in
	// the order they were drawn, or every group for folds.
	Held []string
}

// Part returns the items that part p of s learns from and those it holds out,
// each in their order.
func Part[T any](s *Split, items []T, p int) (fit, held []T) {
	for i, x := range items {
		if s.Of[i] == p {
			held = append(held, x)
		} else {
			fit = append(fit, x)
		}
	}
	return fit, held
}

// SplitGroups divides items by whole groups (group names the group of an
// item) into the held-out parts of a selection, the groups in an order
// drawn from rng (a permutation of the groups in the order of their first
// item): with folds ≥ 2 into that many folds (Groups.KFold), with folds 1
// into one held-out part of share of the items, rounded (Groups.HoldOut),
// and with folds 0, or folds 1 and share 0, into none. It fails when there
// are fewer groups than folds, or when one held-out part would hold out
// nothing or everything.
func SplitGroups[T any](items []T, group func(T) string, folds int, share float64, rng *rand.Rand) (*Split, error) {
	switch {
	case folds < 0:
		return nil, fmt.Errorf("%d folds: the number cannot be negative", folds)
	case !(share >= 0 && share < 1):
		return nil, fmt.Errorf("held-out share %v outside [0, 1)", share)
	case folds == 0 || folds == 1 && share == 0:
		return &Split{}, nil
	}
	g := GroupBy(items, group)
	order := rng.Perm(len(g.Names))
	s := &Split{Parts: folds, Of: make([]int, len(items))}
	if folds == 1 {
		held := g.HoldOut(order, math.Round(share*float64(len(items))))
		for _, j := range order {
			if held[j] {
				s.Held = append(s.Held, g.Names[j])
			}
		}
		if len(s.Held) == 0 {
			return nil, fmt.Errorf("%d items in %d groups: too few to hold out %.3g%% of them by whole groups", len(items), len(g.Names), 100*share)
		}
		for i, j := range g.Of {
			s.Of[i] = -1
			if held[j] {
				s.Of[i] = 0
			}
		}
		return s, nil
	}
	if len(g.Names) < folds {
		return nil, fmt.Errorf("%d folds of %d groups: each fold needs one", folds, len(g.Names))
	}
	fold := g.KFold(order, folds)
	for i, j := range g.Of {
		s.Of[i] = fold[j]
	}
	s.Held = slices.Clone(g.Names)
	return s, nil
}

// antecedent names the group of an example: its antecedent, whatever the
// order of its literals.
func antecedent(e Example) string { return fmt.Sprint(slices.Sorted(slices.Values(e.Alpha))) }

// FoldsByAntecedent splits the training examples by whole antecedents
// (SplitGroups, with the order of the antecedents drawn from rng), so that
// a held-out part asks about situations the learner has not seen, and
// returns one Fold per held-out part, scored by binary accuracy (none with
// folds 0, or folds 1 and share 0).
func FoldsByAntecedent(train *Examples, folds int, share float64, rng *rand.Rand) ([]Fold, error) {
	if train == nil || len(train.List) == 0 {
		return nil, errors.New("no training examples to hold out")
	}
	s, err := SplitGroups(train.List, antecedent, folds, share, rng)
	if err != nil {
		return nil, err
	}
	var out []Fold
	for p := range s.Parts {
		fitList, heldList := Part(s, train.List, p)
		fit, held := &Examples{}, &Examples{}
		for _, e := range fitList {
			fit.Add(e.Alpha, e.Beta, e.Positive, e.Count)
		}
		for _, e := range heldList {
			held.Add(e.Alpha, e.Beta, e.Positive, e.Count)
		}
		out = append(out, Fold{Train: fit, Held: Binary{Examples: held}})
	}
	return out, nil
}
