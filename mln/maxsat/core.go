package maxsat

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// CoreGuided is an exact MaxSAT solver by the OLL algorithm (Andres et al.
// 2012; Morgado, Dodaro and Marques-Silva 2014) on strata's CDCL solver.
// Each soft constraint is a selector literal assumed true. While the
// assumptions are unsatisfiable, the solver takes the core of failed
// assumptions (trimmed by re-solving), adds its least weight to the lower
// bound, lowers the weights of the core by it, and relaxes the core with a
// totalizer whose output "at least k of these are violated" becomes a new
// soft assumption ¬o_k. Assumptions are added heaviest first, in strata of
// weights a factor 16 apart (stratification), cores are extracted disjointly before their relaxations
// join the assumptions (weight-aware core extraction), and every model met
// is an upper bound, so bounded queries often stop early.
//
// Exclusive positive terms (the leaves of one decision tree of a learned
// network: at most one holds) would cost one core each just to learn that
// they cannot hold together. They are encoded up front instead: with
// weights w₁ ≥ … ≥ w_m, the group costs P − w(the term that holds), which is
// the constant P − w₁ plus soft clauses (y₁ ∨ … ∨ y_j) of weight w_j − w_{j+1},
// where y_i → T_i.
type CoreGuided struct {
	// SATCalls counts the satisfiability calls of all queries so far.
	SATCalls int64

	p       *Problem
	base    int64               // cost every world pays
	nVars   int                 // problem variables plus selectors
	clauses [][]logic.Lit       // hard clauses and selector definitions
	soft    map[logic.Lit]int64 // selector → weight
	model   []bool
}

// NewCoreGuided prepares the solver for p, which must pass p.Check.
func NewCoreGuided(p *Problem) (*CoreGuided, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	c := &CoreGuided{p: p, nVars: p.NumVars, soft: map[logic.Lit]int64{}}
	for _, h := range p.Hard {
		c.clauses = append(c.clauses, h)
	}
	var pos []int // positive terms of two or more literals
	for i, s := range p.Soft {
		switch {
		case len(s.Lits) == 0 && !s.Term:
			c.base += s.Cost
		case len(s.Lits) == 0:
		case s.Term && len(s.Lits) > 1:
			pos = append(pos, i)
		default:
			c.soft[c.selector(s.Lits, s.Term)] += s.Cost
		}
	}
	terms := make([][]logic.Lit, len(pos))
	for i, j := range pos {
		terms[i] = p.Soft[j].Lits
	}
	for _, g := range partitionExclusive(p.NumVars, terms) {
		members := make([]Soft, len(g))
		for i, j := range g {
			members[i] = p.Soft[pos[j]]
		}
		c.ladder(members)
	}
	return c, nil
}

func (c *CoreGuided) newVar() logic.Lit {
	c.nVars++
	return logic.Pos(logic.Atom(c.nVars - 1))
}

// selector returns a literal that implies the clause or term: the literal
// itself for a unit, else a fresh b with the clauses of b → K or b → T.
func (c *CoreGuided) selector(lits []logic.Lit, term bool) logic.Lit {
	if len(lits) == 1 {
		return lits[0]
	}
	b := c.newVar()
	if term {
		for _, l := range lits {
			c.clauses = append(c.clauses, []logic.Lit{b.Not(), l})
		}
	} else {
		c.clauses = append(c.clauses, append([]logic.Lit{b.Not()}, lits...))
	}
	return b
}

// ladder encodes a group of pairwise exclusive positive terms (see the type
// comment).
func (c *CoreGuided) ladder(g []Soft) {
	if len(g) == 1 {
		c.soft[c.selector(g[0].Lits, true)] += g[0].Cost
		return
	}
	slices.SortStableFunc(g, func(a, b Soft) int { return cmp.Compare(b.Cost, a.Cost) })
	for _, s := range g[1:] {
		c.base += s.Cost // P − w₁
	}
	var prev logic.Lit = -1 // selector of (y₁ ∨ … ∨ y_{j−1})
	for j, s := range g {
		y := c.selector(s.Lits, true)
		cur := y
		if prev >= 0 {
			cur = c.newVar()
			c.clauses = append(c.clauses, []logic.Lit{cur.Not(), prev, y})
		}
		next := int64(0)
		if j+1 < len(g) {
			next = g[j+1].Cost
		}
		if w := s.Cost - next; w > 0 {
			c.soft[cur] += w
		}
		prev = cur
	}
}

