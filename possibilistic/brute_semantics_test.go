package possibilistic

import (
	"math/rand/v2"
	"slices"

	"github.com/strata-logic/strata/internal/brute"
	"github.com/strata-logic/strata/logic"
)

// The brute-force reference of the three semantics, from their definitions
// over enumerated worlds, with no solver and sharing no code with the
// Reasoner. The worlds considered are those of α that satisfy the formulas
// of weight 1; below weight 1:
//   - poss: the worlds of least violation (highest possibility);
//   - linear: the worlds satisfying the levels kept by going down from the
//     top, keeping a level when some considered world satisfies it and
//     every level kept before;
//   - lex: the worlds whose counts of violated formulas per level (a
//     formula written twice counting twice), compared from the top, are
//     lexicographically least.

// certainHold reports whether w satisfies α and every formula of weight 1.
func certainHold(t *Theory, alpha *logic.Formula, w []bool) bool {
	if !alpha.Eval(w) {
		return false
	}
	if len(t.Levels) > 0 && t.Levels[0].Weight == 1 {
		return allHold(t.Levels[0].Formulas, w)
	}
	return true
}

func allHold(fs []*logic.Formula, w []bool) bool {
	for _, f := range fs {
		if !f.Eval(w) {
			return false
		}
	}
	return true
}

// softLevels returns the indices of the levels below weight 1, highest first.
func softLevels(t *Theory) []int {
	var js []int
	for j, l := range t.Levels {
		if l.Weight < 1 {
			js = append(js, j)
		}
	}
	return js
}

// brutePreferred returns the preferred worlds of α under s (nil when α and
// the formulas of weight 1 have no world) and, for linear, the levels set
// aside, for lex, the least vector (indexed by level).
func brutePreferred(t *Theory, n int, s Semantics, alpha *logic.Formula) (pref [][]bool, aside []int, vec []int) {
	var ws [][]bool
	logic.ForEachWorld(n, func(w []bool) bool {
		if certainHold(t, alpha, w) {
			ws = append(ws, slices.Clone(w))
		}
		return true
	})
	if len(ws) == 0 {
		return nil, nil, nil
	}
	switch s {
	case Poss:
		best := 1.0
		for _, w := range ws {
			best = min(best, violation(t, w))
		}
		for _, w := range ws {
			if violation(t, w) == best {
				pref = append(pref, w)
			}
		}
	case Linear:
		var kept []*logic.Formula
		for _, j := range softLevels(t) {
			try := append(slices.Clone(kept), t.Levels[j].Formulas...)
			if slices.ContainsFunc(ws, func(w []bool) bool { return allHold(try, w) }) {
				kept = try
			} else {
				aside = append(aside, j)
			}
		}
		for _, w := range ws {
			if allHold(kept, w) {
				pref = append(pref, w)
			}
		}
	case Lex:
		js := softLevels(t)
		levels := make([][]*logic.Formula, len(js))
		for i, j := range js {
			levels[i] = t.Levels[j].Formulas
		}
		var least []int
		pref, least = brute.LexPreferred(ws, levels, func(f *logic.Formula, w []bool) bool { return !f.Eval(w) })
		vec = make([]int, len(t.Levels))
		for i, j := range js {
			vec[j] = least[i]
		}
	}
	return pref, aside, vec
}

// bruteEntailsUnder decides (Θ, α) ⊢ β under s by enumeration: β holds in
// every preferred world, or is a tautology when there are none.
func bruteEntailsUnder(t *Theory, n int, s Semantics, alpha, beta *logic.Formula) bool {
	pref, _, _ := brutePreferred(t, n, s, alpha)
	if pref == nil {
		return brute.Entails(n, nil, beta)
	}
	for _, w := range pref {
		if !beta.Eval(w) {
			return false
		}
	}
	return true
}

// above returns the theory of the levels of weight at least λ.
func above(t *Theory, lambda float64) *Theory {
	u := &Theory{Vocab: t.Vocab}
	for _, l := range t.Levels {
		if l.Weight >= lambda {
			u.Levels = append(u.Levels, l)
		}
	}
	return u
}

// bruteNecessityUnder is the highest weight λ (α's own being 1) such that
// the levels of weight at least λ entail β under s, and 0 if there is none.
func bruteNecessityUnder(t *Theory, n int, s Semantics, alpha, beta *logic.Formula) float64 {
	lambdas := []float64{1}
	for _, l := range t.Levels {
		lambdas = append(lambdas, l.Weight)
	}
	for _, lam := range lambdas {
		if bruteEntailsUnder(above(t, lam), n, s, alpha, beta) {
			return lam
		}
	}
	return 0
}

// randQuery draws α (a term, sometimes any formula) and β (a clause,
// sometimes any formula).
func randQuery(r *rand.Rand, n int) (alpha, beta *logic.Formula) {
	alpha = logic.TermF(randTerm(r, n, 3))
	beta = logic.ClauseF(randClause(r, n, 2))
	if r.IntN(6) == 0 {
		alpha = randFormula(r, n)
	}
	if r.IntN(6) == 0 {
		beta = randFormula(r, n)
	}
	return alpha, beta
}
