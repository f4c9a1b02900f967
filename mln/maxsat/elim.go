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
	order []int32 // elimination order
	rank  []int32 // position of each variable in order
	width int
	// factors holds each constraint as a factor, built once; queries
	// condition copies of them on the evidence.
	factors []factor
	model   []bool
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
	e.order, e.width = order, width
	e.rank = make([]int32, p.NumVars)
	for i, v := range order {
		e.rank[v] = int32(i)
	}
	return e, nil
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
	done := make([]bool, n)
	for range n {
		best, bestFill, bestDeg := int32(-1), math.MaxInt, math.MaxInt
		for v := range adj {
			if done[v] {
				continue
			}
			fill := 0
			for a := range adj[v] {
				for b := range adj[v] {
					if a < b && !adj[a][b] {
						fill++
					}
				}
			}
			if fill < bestFill || fill == bestFill && len(adj[v]) < bestDeg {
				best, bestFill, bestDeg = int32(v), fill, len(adj[v])
			}
		}
		if bestDeg > maxWidth {
			return nil, 0, false
		}
		width = max(width, bestDeg)
		for a := range adj[best] {
			delete(adj[a], best)
			for b := range adj[best] {
				if a != b {
					adj[a][b] = true
				}
			}
		}
		adj[best] = nil
		done[best] = true
		order = append(order, best)
	}
	return order, width, true
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
	// Condition every factor on the evidence and put it in the bucket of
	// its first variable in the order; constants add up in base.
	buckets := make([][]factor, len(e.order))
	var base int64
	for _, f := range e.factors {
		g := condition(f, fixed)
		if len(g.scope) == 0 {
			base = addCost(base, g.table[0])
			continue
		}
		b := e.firstInOrder(g.scope)
		buckets[b] = append(buckets[b], g)
	}
	// Eliminate, keeping each bucket for the way back.
	for i, v := range e.order {
		if i&63 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, false, err
			}
		}
		if fixed[v] != 0 || len(buckets[i]) == 0 {
			continue
		}
		g := eliminate(v, buckets[i])
		if len(g.scope) == 0 {
			base = addCost(base, g.table[0])
			continue
		}
		b := e.firstInOrder(g.scope)
		buckets[b] = append(buckets[b], g)
	}
	if base >= infinite || base >= bound {
		return 0, false, nil
	}
	// Assign in reverse order: each variable takes its cheaper value given
	// the later ones, which are set already.
	for v := range e.model {
		e.model[v] = fixed[v] > 0
	}
	for i := len(e.order) - 1; i >= 0; i-- {
		v := e.order[i]
		if fixed[v] != 0 || len(buckets[i]) == 0 {
			continue
		}
		var cost [2]int64
		for x := range 2 {
			e.model[v] = x == 1
			for _, f := range buckets[i] {
				cost[x] = addCost(cost[x], f.at(e.model))
			}
		}
		e.model[v] = cost[1] < cost[0]
	}
	return base, true, nil
}

// firstInOrder returns the position in the order of the scope's variable
// eliminated first.
func (e *Elimination) firstInOrder(scope []int32) int {
	b := int32(math.MaxInt32)
	for _, v := range scope {
		b = min(b, e.rank[v])
	}
	return int(b)
}

// at returns the factor's cost in the assignment m.
func (f factor) at(m []bool) int64 {
	idx := 0
	for i, v := range f.scope {
		if m[v] {
			idx |= 1 << i
		}
	}
	return f.table[idx]
}

// condition restricts f to the variables that fixed leaves free.
func condition(f factor, fixed []int8) factor {
	var scope []int32
	base := 0
	for i, v := range f.scope {
		switch fixed[v] {
		case 0:
			scope = append(scope, v)
		case 1:
			base |= 1 << i
		}
	}
	if len(scope) == len(f.scope) {
		return f
	}
	g := factor{scope: scope, table: make([]int64, 1<<len(scope))}
	spread := spreadTable(f.scope, scope)
	for idx := range g.table {
		g.table[idx] = f.table[base|spread(idx)]
	}
	return g
}

// spreadTable returns the map from an index over sub (a subset of scope) to
// the bits of an index over scope.
func spreadTable(scope, sub []int32) func(int) int {
	pos := make([]int, len(sub))
	for i, v := range sub {
		pos[i], _ = slices.BinarySearch(scope, v)
	}
	return func(idx int) int {
		out := 0
		for i, p := range pos {
			out |= (idx >> i & 1) << p
		}
		return out
	}
}

// eliminate sums the factors of a bucket and minimises v out.
func eliminate(v int32, fs []factor) factor {
	var scope []int32
	for _, f := range fs {
		for _, u := range f.scope {
			if u != v && !slices.Contains(scope, u) {
				scope = append(scope, u)
			}
		}
	}
	slices.Sort(scope)
	full := append(slices.Clone(scope), v) // v is the top bit
	g := factor{scope: scope, table: make([]int64, 1<<len(scope))}
	projs := make([]projector, len(fs))
	for k, f := range fs {
		pos := make([]int, len(f.scope))
		for i, u := range f.scope {
			pos[i] = slices.Index(full, u)
		}
		projs[k] = newProjector(pos, len(full))
	}
	top := 1 << len(scope)
	for idx := range g.table {
		best := int64(infinite)
		for _, x := range [2]int{0, top} {
			c := int64(0)
			for k, f := range fs {
				c = addCost(c, f.table[projs[k].index(idx|x)])
			}
			best = min(best, c)
		}
		g.table[idx] = best
	}
	return g
}

// projector maps an index over n variables to the index over the variables
// at positions pos, a byte of the index at a time, so that its tables stay
// small however wide the bucket is.
type projector [][256]int32

func newProjector(pos []int, n int) projector {
	p := make(projector, (n+7)/8)
	for c := range p {
		for b := range 256 {
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
