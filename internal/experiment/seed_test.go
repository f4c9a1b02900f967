package experiment

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

// TestSeedPurposes: the data keep the run's seed; every other purpose gets
// a seed of its own, different from the data's and from each other's, so
// that no two draws (the crowd test split and the learner, before) walk
// the same generator stream.
func TestSeedPurposes(t *testing.T) {
	purposes := []Purpose{Data, Sample, ValidationSplit, ValidationExamples, Learner}
	for _, seed := range []uint64{0, 1, 2, 7, 1 << 63, ^uint64(0)} {
		if Seed(seed, Data) != seed {
			t.Errorf("seed %d: the data's seed is %d", seed, Seed(seed, Data))
		}
		seen := map[uint64]Purpose{}
		for _, p := range purposes {
			s := Seed(seed, p)
			if q, ok := seen[s]; ok {
				t.Errorf("seed %d: %q and %q share seed %d", seed, p, q, s)
			}
			seen[s] = p
			if Seed(seed, p) != s {
				t.Errorf("seed %d: Seed(%q) is not a function", seed, p)
			}
		}
	}
	// Nearby run seeds give unrelated learner seeds: no run's learner
	// draws what another run's data split draws.
	data := map[uint64]bool{}
	for seed := range uint64(1000) {
		data[Seed(seed, Data)] = true
	}
	for seed := range uint64(1000) {
		if data[Seed(seed, Learner)] {
			t.Fatalf("the learner of run %d has the data seed of another run", seed)
		}
	}
}

// TestHoldOutGroups checks the splitter on random groups: every item lands
// in exactly one part in its order, no group is on both sides, at least one
// group is learned from, the held-out share is reached unless only one
// group is left, by less than a group too many, and the seed fixes it.
func TestHoldOutGroups(t *testing.T) {
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
		fit, held, names := HoldOut(items, share, seed, name)
		if len(fit)+len(held) != n {
			t.Fatalf("%d + %d of %d items", len(fit), len(held), n)
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
		if len(names) != len(in) {
			t.Errorf("%d groups held out, %d named", len(in), len(names))
		}
		if len(fit) == 0 {
			t.Fatal("nothing left to learn from")
		}
		biggest := 0
		for _, s := range size {
			biggest = max(biggest, s)
		}
		want := share * float64(n)
		if float64(len(held)) < want-0.5 && len(in) < len(size)-1 || float64(len(held)) > want+float64(biggest) {
			t.Errorf("held out %d of %d items for share %.2f (%d groups)", len(held), n, share, len(size))
		}
		fit2, held2, _ := HoldOut(items, share, seed, name)
		if !slices.Equal(fit, fit2) || !slices.Equal(held, held2) {
			t.Error("the same seed gives another split")
		}
	}
}

// TestKFold: every item lands in one fold with its whole group, the folds
// differ in size by at most the largest group, and the seed fixes the
// split.
func TestKFold(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for trial := range 200 {
		n, k := 1+r.IntN(300), 2+r.IntN(8)
		groups := 1 + r.IntN(n)
		items := make([]int, n)
		for i := range items {
			items[i] = r.IntN(groups)
		}
		name := func(x int) string { return strconv.Itoa(x) }
		fold, got := KFold(items, k, uint64(trial), name)
		distinct := map[int]bool{}
		for _, x := range items {
			distinct[x] = true
		}
		if got != len(distinct) || len(fold) != n {
			t.Fatalf("%d groups counted, %d distinct; %d folds assigned for %d items", got, len(distinct), len(fold), n)
		}
		of, size, largest := map[int]int{}, make([]int, k), map[int]int{}
		for i, x := range items {
			if f, ok := of[x]; ok && f != fold[i] {
				t.Fatalf("group %d split over folds %d and %d", x, f, fold[i])
			}
			of[x] = fold[i]
			size[fold[i]]++
			largest[x]++
		}
		most := 0
		for _, c := range largest {
			most = max(most, c)
		}
		if slices.Max(size)-slices.Min(size) > most {
			t.Fatalf("fold sizes %v with groups of at most %d", size, most)
		}
		if again, _ := KFold(items, k, uint64(trial), name); !slices.Equal(again, fold) {
			t.Fatal("the same seed gave another split")
		}
	}
}

func TestFoldsByAntecedent(t *testing.T) {
	train := &learn.Examples{}
	for a := range 12 {
		for b := range 3 {
			train.Add(logic.Term{logic.Pos(logic.Atom(a))}, logic.Clause{logic.Neg(logic.Atom(20 + b))}, b != 1, 1+b)
		}
	}
	fit, held, err := FoldsByAntecedent(train, 4, 1)
	if err != nil || len(fit) != 4 || len(held) != 4 {
		t.Fatalf("%d and %d folds, %v", len(fit), len(held), err)
	}
	total := 0
	for f := range 4 {
		total += held[f].Total()
		if fit[f].Total()+held[f].Total() != train.Total() {
			t.Errorf("fold %d: %d + %d of %d", f, fit[f].Total(), held[f].Total(), train.Total())
		}
		for _, e := range held[f].List {
			for _, g := range fit[f].List {
				if slices.Equal(e.Alpha, g.Alpha) {
					t.Fatalf("fold %d: antecedent %v on both sides", f, e.Alpha)
				}
			}
		}
	}
	if total != train.Total() {
		t.Errorf("the folds hold %d of %d examples", total, train.Total())
	}
	if _, _, err := FoldsByAntecedent(train, 13, 1); err == nil {
		t.Error("13 folds of 12 antecedents accepted")
	}
	if _, _, err := FoldsByAntecedent(train, 1, 1); err == nil {
		t.Error("one fold accepted")
	}
}
