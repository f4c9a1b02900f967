package sat

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
)

const (
	varDecay     = 0.95
	claDecay     = 0.999
	restartFirst = 100
)

// Solve reports whether the clauses are satisfiable when every assumption
// literal is true. Afterwards Value reads the model (when true) or Failed the
// assumptions responsible (when false). The clause set is unchanged, apart
// from learnt clauses, which are implied by it. Solve gives up when ctx is
// done, returning false and ctx's error, and the solver stays usable (it
// keeps what it has learnt); under a context that is never done
// (context.Background()) the error is nil.
func (s *Solver) Solve(ctx context.Context, assumptions ...lit) (bool, error) {
	s.setup()
	s.stats.Solves++
	s.cancelUntil(0)
	s.failed = s.failed[:0]
	if !s.ok {
		return false, nil
	}
	for _, a := range assumptions {
		s.ensureVars(a.Atom())
	}
	if s.propagate() != noReason {
		s.ok = false
		return false, nil
	}
	s.simplify()
	s.done = ctx.Done()
	defer func() { s.done = nil }()
	for restarts := 0; ; restarts++ {
		budget := int64(restartFirst * luby(2, restarts))
		switch s.search(assumptions, budget) {
		case lTrue:
			return true, nil
		case lFalse:
			s.cancelUntil(0)
			return false, nil
		}
		if err := ctx.Err(); err != nil {
			s.cancelUntil(0)
			return false, err
		}
	}
}

// stopped reports whether the context of the running Solve is done.
func (s *Solver) stopped() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// search runs CDCL until a model, a refutation, or budget conflicts. Under
// a context that can be done it looks at it once at least 64 steps have passed
// since it last did, a step being a conflict or a decision, so that a search
// that decides long without a conflict (a large satisfiable instance)
// stops as soon as one that conflicts often.
func (s *Solver) search(assumptions []lit, budget int64) int8 {
	var conflicts, steps, checked int64
	for {
		steps++
		confl := s.propagate()
		if confl != noReason {
			s.stats.Conflicts++
			conflicts++
			if s.decisionLevel() == 0 {
				s.ok = false
				return lFalse
			}
			bt := s.analyze(confl)
			s.cancelUntil(bt)
			if len(s.learnt) == 1 {
				s.uncheckedEnqueue(s.learnt[0], noReason)
			} else {
				cr := s.alloc(s.learnt, true)
				s.learnts = append(s.learnts, cr)
				s.attach(cr)
				s.bumpClause(cr)
				s.uncheckedEnqueue(s.learnt[0], cr)
			}
			s.varInc /= varDecay
			s.claInc /= claDecay
			continue
		}
		stop := conflicts >= budget
		if !stop && s.done != nil && steps-checked >= 64 {
			checked = steps
			stop = s.stopped()
		}
		if stop {
			s.cancelUntil(0)
			return lUndef
		}
		if float64(len(s.learnts)-len(s.trail)) >= s.maxLearnt {
			s.reduceDB()
		}
		next := undefLit
		for s.decisionLevel() < len(assumptions) {
			p := assumptions[s.decisionLevel()]
			switch s.litValue(p) {
			case lTrue:
				s.newDecisionLevel()
				continue
			case lFalse:
				s.analyzeFinal(p)
				return lFalse
			}
			next = p
			break
		}
		if next == undefLit {
			next = s.pickBranch()
			if next == undefLit {
				return lTrue
			}
			s.stats.Decisions++
		}
		s.newDecisionLevel()
		s.uncheckedEnqueue(next, noReason)
	}
}

func (s *Solver) pickBranch() lit {
	for !s.order.empty() {
		v := s.order.removeMax()
		p := logic.MkLit(logic.Atom(v), s.phase[v])
		if s.value[p] == lUndef {
			return p
		}
	}
	return undefLit
}

// analyze derives the first-UIP clause of a conflict into s.learnt (asserting
// literal first, highest other level second) and returns the level to
// backjump to.
func (s *Solver) analyze(confl int32) int {
	s.learnt = append(s.learnt[:0], undefLit)
	pathC := 0
	p := undefLit
	index := len(s.trail) - 1
	for {
		if s.hdrs[confl].learnt {
			s.bumpClause(confl)
		}
		c := s.lits(confl)
		j := 0
		if p != undefLit {
			j = 1
		}
		for ; j < len(c); j++ {
			q := c[j]
			v := q.Atom()
			if s.seen[v] || s.level[v] == 0 {
				continue
			}
			s.bumpVar(v)
			s.seen[v] = true
			if int(s.level[v]) >= s.decisionLevel() {
				pathC++
			} else {
				s.learnt = append(s.learnt, q)
			}
		}
		for !s.seen[s.trail[index].Atom()] {
			index--
		}
		p = s.trail[index]
		index--
		confl = s.reason[p.Atom()]
		s.seen[p.Atom()] = false
		pathC--
		if pathC <= 0 {
			break
		}
	}
	s.learnt[0] = p ^ 1

	// Drop literals implied by the rest of the clause through their reasons.
	s.toClear = append(s.toClear[:0], s.learnt...)
	j := 1
	for i := 1; i < len(s.learnt); i++ {
		if !s.redundant(s.learnt[i]) {
			s.learnt[j] = s.learnt[i]
			j++
		}
	}
	s.learnt = s.learnt[:j]
	for _, q := range s.toClear {
		s.seen[q.Atom()] = false
	}

	if len(s.learnt) == 1 {
		return 0
	}
	maxI := 1
	for i := 2; i < len(s.learnt); i++ {
		if s.level[s.learnt[i].Atom()] > s.level[s.learnt[maxI].Atom()] {
			maxI = i
		}
	}
	s.learnt[1], s.learnt[maxI] = s.learnt[maxI], s.learnt[1]
	return int(s.level[s.learnt[1].Atom()])
}

