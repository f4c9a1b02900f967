// Package logictest holds what the tests of several packages (defaults,
// possibilistic, mln) need of logic: random literals and formulas for the
// comparisons with brute-force oracles, and parsing that fails the test
// instead of returning an error.
//
// It is a normal package so that those tests can import it, but only tests
// import it.
package logictest

import (
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// Lit returns a literal over the first n atoms, either sign equally likely.
func Lit(r *rand.Rand, n int) logic.Lit {
	return logic.MkLit(logic.Atom(r.IntN(n)), r.IntN(2) == 0)
}

// Formula returns a formula over the first n atoms nested at most depth
// deep: a literal, or (each equally likely) the negation, conjunction,
// disjunction, implication or equivalence of smaller random formulas.
func Formula(r *rand.Rand, n, depth int) *logic.Formula {
	if depth == 0 || r.IntN(3) == 0 {
		return logic.LitF(Lit(r, n))
	}
	a, b := Formula(r, n, depth-1), Formula(r, n, depth-1)
	switch r.IntN(5) {
	case 0:
		return logic.Not(a)
	case 1:
		return logic.And(a, b)
	case 2:
		return logic.Or(a, b)
	case 3:
		return logic.Implies(a, b)
	}
	return logic.Iff(a, b)
}

// Rule parses the rule src over v, failing the test on an error.
func Rule(t testing.TB, v *logic.Vocabulary, src string) logic.Rule {
	t.Helper()
	r, err := logic.ParseRule(v, src)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
