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

// LexPreferred returns the worlds of ws whose vectors of violation counts
// are lexicographically least, and that vector. levels[j] holds the
// formulas of level j, most important first, as a list with repeats: a
// formula that occurs twice in a level counts twice, since a level is a
// multiset. violated reports whether a world violates a formula. It
// returns nil, nil when ws is empty.
func LexPreferred[F any](ws [][]bool, levels [][]F, violated func(f F, w []bool) bool) (pref [][]bool, vec []int) {
	if len(ws) == 0 {
		return nil, nil
	}
	count := func(j int, w []bool) int {
		n := 0
		for _, f := range levels[j] {
			if violated(f, w) {
				n++
			}
		}
		return n
	}
	pref = ws
	vec = make([]int, len(levels))
	for j := range levels {
		least := len(levels[j])
		for _, w := range pref {
			least = min(least, count(j, w))
		}
		vec[j] = least
		var keep [][]bool
		for _, w := range pref {
			if count(j, w) == least {
				keep = append(keep, w)
			}
		}
		pref = keep
	}
	return pref, vec
}
