// Package sat is strata's satisfiability engine: a conflict-driven
// clause-learning (CDCL) solver built for the reasoning and learning hot
// path, where one solver holds a theory and answers many tiny queries under
// different assumptions (level selectors, the evidence α, the negated
// conclusion ¬β).
//
// The Solver keeps all of its state in one struct and reuses every buffer, so
// a query allocates nothing once the solver has warmed up. It is checked
// against github.com/crillab/gophersat on random formulas in the tests.
package sat

import "github.com/strata-logic/strata/logic"

// Interface is what the rest of strata needs from a satisfiability engine.
// Variables are logic.Atoms numbered from 0; literals are logic.Lits.
type Interface interface {
	// NewVar returns a variable that no clause mentions yet.
	NewVar() logic.Atom
	// NumVars returns the number of variables in use.
	NumVars() int
	// AddClause adds a clause permanently. It returns false when the clause
	// set has become unsatisfiable without assumptions.
	AddClause(lits ...logic.Lit) bool
	// Solve reports whether the clauses are satisfiable together with the
	// assumption literals. After a true answer, Value reads the model.
	Solve(assumptions ...logic.Lit) bool
	// Value returns the value of a in the model of the last satisfiable Solve.
	Value(a logic.Atom) bool
}
