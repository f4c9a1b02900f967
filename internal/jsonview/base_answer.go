package jsonview

import (
	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/logic"
)

// SetDefaults makes a the answer to query on a default base whose
// reasoner answered da, without an explanation: with the degrees of Θ_Z
// under rational closure, and none under the base's other semantics.
func (a *Answer) SetDefaults(query string, da defaults.Answer) {
	*a = Answer{Query: query, Word: YesNo(da.Entailed), Entailed: da.Entailed, Semantics: da.Semantics.String()}
	if da.Semantics == defaults.Rational {
		a.SetDegrees(da.Verdict)
	}
}

// SetDefaults makes x the explanation of da, an explained answer on the
// base of the Z-ordering ord, whose reasoner's vocabulary is v; lit names a
// literal of the counter-world. Z-levels are counted from Δ1 = 1.
func (x *Explanation) SetDefaults(da defaults.Answer, ord *defaults.Ordering, v *logic.Vocabulary, lit func(logic.Lit) string) {
	*x = Explanation{Text: da.Reason(), Violations: da.Violations, Entailing: []FormulaRef{}, Drowned: []int{}, SetAside: []FormulaRef{}}
	// Θ_Z's levels are the Z-levels, lowest (Δ1) first, then the background
	// knowledge at weight 1.
	ws := ord.Weights()
	if da.Verdict.Entailed && !da.Vacuous {
		for j, wt := range ws {
			if wt == da.Verdict.Necessity {
				x.DecidingZLevel = j + 1
			}
		}
	}
	for j, wt := range ws {
		if wt <= da.Verdict.Inconsistency {
			x.DrownedZLevels = append(x.DrownedZLevels, j+1)
		}
	}
	for _, i := range da.Clash {
		x.Clash = append(x.Clash, DescribeDefault(ord.Base, i, ord.Rank(i)+1))
	}
	// The counter-world may hold the solver's auxiliary atoms after the
	// vocabulary's.
	for i, t := range da.Counter {
		if i < v.Len() {
			x.Counter = append(x.Counter, lit(logic.MkLit(logic.Atom(i), !t)))
		}
	}
	if da.Semantics == defaults.SystemP && !da.Entailed {
		x.NegZLevel = da.NegLevel + 1
	}
	if da.Impacts != nil {
		x.Impacts = da.Impacts
		x.Ranks = &RankPair{Verification: da.RankAB, Falsification: da.RankAnB}
	}
}
