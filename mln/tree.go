package mln

import (
	"math"

	"github.com/strata-logic/strata/dataset"
	"github.com/strata-logic/strata/logic"
)

// leaf is a leaf of a probabilistic decision tree for one target variable:
// the conjunction of tests on the path to it, and the numbers of training
// rows that reach it with the target false and true.
type leaf struct {
	path   logic.Term
	n0, n1 int
}

// treeParams are the stopping rules of growTree.
type treeParams struct {
	maxDepth int     // longest path
	minLeaf  int     // fewest rows in a leaf
	penalty  float64 // least log-likelihood gain (nats) that pays for a split
}

// growTree learns a probabilistic decision tree for the variable target
// over the other columns of data, greedily: each node takes the split that
// most increases the conditional log-likelihood of the target (counts at
// the leaves), if the gain exceeds the penalty and both children keep
// minLeaf rows. It returns the leaves.
func growTree(data *dataset.Table, target int, p treeParams) []leaf {
	rows := make([]int32, data.Rows())
	for i := range rows {
		rows[i] = int32(i)
	}
	g := &grower{data: data, target: target, p: p, used: make([]bool, data.Cols),
		counts: make([][4]int, data.Cols)}
	g.used[target] = true
	g.grow(rows, nil)
	return g.leaves
}

type grower struct {
	data   *dataset.Table
	target int
	p      treeParams
	used   []bool   // variables tested on the current path (and the target)
	counts [][4]int // per variable: rows with (x_v, x_target) = 00, 01, 10, 11
	leaves []leaf
}

func (g *grower) grow(rows []int32, path logic.Term) {
	n1 := 0
	for _, r := range rows {
		if g.data.Row(int(r))[g.target] {
			n1++
		}
	}
	n0 := len(rows) - n1
	v := -1
	if len(path) < g.p.maxDepth && n0 > 0 && n1 > 0 && len(rows) >= 2*g.p.minLeaf {
		v = g.bestSplit(rows, n0, n1)
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

// bestSplit returns the variable whose split gains most, or -1 when no
// split gains more than the penalty with minLeaf rows on each side.
func (g *grower) bestSplit(rows []int32, n0, n1 int) int {
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

// logLik returns the maximised log-likelihood n0 ln(n0/n) + n1 ln(n1/n) of
// n0 false and n1 true outcomes.
func logLik(n0, n1 int) float64 {
	n := float64(n0 + n1)
	s := 0.0
	if n0 > 0 {
		s += float64(n0) * math.Log(float64(n0)/n)
	}
	if n1 > 0 {
		s += float64(n1) * math.Log(float64(n1)/n)
	}
	return s
}
