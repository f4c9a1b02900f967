package benchgen

import (
	"math/rand/v2"

	"github.com/strata-logic/strata/logic"
)

// ScaleAtoms is the number of atoms of the large synthetic example sets.
const ScaleAtoms = 24

// ScaleTheory draws the hidden theory of the large example sets: 48
// clauses of 1 to 3 literals over ScaleAtoms atoms, spread over the weights
// 1/8 ... 8/8.
func ScaleTheory(r *rand.Rand) []Weighted {
	cs := make([]Weighted, 48)
	for i := range cs {
		c := make(logic.Clause, 1+r.IntN(3))
		for j := range c {
			c[j] = logic.MkLit(logic.Atom(r.IntN(ScaleAtoms)), r.IntN(2) == 0)
		}
		cs[i] = Weighted{Clause: c, Weight: float64(i%8+1) / 8}
	}
	return cs
}

// Draw is one drawn default α |~ β, to be labelled by the hidden theory.
// Antecedent numbers the distinct α (0 ≤ Antecedent < distinct) and
// Conclusion the candidate β of it (0 to 3), so that a caller can label
// each distinct default once.
type Draw struct {
	Alpha      logic.Term
	Beta       logic.Lit
	Antecedent int
	Conclusion int
}

// Scale draws total defaults over distinct antecedents, the shape of crowd
// data with many annotators: distinct antecedents α of 1 to 5 literals over
// distinct atoms (all different), each with its own four candidate
// conclusions β on other atoms; every draw picks an antecedent uniformly
// and one of its candidates with probabilities 8:4:2:1, so that the same
// α |~ β recurs many times. It calls yield for each draw, in order, and
// keeps only the antecedents and their candidates (not the draws), so that
// a million draws need no more memory than the distinct defaults. The α
// passed to yield is shared between the draws of the same antecedent.
func Scale(r *rand.Rand, distinct, total int, yield func(Draw)) {
	type antecedent struct {
		alpha logic.Term
		betas [4]logic.Lit
	}
	seen := make(map[string]bool, distinct)
	ants := make([]antecedent, 0, distinct)
	perm := make([]int, ScaleAtoms)
	for len(ants) < distinct {
		for i := range perm {
			perm[i] = i
		}
		r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		k := 1 + r.IntN(5)
		a := antecedent{alpha: make(logic.Term, k)}
		key := make([]byte, ScaleAtoms)
		for i := range a.alpha {
			a.alpha[i] = logic.MkLit(logic.Atom(perm[i]), r.IntN(2) == 0)
			key[perm[i]] = 1
			if a.alpha[i].IsNeg() {
				key[perm[i]] = 2
			}
		}
		if seen[string(key)] {
			continue
		}
		seen[string(key)] = true
		for i := range a.betas {
			a.betas[i] = logic.MkLit(logic.Atom(perm[k+i]), r.IntN(2) == 0)
		}
		ants = append(ants, a)
	}
	for range total {
		j := r.IntN(len(ants))
		a := &ants[j]
		x := r.IntN(15) // 8:4:2:1
		i := 0
		switch {
		case x >= 14:
			i = 3
		case x >= 12:
			i = 2
		case x >= 8:
			i = 1
		}
		yield(Draw{Alpha: a.alpha, Beta: a.betas[i], Antecedent: j, Conclusion: i})
	}
}
