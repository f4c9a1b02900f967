package sat

import "github.com/strata-logic/strata/logic"

type lit = logic.Lit

const (
	lTrue  int8 = 1
	lFalse int8 = -1
	lUndef int8 = 0

	noReason = -1
	undefLit = lit(-1)
)

// clauseHdr locates a clause in the literal arena. Clause references are
// indices into Solver.hdrs, so they survive arena compaction.
type clauseHdr struct {
	start, size int32
	act         float32
	learnt      bool
	deleted     bool
}

type watcher struct {
	cref    int32
	blocker lit // a literal of the clause; if it is true the clause is skipped
}

// Stats counts the work a Solver has done.
type Stats struct {
	Solves, Conflicts, Decisions, Propagations int64
}

// Solver is a CDCL SAT solver with two watched literals, VSIDS, phase
// saving, Luby restarts, learnt-clause reduction and incremental solving
// under assumptions. Its zero value is an empty, satisfiable solver.
type Solver struct {
	nVars int
	ok    bool // false once the clause set is unsatisfiable
	init  bool

	value  []int8  // by literal
	level  []int32 // by variable
	reason []int32 // by variable: clause reference or noReason
	phase  []bool  // by variable: saved polarity (true = negative)
	// decidable marks the variables that occur in some clause. Only they
	// are branched on: a variable in no clause can keep any value, so a
	// query over a large vocabulary with a small theory decides only the
	// variables the theory mentions (Value reads the others as false).
	decidable []bool

	trail    []lit
	trailLim []int32
	qhead    int

	arena   []lit
	hdrs    []clauseHdr
	free    []int32 // reusable header slots
	learnts []int32
	nOrig   int // number of live original clauses
	wasted  int // arena literals of deleted clauses
	watches [][]watcher

	activity []float64
	varInc   float64
	claInc   float32
	order    heap

	seen      []bool
	learnt    []lit
	toClear   []lit
	failed    []lit
	maxLearnt float64

	lastSimplify int // trail length at level 0 when clauses were last simplified
	stats        Stats
	done         <-chan struct{} // of the running Solve's context
}

// New returns an empty solver.
func New() *Solver {
	s := &Solver{}
	s.setup()
	return s
}

func (s *Solver) setup() {
	if s.init {
		return
	}
	s.init = true
	s.ok = true
	s.varInc = 1
	s.claInc = 1
	s.maxLearnt = 2000
	s.order.act = &s.activity
	s.lastSimplify = -1
}

// Stats returns the counters of work done so far.
func (s *Solver) Stats() Stats { return s.stats }

// NewVar adds a variable and returns it.
func (s *Solver) NewVar() logic.Atom {
	s.setup()
	v := s.nVars
	s.nVars++
	s.value = append(s.value, lUndef, lUndef)
	s.level = append(s.level, 0)
	s.reason = append(s.reason, noReason)
	s.phase = append(s.phase, true)
	s.decidable = append(s.decidable, false)
	s.activity = append(s.activity, 0)
	s.seen = append(s.seen, false)
	s.watches = append(s.watches, nil, nil)
	s.order.grow(s.nVars)
	return logic.Atom(v)
}

// ensureVars makes sure every variable up to a exists.
func (s *Solver) ensureVars(a logic.Atom) {
	for int(a) >= s.nVars {
		s.NewVar()
	}
}

func (s *Solver) litValue(l lit) int8 { return s.value[l] }

func (s *Solver) decisionLevel() int { return len(s.trailLim) }

// Value returns the value of a in the model found by the last satisfiable
// call to Solve. Variables the solver has never seen are false.
func (s *Solver) Value(a logic.Atom) bool {
	if int(a) >= s.nVars {
		return false
	}
	return s.value[logic.Pos(a)] == lTrue
}

// Failed returns the assumptions that the last unsatisfiable Solve found
// jointly inconsistent with the clauses: a subset of its assumptions (not
// necessarily minimal). It is empty when the clauses alone are
// unsatisfiable. The slice is valid until the next call to Solve.
func (s *Solver) Failed() []lit { return s.failed }

func (s *Solver) uncheckedEnqueue(p lit, from int32) {
	v := p.Atom()
	s.value[p] = lTrue
	s.value[p^1] = lFalse
	s.level[v] = int32(s.decisionLevel())
	s.reason[v] = from
	s.trail = append(s.trail, p)
}

func (s *Solver) newDecisionLevel() { s.trailLim = append(s.trailLim, int32(len(s.trail))) }

