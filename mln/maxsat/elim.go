package maxsat

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// ErrTooWide is returned by NewElimination when the problem's interaction
// graph has no elimination order of width at most the limit.
var ErrTooWide = errors.New("maxsat: interaction graph too wide for variable elimination")

// maxTableEntries bounds the costs the tables of one solver hold (32 MB),
// since a solver is made per worker and many narrow buckets add up.
var maxTableEntries = 1 << 22

// infinite is the cost of violating a hard clause. It is far above every
// total soft cost (Problem.Check keeps those below MaxInt64/4), and sums
// saturate at it.
const infinite = math.MaxInt64 / 2

// Elimination is an exact MaxSAT solver by bucket elimination (Dechter
// 1999) in the min-sum semiring: the variables are eliminated one by one in
// a fixed order, each replaced by a table over its neighbours that holds
// the least cost of the constraints on it. Its time and memory are linear
// in the number of variables and exponential only in the width of the
// order, with no search: a query costs the same whatever the weights.
// Learned networks, whose trees are shallow, have small widths (10 for the
// 69 atoms of Plants), while the search of the other solvers can blow up
// on their diverse real weights.
type Elimination struct {
	p     *Problem
	width int
	// factors holds each constraint as a factor, built once; a query
	// copies those on evidence atoms with the disagreeing entries made
	// infinite.
	factors []factor
	// steps is the elimination plan, fixed by the order: the tables a step
	// reads are factors (indices below len(factors)) or results of earlier
	// steps (len(factors)+i for step i).
	steps  []step
	base   int64     // cost of the constant factors
	tables [][]int64 // per query: factors, then the steps' results
	model  []bool
}

// step eliminates the variable v from the tables it reads, which all
// mention it, giving a table over scope.
type step struct {
	v      int32
	inputs []int32
	scopes [][]int32   // of the inputs
	projs  []projector // of the inputs, from indices over scope and v (top bit)
	scope  []int32
}

// factor is a cost table over a sorted scope: bit i of an index is the
// value of scope[i].
type factor struct {
	scope []int32
	table []int64
}

// NewElimination prepares the solver for p, which must pass p.Check. It
// returns ErrTooWide when the min-fill order it finds has a width above
// maxWidth (tables then hold up to 2^(maxWidth+1) costs).
func NewElimination(p *Problem, maxWidth int) (*Elimination, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	e := &Elimination{p: p, model: make([]bool, p.NumVars)}
	for _, h := range p.Hard {
		e.factors = append(e.factors, constraintFactor(h, false, infinite))
	}
	for _, s := range p.Soft {
		e.factors = append(e.factors, constraintFactor(s.Lits, s.Term, s.Cost))
	}
	order, width, ok := minFillOrder(p.NumVars, e.factors, maxWidth)
	if !ok {
		return nil, fmt.Errorf("%w: width above %d", ErrTooWide, maxWidth)
	}
	e.width = width
	e.plan(order)
	entries := 0
	for _, st := range e.steps {
		entries += 1 << len(st.scope)
	}
	if entries > maxTableEntries {
		return nil, fmt.Errorf("%w: its tables would hold %d costs", ErrTooWide, entries)
	}
	e.tables = make([][]int64, len(e.factors)+len(e.steps))
	for i, st := range e.steps {
		e.tables[len(e.factors)+i] = make([]int64, 1<<len(st.scope))
	}
	return e, nil
}

// plan puts every factor in the bucket of its variable eliminated first
// and lays out the steps of the elimination in order.
func (e *Elimination) plan(order []int32) {
	rank := make([]int32, e.p.NumVars)
	for i, v := range order {
		rank[v] = int32(i)
	}
	buckets := make([][]int32, len(order))
	scopes := make([][]int32, 0, len(e.factors))
	put := func(id int32, scope []int32) {
		scopes = append(scopes, scope)
		if len(scope) == 0 {
			return // a constant
		}
		b := int32(math.MaxInt32)
		for _, v := range scope {
			b = min(b, rank[v])
		}
		buckets[b] = append(buckets[b], id)
	}
	for i, f := range e.factors {
		if len(f.scope) == 0 {
			e.base = addCost(e.base, f.table[0])
		}
		put(int32(i), f.scope)
	}
	for i, v := range order {
		if len(buckets[i]) == 0 {
			continue
		}
		st := step{v: v, inputs: buckets[i]}
		for _, id := range st.inputs {
			for _, u := range scopes[id] {
				if u != v && !slices.Contains(st.scope, u) {
					st.scope = append(st.scope, u)
				}
			}
		}
		slices.Sort(st.scope)
		full := append(slices.Clone(st.scope), v) // v is the top bit
		for _, id := range st.inputs {
			pos := make([]int, len(scopes[id]))
			for j, u := range scopes[id] {
				pos[j] = slices.Index(full, u)
			}
			st.scopes = append(st.scopes, scopes[id])
			st.projs = append(st.projs, newProjector(pos, len(full)))
		}
		e.steps = append(e.steps, st)
		put(int32(len(e.factors)+len(e.steps)-1), st.scope)
	}
}

