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

// A Holdout says how Learn holds out a problem's training data to choose
// on (Settings.Folds): the items the data is made of (examples, a table's
// rows, a crowd's answers), their groups, and the held-out parts of a
// split of them. A problem without one is held out by whole antecedents
// (ByAntecedent).
type Holdout interface {
	// Items returns the items to split into parts held-out parts (1, or
	// the number of folds).
	Items(parts int) Items
	// Folds returns the held-out part of each list of held[k]: a run on
	// the items not in it, scored on the items in it (indices into the
	// items, increasing). It is called once per plan.
	Folds(held [][]int) ([]Fold, error)
}

// Items are the items of a problem's training data, as a Holdout splits
// them (SplitItems).
type Items struct {
	// Group names the group of every item: the items of a group are held
	// out together.
	Group []string
	// Stratum, when Group is nil, names the stratum of every item (a
	// table's class): every item is a group of its own, and the items of
	// each stratum are dealt to the parts apart, so that every part has
	// about the strata's shares.
	Stratum []string
	// What names the groups, plural, for errors: "antecedents", "rows".
	What string
	// Rand draws the order of the groups; nil: a generator of
	// SeedFor(Settings.Seed, ForValidationSplit).
	Rand *rand.Rand
}

// len returns the number of items.
func (it Items) len() int {
	if it.Group != nil {
		return len(it.Group)
	}
	return len(it.Stratum)
}

// what names it's groups.
func (it Items) what() string {
	if it.What != "" {
		return it.What
	}
	if it.Group == nil {
		return "items"
	}
	return "groups"
}

// ErrTooFew is matched (errors.Is) by the error of a split whose items or
// groups are too few for the folds or the held-out share asked for: the
// settings, not the data, are at fault.
var ErrTooFew = errors.New("too few items or groups for the held-out parts")

// tooFew is an error that is ErrTooFew, with its own message.
type tooFew string

func (e tooFew) Error() string      { return string(e) }
func (tooFew) Is(target error) bool { return target == ErrTooFew }

