package learn

import (
	"context"
	"encoding/binary"
	"slices"
	"sync"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

// The complete engine decides coverage by evaluation, without a solver,
// where the evidence is complete: once the hard rules have propagated an
// antecedent α, every atom a hypothesis can mention is fixed but for a few
// (a table row's class, a situation's action), so the worlds of H ∪ α that
// matter are few enough to list, at most maxWorlds. A clause then either
// holds in every world of α (a literal the evidence makes true: the rule
// does not apply) or is a set of those worlds, a bit mask; a level is the
// union of its clauses' violated worlds (linear, poss) or a count per
// world (lex); and a candidate is decided for every antecedent at once
// with one bitset per literal over the antecedents, a few word operations
// per 64 of them, then a few per antecedent it applies to.
//
// Which worlds matter. An atom no hypothesis mentions (the ladder's
// auxiliary atoms of a table's "at most one") is projected away: a world
// is an assignment of the others that extends to a model of H ∪ α. An atom
// that hypotheses and the hard rules mention with one sign only, and no β,
// takes the value that satisfies all of them (a situation's unstated
// descriptors are false): a world with it flipped satisfies no more
// clauses of any level, so it changes no decision under poss, linear or
// lex (TestCompleteClosedAtoms). The literals hypotheses may contain are
// the engine's contract with its caller (litSet): the learner's are those
// of its examples (learnable); a clause outside them is refused.
//
// Antecedents whose free atoms, the hard rules' residue over them and so
// their worlds agree share a shape: its worlds, listed once, with per free
// atom the worlds where it is true.
//
// Decisions. Per antecedent, every semantics reads the worlds top down:
//   - poss keeps per world the highest level it violates (top): the cut
//     at j is consistent with α iff some world violates no level from j
//     up, and the boundary b is the least such j;
//   - linear and lex keep the chain of the levels at which the walk from
//     the top narrows the worlds kept (at most K−1 of them for K worlds),
//     each with the worlds kept after it; linear also the levels it skips
//     and, per narrowing level, the worlds the walk keeps when that level
//     is skipped instead; lex the least count of each narrowing level.
//
// A candidate's answer at every position follows from those and its mask
// (completeScore.go says how); TestCompleteMatchesGeneral checks every
// operation against the general engines on random problems, and
// TestCompleteSameTheories the learned theories.
type complete struct {
	layout
	sem     possibilistic.Semantics
	threads int
	hyp     *Hypothesis
	lits    litSet
	hard    []logic.Clause // the hard rules the shapes are built for
	hs      hardSubsumer
	okHard  []logic.Clause // the last other hard rules found equivalent

	ng, gw int      // antecedent groups, and the words of a bitset over them
	valid  []uint64 // groups whose α is consistent with the hard rules
	shape  []int32  // per group its shape, -1 when not valid
	shapes []shape
	wOff   []int32 // per group the offset of its worlds in per-world arrays
	// fixed holds per literal (index int(l)) the groups where the hard
	// rules and α make it true; nil when there are none.
	fixed      [][]uint64
	fixedCount []int // per literal: the groups where it is true
	// closed marks the atoms fixed to the value that satisfies every
	// clause mentioning them; proj the atoms a world assigns.
	closed, proj []bool
	bmask        []uint64 // per example: the worlds of its group that satisfy β
	cov          []bool   // per example: covered
	sc           int64    // the score
	miss         []int64  // per group: the weight of its misclassified examples
	wrong        []uint64 // the groups with misclassified examples
	wrongEx      []uint64 // the misclassified examples, by their place in src

	clauses  []cclause // by id
	freeCls  []int32
	levels   [][]int32 // per level, lowest first: its clauses' ids
	levelID  []int32   // per level its stable id
	levelIdx []int32   // per level id its index, −1 once gone
	freeLvl  []int32
	evals    map[string]*evaluation // the evaluations of clauses by key

	// Every group is in a class (complete_state.go): gclass, with its
	// pattern gpat, its slot weights wts[wtOff[g]:wtOff[g+1]], and per
	// example its slot.
	gclass   []int32
	gpat     []int32
	wtOff    []int32
	wts      []int64
	slot     []uint8
	classes  []class
	classIdx map[string]int32
	patterns []pattern
	undo     []undoOp
	saving   bool
	scr      scratch
	// scrs are the workers' scratches (sharded).
	scrOnce  sync.Once
	scrs     []scratch
	evs      []evaluation // scoreBounded's, kept for their memory
	shardMin int          // the groups a clause applies to for sharded to split its work (shardGroups)
}

// maxWorlds is the most worlds an antecedent may have for the complete
// engine: a mask is one word.
const maxWorlds = 64

// shape is the worlds of the antecedents that share their free atoms and
// the hard rules' residue over them.
type shape struct {
	k     int          // the number of worlds
	all   uint64       // the mask of every world
	atoms []logic.Atom // the free atoms the worlds assign, ascending
	bits  []uint64     // per atom of atoms: the worlds where it is true
	// groups holds the groups of this shape, when there are several
	// shapes (a clause true in every world of a shape applies to none of
	// them).
	groups []uint64
}

// cclause is a clause of the current hypothesis.
type cclause struct {
	c   logic.Clause
	ev  *evaluation
	lvl int32 // its level's id
}

// evaluation is a clause evaluated on every group: where it applies (it
// is not true in every world of the group) and, per shape, the worlds that
// satisfy it.
type evaluation struct {
	act   []uint64
	m     []uint64
	count int     // the groups it applies to
	words []int32 // scratch of evaluate
}

// newComplete returns the complete engine of sem for the examples ex, with
// the hard rules and no learned level as its hypothesis, for hypotheses
// with literals of lits; false when some antecedent has more than
// maxWorlds worlds, or a literal of lits has an atom of at least nAtoms.
func newComplete(nAtoms int, ex *Examples, hard []logic.Clause, threads int, sem possibilistic.Semantics, lits litSet) (*complete, bool) {
	if len(lits) > nAtoms {
		return nil, false
	}
	e := &complete{sem: sem, threads: max(threads, 1), lits: lits, evals: map[string]*evaluation{}, shardMin: shardGroups}
	e.layout.init(nAtoms, ex, false)
	e.hyp, e.hard = &Hypothesis{Hard: hard}, hard
	e.ng, e.gw = len(e.groups), (len(e.groups)+63)/64
	e.markAtoms(hard)
	if !e.buildShapes(hard) {
		return nil, false
	}
	e.bmask = make([]uint64, e.count())
	e.cov = make([]bool, e.count())
	for gi := range e.ng {
		if e.shape[gi] < 0 {
			continue
		}
		for _, x := range e.groups[gi] {
			e.bmask[x] = e.mask(gi, e.data(int(x)).beta)
		}
	}
	e.initClasses()
	e.reclassAll()
	return e, true
}

// markAtoms decides which atoms a world assigns (proj: those of lits and of
// the examples' βs) and which of them are closed: mentioned with one sign
// only by lits and by the hard rules, and by no β.
func (e *complete) markAtoms(hard []logic.Clause) {
	e.proj = make([]bool, e.n)
	e.closed = make([]bool, e.n)
	inBeta := make([]bool, e.n)
	for _, d := range e.src {
		for _, l := range d.Beta {
			inBeta[l.Atom()] = true
		}
	}
	var hardSigns litSet
	for _, c := range hard {
		for _, l := range c {
			hardSigns.add(l)
		}
	}
	for a := range e.n {
		var s uint8
		if a < len(e.lits) {
			s = e.lits[a]
		}
		e.proj[a] = s != 0 || inBeta[a]
		if inBeta[a] || (s != 1 && s != 2) {
			continue
		}
		if a < len(hardSigns) && hardSigns[a]|s != s {
			continue // the hard rules mention the other sign
		}
		e.closed[a] = true
	}
}

// closedValue is the value of closed atom a: the one its literal in lits
// makes true.
func (e *complete) closedValue(a int) bool { return e.lits[a] == 1 }

// buildShapes propagates every antecedent through the hard rules, fixes
// its closed atoms, and gives it the shape of what is left; false when a
// shape has more than maxWorlds worlds.
func (e *complete) buildShapes(hard []logic.Clause) bool {
	p := newPropagator(e.n, hard)
	e.shape = make([]int32, e.ng)
	e.valid = make([]uint64, e.gw)
	e.wOff = make([]int32, e.ng+1)
	e.fixed = make([][]uint64, 2*e.n)
	e.fixedCount = make([]int, 2*e.n)
	byKey := map[string]int32{}
	var key []byte
	var free []logic.Atom
	var residue []int32
	for gi, xs := range e.groups {
		e.wOff[gi+1] = e.wOff[gi]
		e.shape[gi] = -1
		if !p.propagate(e.data(int(xs[0])).alpha) {
			continue
		}
		free = free[:0]
		for a := range e.n {
			if p.val[a] != 0 || !e.proj[a] {
				continue
			}
			if e.closed[a] {
				p.assume(a, e.closedValue(a))
				continue
			}
			free = append(free, logic.Atom(a))
		}
		residue = p.residue(residue[:0])
		// The key is the free atoms and the residue's open literals: the
		// worlds depend on nothing else.
		key = binary.AppendUvarint(key[:0], uint64(len(free)))
		for _, a := range free {
			key = binary.AppendUvarint(key, uint64(a))
		}
		for _, ci := range residue {
			open := 0
			for _, l := range hard[ci] {
				if p.value(l) == 0 {
					open++
				}
			}
			key = binary.AppendUvarint(key, uint64(open))
			for _, l := range hard[ci] {
				if p.value(l) == 0 {
					key = binary.AppendUvarint(key, uint64(l))
				}
			}
		}
		s, ok := byKey[string(key)]
		if !ok {
			sh, ok := enumerate(free, p.restricted(residue))
			if !ok {
				return false
			}
			s = int32(len(e.shapes))
			e.shapes = append(e.shapes, sh)
			byKey[string(key)] = s
		}
		sh := &e.shapes[s]
		if sh.k == 0 {
			continue // H ∪ α has no model
		}
		e.shape[gi] = s
		e.valid[gi>>6] |= 1 << (gi & 63)
		e.wOff[gi+1] += int32(sh.k)
		for _, l := range p.trail {
			if e.proj[l.Atom()] {
				e.setFixed(l, gi)
			}
		}
		e.ok[gi] = true
	}
	if len(e.shapes) > 1 {
		for s := range e.shapes {
			e.shapes[s].groups = make([]uint64, e.gw)
		}
		for gi, s := range e.shape {
			if s >= 0 {
				e.shapes[s].groups[gi>>6] |= 1 << (gi & 63)
			}
		}
	}
	return true
}

// setFixed records that literal l is true in group gi's worlds.
func (e *complete) setFixed(l logic.Lit, gi int) {
	b := e.fixed[l]
	if b == nil {
		b = make([]uint64, e.gw)
		e.fixed[l] = b
	}
	b[gi>>6] |= 1 << (gi & 63)
	e.fixedCount[l]++
}

// mask returns the worlds of group gi that satisfy the clause c: every
// world when the evidence makes a literal of c true.
func (e *complete) mask(gi int, c logic.Clause) uint64 {
	sh := &e.shapes[e.shape[gi]]
	var m uint64
	for _, l := range c {
		if b := e.fixed[l]; b != nil && b[gi>>6]>>(gi&63)&1 == 1 {
			return sh.all
		}
		m |= sh.lit(l)
	}
	return m
}

// lit returns the worlds of the shape where l is true: none when l's atom
// is not free in the shape (the evidence fixes it).
func (sh *shape) lit(l logic.Lit) uint64 {
	i, ok := slices.BinarySearch(sh.atoms, l.Atom())
	if !ok {
		return 0
	}
	if l.IsNeg() {
		return sh.all &^ sh.bits[i]
	}
	return sh.bits[i]
}

// enumerate lists the worlds over the free atoms that satisfy the
// residue's clauses (restricted to their unassigned literals) for some
// value of the unassigned atoms that are not free (projected away); false
// when there are more than maxWorlds.
func enumerate(free []logic.Atom, residue []logic.Clause) (shape, bool) {
	sh := shape{atoms: slices.Clone(free), bits: make([]uint64, len(free))}
	// The solver's variables: the free atoms first, then the others the
	// residue mentions.
	vars := map[logic.Atom]logic.Atom{}
	s := sat.New()
	for _, a := range free {
		vars[a] = s.NewVar()
	}
	for _, c := range residue {
		for _, l := range c {
			if _, ok := vars[l.Atom()]; !ok {
				vars[l.Atom()] = s.NewVar()
			}
		}
	}
	for _, c := range residue {
		d := make([]logic.Lit, len(c))
		for i, l := range c {
			d[i] = logic.MkLit(vars[l.Atom()], l.IsNeg())
		}
		s.AddClause(d...)
	}
	block := make([]logic.Lit, len(free))
	for {
		if ok, _ := s.Solve(context.Background()); !ok {
			break
		}
		if sh.k == maxWorlds {
			return shape{}, false
		}
		for i := range free {
			v := s.Value(logic.Atom(i))
			if v {
				sh.bits[i] |= 1 << sh.k
			}
			block[i] = logic.MkLit(logic.Atom(i), v)
		}
		sh.k++
		if len(free) == 0 || !s.AddClause(slices.Clone(block)...) {
			break
		}
	}
	if sh.k > 0 {
		sh.all = 1<<sh.k - 1
		if sh.k == 64 {
			sh.all = ^uint64(0)
		}
	}
	return sh, true
}

// propagator is unit propagation of an antecedent through the hard rules,
// with the binary clauses as implications and occurrence lists for the
// others; one per engine, reused from antecedent to antecedent.
type propagator struct {
	hard  []logic.Clause
	imp   [][]logic.Lit // per literal l: the literals the binary clauses ¬l ∨ x imply
	occ   [][]int32     // per literal: the clauses of three or more literals that contain it
	all   [][]int32     // per literal: every clause that contains it (residue)
	units []logic.Lit   // the hard rules of one literal
	empty bool          // a hard rule is empty
	val   []int8        // per atom: 1 true, −1 false, 0 unassigned
	trail []logic.Lit
	seen  []bool // per clause: already in the residue
}

func newPropagator(n int, hard []logic.Clause) *propagator {
	p := &propagator{hard: hard, imp: make([][]logic.Lit, 2*n), occ: make([][]int32, 2*n), all: make([][]int32, 2*n),
		val: make([]int8, n), seen: make([]bool, len(hard))}
	for ci, c := range hard {
		switch len(c) {
		case 0:
			p.empty = true
		case 1:
			p.units = append(p.units, c[0])
		case 2:
			p.imp[c[0].Not()] = append(p.imp[c[0].Not()], c[1])
			p.imp[c[1].Not()] = append(p.imp[c[1].Not()], c[0])
		default:
			for _, l := range c {
				p.occ[l] = append(p.occ[l], int32(ci))
			}
		}
		for _, l := range c {
			p.all[l] = append(p.all[l], int32(ci))
		}
	}
	return p
}

// propagate resets the assignment to α and propagates it; false on a
// conflict (H ∪ α has no model).
func (p *propagator) propagate(alpha logic.Term) bool {
	for _, l := range p.trail {
		p.val[l.Atom()] = 0
	}
	p.trail = p.trail[:0]
	if p.empty {
		return false
	}
	for _, l := range alpha {
		if !p.set(l) {
			return false
		}
	}
	for _, l := range p.units {
		if !p.set(l) {
			return false
		}
	}
	for q := 0; q < len(p.trail); q++ {
		t := p.trail[q]
		for _, x := range p.imp[t] {
			if !p.set(x) {
				return false
			}
		}
		for _, ci := range p.occ[t.Not()] {
			unit, open := logic.Lit(-1), 0
			sat := false
			for _, l := range p.hard[ci] {
				switch p.value(l) {
				case 1:
					sat = true
				case 0:
					open++
					unit = l
				}
				if sat {
					break
				}
			}
			switch {
			case sat:
			case open == 0:
				return false
			case open == 1:
				if !p.set(unit) {
					return false
				}
			}
		}
	}
	return true
}

// value returns 1 when l is true, −1 when false, 0 when unassigned.
func (p *propagator) value(l logic.Lit) int8 {
	v := p.val[l.Atom()]
	if l.IsNeg() {
		return -v
	}
	return v
}

// set makes l true; false when it is false.
func (p *propagator) set(l logic.Lit) bool {
	switch p.value(l) {
	case 1:
		return true
	case -1:
		return false
	}
	if l.IsNeg() {
		p.val[l.Atom()] = -1
	} else {
		p.val[l.Atom()] = 1
	}
	p.trail = append(p.trail, l)
	return true
}

// assume sets atom a to v after propagation, for a closed atom: every
// clause that mentions it is then true, so nothing propagates.
func (p *propagator) assume(a int, v bool) {
	p.set(logic.MkLit(logic.Atom(a), !v))
}

// residue appends the clauses that the assignment leaves open (no literal
// true), in ascending order.
func (p *propagator) residue(out []int32) []int32 {
	start := len(out)
	for a, v := range p.val {
		if v != 0 {
			continue
		}
		for _, l := range []logic.Lit{logic.Pos(logic.Atom(a)), logic.Neg(logic.Atom(a))} {
			for _, ci := range p.all[l] {
				if !p.seen[ci] && !p.satisfied(p.hard[ci]) {
					p.seen[ci] = true
					out = append(out, ci)
				}
			}
		}
	}
	for _, ci := range out[start:] {
		p.seen[ci] = false
	}
	slices.Sort(out[start:])
	return out
}

func (p *propagator) satisfied(c logic.Clause) bool {
	for _, l := range c {
		if p.value(l) == 1 {
			return true
		}
	}
	return false
}

// restricted returns the residue's clauses without their false literals.
func (p *propagator) restricted(residue []int32) []logic.Clause {
	out := make([]logic.Clause, len(residue))
	for i, ci := range residue {
		for _, l := range p.hard[ci] {
			if p.value(l) == 0 {
				out[i] = append(out[i], l)
			}
		}
	}
	return out
}
