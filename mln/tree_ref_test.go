package mln

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// refGrowTree is growTree as it was before columns: a pass over the rows
// at every node, the reference the bitset version must agree with. It learns a probabilistic decision tree for the variable target
// over the other columns of data, greedily: each node takes the split that
// most increases the conditional log-likelihood of the target (counts at
// the leaves), if the gain exceeds the penalty and both children keep
// minLeaf rows. It returns the leaves.
func refGrowTree(data *Table, target int, p treeParams) []leaf {
	rows := make([]int32, data.Rows())
	for i := range rows {
		rows[i] = int32(i)
	}
	g := &refGrower{data: data, target: target, p: p, used: make([]bool, data.Cols),
		counts: make([][4]int, data.Cols)}
	g.used[target] = true
	g.grow(rows, nil)
	return g.leaves
}

type refGrower struct {
	data   *Table
	target int
	p      treeParams
	used   []bool   // variables tested on the current path (and the target)
	counts [][4]int // per variable: rows with (x_v, x_target) = 00, 01, 10, 11
	leaves []leaf
}

func (g *refGrower) grow(rows []int32, path logic.Term) {
	n1 := 0
	for _, r := range rows {
		if g.data.Row(int(r))[g.target] {
			n1++
		}
	}
	n0 := len(rows) - n1
	v := -1
	if len(path) < g.p.maxDepth && n0 > 0 && n1 > 0 && len(rows) >= 2*g.p.minLeaf {
		v = g.refBestSplit(rows, n0, n1)
	}
	if v < 0 {
		g.leaves = append(g.leaves, leaf{path: append(logic.Term(nil), path...), n0: n0, n1: n1})
		return
	}
	// Partition rows in place: x_v false first.
	i, j := 0, len(rows)-1
	for i <= j {
		if g.data.Row(int(rows[i]))[v] {
			rows[i], rows[j] = rows[j], rows[i]
			j--
		} else {
			i++
		}
	}
	g.used[v] = true
	g.grow(rows[:i], append(path, logic.Neg(logic.Atom(v))))
	g.grow(rows[i:], append(path, logic.Pos(logic.Atom(v))))
	g.used[v] = false
}

// refBestSplit returns the variable whose split gains most, or -1 when no
// split gains more than the penalty with minLeaf rows on each side.
func (g *refGrower) refBestSplit(rows []int32, n0, n1 int) int {
	for v := range g.counts {
		g.counts[v] = [4]int{}
	}
	t := g.target
	for _, r := range rows {
		row := g.data.Row(int(r))
		y := 0
		if row[t] {
			y = 1
		}
		for v, x := range row {
			if x {
				g.counts[v][2+y]++
			} else {
				g.counts[v][y]++
			}
		}
	}
	parent := logLik(n0, n1)
	best, bestGain := -1, g.p.penalty
	for v, c := range g.counts {
		if g.used[v] || c[0]+c[1] < g.p.minLeaf || c[2]+c[3] < g.p.minLeaf {
			continue
		}
		if gain := logLik(c[0], c[1]) + logLik(c[2], c[3]) - parent; gain > bestGain {
			best, bestGain = v, gain
		}
	}
	return best
}

// TestGrowTreeMatchesReference: the bitset trees are the row-pass trees,
// leaf for leaf, on random tables of 1 to 200 rows (so across word
// boundaries) with correlated columns.
func TestGrowTreeMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 300 {
		rows, n := 1+r.IntN(200), 2+r.IntN(12)
		data := &Table{}
		for range rows {
			row := make([]bool, n)
			for v := range row {
				row[v] = r.IntN(3) == 0
				if v > 0 && r.IntN(2) == 0 {
					row[v] = row[v-1] != (r.IntN(5) == 0)
				}
			}
			data.Append(row)
		}
		p := treeParams{maxDepth: 1 + r.IntN(3), minLeaf: 1 + r.IntN(10), penalty: r.Float64() * 2}
		cols := newColumns(data)
		for target := range n {
			got, want := growTree(cols, n, rows, target, p), refGrowTree(data, target, p)
			if !slices.EqualFunc(got, want, func(a, b leaf) bool {
				return a.n0 == b.n0 && a.n1 == b.n1 && slices.Equal(a.path, b.path)
			}) {
				t.Fatalf("#%d target %d (%d rows, %+v): leaves %v, want %v", i, target, rows, p, got, want)
			}
		}
	}
}
