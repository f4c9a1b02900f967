// Package brute holds the brute-force oracles of the tests: satisfiability
// and entailment decided by enumerating every world over a few atoms.
package brute

import "github.com/strata-logic/strata/logic"

// Satisfiable reports, by enumerating all worlds over n atoms, whether
// some world satisfies every clause.
func Satisfiable(n int, cs []logic.Clause) bool {
	found := false
	logic.ForEachWorld(n, func(w []bool) bool {
		for _, c := range cs {
			if !c.Holds(w) {
				return true
			}
		}
		found = true
		return false
	})
	return found
}

// Entails reports, by enumerating all worlds over n atoms, whether every
// world satisfying all of fs satisfies g.
func Entails(n int, fs []*logic.Formula, g *logic.Formula) bool {
	ok := true
	logic.ForEachWorld(n, func(w []bool) bool {
		for _, f := range fs {
			if !f.Eval(w) {
				return true
			}
		}
		if !g.Eval(w) {
			ok = false
		}
		return ok
	})
	return ok
}
