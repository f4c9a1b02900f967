package table

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSplitAsBefore checks that the held-out parts of a table, now drawn by
// learn.SplitItems, are the rows the table's own splitter drew before
// (refFolds, refHoldOut), on random tables with and without a group
// column, so that no learned theory changes with the splitter: the same
// rows in the same parts, or an error where it gave one (but a share
// small enough to hold out no row, which is now an error by whole groups
// too).
func TestSplitAsBefore(t *testing.T) {
	compared := 0
	for trial := range 300 {
		r := rand.New(rand.NewPCG(uint64(trial), 31))
		n := 2 + r.IntN(40)
		var b strings.Builder
		b.WriteString("x,g,c\n")
		groups, classes := 1+r.IntN(8), 1+r.IntN(4)
		for i := range n {
			c := fmt.Sprint("k", r.IntN(classes))
			if r.IntN(10) == 0 {
				c = "?"
			}
			fmt.Fprintf(&b, "%d,g%d,%s\n", i, r.IntN(groups), c)
		}
		tab, err := Read(strings.NewReader(b.String()), "t.csv", Options{Categorical: []string{"g", "c"}})
		if err != nil {
			t.Fatal(err)
		}
		var rows []int
		for i := range n {
			if r.IntN(5) > 0 {
				rows = append(rows, i)
			}
		}
		seed := r.Uint64()
		for _, group := range []string{"", "g"} {
			k := 2 + r.IntN(5)
			got, err1 := Folds(tab, rows, k, "c", group, seed)
			want, err2 := refFolds(tab, rows, k, "c", group, seed)
			if (err1 != nil) != (err2 != nil) || err1 == nil && !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("trial %d, %d folds, group %q: %v (%v), before %v (%v)", trial, k, group, got, err1, want, err2)
			}
			if err1 == nil {
				compared++
			}
			share := 0.05 + 0.9*r.Float64()
			h1, err1 := HoldOut(tab, rows, share, "c", group, seed)
			h2, err2 := refHoldOut(tab, rows, share, "c", group, seed)
			if math.Round(share*float64(len(rows))) == 0 && group != "" {
				continue // before, a whole group even so
			}
			if (err1 != nil) != (err2 != nil) || err1 == nil && !slices.Equal(h1, h2) {
				t.Fatalf("trial %d, share %v, group %q: %v (%v), before %v (%v)", trial, share, group, h1, err1, h2, err2)
			}
			if err1 == nil {
				compared++
			}
		}
	}
	if compared < 600 {
		t.Fatalf("only %d splits made by both: the test shows little", compared)
	}
}

// refFolds is the split of folds Learn made before it split with learn.SplitItems: it splits rows into k folds for cross-validation, with the seed: rows
// of one group (equal values of the group column) stay together and the
// groups are dealt to the folds in a random order; without a group column
// the rows of each class are dealt in turn (stratified), so that every fold
// has about the class shares of the whole.
func refFolds(t *Table, rows []int, k int, label, group string, seed uint64) ([][]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("%d folds: need at least 2", k)
	}
	rng := rand.New(rand.NewPCG(seed, 0xf01d5))
	folds := make([][]int, k)
	if group != "" {
		names, byGroup, err := refGroups(t, rows, group)
		if err != nil {
			return nil, err
		}
		if len(names) < k {
			return nil, errors.New(fmt.Sprintf("%s: %d groups in column %q are too few for %d folds", t.Name, len(names), group, k))
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
			return nil, errors.New(fmt.Sprintf("%s: %d rows are too few for %d folds", t.Name, len(rows), k))
		}
		next := 0
		for _, rs := range refByClass(t, rows, label) {
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

// refHoldOut is the held-out part Learn drew before learn.SplitItems: it returns the rows held out of rows for one held-out part of the
// given share, with the seed: whole groups of the group column, drawn in a
// random order until they hold the share of the rows; without a group
// column, that share of the rows of each class (stratified). The part
// and the rest are never empty.
func refHoldOut(t *Table, rows []int, share float64, label, group string, seed uint64) ([]int, error) {
	if !(share > 0 && share < 1) {
		return nil, fmt.Errorf("held-out share %v outside ]0, 1[", share)
	}
	rng := rand.New(rand.NewPCG(seed, 0x4e1d))
	want := int(math.Round(share * float64(len(rows))))
	var held []int
	if group != "" {
		names, byGroup, err := refGroups(t, rows, group)
		if err != nil {
			return nil, err
		}
		if len(names) < 2 {
			return nil, errors.New(fmt.Sprintf("%s: %d group(s) in column %q: need two to hold one out", t.Name, len(names), group))
		}
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for i, g := range names {
			if len(held) >= want && len(held) > 0 || i == len(names)-1 {
				break
			}
			held = append(held, byGroup[g]...)
		}
	} else {
		for _, rs := range refByClass(t, rows, label) {
			rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
			n := int(math.Round(share * float64(len(rs))))
			held = append(held, rs[:n]...)
		}
		if len(held) == 0 || len(held) == len(rows) {
			return nil, errors.New(fmt.Sprintf("%s: %d rows are too few to hold out a share %v of them", t.Name, len(rows), share))
		}
	}
	slices.Sort(held)
	return held, nil
}

// groups returns the values of the group column among rows, in order of
// first appearance, and the rows of each.
func refGroups(t *Table, rows []int, group string) ([]string, map[string][]int, error) {
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
func refByClass(t *Table, rows []int, label string) [][]int {
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
