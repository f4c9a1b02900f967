package possibilistic_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/brute"
	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func randTerm(r *rand.Rand, n, lo, hi int) logic.Term {
	t := make(logic.Term, lo+r.IntN(hi-lo+1))
	for i := range t {
		t[i] = logictest.Lit(r, n)
	}
	return t
}

// randBase draws a default base over n atoms: defaults with an antecedent of
// one or two literals and a consequent literal or clause of two, some
// of them siblings, exceptions or repeats of an earlier default, and now and
// then a background clause. Defaults may share their material counterpart:
// a world violates both or neither, and lex counts both in Θ_Z as in the
// base.
func randBase(r *rand.Rand, n int) *defaults.Base {
	b := &defaults.Base{Vocab: &logic.Vocabulary{}}
	for i := range n {
		b.Vocab.Intern(string(rune('a' + i)))
	}
	for range 2 + r.IntN(7) {
		alpha := logic.TermF(randTerm(r, n, 1, 2))
		beta := logic.ClauseF(logic.Clause(randTerm(r, n, 1, 2)))
		k := len(b.Defaults)
		if k > 0 && r.IntN(4) == 0 {
			// a sibling: another typical property of the same antecedent
			alpha = b.Defaults[r.IntN(k)].Antecedent
		} else if k > 0 && r.IntN(2) == 0 {
			// an exception to an earlier default, as penguins are to birds
			e := b.Defaults[r.IntN(k)]
			alpha = logic.And(e.Antecedent, logic.LitF(logictest.Lit(r, n)))
			beta = logic.Not(e.Consequent)
			if l, ok := e.Consequent.AsLit(); ok {
				beta = logic.LitF(l.Not())
			}
		}
		d := defaults.NewDefault(alpha, beta)
		if k > 0 && r.IntN(6) == 0 {
			d = b.Defaults[r.IntN(k)] // written twice
		}
		b.Defaults = append(b.Defaults, d)
	}
	if r.IntN(3) == 0 {
		b.Background = append(b.Background, logic.ClauseF(logic.Clause(randTerm(r, n, 1, 2))))
	}
	return b
}

// TestLexOnZOrderingIsLexicographicClosure checks that lex entailment on the
// Z-ordered theory Θ_Z of a default base agrees with the lexicographic
// closure that package defaults computes, for every evidence consistent with
// the background knowledge (when it is not, defaults calls every query
// vacuously true and a theory entails only tautologies).
func TestLexOnZOrderingIsLexicographicClosure(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	ctx := context.Background()
	bases, queries, beyondRational := 0, 0, 0
	for bases < 2000 {
		n := 2 + r.IntN(4)
		b := randBase(r, n)
		dr, err := defaults.NewReasoner(ctx, b)
		if err != nil {
			continue // an inconsistent base has no Z-ordering
		}
		bases++
		th := dr.Ordering().Theory()
		pr, err := possibilistic.NewReasoner(ctx, th)
		if err != nil {
			t.Fatal(err)
		}
		for range 8 {
			alpha := logic.TermF(randTerm(r, n, 0, 2))
			beta := logic.ClauseF(logic.Clause(randTerm(r, n, 1, 2)))
			if r.IntN(2) == 0 { // the antecedent of a default, and a bit more
				d := b.Defaults[r.IntN(len(b.Defaults))]
				alpha = logic.And(d.Antecedent, logic.TermF(randTerm(r, n, 0, 1)))
				beta = b.Defaults[r.IntN(len(b.Defaults))].Consequent
			}
			if brute.Entails(n, append([]*logic.Formula{alpha}, b.Background...), logic.False()) {
				continue
			}
			queries++
			want, err := dr.Entails(ctx, defaults.Lexicographic, alpha, beta)
			if err != nil {
				t.Fatal(err)
			}
			got, err := pr.Entails(ctx, possibilistic.Lex, alpha, beta)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("base #%d\nΘ_Z:\n%s%s |~ %s: lex on Θ_Z %v, lexicographic closure %v",
					bases, th, alpha.String(b.Vocab), beta.String(b.Vocab), got, want)
			}
			rational, err := dr.Entails(ctx, defaults.Rational, alpha, beta)
			if err != nil {
				t.Fatal(err)
			}
			if want != rational {
				beyondRational++
			}
		}
	}
	if queries < 5000 || beyondRational < 50 {
		t.Fatalf("weak test: %d queries, %d where lexicographic and rational closure differ", queries, beyondRational)
	}
}
