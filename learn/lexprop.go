package learn

import (
	"slices"
	"sync"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// A lex walk proves each level's least violation count with a solver call
// that fails (at most one fewer is impossible), and a covered example's β
// with another. Many of those facts follow from unit propagation alone,
// which costs far less than a call:
//
//   - a clause whose literals are all false under literals that hold in
//     every world of the walk's assumptions is violated by each of them,
//     so the number of such clauses of a level (forced) bounds its count
//     from below, and a world that reaches it needs no proof that it is
//     least;
//   - a level whose count is bounded by its forced count (tight) has every
//     other clause satisfied in every world of the assumptions: those
//     clauses join what propagation may use for the levels below and for β.
//
//   - a level with a larger bound (loose) is a cardinality constraint:
//     once as many of its clauses are false as the bound allows, the others
//     hold, and one more false is a conflict.
//
// A β whose negation propagation refutes is entailed; the proof's levels
// (see levelCore) are the tight ones it needed, or every bounded level when
// it needed the loose ones. The same propagation refutes candidates that
// no optimal world satisfies (groupProp) and raises a level's lower bound
// when its other clauses cannot all hold (lowerBound). Every shortcut only
// skips a solver call whose answer it knows, so the engine decides exactly
// as without it (TestDrowningFreeMatchesBruteForce).
//
// A linear walk is the same with counts of none: a kept level is tight
// with no clause violated, a skipped one says nothing about its clauses,
// and a level whose clauses propagation refutes is skipped without a call
// (decided, refutesLevel). In 8 iterations on pendigits this leaves 0.48
// million solver calls of 4.35 million.

// maxPropHard is the largest number of hard rules, of those α does not
// satisfy, that propagation uses: a hard rule put in CNF can have
// thousands of clauses, and leaving them out only weakens the bounds.
const maxPropHard = 512

// lexProp is what unit propagation knows about the worlds of a walk's
// assumptions (lex or linear).
type lexProp struct {
	val []int8 // per atom: 1 true, −1 false, 0 unknown in some world
	// The clauses that hold in every world are base, then cls. base is
	// shared with a group's baseProp or groupProp and never written: a walk
	// that starts from their fixpoint takes their clauses without copying
	// them (a copy of pointer-holding slices costs write barriers too).
	base []logic.Clause
	cls  []logic.Clause
	ok   bool // false: propagation is not used
	tmp  []int8
	// Before each tight level's clauses joined cls: the level, the values
	// and the number of clauses (base and cls) then, so that entails can
	// find the highest levels a refutation needs (snap holds the values one
	// after another).
	at   []int
	snap []int8
	end  []int
	// loose are the levels with a bound above their forced count.
	loose []looseLevel
}

// looseLevel is a level j (clauses cls) with at most v violated.
type looseLevel struct {
	cls []logic.Clause
	j   int
	v   int
}

// litVal returns 1 if l is true under val, −1 if false, 0 if unknown.
//
// It negates without a branch, which propagation's inner loops would
// mispredict half the time: s is 1 for a negative literal (l.IsNeg) and
// (v ^ −1) + 1 is −v in two's complement.
func litVal(val []int8, l logic.Lit) int8 {
	s := int8(l & 1)
	return (val[l.Atom()] ^ -s) + s
}

// setLit makes l true under val: 1 for a positive literal, −1 for a
// negative one (l & 1 is l.IsNeg, as in litVal).
func setLit(val []int8, l logic.Lit) {
	val[l.Atom()] = 1 - 2*int8(l&1)
}

// reset starts p for the worlds of H ∪ α and, if not nil, the clause c.
func (p *lexProp) reset(n int, hard []logic.Clause, alpha []logic.Lit, c logic.Clause) {
	if cap(p.val) < n {
		p.val = make([]int8, n)
	}
	p.val = p.val[:n]
	clear(p.val)
	p.base, p.cls = nil, p.cls[:0]
	p.ok = true
	p.at, p.snap, p.end, p.loose = p.at[:0], p.snap[:0], p.end[:0], p.loose[:0]
	for _, l := range alpha {
		if litVal(p.val, l) < 0 {
			p.ok = false // α contradicts itself: leave it to the solver
			return
		}
		setLit(p.val, l)
	}
	// A clause α satisfies stays satisfied in every world of the
	// walk, whose values only grow from α's: it can never propagate
	// and is left out, and so is one the fixpoint of H ∪ α satisfies.
	// On a table most hard rules are the order of a column's thresholds,
	// all of which α states, or a sequential "at most one" of its
	// values, which α's value settles.
	for _, h := range hard {
		if !satisfied(p.val, h) {
			p.cls = append(p.cls, h)
		}
	}
	if len(p.cls) > maxPropHard {
		p.cls = p.cls[:0]
	}
	if !propagate(p.val, nil, p.cls, 0) {
		p.ok = false
		return
	}
	p.cls = slices.DeleteFunc(p.cls, func(h logic.Clause) bool { return satisfied(p.val, h) })
	if c != nil {
		p.add(c)
	}
}

// add adds c to the clauses that hold in every world and propagates it,
// when p.val is a fixpoint of the others without a conflict (after reset,
// resetProp or resetFrom): every other clause is then satisfied or has two
// unknown literals, and propagation starts at c.
func (p *lexProp) add(c logic.Clause) {
	p.cls = append(p.cls, c)
	p.ok = propagate(p.val, p.base, p.cls, len(p.base)+len(p.cls)-1)
}

// baseProp is the fixpoint of propagation from H ∪ α for one antecedent
// group, with the hard rules it does not satisfy: every walk of the group,
// under every hypothesis, starts from it (resetProp).
type baseProp struct {
	once sync.Once
	ok   bool
	val  []int8
	cls  []logic.Clause
}

// maxBaseBytes bounds the memory of the groups' baseProps (a value per atom
// and group); a larger problem propagates H ∪ α again for every walk.
var maxBaseBytes = 128 << 20 // a variable for TestBasePropFallback

// resetProp is p.reset for the α of group gi, the hard rules and c, taken
// from the group's baseProp when hard are the rules it was computed with:
// H ∪ α are the same for every hypothesis and candidate, and unit
// propagation reaches the same fixpoint, or a conflict, from any state it
// derived on the way.
func (w *freeWorker) resetProp(p *lexProp, gi int, hard []logic.Clause, c logic.Clause) {
	e := w.f
	sx := &e.semx
	alpha := e.ex[e.groups[gi][0]].alpha
	sx.bonce.Do(func() {
		if len(e.groups)*(e.n+24) <= maxBaseBytes {
			sx.base, sx.baseHard = make([]baseProp, len(e.groups)), hard
		}
	})
	if sx.base == nil || !sameSlice(hard, sx.baseHard) {
		p.reset(e.n, hard, alpha, c)
		return
	}
	b := &sx.base[gi]
	b.once.Do(func() {
		var q lexProp
		q.reset(e.n, hard, alpha, nil)
		b.ok, b.val, b.cls = q.ok, q.val, slices.Clip(q.cls)
	})
	p.val = append(p.val[:0], b.val...)
	p.base, p.cls = b.cls, p.cls[:0]
	p.at, p.snap, p.end, p.loose = p.at[:0], p.snap[:0], p.end[:0], p.loose[:0]
	p.ok = b.ok
	if p.ok && c != nil {
		p.add(c)
	}
}

// resetFrom is reset for the α of gp's group and the clause c, starting
// from gp's fixpoint of H ∪ α instead of propagating it again: H ∪ α are
// the same for every candidate c, and unit propagation reaches the same
// fixpoint, or a conflict, from any state it derived on the way
// (TestDrowningFreeMatchesBruteForce).
func (p *lexProp) resetFrom(gp *groupProp, c logic.Clause) {
	k := len(gp.end) - 1
	n := len(gp.val) / len(gp.end)
	p.val = append(p.val[:0], gp.val[k*n:(k+1)*n]...)
	base, cls := prefix(gp.base, gp.cls, gp.end[k])
	p.base, p.cls = base, append(p.cls[:0], cls...)
	p.at, p.snap, p.end, p.loose = p.at[:0], p.snap[:0], p.end[:0], p.loose[:0]
	p.ok = true
	if c != nil {
		p.add(c)
	}
}

// prefix returns the first n clauses of base followed by cls, as the
// parts of each.
func prefix(base, cls []logic.Clause, n int) ([]logic.Clause, []logic.Clause) {
	if n <= len(base) {
		return base[:n], nil
	}
	return base, cls[:n-len(base)]
}

// propagate assigns, until nothing changes, the last unknown literal of
// every clause of base and cls (one list, base first) whose other literals
// are false. It reports false on a clause with every literal false. The
// clauses before from (in the one list) are known to be satisfied or to
// have two unknown literals under val.
func propagate(val []int8, base, cls []logic.Clause, from int) bool {
	// Passes alternate in direction: a chain of implications (a column's
	// thresholds, an "at most one" written sequentially) then takes one
	// pass whichever way it runs, not one per link. The clauses a pass
	// looked at after its last assignment assign nothing until another
	// does, so the next pass starts at that assignment's clause r and the
	// first at from: the passes assign the same literals, in the same
	// order, as passes over every clause would, and end the same way.
	r, back := from, false
	for {
		lo, hi := r, len(base)+len(cls)
		if back {
			lo, hi = 0, r+1
		}
		last, ok := passOver(val, base, cls, lo, hi, back)
		if !ok {
			return false
		}
		if last < 0 {
			return true
		}
		r, back = last, !back
	}
}

// passOver is one pass of propagate over the clauses lo ≤ i < hi of base
// and cls taken as one list, backwards if back: it returns the index in
// that list of the clause of its last assignment (−1 if none), and false
// as ok on a clause with every literal false.
func passOver(val []int8, base, cls []logic.Clause, lo, hi int, back bool) (last int, ok bool) {
	nb := len(base)
	type part struct {
		cls []logic.Clause
		off int // index of cls[0] in the one list
	}
	parts := [2]part{{base[min(lo, nb):min(hi, nb)], min(lo, nb)}, {cls[max(lo-nb, 0):max(hi-nb, 0)], max(lo, nb)}}
	if back {
		parts[0], parts[1] = parts[1], parts[0]
	}
	last = -1
	for _, p := range parts {
		l, ok := propagatePass(val, p.cls, back)
		if l >= 0 {
			last = p.off + l
		}
		if !ok {
			return last, false
		}
	}
	return last, true
}

// propagatePass is one pass of propagate over cls, backwards if back: it
// returns the index in cls of the clause of its last assignment (−1 if
// none), and false as ok on a clause with every literal false.
func propagatePass(val []int8, cls []logic.Clause, back bool) (last int, ok bool) {
	last = -1
	for i := range cls {
		if back {
			i = len(cls) - 1 - i
		}
		var unit logic.Lit
		open := 0
		sat := false
		for _, l := range cls[i] {
			switch litVal(val, l) {
			case 1:
				sat = true
			case 0:
				open++
				unit = l
			}
			if sat || open > 1 {
				break
			}
		}
		switch {
		case sat || open > 1:
		case open == 0:
			return last, false
		default:
			setLit(val, unit)
			last = i
		}
	}
	return last, true
}

// forced returns the number of clauses of l that every world violates.
func (p *lexProp) forced(l []logic.Clause) int {
	if !p.ok {
		return 0
	}
	n := 0
	for _, c := range l {
		if falsified(p.val, c) {
			n++
		}
	}
	return n
}

// lowerBound returns a lower bound on the count of level j (clauses l),
// given f, its forced count: f, or one more when propagation shows that
// the level's other clauses cannot all hold (with the levels above at
// their bounds).
func (p *lexProp) lowerBound(l []logic.Clause, j, f int) int {
	if !p.ok {
		return f
	}
	p.loose = append(p.loose, looseLevel{l, j, f})
	if refutesCard(p.val, p.base, p.cls, nil, p.loose, nil, &p.tmp) {
		f++
	}
	p.loose = p.loose[:len(p.loose)-1]
	return f
}

// satisfied reports whether a literal of c is true under val.
func satisfied(val []int8, c logic.Clause) bool {
	for _, l := range c {
		if litVal(val, l) > 0 {
			return true
		}
	}
	return false
}

func falsified(val []int8, c logic.Clause) bool {
	for _, l := range c {
		if litVal(val, l) >= 0 {
			return false
		}
	}
	return true
}

// bound records that at most v clauses of level j (clauses l) are
// violated; if that is the forced number, the others hold in every world.
func (p *lexProp) bound(l []logic.Clause, j, v int) {
	if !p.ok {
		return
	}
	if v != p.forced(l) {
		p.loose = append(p.loose, looseLevel{l, j, v})
		return
	}
	p.at = append(p.at, j)
	p.snap = append(p.snap, p.val...)
	p.end = append(p.end, len(p.base)+len(p.cls))
	unit := false // val is closed under cls: only a new unit clause can assign
	from := len(p.base) + len(p.cls)
	for _, c := range l {
		if !falsified(p.val, c) {
			p.cls = append(p.cls, c)
			_, one := lastOpen(p.val, c)
			unit = unit || one
		}
	}
	// A conflict cannot happen when the assumptions are consistent; if it
	// does, propagation stops being used rather than prove anything.
	if unit {
		p.ok = propagate(p.val, p.base, p.cls, from)
	}
}

// decided records level j's decision v in a walk under sem: under lex, at
// most v of its clauses l are violated (bound); under linear, v = 1 keeps
// the level, whose clauses then all hold, and v = 0 skips it, which
// says nothing about its clauses.
func (p *lexProp) decided(sem possibilistic.Semantics, l []logic.Clause, j, v int) {
	switch {
	case sem == possibilistic.Lex:
		p.bound(l, j, v)
	case v == 0 || !p.ok:
	case p.forced(l) > 0:
		p.ok = false // a kept level is consistent: do not prove anything from a conflict
	default:
		p.bound(l, j, 0)
	}
}

// refutesLevel reports whether propagation shows that no world satisfies
// every clause of level j (clauses l) as well: under linear, the walk
// skips it.
func (p *lexProp) refutesLevel(l []logic.Clause, j int) bool {
	return p.ok && (p.forced(l) > 0 || p.lowerBound(l, j, 0) > 0)
}

// entails reports whether propagation proves β in every world, with the
// levels the proof used (coreOK false: not known): the tight levels from
// the lowest one whose clauses the refutation needs, since each level's
// bound rests on the values the levels above it gave.
func (p *lexProp) entails(beta logic.Clause) (ok bool, core uint64, coreOK bool) {
	if !p.ok {
		return false, 0, false
	}
	if !refutes(p.val, p.base, p.cls, beta, &p.tmp) {
		return p.entailsLoose(beta)
	}
	// The fewest tight levels, highest first, that still refute ¬β.
	t := len(p.at)
	n := len(p.val)
	for t > 0 {
		base, cls := prefix(p.base, p.cls, p.end[t-1])
		if !refutes(p.snap[(t-1)*n:t*n], base, cls, beta, &p.tmp) {
			break
		}
		t--
	}
	for _, j := range p.at[:t] {
		if j >= 64 {
			return true, 0, false
		}
		core |= 1 << j
	}
	return true, core, true
}

// entailsLoose is entails with the loose levels' bounds too: propagation
// from ¬β that falsifies as many clauses of a loose level as its bound
// allows makes its other clauses hold, and one more is a conflict. The
// proof's levels are then every level with a bound, tight or loose.
func (p *lexProp) entailsLoose(beta logic.Clause) (ok bool, core uint64, coreOK bool) {
	if len(p.loose) == 0 || !refutesCard(p.val, p.base, p.cls, nil, p.loose, beta, &p.tmp) {
		return false, 0, false
	}
	for _, j := range p.at {
		if j >= 64 {
			return true, 0, false
		}
		core |= 1 << j
	}
	for _, lv := range p.loose {
		if lv.j >= 64 {
			return true, 0, false
		}
		core |= 1 << lv.j
	}
	return true, core, true
}

// refutesCard reports whether propagation from val (closed under base and
// cls) refutes ¬β with the clauses base, cls, c (if not nil) and the bounds of the
// loose levels; tmp is scratch.
func refutesCard(val []int8, base, cls []logic.Clause, c logic.Clause, loose []looseLevel, beta logic.Clause, tmp *[]int8) bool {
	t := append((*tmp)[:0], val...)
	*tmp = t
	for _, l := range beta {
		switch litVal(t, l) {
		case 1:
			return true
		case 0:
			setLit(t, l.Not())
		}
	}
	for {
		if !propagate(t, base, cls, 0) || c != nil && falsified(t, c) {
			return true
		}
		changed := false
		for _, lv := range loose {
			f := 0
			for _, d := range lv.cls {
				if falsified(t, d) {
					f++
				}
			}
			if f > lv.v {
				return true
			}
			if f < lv.v {
				continue
			}
			for _, d := range lv.cls {
				if x, one := lastOpen(t, d); one {
					setLit(t, x)
					changed = true
				}
			}
		}
		if c != nil {
			if x, one := lastOpen(t, c); one {
				setLit(t, x)
				changed = true
			}
		}
		if !changed {
			return false
		}
	}
}

// lastOpen returns the one unknown literal of c when every other literal
// is false.
func lastOpen(val []int8, c logic.Clause) (logic.Lit, bool) {
	var last logic.Lit
	open := 0
	for _, l := range c {
		switch litVal(val, l) {
		case 1:
			return 0, false
		case 0:
			open++
			last = l
		}
	}
	return last, open == 1
}

// refutes reports whether propagation over base and cls from the values val
// (closed under them) refutes ¬β; tmp is scratch.
func refutes(val []int8, base, cls []logic.Clause, beta logic.Clause, tmp *[]int8) bool {
	for _, l := range beta {
		if litVal(val, l) > 0 {
			return true
		}
	}
	*tmp = append((*tmp)[:0], val...)
	for _, l := range beta {
		if litVal(*tmp, l) == 0 {
			setLit(*tmp, l.Not())
		}
	}
	return !propagate(*tmp, base, cls, 0)
}

// groupProp is what propagation knows about the worlds of an antecedent α
// that meet the current decisions of the levels ≥ j, for every j: the
// lowest levels' decisions are added last, so one list of clauses serves
// every j up to its length at j.
type groupProp struct {
	hyp   *Hypothesis
	ok    bool
	start bool           // propagation of H ∪ α alone succeeded: val at len(end)−1 is its fixpoint
	val   []int8         // (k+1)·n: the values at j from j·n
	end   []int          // per j, the clauses of base and cls (one list) that hold at j
	base  []logic.Clause // shared, never written (lexProp.base)
	cls   []logic.Clause
	loose []looseLevel // at j = 0
}

// groupProp returns what propagation knows about the decisions of group gi
// under the current hypothesis, computed once per hypothesis; each group is
// scored by one worker, so no other worker touches it.
func (w *freeWorker) groupProp(gi int) *groupProp {
	e := w.f
	sx := &e.semx
	sx.gonce.Do(func() { sx.gprop = make([]groupProp, len(e.groups)) })
	gp := &sx.gprop[gi]
	if gp.hyp == e.hyp {
		return gp
	}
	i := int(e.groups[gi][0])
	k, n := len(e.hyp.Levels), e.n
	p := &w.sx.prop
	w.resetProp(p, gi, e.hyp.Hard, nil)
	gp.hyp, gp.ok, gp.start = e.hyp, p.ok, p.ok
	gp.val = slices.Grow(gp.val[:0], (k+1)*n)[:(k+1)*n]
	gp.end = slices.Grow(gp.end[:0], k+1)[:k+1]
	for j := k; j >= 0; j-- {
		if j < k {
			p.decided(e.sem, e.hyp.Levels[j], j, int(e.dec[i][j]))
			gp.ok = gp.ok && p.ok
		}
		copy(gp.val[j*n:(j+1)*n], p.val)
		gp.end[j] = len(p.base) + len(p.cls)
	}
	gp.base, gp.cls = p.base, append(gp.cls[:0], p.cls...)
	gp.loose = append(gp.loose[:0], p.loose...)
	return gp
}

// entails reports whether propagation shows that every optimal world (the
// decisions at every level) that satisfies c satisfies β.
func (gp *groupProp) entails(c, beta logic.Clause, tmp *[]int8) bool {
	if !gp.ok {
		return false
	}
	n := len(gp.val) / len(gp.end)
	return refutesCard(gp.val[:n], gp.base, gp.cls, c, gp.loose, beta, tmp)
}

// refutes reports whether propagation shows that no world of α meeting the
// decisions of the levels ≥ j satisfies c. Refuted at j, c is refuted at
// every lower j too.
func (gp *groupProp) refutes(j int, c logic.Clause, tmp *[]int8) bool {
	if !gp.ok {
		return false
	}
	n := len(gp.val) / len(gp.end)
	val := gp.val[j*n : (j+1)*n]
	var last logic.Lit
	open := 0
	for _, l := range c {
		switch litVal(val, l) {
		case 1:
			return false
		case 0:
			open++
			last = l
		}
	}
	switch open {
	case 0:
		return true
	case 1:
		// val is closed under the clauses at j: only c's last literal can
		// propagate anything new.
		*tmp = append((*tmp)[:0], val...)
		setLit(*tmp, last)
		base, cls := prefix(gp.base, gp.cls, gp.end[j])
		return !propagate(*tmp, base, cls, 0)
	}
	return false
}
