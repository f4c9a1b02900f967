package maxsat

import (
	"context"
	"errors"

	"github.com/strata-logic/strata/logic"
)

// ErrNodeLimit is returned by Exact.Solve when the search visits more nodes
// than Exact.NodeLimit allows.
var ErrNodeLimit = errors.New("maxsat: node limit reached before the optimum was proved")

// constraint is a hard clause or a soft clause or term, with counters of its
// literals that are currently true and false.
type constraint struct {
	lits []logic.Lit
	cost int64 // 0 for a hard clause
	term bool
}

// Exact is a depth-first branch-and-bound MaxSAT solver for one Problem. It
// is built once and answers many queries under different evidence, reusing
// its buffers: Solve undoes everything it assigned before returning.
//
// At each node the lower bound is the cost already paid plus, for every free
// variable x, min(cost that x = true surely adds, cost that x = false surely
// adds), where each undecided soft constraint is charged to at most one of
// its variables: a term to one of its free literals (falsifying any of them
// violates it), a clause only when a single literal is left. A variable whose
// worse value would lift the bound to the incumbent is fixed to its better
// value without branching.
type Exact struct {
	// NodeLimit stops a query after this many search nodes (0: no limit).
	NodeLimit int64
	// Nodes counts the search nodes of all queries so far.
	Nodes int64

	n            int
	cons         []constraint // hard clauses first, then soft constraints
	nHard        int
	occ          [][]int32 // constraint indices by literal
	nTrue        []int32
	nFalse       []int32
	val          []int8 // 0 free, 1 true, -1 false
	trail        []logic.Lit
	pending      []int32
	cost         int64
	ub           int64
	best         []bool
	phase        []bool
	found        bool
	unsat        bool // an empty hard clause
	limitHit     bool
	queryNodes   int64
	pos, neg, sc []int64
	group        []int32   // group of each constraint, -1 if none
	groups       [][]int32 // exclusive groups of two or more soft constraints
	forced       []logic.Lit
	ctx          context.Context // of the running query
	ctxErr       error
}

// NewExact prepares an exact solver for p, which must pass p.Check.
func NewExact(p *Problem) (*Exact, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	s := &Exact{n: p.NumVars}
	for _, h := range p.Hard {
		c, taut := logic.Normalize(append(logic.Clause(nil), h...))
		switch {
		case taut:
		case len(c) == 0:
			s.unsat = true
		default:
			s.cons = append(s.cons, constraint{lits: c})
		}
	}
	s.nHard = len(s.cons)
	for _, sf := range p.Soft {
		if len(sf.Lits) == 0 && !sf.Term {
			s.cost += sf.Cost // the empty clause is violated by every world
			continue
		}
		s.cons = append(s.cons, normalizeSoft(sf))
	}
	s.occ = make([][]int32, 2*s.n)
	for i, c := range s.cons {
		for _, l := range c.lits {
			s.occ[l] = append(s.occ[l], int32(i))
		}
	}
	s.nTrue = make([]int32, len(s.cons))
	s.nFalse = make([]int32, len(s.cons))
	s.val = make([]int8, s.n)
	s.best = make([]bool, s.n)
	s.phase = make([]bool, s.n)
	s.pos = make([]int64, s.n)
	s.neg = make([]int64, s.n)
	s.sc = make([]int64, s.n)
	s.buildGroups()
	return s, nil
}

// normalizeSoft removes repeated literals. A clause with complementary
// literals is always satisfied and a term with them never is; both keep
// their meaning with the literals kept apart, so only duplicates go.
func normalizeSoft(sf Soft) constraint {
	ls := append([]logic.Lit(nil), sf.Lits...)
	out := ls[:0]
	for _, l := range ls {
		dup := false
		for _, m := range out {
			dup = dup || m == l
		}
		if !dup {
			out = append(out, l)
		}
	}
	return constraint{lits: out, cost: sf.Cost, term: sf.Term}
}

