package defaults

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
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
// stay ≥ 1). Each choice is therefore a linear program decided exactly by
// the rational simplex (lp.go), and the search branches only on the
// disjunctions the current solution violates (cBranch). The impacts of a
// rejecting c-representation are the scaled solution.
//
// The search stays exact while it runs on floating point: the incremental
// simplex (lpinc.go) only proposes; a solution is accepted after an exact
// check of every row, an infeasibility after the exact simplex confirms it
// on the certificate's rows, and a learned clause excludes only choices
// whose rows contain an exact integer Farkas certificate (covered,
// combos). c-representations kept from earlier queries (cState.reps)
// satisfy CR(Δ) exactly, so a query one of them rejects is not entailed.
//
// (An a-priori bound also exists and is what the brute-force test oracle
// enumerates: a feasible choice has a vertex solving n independent tight
// rows, entries in {−1, 0, 1}; Cramer's rule scaled by the determinant
// gives an integer solution whose entries are determinants of n×n
// {−1, 0, 1} matrices, at most the maximal determinant of such a matrix,
// 1, 2, 4, 16, 48 for n = 1…5.)

// cGroup is one disjunction: a choice among options, each a set of rows.
type cGroup [][]lpRow

// cState is the constraint system CR(Δ) of a base, built on the first
// c-inference query.
type cState struct {
	conds   []int // the distinct defaults (base indices)
	fixed   []lpRow
	groups  []cGroup
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
		var g cGroup
		for _, t := range vs {
			var rows []lpRow
			for _, s := range fs {
				row := lpRow{a: make([]int64, n), b: 1}
				row.a[k]++
				for _, j := range s {
					row.a[j]++
				}
				for _, j := range t {
					row.a[j]--
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
		imp, ok, err := cMinimal(ctx, len(c.conds), c.fixed, c.groups)
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
	if !e.solve(as...) {
		a.Vacuous, a.Entailed = true, true
		return nil
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
	var q cGroup
	for _, s := range fq {
		var rows []lpRow
		for _, t := range vq {
			row := lpRow{a: make([]int64, n)}
			for _, j := range t {
				row.a[j]++
			}
			for _, j := range s {
				row.a[j]--
			}
			rows = append(rows, row)
		}
		q = append(q, rows)
	}
	imp, ok, err := cFeasible(ctx, n, c.fixed, append([]cGroup{q}, c.groups...))
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

// cFeasible searches for an integer solution of the fixed rows and one
// option of every group, lazily (DPLL(T)): a SAT solver chooses an option
// per group, the exact linear program of the chosen rows is solved, and
// when it has no solution the options owning rows of its Farkas
// certificate are excluded together by a clause. Every clause excludes
// only choices without solution and at least the current one, so the
// search ends, with a solution or a proof that there is none.
func cFeasible(ctx context.Context, n int, fixed []lpRow, groups []cGroup) ([]int64, bool, error) {
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
		if ok, err := s.SolveContext(ctx); err != nil || !ok {
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

// maxCombos bounds the combinations of swaps tried per conflict.
const maxCombos = 4096

// rowRef names a row of a choice program: a fixed row (g = −1) or row r
// of the chosen option of group g.
type rowRef struct{ g, r int }

// covered generalises an infeasible choice: it returns, per group of the
// certificate, the other options that the same Farkas multipliers refute
// when they replace the chosen one (the rest of the choice unchanged).
// With exact multipliers y ≥ 0 of the certificate rows (y·A ≤ 0, y·b > 0),
// swapping the rows of group g for the same-numbered rows of option o
// leaves a certificate when y·A' ≤ 0 and y·b' > 0 still hold: then the
// swapped rows have no solution either, and neither has any choice that
// contains them. Options of one group share the numbering of their rows
// (one row per falsified set, in the same order), so the swap is defined
// whenever o has the rows; checking y·A' and y·b' in exact integers keeps
// the clause sound. Several options are refuted by one linear program, so
// a group with hundreds of options (the query's, typically) no longer
// costs a program each.
func covered(ctx context.Context, n int, fixed []lpRow, groups []cGroup, chosen []int, cert []rowRef) (map[int][]int, error) {
	c, err := certify(ctx, n, fixed, groups, chosen, cert)
	if c == nil {
		return nil, err
	}
	out := map[int][]int{}
	for g, sw := range c.swaps {
		for _, x := range sw {
			out[g] = append(out[g], x.o)
		}
	}
	return out, nil
}

// A swap is an option o of a group that may replace the chosen one in a
// certificate, with the change it makes to y·A and y·b.
type swap struct {
	o  int
	da []int64
	db int64
}

// certificate is the integer Farkas certificate of an infeasible choice
// and the swaps that keep it one on their own (covered).
type certificate struct {
	ya    []int64
	yb    int64
	swaps map[int][]swap
}

// combos returns the choices of the certificate's groups, one option
// each among the chosen one and its swaps, that the certificate still
// refutes with all swaps made at once (y·A + Σ da ≤ 0, y·b + Σ db > 0),
// or nil when there are more than limit choices to try.
func (c *certificate) combos(groups []int, chosen []int, limit int) [][]int {
	total := 1
	for _, g := range groups {
		total *= 1 + len(c.swaps[g])
		if total > limit {
			return nil
		}
	}
	var out [][]int
	cur := make([]int, len(groups))
	sa := slices.Clone(c.ya)
	var rec func(k int, sb int64)
	rec = func(k int, sb int64) {
		if k == len(groups) {
			if sb > 0 && !slices.ContainsFunc(sa, func(v int64) bool { return v > 0 }) {
				out = append(out, slices.Clone(cur))
			}
			return
		}
		g := groups[k]
		cur[k] = chosen[g]
		rec(k+1, sb)
		for _, x := range c.swaps[g] {
			for j, v := range x.da {
				sa[j] += v
			}
			cur[k] = x.o
			rec(k+1, sb+x.db)
			for j, v := range x.da {
				sa[j] -= v
			}
		}
	}
	rec(0, c.yb)
	return out
}

// certify computes the certificate of covered.
func certify(ctx context.Context, n int, fixed []lpRow, groups []cGroup, chosen []int, cert []rowRef) (*certificate, error) {
	row := func(f rowRef, o int) lpRow {
		if f.g < 0 {
			return fixed[f.r]
		}
		return groups[f.g][o][f.r]
	}
	rows := make([]lpRow, len(cert))
	for k, f := range cert {
		if f.g >= 0 {
			rows[k] = row(f, chosen[f.g])
		} else {
			rows[k] = row(f, 0)
		}
	}
	y, err := lpCertificate(ctx, n, rows)
	if err != nil || y == nil {
		return nil, err
	}
	// Scale y to integers; give up (no generalisation) past 2^30.
	l := big.NewInt(1)
	gcd := new(big.Int)
	for _, v := range y {
		gcd.GCD(nil, nil, l, v.Denom())
		l.Mul(l, new(big.Int).Quo(v.Denom(), gcd))
		if l.BitLen() > 30 {
			return nil, nil
		}
	}
	ys := make([]int64, len(y))
	for k, v := range y {
		p := new(big.Int).Mul(v.Num(), new(big.Int).Quo(l, v.Denom()))
		if p.Sign() < 0 || p.BitLen() > 30 {
			return nil, nil
		}
		ys[k] = p.Int64()
	}
	ya := make([]int64, n)
	var yb int64
	for k, r := range rows {
		for j, v := range r.a {
			if v > 1<<10 || v < -(1<<10) {
				return nil, nil
			}
			ya[j] += ys[k] * v
		}
		if r.b > 1<<10 || r.b < -(1<<10) {
			return nil, nil
		}
		yb += ys[k] * r.b
	}
	if yb <= 0 || slices.ContainsFunc(ya, func(v int64) bool { return v > 0 }) {
		return nil, nil // not a certificate: cannot happen, but stay sound
	}
	out := &certificate{ya: ya, yb: yb, swaps: map[int][]swap{}}
	sa := make([]int64, n)
	for g := range groups {
		var ks []int
		for k, f := range cert {
			if f.g == g && ys[k] != 0 {
				ks = append(ks, k)
			}
		}
		if len(ks) == 0 {
			continue
		}
	options:
		for o, opt := range groups[g] {
			if o == chosen[g] {
				continue
			}
			copy(sa, ya)
			sb := yb
			for _, k := range ks {
				if cert[k].r >= len(opt) {
					continue options
				}
				nr := opt[cert[k].r]
				for j, v := range nr.a {
					if v > 1<<10 || v < -(1<<10) {
						continue options
					}
					sa[j] += ys[k] * (v - rows[k].a[j])
				}
				if nr.b > 1<<10 || nr.b < -(1<<10) {
					continue options
				}
				sb += ys[k] * (nr.b - rows[k].b)
			}
			if sb > 0 && !slices.ContainsFunc(sa, func(v int64) bool { return v > 0 }) {
				da := make([]int64, n)
				for j := range da {
					da[j] = sa[j] - ya[j]
				}
				out.swaps[g] = append(out.swaps[g], swap{o, da, sb - yb})
			}
		}
	}
	return out, nil
}

// choiceProgram decides the linear program of the fixed rows and the
// chosen option of every group by row generation: it solves a subset of
// the rows, adds the fixed rows and the rows of the chosen options that
// the solution violates, and repeats. A chosen option enters only for the
// groups the solution violates (satisfies no option of): a solution
// satisfying some option of every group and every fixed row solves the
// whole system, whichever option was chosen, so it is returned as x. When
// a subset of the rows has no solution, neither has the whole program,
// and the groups owning the rows of its Farkas certificate (−1 for a fixed
// row) are returned: no choice agreeing with them on those groups has a
// solution. Every round adds at least one row of the program, so the loop
// ends. All violated groups enter at once (a few of their most violated
// rows each), which saves most of the re-solving of one group at a time.
func choiceProgram(ctx context.Context, n int, fixed []lpRow, groups []cGroup, chosen []int) (cert []rowRef, x []*big.Rat, err error) {
	return newChoiceLP(n).solve(ctx, fixed, groups, chosen)
}

// A choiceLP keeps the program of choiceProgram from one choice to the
// next: the fixed rows stay, the rows of the options stay in its tableau
// and are switched on when the choice needs them, so each choice resumes
// from the last solution.
type choiceLP struct {
	p     *incLP
	keys  []rowKey
	index map[rowKey]int
	on    []int // option rows switched on
}

type rowKey struct{ g, o, r int } // g = −1 for fixed row r

func newChoiceLP(n int) *choiceLP {
	return &choiceLP{p: newIncLP(n), index: map[rowKey]int{}}
}

func (c *choiceLP) solve(ctx context.Context, fixed []lpRow, groups []cGroup, chosen []int) (cert []rowRef, x []*big.Rat, err error) {
	p, n := c.p, c.p.n
	for _, k := range c.on {
		p.setActive(k, false)
	}
	c.on = c.on[:0]
	// add reports whether the row was not in the program.
	add := func(f rowKey, row lpRow) bool {
		if k, ok := c.index[f]; ok {
			if !p.off[k] {
				return false
			}
			p.setActive(k, true)
			c.on = append(c.on, k)
			return true
		}
		c.index[f] = len(c.keys)
		c.keys = append(c.keys, f)
		p.add(row)
		if f.g >= 0 {
			c.on = append(c.on, len(c.keys)-1)
		}
		return true
	}
	if len(c.keys) == 0 {
		for i, r := range fixed {
			if i%max(1, len(fixed)/(2*n+8)) == 0 {
				add(rowKey{-1, 0, i}, r)
			}
		}
	}
	for {
		var sup []int
		var ok bool
		x, sup, ok, err = p.solve(ctx)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			for _, k := range sup {
				cert = append(cert, rowRef{c.keys[k].g, c.keys[k].r})
			}
			return cert, nil, nil
		}
		added := 0
		grew := false
		pt := newPoint(x)
		for i, r := range fixed {
			if added < n+8 && pt.cmp(r) < 0 && add(rowKey{-1, 0, i}, r) {
				added++
				grew = true
			}
		}
		for g, opts := range groups {
			if slices.ContainsFunc(opts, pt.satisfies) {
				continue
			}
			rows := opts[chosen[g]]
			viol := violations(pt, rows)
			for _, i := range viol[:min(len(viol), 4)] {
				if add(rowKey{g, chosen[g], i}, rows[i]) {
					grew = true
				}
			}
		}
		if !grew {
			return nil, x, nil
		}
	}
}

// violations returns the rows x violates, the most violated first.
func violations(pt point, rows []lpRow) []int {
	type v struct {
		i     int
		slack *big.Rat
	}
	var vs []v
	for i, r := range rows {
		if pt.cmp(r) < 0 {
			vs = append(vs, v{i, pt.slack(r)})
		}
	}
	slices.SortStableFunc(vs, func(a, b v) int { return a.slack.Cmp(b.slack) })
	out := make([]int, len(vs))
	for k, e := range vs {
		out[k] = e.i
	}
	return out
}

// cMinimal returns integer impacts of least sum satisfying the fixed rows
// and one option of every group: branch and bound over the groups a
// relaxed optimum violates and over its fractional impacts.
func cMinimal(ctx context.Context, n int, fixed []lpRow, groups []cGroup) ([]int64, bool, error) {
	var best []int64
	bestSum := int64(-1)
	ones := make([]int64, n)
	for j := range ones {
		ones[j] = 1
	}
	var search func(fixed []lpRow, groups []cGroup) error
	search = func(fixed []lpRow, groups []cGroup) error {
		x, _, ok, err := lpLazy(ctx, n, fixed, ones)
		if err != nil || !ok {
			return err
		}
		sum := new(big.Rat)
		for _, v := range x {
			sum.Add(sum, v)
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
			up := lpRow{a: make([]int64, n), b: fl + 1}
			up.a[j] = 1
			down := lpRow{a: make([]int64, n), b: -fl}
			down.a[j] = -1
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

// violatedGroup returns the first group no option of which x satisfies,
// or −1.
func violatedGroup(x []*big.Rat, groups []cGroup) int {
	for g, opts := range groups {
		if !slices.ContainsFunc(opts, func(rows []lpRow) bool { return satisfiesRows(x, rows) }) {
			return g
		}
	}
	return -1
}

func satisfiesRows(x []*big.Rat, rows []lpRow) bool {
	sum, tmp := new(big.Rat), new(big.Rat)
	for _, r := range rows {
		sum.SetInt64(0)
		for j, v := range r.a {
			if v != 0 {
				sum.Add(sum, tmp.Mul(x[j], tmp.SetInt64(v)))
			}
		}
		if sum.Cmp(tmp.SetInt64(r.b)) < 0 {
			return false
		}
	}
	return true
}

// integral scales a non-negative rational solution of homogeneous rows
// (right-hand sides 0 and 1) to integers: multiplying by the common
// denominator keeps every row, as the factor is at least 1.
func integral(x []*big.Rat) []int64 {
	l, _ := denominatorLCM(x, 0)
	out := make([]int64, len(x))
	for j, v := range x {
		p := new(big.Int).Mul(v.Num(), new(big.Int).Quo(l, v.Denom()))
		out[j] = p.Int64()
	}
	return out
}

// denominatorLCM returns the least common multiple of the denominators of
// x; ok is false when it grows past maxBits bits (0: no limit).
func denominatorLCM(x []*big.Rat, maxBits int) (l *big.Int, ok bool) {
	l = big.NewInt(1)
	g := new(big.Int)
	for _, v := range x {
		d := v.Denom()
		g.GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
		if maxBits > 0 && l.BitLen() > maxBits {
			return l, false
		}
	}
	return l, true
}

func floorRat(v *big.Rat) int64 {
	q := new(big.Int)
	m := new(big.Int)
	q.DivMod(v.Num(), v.Denom(), m) // Euclidean: floor for a positive denominator
	return q.Int64()
}

func ceilRat(v *big.Rat) int64 {
	f := floorRat(v)
	if v.IsInt() {
		return f
	}
	return f + 1
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
