package logic

import (
	"fmt"
	"strings"
	"testing"
)

// The scaling benchmarks: each runs a path that a naive implementation
// makes quadratic or exponential, at several sizes, so that the figures show the growth.

// BenchmarkParseChains parses same-connective chains: a flat conjunction,
// a right-nested implication chain and a left-nested parenthesised
// disjunction (both at most MaxDepth deep), then puts the implication chain
// into negation normal form.
func BenchmarkParseChains(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		src := strings.Repeat("a1 & ", n-1) + "a1"
		b.Run(fmt.Sprintf("and/%d", n), func(b *testing.B) { benchParse(b, src) })
	}
	for _, n := range []int{1000, 9999} {
		src := strings.Repeat("a1 -> ", n-1) + "a1"
		b.Run(fmt.Sprintf("implies/%d", n), func(b *testing.B) { benchParse(b, src) })
		f, _ := ParseFormula(&Vocabulary{}, src)
		b.Run(fmt.Sprintf("implies-nnf/%d", n), func(b *testing.B) {
			for b.Loop() {
				NNF(f)
			}
		})
		var or strings.Builder
		or.WriteString(strings.Repeat("(", n-1) + "a0")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&or, " | a%d)", i)
		}
		b.Run(fmt.Sprintf("left-or/%d", n), func(b *testing.B) { benchParse(b, or.String()) })
	}
}

func benchParse(b *testing.B, src string) {
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := ParseFormula(&Vocabulary{}, src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCNFNamed converts a chain a0 <-> … <-> a(n-1) and the hard rule
// (a0 & b0) | … | (a(k-1) & b(k-1)) with fresh atoms, as every command
// now does; distributed, they need 2^n and 2^k clauses.
func BenchmarkCNFNamed(b *testing.B) {
	for _, n := range []int{20, 30, 1000} {
		f := AtomF(0)
		for i := 1; i < n; i++ {
			f = Iff(f, AtomF(Atom(i)))
		}
		b.Run(fmt.Sprintf("iff-chain/%d", n), func(b *testing.B) { benchCNF(b, f, n) })
	}
	for _, k := range []int{17, 20, 1000} {
		terms := make([]*Formula, k)
		for i := range terms {
			terms[i] = And(AtomF(Atom(2*i)), AtomF(Atom(2*i+1)))
		}
		f := Or(terms...)
		b.Run(fmt.Sprintf("dnf/%d", k), func(b *testing.B) { benchCNF(b, f, 2*k) })
	}
}

func benchCNF(b *testing.B, f *Formula, atoms int) {
	var cs []Clause
	for b.Loop() {
		next := Atom(atoms)
		cs = CNF(f, func() Atom { next++; return next - 1 })
	}
	b.ReportMetric(float64(len(cs)), "clauses")
}