// Solve finds a minimum cost assignment that satisfies the hard clauses and
// the evidence literals and costs less than bound (math.MaxInt64 for no
// bound). It returns the cost and true, or false when there is no such
// assignment. Model returns the assignment. It gives up with ctx's error
// when ctx is done.
func (s *Exact) Solve(ctx context.Context, evidence []logic.Lit, bound int64) (int64, bool, error) {
	s.ub, s.found, s.limitHit, s.queryNodes = bound, false, false, 0
	s.ctx, s.ctxErr = ctx, nil
	defer s.undo(0)
	for _, l := range evidence {
		if int(l.Atom()) >= s.n || l < 0 {
			return 0, false, errors.New("maxsat: evidence literal outside the problem")
		}
		switch s.litVal(l) {
		case -1:
			return 0, false, nil
		case 0:
			if !s.set(l) {
				return 0, false, nil
			}
		}
	}
	for i := 0; i < s.nHard; i++ {
		if len(s.cons[i].lits) == 1 {
			s.pending = append(s.pending, int32(i))
		}
	}
	if s.unsat || !s.propagate() {
		return 0, false, nil
	}
	s.search()
	if s.ctxErr != nil {
		return 0, false, s.ctxErr
	}
	if s.limitHit {
		return 0, false, ErrNodeLimit
	}
	if !s.found {
		return 0, false, nil
	}
	copy(s.phase, s.best)
	return s.ub, true, nil
}

// Model returns the assignment found by the last successful Solve. The
// slice is reused by the next Solve.
func (s *Exact) Model() []bool { return s.best }

func (s *Exact) litVal(l logic.Lit) int8 {
	v := s.val[l.Atom()]
	if l.IsNeg() {
		return -v
	}
	return v
}

// set makes l true and updates the counters; it reports false when a hard
// clause became false. Unit hard clauses are queued on pending.
func (s *Exact) set(l logic.Lit) bool {
	if l.IsNeg() {
		s.val[l.Atom()] = -1
	} else {
		s.val[l.Atom()] = 1
	}
	s.trail = append(s.trail, l)
	for _, c := range s.occ[l] {
		s.nTrue[c]++
	}
	ok := true
	for _, c := range s.occ[l.Not()] {
		s.nFalse[c]++
		k := &s.cons[c]
		nf := int(s.nFalse[c])
		switch {
		case int(c) < s.nHard:
			if s.nTrue[c] == 0 {
				if nf == len(k.lits) {
					ok = false
				} else if nf == len(k.lits)-1 {
					s.pending = append(s.pending, c)
				}
			}
		case k.term:
			if nf == 1 {
				s.cost += k.cost
			}
		case nf == len(k.lits):
			s.cost += k.cost
		}
	}
	return ok
}

// undo unassigns the trail down to length mark.
func (s *Exact) undo(mark int) {
	for i := len(s.trail) - 1; i >= mark; i-- {
		l := s.trail[i]
		for _, c := range s.occ[l] {
			s.nTrue[c]--
		}
		for _, c := range s.occ[l.Not()] {
			k := &s.cons[c]
			nf := int(s.nFalse[c])
			if int(c) >= s.nHard && (k.term && nf == 1 || !k.term && nf == len(k.lits)) {
				s.cost -= k.cost
			}
			s.nFalse[c]--
		}
		s.val[l.Atom()] = 0
	}
	s.trail = s.trail[:mark]
	s.pending = s.pending[:0]
}

// propagate assigns the last free literal of every unit hard clause.
func (s *Exact) propagate() bool {
	for len(s.pending) > 0 {
		c := s.pending[len(s.pending)-1]
		s.pending = s.pending[:len(s.pending)-1]
		if s.nTrue[c] > 0 {
			continue
		}
		var free logic.Lit = -1
		for _, l := range s.cons[c].lits {
			if s.val[l.Atom()] == 0 {
				free = l
				break
			}
		}
		if free < 0 || !s.set(free) {
			s.pending = s.pending[:0]
			return false
		}
	}
	return true
}

