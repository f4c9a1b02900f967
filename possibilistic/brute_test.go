package possibilistic

import (
	"math"
	"math/rand/v2"

	"github.com/strata-logic/strata/internal/brute"
	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
)

// The brute-force possibility-distribution evaluator: every answer here is
// computed from π over all worlds, by the definitions, with no solver.

// violation returns the highest weight of a formula that w violates (0 if
// none), so that π(ω) = 1 − violation(ω); working with it keeps weights exact.
func violation(t *Theory, w []bool) float64 {
	for _, l := range t.Levels {
		for _, f := range l.Formulas {
			if !f.Eval(w) {
				return l.Weight
			}
		}
	}
	return 0
}

// minViolation returns 1 − max π'(ω), where π' is the distribution of
// Θ ∪ {(α, 1)}: that is inc(Θ ∪ {(α, 1)}).
func minViolation(t *Theory, n int, alpha *logic.Formula) float64 {
	m := 1.0
	logic.ForEachWorld(n, func(w []bool) bool {
		if alpha.Eval(w) {
			m = math.Min(m, violation(t, w))
		}
		return true
	})
	return m
}

func bruteEntails(t *Theory, n int, alpha, beta *logic.Formula) bool {
	m := minViolation(t, n, alpha)
	ok := true
	logic.ForEachWorld(n, func(w []bool) bool {
		if m == 1 || alpha.Eval(w) && violation(t, w) == m {
			ok = beta.Eval(w)
		}
		return ok
	})
	return ok
}

func bruteInc(t *Theory, n int, alpha *logic.Formula) float64 {
	return minViolation(t, n, alpha)
}

// bruteNecessity is the highest weight λ above inc such that the worlds of α
// satisfying every formula of weight ≥ λ all satisfy β.
func bruteNecessity(t *Theory, n int, alpha, beta *logic.Formula) float64 {
	inc := bruteInc(t, n, alpha)
	if inc == 1 {
		if brute.Entails(n, nil, beta) {
			return 1
		}
		return 0
	}
	best := 0.0
	weights := []float64{1}
	for _, l := range t.Levels {
		weights = append(weights, l.Weight)
	}
	for _, lam := range weights {
		if lam <= inc || lam <= best {
			continue
		}
		fs := append([]*logic.Formula{alpha}, t.Cut(math.Nextafter(lam, 0))...)
		if brute.Entails(n, fs, beta) {
			best = lam
		}
	}
	return best
}

var weightChoices = []float64{0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 0.8, 0.9, 1}

func randClause(r *rand.Rand, n, maxLen int) logic.Clause {
	c := make(logic.Clause, 1+r.IntN(maxLen))
	for i := range c {
		c[i] = logictest.Lit(r, n)
	}
	return c
}

func randTerm(r *rand.Rand, n, maxLen int) logic.Term {
	t := make(logic.Term, r.IntN(maxLen+1))
	for i := range t {
		t[i] = logictest.Lit(r, n)
	}
	return t
}

// randFormula returns a small non-clausal formula.
func randFormula(r *rand.Rand, n int) *logic.Formula {
	a := func() *logic.Formula { return logic.LitF(logictest.Lit(r, n)) }
	switch r.IntN(4) {
	case 0:
		return logic.And(logic.Or(a(), a()), logic.Or(a(), a(), a()))
	case 1:
		return logic.Iff(a(), logic.And(a(), a()))
	case 2:
		return logic.Implies(logic.Or(a(), a()), logic.And(a(), a()))
	}
	return logic.AtLeast(1+r.IntN(2), a(), a(), a())
}

// randTheory draws a theory over n atoms with 1 to maxLevels levels.
func randTheory(r *rand.Rand, n, maxLevels, maxClauses int, formulas bool) *Theory {
	t := New(nil)
	for i := range n {
		t.Vocab.Intern(string(rune('a' + i)))
	}
	k := 1 + r.IntN(maxLevels)
	ws := append([]float64(nil), weightChoices...)
	r.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
	ws = ws[:k]
	m := 1 + r.IntN(maxClauses)
	for range m {
		w := ws[r.IntN(k)]
		if formulas && r.IntN(5) == 0 {
			t.Add(randFormula(r, n), w)
		} else {
			t.AddClause(randClause(r, n, 3), w)
		}
	}
	return t
}
