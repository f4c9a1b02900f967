// Package logic holds the propositional language that every other part of
// strata speaks: interned atoms, literals, clauses, formulas and default rules,
// one parser for all of their textual forms, conversion to conjunctive normal
// form (Tseitin where distribution would blow up), cardinality encodings, and a
// brute-force model enumerator used as an oracle in tests.
//
// Atoms are small integers handed out by a Vocabulary, so that clauses are
// plain slices of integers and the solver never touches a string.
package logic