// Model returns the best assignment of the last successful Solve (over the
// problem's variables); it is reused by the next Solve.
func (c *CoreGuided) Model() []bool { return c.model }

// Solve returns the minimum cost of an assignment satisfying the hard
// clauses and the evidence, if it is below bound; ok is false when there is
// no assignment of cost below bound. It gives up with ctx's error when ctx
// is done.
func (c *CoreGuided) Solve(ctx context.Context, evidence []logic.Lit, bound int64) (int64, bool, error) {
	return c.query(ctx, evidence, bound, false)
}

// Exists reports whether some assignment satisfying the hard clauses and
// the evidence costs less than bound. It stops at the first such model, or
// as soon as the lower bound reaches bound, and gives up with ctx's error
// when ctx is done.
func (c *CoreGuided) Exists(ctx context.Context, evidence []logic.Lit, bound int64) (bool, error) {
	_, ok, err := c.query(ctx, evidence, bound, true)
	return ok, err
}

func (c *CoreGuided) query(ctx context.Context, evidence []logic.Lit, bound int64, first bool) (int64, bool, error) {
	q := &oll{c: c, s: sat.New(), ctx: ctx, first: first, weight: make(map[logic.Lit]int64, len(c.soft)),
		next: map[logic.Lit]outNext{}, delayed: map[logic.Lit]bool{}, ub: math.MaxInt64}
	for i := 0; i < c.nVars; i++ {
		q.s.NewVar()
	}
	for _, cl := range c.clauses {
		q.s.AddClause(cl...)
	}
	for _, l := range evidence {
		if l < 0 || int(l.Atom()) >= c.p.NumVars {
			return 0, false, errors.New("maxsat: evidence literal outside the problem")
		}
		q.s.AddClause(l)
	}
	for a, w := range c.soft {
		q.weight[a] = w
	}
	defer func() { c.SATCalls += q.calls }()
	ok := q.run(bound - c.base)
	if q.err != nil {
		return 0, false, q.err
	}
	if !ok {
		return 0, false, nil
	}
	c.model = q.best
	return q.ub + c.base, true, nil
}

// oll is the state of one query.
type oll struct {
	c       *CoreGuided
	s       *sat.Solver
	weight  map[logic.Lit]int64 // current weight of each soft assumption
	next    map[logic.Lit]outNext
	delayed map[logic.Lit]bool // relaxations not yet assumed (WCE)
	lb, ub  int64              // bounds on the cost above c.base
	best    []bool
	calls   int64
	first   bool // stop at the first model below the bound
	// hardened is set once some assumption became a hard clause (harden).
	hardened bool
	ctx      context.Context
	err      error // the context's, once it is done
}

// solve calls the SAT solver under the query's context, recording its error.
func (q *oll) solve(assumptions []logic.Lit) bool {
	q.calls++
	ok, err := q.s.Solve(q.ctx, assumptions...)
	if err != nil {
		q.err = err
	}
	return ok
}

// outNext records, for an assumption ¬o_k on a totalizer output, the
// outputs, so that o_{k+1} can follow.
type outNext struct {
	outs []logic.Lit
	k    int
}

// run is the OLL loop. It reports whether an assignment of cost below bound
// exists; q.ub and q.best hold the best one found.
func (q *oll) run(bound int64) bool {
	tau := q.below(math.MaxInt64)
	var assumptions []logic.Lit
	for q.lb < bound && q.lb < q.ub {
		assumptions = assumptions[:0]
		for a, w := range q.weight {
			if w >= tau && w > 0 && !q.delayed[a] {
				assumptions = append(assumptions, a)
			}
		}
		slices.Sort(assumptions) // map order must not steer the search
		found := q.solve(assumptions)
		if q.err != nil {
			return false
		}
		if found {
			q.improve()
			if q.ub < bound && (q.ub <= q.lb || q.first) {
				break
			}
			if q.harden(bound) || len(q.delayed) > 0 {
				// The model may violate a hardened assumption, and the
				// delayed ones were not assumed: solve again.
				clear(q.delayed)
				continue
			}
			// Lower the stratum steeply: adding the weights one distinct
			// value at a time costs a satisfiable call each, and on the
			// learned Plants network 64 queries took 80 s that way, 0.7 s
			// with strata a factor 16 apart.
			next := q.below(tau)
			if next == 0 {
				break // every assumption was in, so the model is optimal
			}
			tau = min(next, tau/16)
			continue
		}
		core := q.trim(q.s.Failed())
		if len(core) == 0 {
			if q.hardened {
				// Only worlds that violate a hardened assumption remain,
				// and none of them costs less than min(bound, ub).
				break
			}
			return false // the hard clauses and the evidence alone fail
		}
		q.relax(core)
		q.harden(bound)
	}
	return q.best != nil && q.ub < bound
}