// A Split divides items into the held-out parts a protocol chooses on
// (see SplitItems).
type Split struct {
	// Parts is the number of held-out parts: 0 (nothing held out), 1 or
	// the number of folds.
	Parts int
	// Of is the part that holds out each item; -1 for an item that no
	// part holds out (with one held-out part).
	Of []int
	// Held names the held-out groups: those of the one held-out part in
	// the order they were drawn, or every group for folds; nil for items
	// split by strata.
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

// Apart returns the items whose indices are not in held and those whose
// are, each in their order: the two sides of a held-out part
// (Holdout.Folds), held increasing.
func Apart[T any](items []T, held []int) (fit, out []T) {
	k := 0
	for i, x := range items {
		if k < len(held) && held[k] == i {
			out = append(out, x)
			k++
		} else {
			fit = append(fit, x)
		}
	}
	return fit, out
}

// held returns the items each part of s holds out, in increasing order.
func (s *Split) held() [][]int {
	out := make([][]int, s.Parts)
	for i, p := range s.Of {
		if p >= 0 {
			out[p] = append(out[p], i)
		}
	}
	return out
}

// SplitGroups divides items by whole groups (group names the group of an
// item) into the held-out parts of a selection, the groups in an order
// drawn from rng: SplitItems of the items' groups.
func SplitGroups[T any](items []T, group func(T) string, folds int, share float64, rng *rand.Rand) (*Split, error) {
	names := make([]string, len(items))
	for i, x := range items {
		names[i] = group(x)
	}
	return SplitItems(Items{Group: names, Rand: rng}, folds, share)
}

// SplitItems divides items by whole groups into the held-out parts of a
// selection, the groups in an order drawn from it.Rand (a permutation of
// the groups in the order of their first item): with folds ≥ 2 into that
// many folds (Groups.KFold), with folds 1 into one held-out part of share
// of the items, rounded (Groups.HoldOut), and with folds 0, or folds 1
// and share 0, into none. Items split by strata (Items.Stratum) are dealt
// stratum by stratum, in the byte order of the strata's names: to the
// folds in turn, each stratum's items in a drawn order, or with one part,
// share of each stratum's items, rounded. It fails, matching ErrTooFew,
// when there are fewer groups than folds, or when one held-out part would
// hold out nothing or everything.
func SplitItems(it Items, folds int, share float64) (*Split, error) {
	switch {
	case folds < 0:
		return nil, fmt.Errorf("%d folds: the number cannot be negative", folds)
	case !(share >= 0 && share < 1):
		return nil, fmt.Errorf("held-out share %v outside [0, 1)", share)
	case folds == 0 || folds == 1 && share == 0:
		return &Split{}, nil
	}
	if it.Rand == nil {
		return nil, errors.New("learn: a split without a generator to draw its order")
	}
	n := it.len()
	if it.Group == nil {
		return splitStrata(it, n, folds, share)
	}
	g := GroupBy(it.Group, func(s string) string { return s })
	order := it.Rand.Perm(len(g.Names))
	s := &Split{Parts: folds, Of: make([]int, n)}
	if folds == 1 {
		held := g.HoldOut(order, math.Round(share*float64(n)))
		for _, j := range order {
			if held[j] {
				s.Held = append(s.Held, g.Names[j])
			}
		}
		if len(s.Held) == 0 {
			return nil, tooFew(fmt.Sprintf("%d items in %d %s: too few to hold out %.3g%% of them by whole groups", n, len(g.Names), it.what(), 100*share))
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
		return nil, tooFew(fmt.Sprintf("%d folds of %d %s: each fold needs one", folds, len(g.Names), it.what()))
	}
	fold := g.KFold(order, folds)
	for i, j := range g.Of {
		s.Of[i] = fold[j]
	}
	s.Held = slices.Clone(g.Names)
	return s, nil
}

// splitStrata is SplitItems of n items that are each a group of their own,
// dealt stratum by stratum.
func splitStrata(it Items, n, folds int, share float64) (*Split, error) {
	if folds > 1 && n < folds {
		return nil, tooFew(fmt.Sprintf("%d %s are too few for %d folds", n, it.what(), folds))
	}
	byStratum := map[string][]int{}
	var strata []string
	for i, name := range it.Stratum {
		if _, ok := byStratum[name]; !ok {
			strata = append(strata, name)
		}
		byStratum[name] = append(byStratum[name], i)
	}
	slices.Sort(strata)
	s := &Split{Parts: folds, Of: make([]int, n)}
	for i := range s.Of {
		s.Of[i] = -1
	}
	next, held := 0, 0
	for _, name := range strata {
		items := byStratum[name]
		order := it.Rand.Perm(len(items))
		if folds == 1 {
			k := int(math.Round(share * float64(len(items))))
			for _, j := range order[:k] {
				s.Of[items[j]] = 0
			}
			held += k
			continue
		}
		for _, j := range order {
			s.Of[items[j]] = next
			next = (next + 1) % folds
		}
	}
	if folds == 1 && (held == 0 || held == n) {
		return nil, tooFew(fmt.Sprintf("%d %s are too few to hold out a share %v of them", n, it.what(), share))
	}
	return s, nil
}

// antecedent names the group of an example: its antecedent, whatever the
// order of its literals.
func antecedent(e Example) string { return fmt.Sprint(slices.Sorted(slices.Values(e.Alpha))) }

// ByAntecedent holds out training examples by whole antecedents, so that a
// held-out part asks about situations the learner has not seen, each part
// scored by binary accuracy: the Holdout of a problem without one.
func ByAntecedent(train *Examples) Holdout { return byAntecedent{train} }

type byAntecedent struct{ train *Examples }

func (b byAntecedent) Items(int) Items {
	names := make([]string, len(b.train.List))
	for i, e := range b.train.List {
		names[i] = antecedent(e)
	}
	return Items{Group: names, What: "antecedents"}
}

func (b byAntecedent) Folds(held [][]int) ([]Fold, error) {
	var out []Fold
	for _, h := range held {
		fitList, heldList := Apart(b.train.List, h)
		fit, ho := &Examples{}, &Examples{}
		for _, e := range fitList {
			fit.Add(e.Alpha, e.Beta, e.Positive, e.Count)
		}
		for _, e := range heldList {
			ho.Add(e.Alpha, e.Beta, e.Positive, e.Count)
		}
		out = append(out, Fold{Train: fit, Held: Binary{Examples: ho}})
	}
	return out, nil
}

// foldsByAntecedent splits the training examples by whole antecedents
// (ByAntecedent, the order of the antecedents drawn from rng) and returns
// one Fold per held-out part (none with folds 0, or folds 1 and share 0).
func foldsByAntecedent(train *Examples, folds int, share float64, rng *rand.Rand) ([]Fold, error) {
	if train == nil || len(train.List) == 0 {
		return nil, errors.New("no training examples to hold out")
	}
	h := ByAntecedent(train)
	it := h.Items(folds)
	it.Rand = rng
	s, err := SplitItems(it, folds, share)
	if err != nil {
		return nil, err
	}
	return h.Folds(s.held())
}
