package maxsat

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// firstFit is partitionExclusive as its definition says: each term joins
// the first group all of whose members it clashes with, trying every group.
func firstFit(terms [][]logic.Lit) [][]int {
	clash := func(a, b []logic.Lit) bool {
		for _, l := range a {
			if slices.Contains(b, l.Not()) {
				return true
			}
		}
		return false
	}
	var groups [][]int
	for i, t := range terms {
		placed := false
		for g := range groups {
			ok := len(t) > 0
			for _, j := range groups[g] {
				ok = ok && clash(terms[j], t)
			}
			if ok {
				groups[g] = append(groups[g], i)
				placed = true
				break
			}
		}
		if !placed {
			groups = append(groups, []int{i})
		}
	}
	return groups
}

// TestPartitionExclusiveIsFirstFit checks the indexed partition against
// first fit over every group on random terms, some of them the exclusive
// leaves of a tree, some empty.
func TestPartitionExclusiveIsFirstFit(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	for range 300 {
		n := 1 + r.IntN(6)
		terms := make([][]logic.Lit, r.IntN(40))
		for i := range terms {
			for range r.IntN(4) {
				terms[i] = append(terms[i], logic.MkLit(logic.Atom(r.IntN(n)), r.IntN(2) == 0))
			}
		}
		if got, want := partitionExclusive(n, terms), firstFit(terms); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("terms %v: groups %v, first fit %v", terms, got, want)
		}
	}
}

// TestDegeneracy checks degeneracy against its definition on random
// graphs: the largest least degree over all induced subgraphs, by
// enumeration of the vertex subsets.
func TestDegeneracy(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 5))
	for range 300 {
		n := 1 + r.IntN(8)
		adj := make([]map[int32]bool, n)
		for v := range adj {
			adj[v] = map[int32]bool{}
		}
		p := r.Float64()
		for a := range n {
			for b := a + 1; b < n; b++ {
				if r.Float64() < p {
					adj[a][int32(b)], adj[b][int32(a)] = true, true
				}
			}
		}
		want := 0
		for mask := 1; mask < 1<<n; mask++ {
			least := n
			for v := range n {
				if mask>>v&1 == 0 {
					continue
				}
				d := 0
				for u := range adj[v] {
					if mask>>u&1 == 1 {
						d++
					}
				}
				least = min(least, d)
			}
			want = max(want, least)
		}
		if got := degeneracy(adj); got != want {
			t.Fatalf("%v: degeneracy %d, want %d", adj, got, want)
		}
	}
}

// denseProblem draws m soft clauses of one to three literals over n
// variables, a network far wider than bucket elimination takes.
func denseProblem(n, m int) *Problem {
	r := rand.New(rand.NewPCG(3, 3))
	p := &Problem{NumVars: n}
	for range m {
		var c []logic.Lit
		for range 1 + r.IntN(3) {
			c = append(c, logic.MkLit(logic.Atom(r.IntN(n)), r.IntN(2) == 0))
		}
		p.Soft = append(p.Soft, Soft{Lits: c, Cost: 1 + int64(r.IntN(100))})
	}
	return p
}

// BenchmarkPrepareDense measures preparing the exact solvers for a dense
// network of 20,000 soft clauses over 200 variables: finding that bucket
// elimination is too wide, and the branch and bound's exclusive groups.
func BenchmarkPrepareDense(b *testing.B) {
	p := denseProblem(200, 20000)
	for b.Loop() {
		if _, err := NewElimination(p, 16); err == nil {
			b.Fatal("a dense network taken for a narrow one")
		}
		if _, err := NewExact(p); err != nil {
			b.Fatal(err)
		}
	}
}