// redundant reports whether q's reason consists of literals already in the
// learnt clause (or fixed at level 0), so that q can be dropped.
func (s *Solver) redundant(q lit) bool {
	r := s.reason[q.Atom()]
	if r == noReason {
		return false
	}
	for _, l := range s.lits(r)[1:] {
		v := l.Atom()
		if !s.seen[v] && s.level[v] > 0 {
			return false
		}
	}
	return true
}

// analyzeFinal collects in s.failed the assumptions that imply ¬p, where p
// is an assumption found false.
func (s *Solver) analyzeFinal(p lit) {
	s.failed = append(s.failed[:0], p)
	if s.decisionLevel() == 0 {
		return
	}
	s.seen[p.Atom()] = true
	for i := len(s.trail) - 1; i >= int(s.trailLim[0]); i-- {
		q := s.trail[i]
		v := q.Atom()
		if !s.seen[v] {
			continue
		}
		if r := s.reason[v]; r == noReason {
			// Below the last assumption level every decision is an
			// assumption (possibly ¬p itself, when both were assumed).
			s.failed = append(s.failed, q)
		} else {
			for _, l := range s.lits(r)[1:] {
				if s.level[l.Atom()] > 0 {
					s.seen[l.Atom()] = true
				}
			}
		}
		s.seen[v] = false
	}
	s.seen[p.Atom()] = false
}

func (s *Solver) bumpVar(v logic.Atom) {
	s.activity[v] += s.varInc
	if s.activity[v] > 1e100 {
		for i := range s.activity {
			s.activity[i] *= 1e-100
		}
		s.varInc *= 1e-100
	}
	if s.order.contains(int32(v)) {
		s.order.increase(int32(v))
	}
}

func (s *Solver) bumpClause(cr int32) {
	h := &s.hdrs[cr]
	h.act += s.claInc
	if h.act > 1e20 {
		for _, l := range s.learnts {
			s.hdrs[l].act *= 1e-20
		}
		s.claInc *= 1e-20
	}
}

// locked reports whether a clause is the reason of a current assignment.
func (s *Solver) locked(cr int32) bool {
	c := s.lits(cr)
	v := c[0].Atom()
	return s.value[c[0]] == lTrue && s.reason[v] == cr
}

// reduceDB deletes the less active half of the learnt clauses.
func (s *Solver) reduceDB() {
	slices.SortFunc(s.learnts, func(a, b int32) int {
		ha, hb := &s.hdrs[a], &s.hdrs[b]
		if (ha.size > 2) != (hb.size > 2) {
			if ha.size > 2 {
				return -1
			}
			return 1
		}
		switch {
		case ha.act < hb.act:
			return -1
		case ha.act > hb.act:
			return 1
		}
		return 0
	})
	half := len(s.learnts) / 2
	j := 0
	for i, cr := range s.learnts {
		if i < half && s.hdrs[cr].size > 2 && !s.locked(cr) {
			s.remove(cr)
			continue
		}
		s.learnts[j] = cr
		j++
	}
	s.learnts = s.learnts[:j]
	s.maxLearnt *= 1.1
	s.purgeWatches()
	s.maybeCompact()
}

// simplify removes the clauses satisfied at level 0, once per batch of new
// level-0 facts. Retired selectors (a unit ¬s) make whole groups of clauses
// satisfied, and this keeps them out of the watch lists.
func (s *Solver) simplify() {
	if s.decisionLevel() != 0 || len(s.trail) == s.lastSimplify {
		return
	}
	s.lastSimplify = len(s.trail)
	removed := false
	for cr := range s.hdrs {
		h := &s.hdrs[cr]
		if h.deleted {
			continue
		}
		for _, l := range s.lits(int32(cr)) {
			if s.value[l] == lTrue && s.level[l.Atom()] == 0 {
				s.remove(int32(cr))
				removed = true
				break
			}
		}
	}
	if !removed {
		return
	}
	s.learnts = slices.DeleteFunc(s.learnts, func(cr int32) bool { return s.hdrs[cr].deleted })
	s.purgeWatches()
	s.maybeCompact()
}

func (s *Solver) purgeWatches() {
	for l, ws := range s.watches {
		j := 0
		for _, w := range ws {
			if !s.hdrs[w.cref].deleted {
				ws[j] = w
				j++
			}
		}
		s.watches[l] = ws[:j]
	}
}

// maybeCompact rewrites the arena without deleted clauses once they waste
// more than half of it. Clause references stay valid.
func (s *Solver) maybeCompact() {
	if s.wasted*2 < len(s.arena) {
		return
	}
	fresh := make([]lit, 0, len(s.arena)-s.wasted)
	for cr := range s.hdrs {
		h := &s.hdrs[cr]
		if h.deleted {
			h.size = 0
			continue
		}
		start := int32(len(fresh))
		fresh = append(fresh, s.arena[h.start:h.start+h.size]...)
		h.start = start
	}
	s.arena = fresh
	s.wasted = 0
}

// luby returns the i-th element of the Luby sequence scaled by y^k.
func luby(y float64, x int) float64 {
	size, seq := 1, 0
	for size < x+1 {
		seq++
		size = 2*size + 1
	}
	for size-1 != x {
		size = (size - 1) >> 1
		seq--
		x = x % size
	}
	r := 1.0
	for ; seq > 0; seq-- {
		r *= y
	}
	return r
}