func (s *Exact) search() {
	s.Nodes++
	s.queryNodes++
	if s.NodeLimit > 0 && s.queryNodes > s.NodeLimit {
		s.limitHit = true
		return
	}
	if s.queryNodes&1023 == 0 {
		if s.ctxErr = s.ctx.Err(); s.ctxErr != nil {
			s.limitHit = true
			return
		}
	}
	for {
		if s.cost >= s.ub {
			return
		}
		lb, v, live := s.bound()
		if lb >= s.ub {
			return
		}
		if len(s.forced) > 0 {
			for _, l := range s.forced {
				if s.litVal(l) == -1 {
					return
				}
				if s.litVal(l) == 0 && (!s.set(l) || !s.propagate()) {
					return
				}
			}
			continue
		}
		if !live {
			s.record()
			return
		}
		first := logic.MkLit(v, !s.phase[v])
		if s.pos[v] != s.neg[v] {
			first = logic.MkLit(v, s.pos[v] > s.neg[v])
		}
		for _, l := range [2]logic.Lit{first, first.Not()} {
			mark := len(s.trail)
			if s.set(l) && s.propagate() {
				s.search()
			}
			s.undo(mark)
			if s.limitHit {
				return
			}
		}
		return
	}
}

// record keeps the current assignment, whose constraints are all decided,
// as the new incumbent. Free variables take their saved phase.
func (s *Exact) record() {
	s.ub, s.found = s.cost, true
	for i, x := range s.val {
		switch x {
		case 0:
			s.best[i] = s.phase[i]
		default:
			s.best[i] = x > 0
		}
	}
}

// bound computes the lower bound of the current node, fills s.forced with
// the literals the incumbent forces, and picks a branching variable. live is
// false when no constraint is undecided, so that the node is a solution.
func (s *Exact) bound() (lb int64, branch logic.Atom, live bool) {
	for i := range s.pos {
		s.pos[i], s.neg[i], s.sc[i] = 0, 0, 0
	}
	s.forced = s.forced[:0]
	for c := 0; c < s.nHard; c++ {
		if s.nTrue[c] > 0 {
			continue
		}
		live = true
		for _, l := range s.cons[c].lits {
			if s.val[l.Atom()] == 0 {
				s.sc[l.Atom()]++
			}
		}
	}
	for c := s.nHard; c < len(s.cons); c++ {
		if s.group[c] >= 0 {
			continue
		}
		k := &s.cons[c]
		nt, nf := int(s.nTrue[c]), int(s.nFalse[c])
		if k.term && (nf > 0 || nt == len(k.lits)) || !k.term && (nt > 0 || nf == len(k.lits)) {
			continue
		}
		live = true
		s.activity(k)
		if k.term {
			s.chargeTermAmount(k, k.cost)
		} else if len(k.lits)-nf == 1 {
			for _, l := range k.lits {
				if s.val[l.Atom()] == 0 {
					s.charge(l, k.cost)
				}
			}
		}
	}
	extra, groupLive := s.groupBound()
	live = live || groupLive
	lb = s.cost + extra
	for v := range s.pos {
		if s.val[v] == 0 {
			lb += min(s.pos[v], s.neg[v])
		}
	}
	branch = -1
	var bestKey, bestSc int64 = -1, -1
	for v := range s.pos {
		if s.val[v] != 0 {
			continue
		}
		p, n := s.pos[v], s.neg[v]
		if d := p - n; d != 0 && lb+abs(d) >= s.ub {
			s.forced = append(s.forced, logic.MkLit(logic.Atom(v), p > n))
		}
		if key := p + n; key > bestKey || key == bestKey && s.sc[v] > bestSc {
			if key > 0 || s.sc[v] > 0 {
				branch, bestKey, bestSc = logic.Atom(v), key, s.sc[v]
			}
		}
	}
	return lb, branch, live
}

// charge records that making the free literal l false surely costs c.
func (s *Exact) charge(l logic.Lit, c int64) {
	if l.IsNeg() {
		s.pos[l.Atom()] += c
	} else {
		s.neg[l.Atom()] += c
	}
}

// chargeTermAmount charges amount to the free literal of the term k where it
// raises the bound most (falsifying any free literal violates the term).
func (s *Exact) chargeTermAmount(k *constraint, amount int64) {
	var pick logic.Lit = -1
	var bestGain int64 = -1
	for _, l := range k.lits {
		v := l.Atom()
		if s.val[v] != 0 {
			continue
		}
		side, other := s.neg[v], s.pos[v]
		if l.IsNeg() {
			side, other = other, side
		}
		if gain := min(side+amount, other) - min(side, other); gain > bestGain {
			pick, bestGain = l, gain
		}
	}
	if pick >= 0 {
		s.charge(pick, amount)
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
