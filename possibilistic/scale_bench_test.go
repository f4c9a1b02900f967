package possibilistic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// BenchmarkConcludeLongEvidence lists the conclusions, with necessities,
// of evidence of n literals on a 3-rule theory (query --given).
func BenchmarkConcludeLongEvidence(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			v := &logic.Vocabulary{}
			th, err := ReadText(context.Background(), strings.NewReader("0.8: !bird | flies\n0.9: !penguin | bird\n1: !penguin | !flies\n"), "b", v)
			if err != nil {
				b.Fatal(err)
			}
			lits := []string{"penguin"}
			for i := range n {
				lits = append(lits, fmt.Sprintf("x%d", i))
			}
			alpha, err := logic.ParseEvidence(v, strings.Join(lits, ", "))
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if cs := reasoner(b, th).conclude(Poss, alpha); len(cs) != n+3 {
					b.Fatalf("%d conclusions", len(cs))
				}
			}
		})
	}
}

// hornTheory draws n Horn clauses !p | !q | r over n/10 atoms at five
// levels.
func hornTheory(n int) *Theory {
	r := rand.New(rand.NewPCG(uint64(n), 14))
	t := New(nil)
	atoms := max(n/10, 3)
	for i := range atoms {
		t.Vocab.Intern(fmt.Sprintf("p%d", i))
	}
	for range n {
		p := r.Perm(atoms)[:3]
		c := logic.Clause{logic.Neg(logic.Atom(p[0])), logic.Neg(logic.Atom(p[1])), logic.Pos(logic.Atom(p[2]))}
		c, _ = logic.Normalize(c)
		t.AddClause(c, float64(1+r.IntN(5))/5)
	}
	return t
}

// BenchmarkSimplifyHorn runs show --simplify's steps on n random Horn
// clauses (propagate-units: with n/20 unit facts added). RemoveImplied makes one solver call per formula over the whole
// theory, so it grows quadratically; the other steps are near-linear.
func BenchmarkSimplifyHorn(b *testing.B) {
	for _, n := range []int{500, 1000, 2000, 4000} {
		th := hornTheory(n)
		b.Run(fmt.Sprintf("propagate/%d", n), func(b *testing.B) {
			for b.Loop() {
				th.RemoveDrowned().PropagateUnits()
			}
		})
		units := th.Clone()
		for i := range n / 20 {
			units.AddClause(logic.Clause{logic.Pos(logic.Atom(i))}, 0.6)
		}
		b.Run(fmt.Sprintf("propagate-units/%d", n), func(b *testing.B) {
			for b.Loop() {
				units.PropagateUnits()
			}
		})
		b.Run(fmt.Sprintf("implied/%d", n), func(b *testing.B) {
			for b.Loop() {
				th.RemoveImplied()
			}
		})
	}
}
