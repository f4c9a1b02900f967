package mln

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkLearnColumns learns networks from 100 random rows of 1,000 to
// 8,000 columns (a shape that is quadratic without bitset trees). DTSL grows one tree per column over all the others, so
// the trees grow quadratically in the columns; the trees and the weights
// are included.
func BenchmarkLearnColumns(b *testing.B) {
	for _, cols := range []int{1000, 2000, 4000, 8000} {
		r := rand.New(rand.NewPCG(uint64(cols), 3))
		t := &Table{}
		for range 100 {
			row := make([]bool, cols)
			for j := range row {
				row[j] = r.IntN(2) == 0
			}
			t.Append(row)
		}
		b.Run(fmt.Sprint(cols), func(b *testing.B) {
			for b.Loop() {
				if _, err := Learn(t, LearnOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGrowTrees grows the trees alone, with the row-pass reference of
// the test for comparison, on 100 rows of 2,000 columns.
func BenchmarkGrowTrees(b *testing.B) {
	r := rand.New(rand.NewPCG(2000, 3))
	t := &Table{}
	const cols = 2000
	for range 100 {
		row := make([]bool, cols)
		for j := range row {
			row[j] = r.IntN(2) == 0
		}
		t.Append(row)
	}
	p := treeParams{maxDepth: 2, minLeaf: 20}
	b.Run("bitset", func(b *testing.B) {
		for b.Loop() {
			c := newColumns(t)
			for v := range cols {
				growTree(c, cols, 100, v, p)
			}
		}
	})
	b.Run("rows", func(b *testing.B) {
		for b.Loop() {
			for v := range cols {
				refGrowTree(t, v, p)
			}
		}
	})
}
