package experiment

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/strata-logic/strata/learn"
)

// Purpose names what a random draw of a reproduction is for; Seed gives
// each its own seed, so that no two draws share a generator's stream.
type Purpose string

// The purposes of the reproductions' draws.
const (
	// Data draws the datasets: the crowd test split by annotator and its
	// negative examples, the MAP examples. Its seed is the run's seed
	// itself, so that `strata crowd --seed N` and `strata mln examples
	// --seed N` build the data a reproduction with seed N learns from.
	Data Purpose = "data"
	// Sample draws the subsample of a quick run.
	Sample Purpose = "sample"
	// ValidationSplit draws the groups held out to choose the number of
	// iterations.
	ValidationSplit Purpose = "validation split"
	// ValidationExamples draws the negative examples of the validation
	// split (crowd: a random other action for each held-out answer).
	ValidationExamples Purpose = "validation examples"
	// Learner seeds the heuristic learner.
	Learner Purpose = "learner"
)

// Seed returns the seed of the draw for purpose in a run with the given
// seed: seed itself for Data, and otherwise SplitMix64's finaliser of seed
// xor the 64-bit FNV-1a hash of the purpose's name. Distinct purposes thus
// get unrelated seeds, and the generators they seed (PCG, whose stream is
// fixed per package) never walk the same sequence: before Seed existed, the
// crowd test split and the learner both drew from PCG(seed, 0x5eed).
func Seed(seed uint64, purpose Purpose) uint64 {
	if purpose == Data {
		return seed
	}
	h := fnv.New64a()
	h.Write([]byte(purpose))
	z := seed ^ h.Sum64()
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Rand returns a generator for the draw for purpose in a run with seed.
func Rand(seed uint64, purpose Purpose) *rand.Rand {
	return rand.New(rand.NewPCG(Seed(seed, purpose), 0))
}

// HoldOut splits items into a part to learn from and a held-out part of
// about share of them, by whole groups: group names the group of an item
// (an annotator, an evidence formula, an antecedent), and all items of a
// group land on one side, so that the held-out part asks about groups the
// learner has not seen. Groups are held out in a random order drawn from
// Rand(seed, ValidationSplit) until share of the items are, but never all
// of them; both parts keep the items' order, and held lists the held-out
// groups in the order they were drawn. With fewer than two groups nothing
// is held out.
func HoldOut[T any](items []T, share float64, seed uint64, group func(T) string) (fit, held []T, heldGroups []string) {
	idx := map[string]int{} // group name -> index, in order of first appearance
	var names []string
	of := make([]int, len(items))
	for i, x := range items {
		k := group(x)
		g, ok := idx[k]
		if !ok {
			g = len(names)
			idx[k] = g
			names = append(names, k)
		}
		of[i] = g
	}
	size := make([]int, len(names))
	for _, g := range of {
		size[g]++
	}
	out := make([]bool, len(names))
	want := int(math.Round(share * float64(len(items))))
	for _, g := range Rand(seed, ValidationSplit).Perm(len(names)) {
		if want <= 0 || len(heldGroups) == len(names)-1 {
			break
		}
		out[g] = true
		want -= size[g]
		heldGroups = append(heldGroups, names[g])
	}
	for i, x := range items {
		if out[of[i]] {
			held = append(held, x)
		} else {
			fit = append(fit, x)
		}
	}
	return fit, held, heldGroups
}

// HoldOutByAntecedent splits learner examples into a part to learn from
// and a held-out part of about the given share, by whole antecedents, so
// that the held-out part asks about situations the learner has not seen
// (strata learn --validation and the server's learning runs).
func HoldOutByAntecedent(train *learn.Examples, share float64, seed uint64) (fit, held *learn.Examples) {
	fitList, heldList, _ := HoldOut(train.List, share, seed, antecedent)
	fit, held = &learn.Examples{}, &learn.Examples{}
	for _, e := range fitList {
		fit.Add(e.Alpha, e.Beta, e.Positive, e.Count)
	}
	for _, e := range heldList {
		held.Add(e.Alpha, e.Beta, e.Positive, e.Count)
	}
	return fit, held
}

// KFold assigns every item to one of k folds by whole groups (see HoldOut
// for group): the groups, in a random order drawn from Rand(seed,
// ValidationSplit), go one by one to the fold with the fewest items so far
// (the first on ties), so that the folds are about equal in size. It
// returns each item's fold and the number of groups; with fewer groups
// than folds, some folds are empty.
func KFold[T any](items []T, k int, seed uint64, group func(T) string) (fold []int, groups int) {
	idx := map[string]int{}
	of := make([]int, len(items))
	var size []int
	for i, x := range items {
		g, ok := idx[group(x)]
		if !ok {
			g = len(size)
			idx[group(x)] = g
			size = append(size, 0)
		}
		of[i] = g
		size[g]++
	}
	foldOf := make([]int, len(size))
	load := make([]int, k)
	for _, g := range Rand(seed, ValidationSplit).Perm(len(size)) {
		f := 0
		for j := range load {
			if load[j] < load[f] {
				f = j
			}
		}
		foldOf[g] = f
		load[f] += size[g]
	}
	fold = make([]int, len(items))
	for i, g := range of {
		fold[i] = foldOf[g]
	}
	return fold, len(size)
}

// FoldsByAntecedent splits learner examples into k folds by whole
// antecedents (KFold): held[i] is fold i and fit[i] the other folds. It
// fails when there are fewer antecedents than folds.
func FoldsByAntecedent(train *learn.Examples, k int, seed uint64) (fit, held []*learn.Examples, err error) {
	if k < 2 {
		return nil, nil, fmt.Errorf("%d folds: cross-validation needs at least 2", k)
	}
	fold, groups := KFold(train.List, k, seed, antecedent)
	if groups < k {
		return nil, nil, fmt.Errorf("%d folds of %d antecedents: each fold needs one", k, groups)
	}
	for range k {
		fit, held = append(fit, &learn.Examples{}), append(held, &learn.Examples{})
	}
	for i, e := range train.List {
		for f := range k {
			if f == fold[i] {
				held[f].Add(e.Alpha, e.Beta, e.Positive, e.Count)
			} else {
				fit[f].Add(e.Alpha, e.Beta, e.Positive, e.Count)
			}
		}
	}
	return fit, held, nil
}

// antecedent names the group of a learner example: its antecedent,
// whatever the order of its literals.
func antecedent(e learn.Example) string { return fmt.Sprint(slices.Sorted(slices.Values(e.Alpha))) }
