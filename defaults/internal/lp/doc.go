// Package lp decides systems of linear inequalities A·x ≥ B over
// non-negative variables, with small integer coefficients, exactly, and
// their disjunctive form: fixed rows together with groups, each a choice
// among options (sets of rows) of which one must hold. These are the
// constraint systems of c-representations (defaults.CInference), where a
// disjunction comes from a minimum over the worlds of a formula.
//
// Feasible finds a solution or proves there is none by DPLL(T): a SAT
// solver chooses an option per group, and a choice without solution is
// excluded, with every other choice the same Farkas certificate refutes.
// LeastSum finds an integer solution of least sum by branch and bound.
//
// Every answer is exact. The search runs on an incremental floating-point
// simplex (the general simplex of Dutertre and de Moura), fast and
// warm-started from one choice to the next, but it only proposes: a
// solution is accepted after an exact check of every row, an infeasibility
// after the exact simplex (a two-phase tableau in math/big rationals)
// confirms it, and the exact simplex decides whenever a check fails.
// Certificates, which prune the search, and the optimum of LeastSum come
// from the exact simplex alone.
package lp