// Width returns the width of the elimination order: the largest number of
// other variables a table depends on.
func (e *Elimination) Width() int { return e.width }

// constraintFactor tabulates a clause or term: cost where it is violated.
func constraintFactor(lits []logic.Lit, term bool, cost int64) factor {
	var scope []int32
	for _, l := range lits {
		if v := int32(l.Atom()); !slices.Contains(scope, v) {
			scope = append(scope, v)
		}
	}
	slices.Sort(scope)
	f := factor{scope: scope, table: make([]int64, 1<<len(scope))}
	for idx := range f.table {
		holds := term
		for _, l := range lits {
			i, _ := slices.BinarySearch(scope, int32(l.Atom()))
			if (idx>>i&1 == 1) != l.IsNeg() { // the literal is true
				if !term {
					holds = true
					break
				}
			} else if term {
				holds = false
				break
			}
		}
		if !holds {
			f.table[idx] = cost
		}
	}
	return f
}

// minFillOrder finds an elimination order by the min-fill heuristic: it
// eliminates next the variable whose neighbours need the fewest new edges
// to form a clique. It gives up (ok false) when a variable to eliminate has
// more than maxWidth neighbours.
func minFillOrder(n int, fs []factor, maxWidth int) (order []int32, width int, ok bool) {
	adj := make([]map[int32]bool, n)
	for v := range adj {
		adj[v] = map[int32]bool{}
	}
	for _, f := range fs {
		for _, a := range f.scope {
			for _, b := range f.scope {
				if a != b {
					adj[a][b] = true
				}
			}
		}
	}
	fillIn := func(v int32) int {
		fill := 0
		for a := range adj[v] {
			for b := range adj[v] {
				if a < b && !adj[a][b] {
					fill++
				}
			}
		}
		return fill
	}
	// The fill of a vertex changes only when its neighbourhood or the edges
	// within it do, that is for the neighbours of an eliminated vertex and
	// theirs: only those are counted again, so that large sparse networks
	// are ordered in near-linear time.
	// Every order is at least as wide as the graph's degeneracy (the
	// largest least degree of a subgraph, a lower bound of the treewidth):
	// when that is above maxWidth no order is narrow enough, and the
	// fill-ins, each quadratic in a degree, need not be counted (a dense
	// network of 20,000 formulas over 200 atoms spent seconds on them to no
	// end).
	if degeneracy(adj) > maxWidth {
		return nil, 0, false
	}
	fill := make([]int, n)
	for v := range fill {
		fill[v] = fillIn(int32(v))
	}
	done := make([]bool, n)
	for range n {
		best, bestFill, bestDeg := int32(-1), math.MaxInt, math.MaxInt
		for v := range adj {
			if !done[v] && (fill[v] < bestFill || fill[v] == bestFill && len(adj[v]) < bestDeg) {
				best, bestFill, bestDeg = int32(v), fill[v], len(adj[v])
			}
		}
		if bestDeg > maxWidth {
			return nil, 0, false
		}
		width = max(width, bestDeg)
		nb := adj[best]
		for a := range nb {
			delete(adj[a], best)
			for b := range nb {
				if a != b {
					adj[a][b] = true
				}
			}
		}
		adj[best] = nil
		done[best] = true
		order = append(order, best)
		touched := map[int32]bool{}
		for a := range nb {
			touched[a] = true
			for b := range adj[a] {
				touched[b] = true
			}
		}
		for v := range touched {
			fill[v] = fillIn(v)
		}
	}
	return order, width, true
}

