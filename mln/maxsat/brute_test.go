package maxsat

import (
	"math"

	"github.com/strata-logic/strata/logic"
)

// brute returns a minimum cost assignment extending the evidence by
// enumerating all worlds; ok is false when none satisfies the hard clauses.
// It is the tests' oracle and needs NumVars <= 24 or so.
func (p *Problem) brute(evidence []logic.Lit) (best []bool, cost int64, ok bool) {
	cost = math.MaxInt64
	logic.ForEachWorld(p.NumVars, func(w []bool) bool {
		if !logic.Term(evidence).Holds(w) {
			return true
		}
		c, hard := p.Cost(w)
		if hard && c < cost {
			cost, best, ok = c, append(best[:0], w...), true
		}
		return true
	})
	return best, cost, ok
}
