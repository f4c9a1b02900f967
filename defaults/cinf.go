package defaults

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-logic/strata/internal/lp"
	"github.com/strata-logic/strata/logic"
)

// c-representations (Kern-Isberner) give each default ri = (βi|αi) an
// impact ηi ≥ 0 and rank a world by the impacts of the defaults it
// falsifies, κ(ω) = Σ_{ω ⊨ αi¬βi} ηi; κ accepts ri iff κ(αiβi) < κ(αi¬βi).
// With ρ_i(F) = min_{ω ⊨ F} Σ_{j≠i, ω ⊨ αj¬βj} ηj this is the constraint
//
//	ηi > ρ_i(αiβi) − ρ_i(αi¬βi).
//
// Since impacts are non-negative, the minimum over the worlds of a formula
// F is a minimum over the inclusion-minimal sets of other defaults that
// F-worlds falsify: V_i for αiβi and F_i for αi¬βi, enumerated once on the
// SAT solver (minimalViolations). The constraint then reads
//
//	∃T ∈ V_i ∀S ∈ F_i:  ηi + Σ_S η − Σ_T η ≥ 1
//
// over the integers: a disjunction, over the choice of T, of systems of
// linear inequalities. Skeptical c-inference accepts α |~ β iff no
// c-representation has κ(αβ) ≥ κ(α¬β), that is (with V_q, F_q the minimal
// falsified sets, among all defaults, of the αβ- and α¬β-worlds) iff no
// impact vector satisfies the constraints together with
//
//	∃S ∈ F_q ∀T ∈ V_q:  Σ_T η − Σ_S η ≥ 0.
//
// Exactness without a bound on impacts: every inequality is homogeneous
// (ηi > … becomes ≥ 1 only because impacts are integers), so for a fixed
// choice of the disjuncts an integer solution exists iff a rational one
// does (scale a rational one by its denominators; strict inequalities
// stay ≥ 1). The disjunctive system is decided exactly by package lp
// (lp.Feasible, a DPLL(T) search over the choices on an exact simplex),
// and the impacts of a rejecting c-representation are its solution.
// c-representations kept from earlier queries (cState.reps) satisfy CR(Δ)
// exactly, so a query one of them rejects is not entailed.
//
// (An a-priori bound also exists and is what the brute-force test oracle
// enumerates: a feasible choice has a vertex solving n independent tight
// rows, entries in {−1, 0, 1}; Cramer's rule scaled by the determinant
// gives an integer solution whose entries are determinants of n×n
// {−1, 0, 1} matrices, at most the maximal determinant of such a matrix,
// 1, 2, 4, 16, 48 for n = 1…5.)

// cState is the constraint system CR(Δ) of a base, built on the first
// c-inference query.
type cState struct {
	conds   []int // the distinct defaults (base indices)
	fixed   []lp.Row
	groups  []lp.Group
	witness []int64   // some c-representation, to reject queries quickly
	reps    [][]int64 // c-representations found so far (witness, rejecting ones)
	impacts []int64   // a minimal c-representation (least sum), computed on demand
	err     error
}

// maxReps bounds the c-representations kept to reject queries quickly.
const maxReps = 256

// ErrNoCRepresentation reports a base without c-representations. Every
// (weakly) consistent base has one, so it signals an inconsistent base.
var ErrNoCRepresentation = errors.New("the base has no c-representation")

func (r *Reasoner) cSystem(ctx context.Context) (*cState, error) {
	if r.c != nil {
		return r.c, r.c.err
	}
	e := r.e
	c := &cState{conds: r.distinct()}
	n := len(c.conds)
	for k, i := range c.conds {
		others := slices.Delete(slices.Clone(c.conds), k, k+1)
		vs, err := r.minimalSets(ctx, []logic.Lit{e.ver[i]}, others)
		if err != nil {
			return nil, err
		}
		fs, err := r.minimalSets(ctx, []logic.Lit{e.falsifier(i)}, others)
		if err != nil {
			return nil, err
		}
		if len(fs) == 0 {
			continue // αi¬βi is impossible: ri is accepted by every κ
		}
		var g lp.Group
		for _, t := range vs {
			var rows []lp.Row
			for _, s := range fs {
				row := lp.Row{A: make([]int64, n), B: 1}
				row.A[k]++
				for _, j := range s {
					row.A[j]++
				}
				for _, j := range t {
					row.A[j]--
				}
				rows = append(rows, row)
			}
			g = append(g, rows)
		}
		switch len(g) {
		case 0: // cannot happen: the base is consistent, so αiβi is possible
			c.err = fmt.Errorf("%w: %s can never be verified", ErrNoCRepresentation, e.ds[i].Describe(e.v))
		case 1:
			c.fixed = append(c.fixed, g[0]...)
		default:
			c.groups = append(c.groups, g)
		}
	}
	if c.err == nil {
		c.witness = r.layered(c.conds)
		c.reps = [][]int64{c.witness}
	}
	r.c = c
	return c, c.err
}

