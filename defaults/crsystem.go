package defaults

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/strata-logic/strata/defaults/internal/lp"
	"github.com/strata-logic/strata/logic"
)

// The constraint system CR(Δ) (see cinf.go) in linear rows. The minimum
// ρ_i(αi¬βi) = min_{S ∈ F_i} Σ_S η gets a variable of its own, μi, bounded
// by one row per set, and the choice of T ∈ V_i becomes a choice of one row:
//
//	Σ_S η − μi ≥ 0   for every S ∈ F_i,
//	∃T ∈ V_i:  ηi + μi − Σ_T η ≥ 1.
//
// Any solution has μi ≤ ρ_i(αi¬βi), and raising μi to that minimum keeps
// every row, so the impacts of the solutions are exactly those of
// c-representations. This takes |F_i| + |V_i| rows where writing the
// minimum out (∃T ∀S: ηi + Σ_S η − Σ_T η ≥ 1) takes |F_i|·|V_i|: on a base
// of 120 conditionals over 100 atoms the minimal sets number in the
// thousands for some defaults, and the product in the tens of millions
// of rows. A default with one set on either side needs no minimum: its
// rows are the product, no more rows than the sum. The rows stay
// homogeneous with right-hand sides 0 and 1, so integer and rational
// feasibility still agree (lp.Feasible).
//
// The variables are the impacts, one per distinct default (cState.conds),
// then the minima μi of the defaults that have one, then the minimum of the
// query, which cInference bounds with the query's own rows (zero in CR(Δ)).

// cState is CR(Δ), compiled one default at a time on the first c-inference
// query that needs it (or Prepare). The minimal sets are kept as they are
// found, so when a budget runs out the next call resumes where this one
// stopped: no work is done twice.
type cState struct {
	conds    []int   // the distinct defaults (base indices); variable k is the impact of conds[k]
	sets     []cSets // the minimal sets of each default, found so far
	compiled int     // defaults with all their sets
	found    int     // minimal sets found so far

	// The linear system, once every default has its sets.
	built   bool
	n       int // variables: impacts, minima, the query's minimum
	fixed   []lp.Row
	groups  []lp.Group
	witness []int64   // some c-representation, to reject queries quickly
	reps    [][]int64 // c-representations found so far (witness, rejecting ones): impacts only
	impacts []int64   // a minimal c-representation (least sum), computed on demand
	err     error
}

// cSets holds the minimal sets of the other defaults falsified by the
// worlds falsifying (f) and verifying (v) one default, as positions in
// cState.conds; fDone and vDone say the enumeration is complete, done
// that the default needs no more.
type cSets struct {
	f, v               [][]int
	fDone, vDone, done bool
}

// maxReps bounds the c-representations kept to reject queries quickly.
const maxReps = 256

// ErrNoCRepresentation reports a base without c-representations. Every
// (weakly) consistent base has one, so it signals an inconsistent base.
var ErrNoCRepresentation = errors.New("the base has no c-representation")

// stageCR names the compilation of CR(Δ) to a progress function.
const stageCR = "CR(Δ): defaults compiled"

func (r *Reasoner) cState() *cState {
	if r.c == nil {
		conds := r.distinct()
		c := &cState{conds: conds, sets: make([]cSets, len(conds))}
		c.witness = r.layered(conds)
		c.reps = [][]int64{c.witness}
		r.c = c
	}
	return r.c
}

// cSystem returns CR(Δ), compiling what is left of it. When ctx is done
// first it returns an error that says how far the compilation came and
// wraps ctx.Err(); the sets found so far are kept for the next call.
func (r *Reasoner) cSystem(ctx context.Context) (*cState, error) {
	c := r.cState()
	if c.built {
		return c, c.err
	}
	for k := range c.conds {
		if err := r.compile(ctx, c, k); err != nil {
			return nil, err
		}
	}
	c.n, c.fixed, c.groups, c.err = c.rows(r, nil)
	c.built = true
	return c, c.err
}

// compile finds the minimal sets of default k if they are not known yet.
func (r *Reasoner) compile(ctx context.Context, c *cState, k int) error {
	if c.sets[k].done {
		return nil
	}
	if err := r.compileDefault(ctx, c, k); err != nil {
		return fmt.Errorf("c-inference stopped compiling CR(Δ): the minimal falsified sets of %d of %d defaults found (%d sets): %w",
			c.compiled, len(c.conds), c.found, err)
	}
	c.sets[k].done = true
	c.compiled++
	if r.progress != nil {
		r.progress(stageCR, c.compiled, len(c.conds))
	}
	return nil
}

// compileDefault finds the minimal falsified sets of default k's
// falsifying worlds, then, if there are any, of its verifying worlds.
func (r *Reasoner) compileDefault(ctx context.Context, c *cState, k int) error {
	e := r.e
	i := c.conds[k]
	others := slices.Delete(slices.Clone(c.conds), k, k+1)
	s := &c.sets[k]
	more := func(as []logic.Lit, sets *[][]int, done *bool) error {
		if *done {
			return nil
		}
		known := make([][]int, len(*sets))
		for x, set := range *sets {
			known[x] = make([]int, len(set))
			for y, p := range set {
				known[x][y] = c.conds[p]
			}
		}
		err := e.moreViolations(ctx, as, others, known, func(set []int, _ []bool) (bool, error) {
			*sets = append(*sets, r.positions(set))
			c.found++
			return true, nil
		})
		*done = err == nil
		return err
	}
	if err := more([]logic.Lit{e.falsifier(i)}, &s.f, &s.fDone); err != nil || len(s.f) == 0 {
		return err // no falsifying world: ri is accepted by every κ
	}
	return more([]logic.Lit{e.ver[i]}, &s.v, &s.vDone)
}

