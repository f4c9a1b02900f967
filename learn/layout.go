package learn

import (
	"slices"

	"github.com/strata-logic/strata/logic"
)

// This file numbers the examples for every coverage engine, antecedent
// group after antecedent group (layout, groupByAlpha).

type exData struct {
	alpha, beta, negBeta []logic.Lit
	weight               int64 // multiplicity
	sign                 int64 // +1 positive, −1 negative
	hardOK               bool  // H ∪ α is consistent
}

// layout is what every coverage engine keeps of its examples: the
// examples numbered antecedent group after antecedent group, so that the
// examples of one α, which every engine decides together, lie together in
// memory, with the maps to and from the caller's order.
type layout struct {
	n     int // atoms: solver variables 0..n−1
	words int
	// ex holds the examples in the engine's order, for the general
	// engines; the complete engine reads them from src through orig (a
	// table of a million rows saves a copy of two million examples) and
	// their groups' consistency from ok.
	ex  []exData
	src []Example
	ok  []bool
	// groups lists the examples by antecedent: examples with the same α
	// share their boundary, and their stored worlds are worlds of H ∪ α.
	groups [][]int32
	grp    []int32 // each example's group
	// orig[i] is the position of example i in the Examples the engine was
	// built from, and index the inverse.
	orig, index []int32
	// The examples' weight, and the negatives' (accuracy).
	total, neg int64
	weighed    bool
}

// accuracy turns a score into the fraction of examples classified correctly.
func (e *layout) accuracy(score int64) float64 {
	if !e.weighed {
		for i := range e.count() {
			d := e.data(i)
			e.total += d.weight
			if d.sign < 0 {
				e.neg += d.weight
			}
		}
		e.weighed = true
	}
	if e.total == 0 {
		return 1
	}
	return float64(score+e.neg) / float64(e.total)
}

// init numbers the examples of ex group after group; with copy, it copies
// them into the engine's order (ex), as the general engines read them.
func (e *layout) init(nAtoms int, ex *Examples, copy bool) {
	e.n, e.words = nAtoms, (nAtoms+63)/64
	e.groups = groupByAlpha(ex.List)
	e.orig = make([]int32, 0, len(ex.List))
	e.index = make([]int32, len(ex.List))
	e.src = ex.List
	for g, xs := range e.groups {
		for n, x := range xs {
			e.index[x] = int32(len(e.orig))
			e.orig = append(e.orig, x)
			xs[n] = e.index[x]
		}
		e.groups[g] = xs
	}
	e.grp = make([]int32, len(e.orig))
	for g, xs := range e.groups {
		for _, x := range xs {
			e.grp[x] = int32(g)
		}
	}
	if !copy {
		e.ok = make([]bool, len(e.groups))
		return
	}
	e.ok = make([]bool, len(e.groups)) // all false: data reads src
	data := make([]exData, len(e.orig))
	for i := range data {
		data[i] = e.data(i)
	}
	e.ex, e.ok = data, nil
}

// count returns the number of examples.
func (e *layout) count() int { return len(e.orig) }

// data returns example i.
func (e *layout) data(i int) exData {
	if e.ex != nil {
		return e.ex[i]
	}
	src := &e.src[e.orig[i]]
	d := exData{alpha: src.Alpha, beta: src.Beta, weight: int64(src.Count), sign: 1, hardOK: e.ok[e.grp[i]]}
	if !src.Positive {
		d.sign = -1
	}
	return d
}

// groupByAlpha lists the examples of each antecedent (as a set of
// literals), in order of first appearance. Antecedents are found by a hash
// of their literals, checked literal by literal, and an example whose α
// is the previous one's slice (a table row's default and non-default
// share it) joins its group without either.
func groupByAlpha(ex []Example) [][]int32 {
	var groups [][]int32
	index := make(map[uint64]int32, len(ex)/2+1)
	var next []int32      // per group: the next group of its hash, −1 none
	var sets []logic.Term // per group: its α as a set
	last := int32(-1)
	for i, d := range ex {
		if i > 0 && last >= 0 && sameSlice(d.Alpha, ex[i-1].Alpha) {
			groups[last] = append(groups[last], int32(i))
			continue
		}
		a := d.Alpha
		if !strictlyIncreasing(a) {
			a = slices.Compact(slices.Sorted(slices.Values(d.Alpha)))
		}
		h := a.Hash()
		g, ok := index[h]
		found := int32(-1)
		for x := g; ok && x >= 0; x = next[x] {
			if slices.Equal(sets[x], a) {
				found = x
				break
			}
		}
		if found < 0 {
			found = int32(len(groups))
			groups = append(groups, nil)
			sets = append(sets, a)
			if ok {
				next = append(next, g)
			} else {
				next = append(next, -1)
			}
			index[h] = found
		}
		groups[found] = append(groups[found], int32(i))
		last = found
	}
	return groups
}

// sameSlice reports whether a and b are the same slice of memory.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// strictlyIncreasing reports whether a is sorted without repeats, as a set
// of literals is stored (a situation of a table always is).
func strictlyIncreasing(a logic.Term) bool {
	for i := 1; i < len(a); i++ {
		if a[i] <= a[i-1] {
			return false
		}
	}
	return true
}
