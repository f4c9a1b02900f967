package mln

import (
	"math"
	"math/bits"

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

// columns holds a table column by column, each column a bitset over the
// rows, so that the counts a split needs are popcounts of a few words
// rather than a pass over every row: trees for thousands of columns grow in
// seconds.
type columns struct {
	words int      // 64-row words per column
	bits  []uint64 // column v is bits[v*words : (v+1)*words]
}

func newColumns(data *Table) *columns {
	c := &columns{words: (data.Rows() + 63) / 64}
	c.bits = make([]uint64, c.words*data.Cols)
	for r := range data.Rows() {
		for v, x := range data.Row(r) {
			if x {
				c.bits[v*c.words+r/64] |= 1 << (r % 64)
			}
		}
	}
	return c
}

func (c *columns) col(v int) []uint64 { return c.bits[v*c.words : (v+1)*c.words] }

// growTree learns a probabilistic decision tree for the variable target
// over the other columns of data (cols, n of them, over rows rows),
// greedily: each node takes the split that most increases the conditional
// log-likelihood of the target (counts at the leaves), if the gain exceeds
// the penalty and both children keep minLeaf rows. It returns the leaves.
func growTree(cols *columns, n, rows, target int, p treeParams) []leaf {
	all := make([]uint64, cols.words)
	for r := range rows {
		all[r/64] |= 1 << (r % 64)
	}
	g := &grower{cols: cols, n: n, target: target, p: p, used: make([]bool, n)}
	if rows < 256 { // a table of logLik for every count pair fits in 512 KiB
		g.ll = make([]float64, (rows+1)*(rows+1))
		g.llStride = rows + 1
		for i := range g.ll {
			g.ll[i] = math.NaN()
		}
	}
	g.used[target] = true
	g.grow(all, nil)
	return g.leaves
}

type grower struct {
	cols   *columns
	n      int // columns
	target int
	p      treeParams
	used   []bool // variables tested on the current path (and the target)
	leaves []leaf

	// ll memoises logLik(n0, n1) at ll[n0*llStride+n1] (NaN: not yet) for
	// few rows, where thousands of columns ask for the same few pairs.
	ll       []float64
	llStride int
}

// logLik is logLik, memoised when the table has few rows.
func (g *grower) logLik(n0, n1 int) float64 {
	if g.ll == nil {
		return logLik(n0, n1)
	}
	p := &g.ll[n0*g.llStride+n1]
	if math.IsNaN(*p) {
		*p = logLik(n0, n1)
	}
	return *p
}

// grow splits the rows in the bitset set, which it owns.
func (g *grower) grow(set []uint64, path logic.Term) {
	t := g.cols.col(g.target)
	n, n1 := 0, 0
	for i, w := range set {
		n += bits.OnesCount64(w)
		n1 += bits.OnesCount64(w & t[i])
	}
	n0 := n - n1
	v := -1
	if len(path) < g.p.maxDepth && n0 > 0 && n1 > 0 && n >= 2*g.p.minLeaf {
		v = g.bestSplit(set, n0, n1)
	}
	if v < 0 {
		g.leaves = append(g.leaves, leaf{path: append(logic.Term(nil), path...), n0: n0, n1: n1})
		return
	}
	x := g.cols.col(v)
	right := make([]uint64, len(set))
	for i := range set {
		right[i] = set[i] & x[i]
		set[i] &^= x[i]
	}
	g.used[v] = true
	g.grow(set, append(path, logic.Neg(logic.Atom(v))))
	g.grow(right, append(path, logic.Pos(logic.Atom(v))))
	g.used[v] = false
}

// bestSplit returns the variable whose split gains most, or -1 when no
// split gains more than the penalty with minLeaf rows on each side.
func (g *grower) bestSplit(set []uint64, n0, n1 int) int {
	t := g.cols.col(g.target)
	parent := logLik(n0, n1)
	best, bestGain := -1, g.p.penalty
	for v := range g.n {
		if g.used[v] {
			continue
		}
		x := g.cols.col(v)
		a, a1 := 0, 0 // rows with x_v true; of them, with the target true
		for i, w := range set {
			w &= x[i]
			a += bits.OnesCount64(w)
			a1 += bits.OnesCount64(w & t[i])
		}
		// (x_v, target) = 00, 01, 10, 11
		c := [4]int{n0 - (a - a1), n1 - a1, a - a1, a1}
		if c[0]+c[1] < g.p.minLeaf || c[2]+c[3] < g.p.minLeaf {
			continue
		}
		if gain := g.logLik(c[0], c[1]) + g.logLik(c[2], c[3]) - parent; gain > bestGain {
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