// harden turns into hard clauses the soft assumptions that no world below
// the target min(bound, ub) violates: the cost of every world is at least
// lb plus the current weights of the assumptions it violates, so one whose
// weight lifts lb to the target can only be violated by worlds that are not
// wanted. Near the optimum most assumptions are hardened, which spares the
// SAT solver the cores over them (on the learned Plants network, 2000 cores
// of weight 7 each, over totalizers of 600,000 variables, before hardening).
func (q *oll) harden(bound int64) bool {
	target := min(bound, q.ub)
	did := false
	for a, w := range q.weight {
		if w > target-q.lb {
			q.s.AddClause(a)
			delete(q.weight, a)
			delete(q.delayed, a)
			did = true
		}
	}
	q.hardened = q.hardened || did
	return did
}

// trim shrinks a core by solving under it again while that helps.
func (q *oll) trim(core []logic.Lit) []logic.Lit {
	core = slices.Clone(core)
	for range 3 {
		if len(core) <= 1 {
			break
		}
		slices.Sort(core)
		if q.solve(core) || q.err != nil {
			break // a real core cannot be satisfiable; keep it as it is
		}
		f := q.s.Failed()
		if len(f) >= len(core) {
			break
		}
		core = slices.Clone(f)
	}
	return core
}

// below returns the largest weight under tau, or 0.
func (q *oll) below(tau int64) int64 {
	var m int64
	for _, w := range q.weight {
		if w < tau && w > m {
			m = w
		}
	}
	return m
}

// improve evaluates the model found and keeps it if it is the best so far.
func (q *oll) improve() {
	m := make([]bool, q.c.p.NumVars)
	for v := range m {
		m[v] = q.s.Value(logic.Atom(v))
	}
	cost, _ := q.c.p.Cost(m)
	cost -= q.c.base
	if cost < q.ub {
		q.ub, q.best = cost, m
	}
}

// relax processes a core: the lower bound rises by its least weight, its
// assumptions lose that weight, and a totalizer over their violations adds
// the soft assumption "at most one of them is violated".
func (q *oll) relax(core []logic.Lit) {
	wmin := int64(math.MaxInt64)
	for _, a := range core {
		wmin = min(wmin, q.weight[a])
	}
	q.lb += wmin
	for _, a := range core {
		q.weight[a] -= wmin
		if q.weight[a] == 0 {
			delete(q.weight, a)
		}
		if nx, ok := q.next[a]; ok && nx.k < len(nx.outs) {
			// ¬o_k is violated: "fewer than k+1" takes over with this weight.
			b := nx.outs[nx.k].Not()
			q.weight[b] += wmin
			q.next[b] = outNext{outs: nx.outs, k: nx.k + 1}
			q.delayed[b] = true
		}
	}
	if len(core) == 1 {
		return
	}
	inputs := make([]logic.Lit, len(core))
	for i, a := range core {
		inputs[i] = a.Not()
	}
	outs := q.totalizer(inputs)
	b := outs[1].Not() // fewer than two violated
	q.weight[b] += wmin
	q.next[b] = outNext{outs: outs, k: 2}
	q.delayed[b] = true
}

// totalizer returns literals o_1..o_m with (at least k inputs true) → o_k
// (logic.Totalizer, one direction only).
func (q *oll) totalizer(in []logic.Lit) []logic.Lit {
	return logic.Totalizer(in, q.s.NewVar, func(c ...logic.Lit) { q.s.AddClause(c...) }, false)
}