// layered returns the impacts of a c-representation built on the
// Z-partition: a default of layer j gets 1 + the sum of the impacts of the
// layers below. Since layer j is tolerated by the layers from j up, some
// world verifies ri while falsifying defaults of lower layers only, so
// ρ_i(αiβi) ≤ that sum < ηi, and ηi > ρ_i(αiβi) − ρ_i(αi¬βi) as ρ ≥ 0.
// Every consistent base thus has a c-representation.
func (r *Reasoner) layered(conds []int) []int64 {
	imp := make([]int64, len(conds))
	var below int64
	for _, l := range r.lex {
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
		imp, ok, err := lp.LeastSum(ctx, len(c.conds), c.fixed, c.groups)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, ErrNoCRepresentation // cannot happen: c.witness is one
		}
		c.impacts = imp
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
		for _, l := range r.lex {
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

func (r *Reasoner) cInference(ctx context.Context, a *Answer) error {
	e := r.e
	defer e.done()
	as := e.assume(nil, a.Query.Antecedent)
	if ok, err := e.solve(ctx, as...); err != nil || !ok {
		a.Vacuous, a.Entailed = err == nil, err == nil
		return err
	}
	c, err := r.cSystem(ctx)
	if err != nil {
		return err
	}
	// Every c-representation is a ranking model of Δ, so p-entailment
	// implies c-inference; it is decided without the constraint system.
	var p Answer = Answer{Query: a.Query}
	if err := r.systemP(ctx, &p, false); err != nil {
		return err
	}
	if p.Entailed {
		a.Entailed = true
		return nil
	}
	ab := e.assume(slices.Clone(as), a.Query.Consequent)
	anb := e.assume(slices.Clone(as), logic.Not(a.Query.Consequent))
	fq, err := r.minimalSets(ctx, anb, c.conds)
	if err != nil {
		return err
	}
	if len(fq) == 0 {
		a.Entailed = true // α ∧ ¬β is impossible
		return nil
	}
	vq, err := r.minimalSets(ctx, ab, c.conds)
	if err != nil {
		return err
	}
	n := len(c.conds)
	rank := func(imp []int64, sets [][]int) Rank {
		best := Infinite
		for _, s := range sets {
			var sum int64
			for _, j := range s {
				sum += imp[j]
			}
			best = min(best, Rank(sum))
		}
		return best
	}
	reject := func(imp []int64) {
		a.Entailed = false
		a.Impacts = make([]int, len(r.base.Defaults))
		for k, i := range c.conds {
			a.Impacts[i] = int(imp[k])
		}
		r.copyDuplicateImpacts(a.Impacts)
		a.RankAB, a.RankAnB = rank(imp, vq), rank(imp, fq)
	}
	// A c-representation at hand decides many queries negatively at once:
	// the layered one, and those that rejected earlier queries (every
	// impact vector in c.reps satisfies CR(Δ), so it is a c-representation
	// of Δ whatever query it was found for).
	for _, imp := range c.reps {
		if rank(imp, vq) >= rank(imp, fq) {
			reject(imp)
			return nil
		}
	}
	var q lp.Group
	for _, s := range fq {
		var rows []lp.Row
		for _, t := range vq {
			row := lp.Row{A: make([]int64, n)}
			for _, j := range t {
				row.A[j]++
			}
			for _, j := range s {
				row.A[j]--
			}
			rows = append(rows, row)
		}
		q = append(q, rows)
	}
	imp, ok, err := lp.Feasible(ctx, n, c.fixed, append([]lp.Group{q}, c.groups...))
	if err != nil {
		return err
	}
	if ok {
		if len(c.reps) < maxReps {
			c.reps = append(c.reps, imp)
		}
		reject(imp)
		return nil
	}
	a.Entailed = true
	return nil
}

// copyDuplicateImpacts gives a default written twice the impact of its
// first copy: Δ is a set.
func (r *Reasoner) copyDuplicateImpacts(imp []int) {
	v := r.base.vocab()
	first := map[string]int{}
	for i, d := range r.base.Defaults {
		key := d.Antecedent.String(v) + " |~ " + d.Consequent.String(v)
		if f, ok := first[key]; ok {
			imp[i] = imp[f]
		} else {
			first[key] = i
		}
	}
}

func (a Answer) cReason(b *strings.Builder, alpha, beta string) {
	v := a.ord.Base.vocab()
	ab := logic.And(a.Query.Antecedent, a.Query.Consequent).String(v)
	anb := logic.NNF(a.Query.Violation()).String(v)
	if a.Entailed {
		fmt.Fprintf(b, "every c-representation ranks %s below %s", ab, anb)
		return
	}
	var parts []string
	for i, x := range a.Impacts {
		if x != 0 {
			parts = append(parts, fmt.Sprintf("%d for %s", x, a.ord.Base.Defaults[i].Describe(v)))
		}
	}
	imp := "all impacts 0"
	if len(parts) > 0 {
		imp = "impacts " + strings.Join(parts, "; ")
		if len(parts) < len(a.Impacts) {
			imp += "; 0 for the rest"
		}
	}
	fmt.Fprintf(b, "a c-representation (%s) ranks %s at %s and %s at %s, so it does not accept the query",
		imp, ab, a.RankAB, anb, a.RankAnB)
}