// degeneracy returns the largest k such that the graph has a subgraph of
// least degree k, by removing a vertex of least degree until none is left
// (buckets by degree: linear in the edges).
func degeneracy(adj []map[int32]bool) int {
	n := len(adj)
	deg := make([]int, n)
	maxDeg := 0
	for v := range adj {
		deg[v] = len(adj[v])
		maxDeg = max(maxDeg, deg[v])
	}
	bucket := make([][]int32, maxDeg+1)
	for v := range adj {
		bucket[deg[v]] = append(bucket[deg[v]], int32(v))
	}
	gone := make([]bool, n)
	k, d := 0, 0
	for removed := 0; removed < n; {
		for len(bucket[d]) == 0 {
			d++
		}
		v := bucket[d][len(bucket[d])-1]
		bucket[d] = bucket[d][:len(bucket[d])-1]
		if gone[v] || deg[v] != d {
			continue // a stale entry: v moved to a lower bucket
		}
		gone[v] = true
		removed++
		k = max(k, d)
		for u := range adj[v] {
			if !gone[u] {
				deg[u]--
				bucket[deg[u]] = append(bucket[deg[u]], u)
			}
		}
		d = max(d-1, 0) // a neighbour may now have one less
	}
	return k
}

// Model returns the assignment found by the last successful Solve; it is
// reused by the next Solve.
func (e *Elimination) Model() []bool { return e.model }

// Solve returns the minimum cost of an assignment satisfying the hard
// clauses and the evidence, if it is below bound; ok is false when there is
// no assignment of cost below bound. It gives up with ctx's error when ctx
// is done.
func (e *Elimination) Solve(ctx context.Context, evidence []logic.Lit, bound int64) (int64, bool, error) {
	fixed := make([]int8, e.p.NumVars) // 0 free, 1 true, -1 false
	for _, l := range evidence {
		if l < 0 || int(l.Atom()) >= e.p.NumVars {
			return 0, false, errors.New("maxsat: evidence literal outside the problem")
		}
		want := int8(1)
		if l.IsNeg() {
			want = -1
		}
		if fixed[l.Atom()] == -want {
			return 0, false, nil
		}
		fixed[l.Atom()] = want
	}
	for i, f := range e.factors {
		e.tables[i] = f.agreeing(fixed)
	}
	cost := e.base
	for i, st := range e.steps {
		if i&63 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, false, err
			}
		}
		out := e.tables[len(e.factors)+i]
		top := len(out)
		for idx := range out {
			best := int64(infinite)
			for _, x := range [2]int{0, top} {
				c := int64(0)
				for k, in := range st.inputs {
					c = addCost(c, e.tables[in][st.projs[k].index(idx|x)])
				}
				best = min(best, c)
			}
			out[idx] = best
		}
		if len(st.scope) == 0 {
			cost = addCost(cost, out[0])
		}
	}
	if cost >= infinite || cost >= bound {
		return 0, false, nil
	}
	// Assign in reverse order: each variable takes its cheaper value given
	// the later ones, which are set already; on an evidence atom the other
	// value costs infinitely much.
	for v := range e.model {
		e.model[v] = fixed[v] > 0
	}
	for i := len(e.steps) - 1; i >= 0; i-- {
		st := &e.steps[i]
		var c [2]int64
		for x := range 2 {
			e.model[st.v] = x == 1
			for k, in := range st.inputs {
				c[x] = addCost(c[x], e.tables[in][index(st.scopes[k], e.model)])
			}
		}
		e.model[st.v] = c[1] < c[0]
	}
	return cost, true, nil
}

// index returns the index of the assignment m in a table over scope.
func index(scope []int32, m []bool) int {
	idx := 0
	for i, v := range scope {
		if m[v] {
			idx |= 1 << i
		}
	}
	return idx
}

// agreeing returns f's table, or a copy of it in which the entries that
// disagree with the evidence cost infinitely much.
func (f factor) agreeing(fixed []int8) []int64 {
	var mask, want int
	for i, v := range f.scope {
		if fixed[v] != 0 {
			mask |= 1 << i
			if fixed[v] > 0 {
				want |= 1 << i
			}
		}
	}
	if mask == 0 {
		return f.table
	}
	t := slices.Clone(f.table)
	for idx := range t {
		if idx&mask != want {
			t[idx] = infinite
		}
	}
	return t
}

// projector maps an index over n variables to the index over the variables
// at positions pos, a byte of the index at a time, so that its tables stay
// small however wide the bucket is.
type projector [][256]int32

func newProjector(pos []int, n int) projector {
	p := make(projector, (n+7)/8)
	for c := range p {
		for b := range min(256, 1<<(n-8*c)) {
			j := 0
			for i, q := range pos {
				if q/8 == c && b>>(q%8)&1 == 1 {
					j |= 1 << i
				}
			}
			p[c][b] = int32(j)
		}
	}
	return p
}

func (p projector) index(idx int) int {
	j := int32(0)
	for c := range p {
		j |= p[c][idx>>(8*c)&255]
	}
	return int(j)
}

// addCost adds costs, saturating at infinite.
func addCost(a, b int64) int64 {
	if a >= infinite-b {
		return infinite
	}
	return a + b
}
