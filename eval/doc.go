// Package eval scores a possibilistic theory on labelled data the way
// strata's tasks are scored, so that the command line, the server and the
// benchmarks only render what it computes.
//
// Default rules (Defaults): a default α |~ β is predicted positive when the
// theory covers it, (Θ, α) ⊢ β under the chosen semantics; the score is a
// binary confusion, with per level how many covered defaults the level
// decides and how many defaults have evidence that sets the level aside
// (drowns it, under poss).
//
// Answer tables (Cases): the answer of a theory for a situation is the one
// class it entails, or None when it entails no class or several (Classes.
// Predict); the score is a multi-class confusion table, one count per
// situation.
package eval
