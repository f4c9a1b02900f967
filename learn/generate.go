package learn

import (
	"context"
	"math/rand/v2"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Generate labels random defaults with a hidden theory, the way the tests
// and the built-in example make data whose answer is known: α is a
// conjunction of 1 to maxAlpha literals over distinct atoms drawn from
// atoms, β a literal over another atom, and α |~ β is positive when
// (Θ, α) ⊢poss β. It draws until it has nPos positive and nNeg negative
// examples (or gives up after 200 times as many draws, returning fewer).
// Each label is flipped with probability noise.
func Generate(th *possibilistic.Theory, atoms []logic.Atom, nPos, nNeg, maxAlpha int, noise float64, r *rand.Rand) (pos, neg *Examples) {
	ctx := context.Background() // never done: no query fails
	rs, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		panic(err) // th's levels are in order: its reader or Add built them
	}
	pos, neg = &Examples{}, &Examples{}
	var np, nn int
	perm := make([]logic.Atom, len(atoms))
	for tries := 0; (np < nPos || nn < nNeg) && tries < 200*(nPos+nNeg+1); tries++ {
		copy(perm, atoms)
		r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		na := 1 + r.IntN(min(maxAlpha, len(perm)-1))
		alpha := make(logic.Term, na)
		for i := range alpha {
			alpha[i] = logic.MkLit(perm[i], r.IntN(2) == 0)
		}
		beta := logic.Clause{logic.MkLit(perm[na], r.IntN(2) == 0)}
		label, _ := rs.EntailsClause(ctx, possibilistic.Poss, alpha, beta)
		if label && np >= nPos || !label && nn >= nNeg {
			continue
		}
		if label {
			np++
		} else {
			nn++
		}
		if r.Float64() < noise {
			label = !label
		}
		if label {
			pos.Add(alpha, beta, true, 1)
		} else {
			neg.Add(alpha, beta, false, 1)
		}
	}
	return pos, neg
}

// Merge returns the union of example multisets.
func Merge(sets ...*Examples) *Examples {
	out := &Examples{}
	for _, s := range sets {
		for _, e := range s.List {
			out.Add(e.Alpha, e.Beta, e.Positive, e.Count)
		}
	}
	return out
}