// rows writes the rows of CR(Δ) from the minimal sets, or, with some
// defaults given (only), the rows of theirs: a relaxation, whose
// infeasibility with a query's rows proves the query entailed.
func (c *cState) rows(r *Reasoner, only []bool) (n int, fixed []lp.Row, groups []lp.Group, err error) {
	m := len(c.conds)
	mu := make([]int, m) // the variable of μk, or −1
	n = m
	for k, s := range c.sets {
		mu[k] = -1
		if len(s.f) > 1 && len(s.v) > 1 && (only == nil || only[k]) {
			mu[k] = n
			n++
		}
	}
	n++ // the query's minimum
	for k, s := range c.sets {
		if len(s.f) == 0 || only != nil && !only[k] {
			continue
		}
		if len(s.v) == 0 { // cannot happen: the base is consistent, so αkβk is possible
			return n, nil, nil, fmt.Errorf("%w: %s can never be verified", ErrNoCRepresentation, r.e.ds[c.conds[k]].Describe(r.e.v))
		}
		var g lp.Group
		if mu[k] >= 0 {
			for _, set := range s.f {
				row := lp.Row{A: make([]int64, n)}
				addSet(row.A, set, 1)
				row.A[mu[k]]--
				fixed = append(fixed, row)
			}
			for _, t := range s.v {
				row := lp.Row{A: make([]int64, n), B: 1}
				row.A[k]++
				row.A[mu[k]]++
				addSet(row.A, t, -1)
				g = append(g, []lp.Row{row})
			}
		} else {
			for _, t := range s.v {
				var rows []lp.Row
				for _, set := range s.f {
					row := lp.Row{A: make([]int64, n), B: 1}
					row.A[k]++
					addSet(row.A, set, 1)
					addSet(row.A, t, -1)
					rows = append(rows, row)
				}
				g = append(g, rows)
			}
		}
		if len(g) == 1 {
			fixed = append(fixed, g[0]...)
		} else {
			groups = append(groups, g)
		}
	}
	return n, fixed, groups, nil
}

// addSet adds x to the coefficient of each impact of set.
func addSet(a []int64, set []int, x int64) {
	for _, j := range set {
		a[j] += x
	}
}

// layered returns the impacts of a c-representation built on the
// Z-partition: a default of layer j gets 1 + the sum of the impacts of the
// layers below. Since layer j is tolerated by the layers from j up, some
// world verifies ri while falsifying defaults of lower layers only, so
// ρ_i(αiβi) ≤ that sum < ηi, and ηi > ρ_i(αiβi) − ρ_i(αi¬βi) as ρ ≥ 0.
// Every consistent base thus has a c-representation, and this one needs
// no constraint system.
func (r *Reasoner) layered(conds []int) []int64 {
	imp := make([]int64, len(conds))
	var below int64
	for _, l := range r.sets {
		var sum int64
		for _, i := range l {
			p, _ := slices.BinarySearch(conds, i)
			imp[p] = 1 + below
			sum += imp[p]
		}
		below += sum
	}
	return imp
}

// minimalImpacts returns the impacts of a c-representation of least sum.
func (r *Reasoner) minimalImpacts(ctx context.Context) ([]int64, error) {
	c, err := r.cSystem(ctx)
	if err != nil {
		return nil, err
	}
	if c.impacts == nil {
		w := make([]int64, c.n) // the impacts count, the minima do not
		for k := range c.conds {
			w[k] = 1
		}
		x, ok, err := lp.LeastSum(ctx, c.n, w, c.fixed, c.groups)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, ErrNoCRepresentation // cannot happen: c.witness is one
		}
		c.impacts = x[:len(c.conds)]
	}
	return c.impacts, nil
}

// minimalSets returns the minimal sets of members falsified by the worlds
// of as, as positions in the sorted list of distinct defaults.
func (r *Reasoner) minimalSets(ctx context.Context, as []logic.Lit, members []int) ([][]int, error) {
	var out [][]int
	err := r.e.minimalViolations(ctx, as, members, func(set []int, _ []bool) (bool, error) {
		out = append(out, r.positions(set))
		return true, nil
	})
	return out, err
}

// distinct returns the distinct defaults of the base, sorted.
func (r *Reasoner) distinct() []int {
	if r.cConds == nil {
		r.cConds = []int{}
		for _, l := range r.sets {
			r.cConds = append(r.cConds, l...)
		}
		slices.Sort(r.cConds)
	}
	return r.cConds
}

func (r *Reasoner) positions(set []int) []int {
	conds := r.distinct()
	ps := make([]int, len(set))
	for k, i := range set {
		ps[k], _ = slices.BinarySearch(conds, i)
	}
	return ps
}
