package defaults

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-logic/strata/defaults/internal/lp"
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
// linear inequalities (written in rows with a variable for the minimum
// over F_i, crsystem.go, so that the product of V_i and F_i is never
// written out). Skeptical c-inference accepts α |~ β iff no
// c-representation has κ(αβ) ≥ κ(α¬β), that is (with V_q, F_q the minimal
// falsified sets, among all defaults, of the αβ- and α¬β-worlds) iff no
// impact vector satisfies the constraints together with
//
//	∃S ∈ F_q ∀T ∈ V_q:  Σ_T η − Σ_S η ≥ 0
//
// (again with a variable for the minimum over V_q, queryRows). A query is
// often entailed by the constraints of a part of Δ already, which
// entailedEarly tries first.
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

func (r *Reasoner) cInference(ctx context.Context, a *Answer) error {
	e := r.e
	defer e.done()
	as := e.assume(nil, a.Query.Antecedent)
	if ok, err := e.solve(ctx, as...); err != nil || !ok {
		a.Vacuous, a.Entailed = err == nil, err == nil
		return err
	}
	// Every c-representation is a ranking model of Δ, so p-entailment
	// implies c-inference; it is decided without the constraint system.
	var p Answer = Answer{Query: a.Query}
	if err := r.systemP(ctx, &p, false); err != nil {
		return fmt.Errorf("c-inference stopped deciding System P first: %w", err)
	}
	if p.Entailed {
		a.Entailed = true
		return nil
	}
	c := r.cState()
	ab := e.assume(slices.Clone(as), a.Query.Consequent)
	anb := e.assume(slices.Clone(as), logic.Not(a.Query.Consequent))
	fq, err := r.minimalSets(ctx, anb, c.conds)
	if err != nil {
		return fmt.Errorf("c-inference stopped finding the minimal falsified sets of α ∧ ¬β (%d found): %w", len(fq), err)
	}
	if len(fq) == 0 {
		a.Entailed = true // α ∧ ¬β is impossible
		return nil
	}
	vq, err := r.minimalSets(ctx, ab, c.conds)
	if err != nil {
		return fmt.Errorf("c-inference stopped finding the minimal falsified sets of α ∧ β (%d found, and %d of α ∧ ¬β): %w", len(vq), len(fq), err)
	}
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
	// A c-representation at hand decides many queries negatively at once,
	// before CR(Δ) is compiled: the layered one, and those that rejected
	// earlier queries (every impact vector in c.reps satisfies CR(Δ), so
	// it is a c-representation of Δ whatever query it was found for).
	for _, imp := range c.reps {
		if rank(imp, vq) >= rank(imp, fq) {
			reject(imp)
			return nil
		}
	}
	if !c.built {
		if ok, err := r.entailedEarly(ctx, c, vq, fq); err != nil || ok {
			a.Entailed = ok
			return err
		}
	}
	if _, err := r.cSystem(ctx); err != nil {
		return err
	}
	fixed, q := queryRows(c.n, c.fixed, vq, fq)
	x, ok, err := lp.Feasible(ctx, c.n, fixed, append([]lp.Group{q}, c.groups...))
	if err != nil {
		return fmt.Errorf("c-inference stopped in the linear programs of CR(Δ) and the query (%d rows, %d choices): %w",
			len(fixed), len(c.groups)+1, err)
	}
	if !ok {
		a.Entailed = true
		return nil
	}
	imp := x[:len(c.conds)]
	if len(c.reps) < maxReps {
		c.reps = append(c.reps, imp)
	}
	reject(imp)
	return nil
}

// entailedEarly tries to prove the query entailed before the whole of
// CR(Δ) is compiled. The rows of some of the defaults are a relaxation of
// CR(Δ): when no impacts satisfy them with the query's rows, none satisfy
// CR(Δ) with them. The defaults are compiled in the order of their
// relevance to the query, those in its minimal sets first, then those in
// theirs, and so on, and the relaxation of all the defaults compiled is
// tried each time their number in that order doubles (8, 16, 32, …). It
// reports false when the relaxations leave the query open; the defaults
// compiled are kept for CR(Δ).
func (r *Reasoner) entailedEarly(ctx context.Context, c *cState, vq, fq [][]int) (bool, error) {
	in := make([]bool, len(c.conds))
	var order []int
	push := func(sets [][]int) {
		for _, s := range sets {
			for _, p := range s {
				if !in[p] {
					in[p] = true
					order = append(order, p)
				}
			}
		}
	}
	push(fq)
	push(vq)
	next := 8
	for k := 0; k < len(order); k++ {
		p := order[k]
		if err := r.compile(ctx, c, p); err != nil {
			return false, err
		}
		push(c.sets[p].f)
		push(c.sets[p].v)
		if k+1 < next && k+1 < len(order) || c.compiled == len(c.conds) {
			continue // the whole of CR(Δ) decides on its own
		}
		next *= 2
		only := make([]bool, len(c.conds))
		for j, s := range c.sets {
			only[j] = s.done
		}
		n, fixed, groups, err := c.rows(r, only)
		if err != nil {
			return false, err
		}
		fixed, q := queryRows(n, fixed, vq, fq)
		_, ok, err := lp.Feasible(ctx, n, fixed, append([]lp.Group{q}, groups...))
		if err != nil {
			return false, fmt.Errorf("c-inference stopped in the linear programs of %d of %d defaults of CR(Δ) and the query: %w", c.compiled, len(c.conds), err)
		}
		if !ok {
			return true, nil
		}
	}
	return false, nil
}

// queryRows returns the fixed rows of a system over n variables with
// those of the query, and the query's choice: a c-representation rejects
// α |~ β iff κ(αβ) ≥ κ(α¬β), that is, with ν the query's minimum variable
// (the last),
//
//	Σ_T η − ν ≥ 0   for every T ∈ V_q,
//	∃S ∈ F_q:  ν − Σ_S η ≥ 0.
func queryRows(n int, fixed []lp.Row, vq, fq [][]int) ([]lp.Row, lp.Group) {
	nu := n - 1
	fixed = slices.Clip(fixed)
	for _, t := range vq {
		row := lp.Row{A: make([]int64, n)}
		addSet(row.A, t, 1)
		row.A[nu]--
		fixed = append(fixed, row)
	}
	var q lp.Group
	for _, s := range fq {
		row := lp.Row{A: make([]int64, n)}
		row.A[nu]++
		addSet(row.A, s, -1)
		q = append(q, []lp.Row{row})
	}
	return fixed, q
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
	anb := logic.NNFLinear(a.Query.Violation()).String(v)
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