func (s *Solver) cancelUntil(lvl int) {
	if s.decisionLevel() <= lvl {
		return
	}
	lim := int(s.trailLim[lvl])
	for i := len(s.trail) - 1; i >= lim; i-- {
		p := s.trail[i]
		v := p.Atom()
		s.value[p] = lUndef
		s.value[p^1] = lUndef
		s.reason[v] = noReason
		s.phase[v] = p.IsNeg()
		if s.decidable[v] && !s.order.contains(int32(v)) {
			s.order.insert(int32(v))
		}
	}
	s.trail = s.trail[:lim]
	s.trailLim = s.trailLim[:lvl]
	s.qhead = lim
}

func (s *Solver) lits(cr int32) []lit {
	h := &s.hdrs[cr]
	return s.arena[h.start : h.start+h.size : h.start+h.size]
}

// AddClause adds a clause. It returns false if the solver is now known to be
// unsatisfiable. Literals over new variables create them.
func (s *Solver) AddClause(c ...lit) bool {
	s.setup()
	if !s.ok {
		return false
	}
	s.cancelUntil(0)
	buf := append(s.learnt[:0], c...)
	buf, taut := logic.Normalize(buf)
	s.learnt = buf
	if taut {
		return true
	}
	if len(buf) > 0 {
		s.ensureVars(buf[len(buf)-1].Atom())
	}
	for _, l := range buf {
		s.markDecidable(l.Atom())
	}
	j := 0
	for _, l := range buf {
		switch s.litValue(l) {
		case lTrue:
			return true
		case lUndef:
			buf[j] = l
			j++
		}
	}
	buf = buf[:j]
	switch len(buf) {
	case 0:
		s.ok = false
		return false
	case 1:
		s.uncheckedEnqueue(buf[0], noReason)
		if s.propagate() != noReason {
			s.ok = false
		}
		return s.ok
	}
	s.attach(s.alloc(buf, false))
	s.nOrig++
	return true
}

// markDecidable makes v a branching variable, from its first clause on.
func (s *Solver) markDecidable(v logic.Atom) {
	if s.decidable[v] {
		return
	}
	s.decidable[v] = true
	if s.value[logic.Pos(v)] == lUndef && !s.order.contains(int32(v)) {
		s.order.insert(int32(v))
	}
}

// alloc stores a clause in the arena and returns its reference.
func (s *Solver) alloc(c []lit, learnt bool) int32 {
	start := int32(len(s.arena))
	s.arena = append(s.arena, c...)
	h := clauseHdr{start: start, size: int32(len(c)), learnt: learnt}
	if n := len(s.free); n > 0 {
		cr := s.free[n-1]
		s.free = s.free[:n-1]
		s.hdrs[cr] = h
		return cr
	}
	s.hdrs = append(s.hdrs, h)
	return int32(len(s.hdrs) - 1)
}

func (s *Solver) attach(cr int32) {
	c := s.lits(cr)
	s.watches[c[0]] = append(s.watches[c[0]], watcher{cr, c[1]})
	s.watches[c[1]] = append(s.watches[c[1]], watcher{cr, c[0]})
}

// remove deletes a clause; its watchers are dropped lazily by propagate and
// eagerly by purgeWatches.
func (s *Solver) remove(cr int32) {
	h := &s.hdrs[cr]
	h.deleted = true
	s.wasted += int(h.size)
	if !h.learnt {
		s.nOrig--
	}
	s.free = append(s.free, cr)
}

// propagate runs unit propagation to fixpoint and returns a conflicting
// clause, or noReason.
func (s *Solver) propagate() int32 {
	confl := int32(noReason)
	for s.qhead < len(s.trail) {
		p := s.trail[s.qhead]
		s.qhead++
		s.stats.Propagations++
		falseLit := p ^ 1
		ws := s.watches[falseLit]
		i, j := 0, 0
	next:
		for i < len(ws) {
			w := ws[i]
			i++
			if s.value[w.blocker] == lTrue {
				ws[j] = w
				j++
				continue
			}
			h := &s.hdrs[w.cref]
			if h.deleted {
				continue
			}
			c := s.arena[h.start : h.start+h.size]
			if c[0] == falseLit {
				c[0], c[1] = c[1], falseLit
			}
			first := c[0]
			if first != w.blocker && s.value[first] == lTrue {
				ws[j] = watcher{w.cref, first}
				j++
				continue
			}
			for k := 2; k < len(c); k++ {
				if s.value[c[k]] != lFalse {
					c[1], c[k] = c[k], falseLit
					s.watches[c[1]] = append(s.watches[c[1]], watcher{w.cref, first})
					continue next
				}
			}
			ws[j] = watcher{w.cref, first}
			j++
			if s.value[first] == lFalse {
				confl = w.cref
				s.qhead = len(s.trail)
				for i < len(ws) {
					ws[j] = ws[i]
					i++
					j++
				}
			} else {
				s.uncheckedEnqueue(first, w.cref)
			}
		}
		s.watches[falseLit] = ws[:j]
	}
	return confl
}
