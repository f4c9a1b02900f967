package learn

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestSplitHoldOut checks one held-out part on random groups: every item
// lands in exactly one part in its order, no group is on both sides, at
// least one group is learned from, the held-out share is reached unless
// only one group is left, by less than a group too many, and the random
// order fixes it.
func TestSplitHoldOut(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type item struct{ id, group int }
	for range 300 {
		n, groups := 1+r.IntN(200), 1+r.IntN(30)
		items := make([]item, n)
		size := map[int]int{}
		for i := range items {
			items[i] = item{i, r.IntN(groups)}
			size[items[i].group]++
		}
		share, seed := 0.05+0.6*r.Float64(), r.Uint64()
		name := func(x item) string { return strconv.Itoa(x.group) }
		s, err := SplitGroups(items, name, 1, share, rand.New(rand.NewPCG(seed, 0)))
		if err != nil {
			if len(size) > 1 && share*float64(n) >= 0.5 {
				t.Fatalf("%d items in %d groups, share %v: %v", n, len(size), share, err)
			}
			continue
		}
		fit, held := Part(s, items, 0)
		if len(fit)+len(held) != n || s.Parts != 1 {
			t.Fatalf("%d + %d of %d items, %d parts", len(fit), len(held), n, s.Parts)
		}
		merged := slices.SortedFunc(slices.Values(append(slices.Clone(fit), held...)), func(a, b item) int { return a.id - b.id })
		if !slices.Equal(merged, items) || !slices.IsSortedFunc(fit, func(a, b item) int { return a.id - b.id }) ||
			!slices.IsSortedFunc(held, func(a, b item) int { return a.id - b.id }) {
			t.Fatal("the parts do not keep the items and their order")
		}
		in := map[int]bool{}
		for _, x := range held {
			in[x.group] = true
		}
		for _, x := range fit {
			if in[x.group] {
				t.Fatalf("group %d is on both sides", x.group)
			}
		}
		if len(s.Held) != len(in) {
			t.Errorf("%d groups held out, %d named", len(in), len(s.Held))
		}
		if len(fit) == 0 {
			t.Fatal("nothing left to learn from")
		}
		biggest := 0
		for _, c := range size {
			biggest = max(biggest, c)
		}
		want := share * float64(n)
		if float64(len(held)) < want-0.5 && len(in) < len(size)-1 || float64(len(held)) > want+float64(biggest) {
			t.Errorf("held out %d of %d items for share %.2f (%d groups)", len(held), n, share, len(size))
		}
		again, _ := SplitGroups(items, name, 1, share, rand.New(rand.NewPCG(seed, 0)))
		if !slices.Equal(s.Of, again.Of) {
			t.Error("the same order gives another split")
		}
	}
}

// TestSplitFolds: every item lands in one fold with its whole group, the
// folds differ in size by at most the largest group, and the random order
// fixes the split.
func TestSplitFolds(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for trial := range 200 {
		n, k := 1+r.IntN(300), 2+r.IntN(8)
		groups := 1 + r.IntN(n)
		items := make([]int, n)
		for i := range items {
			items[i] = r.IntN(groups)
		}
		name := func(x int) string { return strconv.Itoa(x) }
		distinct := map[int]bool{}
		for _, x := range items {
			distinct[x] = true
		}
		s, err := SplitGroups(items, name, k, 0, rand.New(rand.NewPCG(uint64(trial), 0)))
		if len(distinct) < k {
			if err == nil {
				t.Fatalf("%d folds of %d groups accepted", k, len(distinct))
			}
			continue
		}
		if err != nil || s.Parts != k || len(s.Of) != n || len(s.Held) != len(distinct) {
			t.Fatalf("%v: %+v", err, s)
		}
		of, size, largest := map[int]int{}, make([]int, k), map[int]int{}
		for i, x := range items {
			if f, ok := of[x]; ok && f != s.Of[i] {
				t.Fatalf("group %d split over folds %d and %d", x, f, s.Of[i])
			}
			of[x] = s.Of[i]
			size[s.Of[i]]++
			largest[x]++
		}
		most := 0
		for _, c := range largest {
			most = max(most, c)
		}
		if slices.Max(size)-slices.Min(size) > most {
			t.Fatalf("fold sizes %v with groups of at most %d", size, most)
		}
		if again, _ := SplitGroups(items, name, k, 0, rand.New(rand.NewPCG(uint64(trial), 0))); !slices.Equal(again.Of, s.Of) {
			t.Fatal("the same order gave another split")
		}
	}
}

// TestSplitSettings: folds 0, or folds 1 with share 0, hold out nothing;
// negative folds and shares outside [0, 1) are errors.
func TestSplitSettings(t *testing.T) {
	items := []int{1, 2, 3, 4}
	name := func(x int) string { return strconv.Itoa(x) }
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		folds int
		share float64
		parts int
		ok    bool
	}{{0, 0.3, 0, true}, {1, 0, 0, true}, {1, 0.5, 1, true}, {2, 0, 2, true}, {4, 0.9, 4, true},
		{-1, 0, 0, false}, {1, 1, 0, false}, {1, -0.1, 0, false}, {5, 0, 0, false}} {
		s, err := SplitGroups(items, name, c.folds, c.share, rng)
		if (err == nil) != c.ok || err == nil && s.Parts != c.parts {
			t.Errorf("folds %d, share %v: %+v, %v", c.folds, c.share, s, err)
		}
	}
}

func TestFoldsByAntecedent(t *testing.T) {
	train := &Examples{}
	for a := range 12 {
		for b := range 3 {
			train.Add(logic.Term{logic.Pos(logic.Atom(a))}, logic.Clause{logic.Neg(logic.Atom(20 + b))}, b != 1, 1+b)
		}
	}
	folds, err := foldsByAntecedent(train, 4, 0, rand.New(rand.NewPCG(1, 1)))
	if err != nil || len(folds) != 4 {
		t.Fatalf("%d folds, %v", len(folds), err)
	}
	total := 0
	for f, fold := range folds {
		held := fold.Held.Queries()
		total += held.Total()
		if fold.Train.Total()+held.Total() != train.Total() {
			t.Errorf("fold %d: %d + %d of %d", f, fold.Train.Total(), held.Total(), train.Total())
		}
		for _, e := range held.List {
			for _, g := range fold.Train.List {
				if slices.Equal(e.Alpha, g.Alpha) {
					t.Fatalf("fold %d: antecedent %v on both sides", f, e.Alpha)
				}
			}
		}
	}
	if total != train.Total() {
		t.Errorf("the folds hold %d of %d examples", total, train.Total())
	}
	if _, err := foldsByAntecedent(train, 13, 0, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("13 folds of 12 antecedents accepted")
	}
	one, err := foldsByAntecedent(train, 1, 0.25, rand.New(rand.NewPCG(1, 1)))
	if err != nil || len(one) != 1 || one[0].Held.Queries().Total() == 0 {
		t.Fatalf("one held-out part: %v %v", one, err)
	}
	if none, err := foldsByAntecedent(train, 1, 0, rand.New(rand.NewPCG(1, 1))); err != nil || len(none) != 0 {
		t.Fatalf("share 0: %v %v", none, err)
	}
}
