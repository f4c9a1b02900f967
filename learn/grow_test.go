package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestGrowFindsSeparatingLiteral: when one atom of the antecedents decides
// the consequent, grow builds the rule of its literal alone, though every
// antecedent states three more.
func TestGrowFindsSeparatingLiteral(t *testing.T) {
	v := vocab(5) // a0..a3 describe, a4 is the class
	ex := &Examples{}
	cls := logic.MkLit(4, false)
	for w := range 16 {
		alpha := make(logic.Term, 4)
		for i := range alpha {
			alpha[i] = logic.MkLit(logic.Atom(i), w>>i&1 == 0)
		}
		positive := !alpha[2].IsNeg() // a2 true: the class
		ex.Add(alpha, logic.Clause{cls}, positive, 1+w%3)
	}
	l, err := NewLearner(Problem{Vocab: v, Train: ex}, Config{Seed: 1, Threads: 1, Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ex.List {
		b := cls // as sample draws them: a negative α |~ b as α |~ ¬b
		if !e.Positive {
			b = cls.Not()
		}
		got := l.grow(e.Alpha, b)
		want := logic.Clause{e.Alpha[2].Not(), b}
		if !slices.Equal(got, want) {
			t.Fatalf("grown from %v: %v, want %v", e.Alpha, got, want)
		}
	}
}

// TestGrowGain checks grow against a direct count on the examples' list:
// every literal of the grown antecedent is one of alpha's, each is the one
// of highest FOIL gain among those left (the first on a tie), and growth
// stops only when no negative is covered, no literal gains, or the
// antecedent is full.
func TestGrowGain(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 2))
	th := hiddenTheory(r, 10, 4)
	p, q := Generate(th, atomsUpTo(10), 200, 200, 6, 0.1, r)
	train := Merge(p, q)
	for _, sem := range possibilistic.AllSemantics {
		l, err := NewLearner(Problem{Vocab: th.Vocab, Train: train}, Config{Seed: 3, Threads: 1, Iterations: 3, Semantics: sem})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		grown := 0
		for _, e := range train.List {
			if len(e.Beta) != 1 {
				continue
			}
			b := e.Beta[0]
			c := l.grow(e.Alpha, b)
			if c[len(c)-1] != b {
				t.Fatalf("grown from %v |~ %v: %v does not end with its consequent", e.Alpha, e.Beta, c)
			}
			var A logic.Term
			for _, x := range c[:len(c)-1] {
				A = append(A, x.Not())
			}
			for i := range A {
				best, gain, _, _ := bestGain(train, e.Alpha, A[:i], b)
				if A[i] != best {
					t.Fatalf("grown from %v |~ %v: literal %d is %v, the best gain (%g) is %v's", e.Alpha, e.Beta, i, A[i], gain, best)
				}
			}
			if len(A) < growMaxLiterals {
				if best, _, pw, nw := bestGain(train, e.Alpha, A, b); best >= 0 && pw > 0 && nw > 0 {
					t.Fatalf("grown from %v |~ %v: %v stops with %v covering %g negatives and %v gaining", e.Alpha, e.Beta, c, A, nw, best)
				}
			}
			grown += len(A)
		}
		if grown == 0 {
			t.Fatal("no antecedent grew: the test checks nothing")
		}
	}
}

// bestGain counts, on the examples about b that A covers, the weights of
// the rule ¬A ∨ b's positives and negatives, and returns the literal of
// alpha not in A of the highest FOIL gain (−1 when none gains).
func bestGain(ex *Examples, alpha, A logic.Term, b logic.Lit) (best logic.Lit, gain, P, N float64) {
	covered := func(e Example, extra ...logic.Lit) bool {
		for _, a := range append(slices.Clone(A), extra...) {
			if !slices.Contains(e.Alpha, a) {
				return false
			}
		}
		return true
	}
	count := func(extra ...logic.Lit) (p, n float64) {
		for _, e := range ex.List {
			if len(e.Beta) != 1 || e.Beta[0].Atom() != b.Atom() || !covered(e, extra...) {
				continue
			}
			if (e.Beta[0] == b) == e.Positive {
				p += float64(e.Count)
			} else {
				n += float64(e.Count)
			}
		}
		return p, n
	}
	P, N = count()
	best = -1
	for _, a := range alpha {
		if slices.Contains(A, a) {
			continue
		}
		p, n := count(a)
		if p == 0 {
			continue
		}
		if g := p * (math.Log(p/(p+n)) - math.Log(P/(P+N))); g > gain+1e-9 {
			best, gain = a, g
		}
	}
	return best, gain, P, N
}
