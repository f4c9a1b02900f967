package lp

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// Row is the inequality A·x ≥ B.
type Row struct {
	A []int64 // one coefficient per variable
	B int64
}

// Group is a disjunction: a solution satisfies every row of at least one
// of its options. Options whose rows are numbered alike (row k of each
// derived from the same source) let one certificate refute many of them.
type Group [][]Row

// Feasible returns a solution x ≥ 0 in integers of the fixed rows and of
// one option of every group, or ok false when there is none. Every
// right-hand side B must be non-negative, as in a homogeneous system whose
// strict inequalities are written ≥ 1: a rational solution, scaled by the
// common denominator of its entries, then solves the system in integers,
// so integer and rational feasibility agree. It returns ctx.Err() when ctx
// is done first.
//
// The search is DPLL(T): a SAT solver chooses an option per group, the
// linear program of the chosen rows is solved, and when it has no
// solution the options owning rows of its Farkas certificate are excluded
// together by a clause, as are the other options and combinations of
// options the same multipliers refute (certify). Every clause excludes
// only choices without solution and at least the current one, so the
// search ends, with a solution or a proof that there is none.
func Feasible(ctx context.Context, n int, fixed []Row, groups []Group) (x []int64, ok bool, err error) {
	if err := check(n, fixed, groups); err != nil {
		return nil, false, err
	}
	s := sat.New()
	lp := newChoiceLP(n)
	vars := make([][]logic.Lit, len(groups))
	for g, opts := range groups {
		for range opts {
			vars[g] = append(vars[g], logic.Pos(s.NewVar()))
		}
		s.AddClause(vars[g]...)
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		if ok, err := s.Solve(ctx); err != nil || !ok {
			return nil, false, err
		}
		chosen := make([]int, len(groups))
		for g, vs := range vars {
			for o, v := range vs {
				if s.Value(v.Atom()) {
					chosen[g] = o
					break
				}
			}
		}
		cert, x, err := lp.solve(ctx, fixed, groups, chosen)
		if err != nil {
			return nil, false, err
		}
		if x != nil {
			return integral(x), true, nil
		}
		var inGroups []int
		for _, f := range cert {
			if f.g >= 0 && !slices.Contains(inGroups, f.g) {
				inGroups = append(inGroups, f.g)
			}
		}
		if len(inGroups) == 0 {
			return nil, false, nil // the fixed rows alone fail
		}
		clause := func(g, o int) []logic.Lit {
			var c []logic.Lit
			for _, h := range inGroups {
				if h == g {
					c = append(c, vars[h][o].Not())
				} else {
					c = append(c, vars[h][chosen[h]].Not())
				}
			}
			return c
		}
		if !s.AddClause(clause(-1, 0)...) {
			return nil, false, nil // every choice fails
		}
		cf, err := certify(ctx, n, fixed, groups, chosen, cert)
		if err != nil {
			return nil, false, err
		}
		if cf == nil {
			continue
		}
		// Every combination of swaps the certificate still refutes is
		// excluded when there are few; else each swap on its own.
		if cs := cf.combos(inGroups, chosen, maxCombos); cs != nil {
			for _, c := range cs {
				cl := make([]logic.Lit, len(c))
				for k, o := range c {
					cl[k] = vars[inGroups[k]][o].Not()
				}
				if !s.AddClause(cl...) {
					return nil, false, nil
				}
			}
			continue
		}
		for g, sw := range cf.swaps {
			for _, x := range sw {
				if !s.AddClause(clause(g, x.o)...) {
					return nil, false, nil
				}
			}
		}
	}
}

// LeastSum returns a solution x ≥ 0 in integers of the fixed rows and of
// one option of every group whose weighted sum Σ w_j·x_j is least, or ok
// false when there is none. The weights w are non-negative integers, one
// per variable (nil: all 1); a variable of weight 0, such as an auxiliary
// minimum, is only required to be an integer. B must be non-negative as
// for Feasible. It returns ctx.Err() when ctx is done first.
//
// It is branch and bound: the least-sum rational solution of the fixed
// rows, found by the exact simplex, bounds the sum from below; a group
// that solution violates branches on its options, and a fractional entry
// v on the rows x_j ≥ ⌊v⌋+1 and x_j ≤ ⌊v⌋.
func LeastSum(ctx context.Context, n int, w []int64, fixed []Row, groups []Group) (x []int64, ok bool, err error) {
	if err := check(n, fixed, groups); err != nil {
		return nil, false, err
	}
	if w == nil {
		w = make([]int64, n)
		for j := range w {
			w[j] = 1
		}
	}
	if len(w) != n || slices.ContainsFunc(w, func(v int64) bool { return v < 0 }) {
		return nil, false, fmt.Errorf("lp: %d weights %v for %d variables: want one non-negative weight per variable", len(w), w, n)
	}
	var best []int64
	bestSum := int64(-1)
	var search func(fixed []Row, groups []Group) error
	search = func(fixed []Row, groups []Group) error {
		x, ok, err := minimize(ctx, n, fixed, w)
		if err != nil || !ok {
			return err
		}
		sum, tmp := new(big.Rat), new(big.Rat)
		for j, v := range x {
			sum.Add(sum, tmp.Mul(v, tmp.SetInt64(w[j])))
		}
		lb := ceilRat(sum)
		if bestSum >= 0 && lb >= bestSum {
			return nil
		}
		if g := violatedGroup(x, groups); g >= 0 {
			rest := slices.Delete(slices.Clone(groups), g, g+1)
			for _, opt := range groups[g] {
				if err := search(append(slices.Clone(fixed), opt...), rest); err != nil {
					return err
				}
			}
			return nil
		}
		for j, v := range x {
			if v.IsInt() {
				continue
			}
			fl := floorRat(v)
			up := Row{A: make([]int64, n), B: fl + 1}
			up.A[j] = 1
			down := Row{A: make([]int64, n), B: -fl}
			down.A[j] = -1
			if err := search(append(slices.Clone(fixed), up), groups); err != nil {
				return err
			}
			return search(append(slices.Clone(fixed), down), groups)
		}
		best = make([]int64, n)
		for j, v := range x {
			best[j] = v.Num().Int64()
		}
		bestSum = lb
		return nil
	}
	if err := search(fixed, groups); err != nil {
		return nil, false, err
	}
	return best, best != nil, nil
}

// check reports a row that is not over n variables or has a negative
// right-hand side.
func check(n int, fixed []Row, groups []Group) error {
	bad := func(r Row) error {
		switch {
		case len(r.A) != n:
			return fmt.Errorf("lp: a row has %d coefficients for %d variables", len(r.A), n)
		case r.B < 0:
			return fmt.Errorf("lp: a row has the negative right-hand side %d", r.B)
		}
		return nil
	}
	for _, r := range fixed {
		if err := bad(r); err != nil {
			return err
		}
	}
	for _, g := range groups {
		for _, opt := range g {
			for _, r := range opt {
				if err := bad(r); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// violatedGroup returns the first group no option of which x satisfies,
// or −1.
func violatedGroup(x []*big.Rat, groups []Group) int {
	for g, opts := range groups {
		if !slices.ContainsFunc(opts, func(rows []Row) bool { return satisfiesRows(x, rows) }) {
			return g
		}
	}
	return -1
}
