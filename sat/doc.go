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
