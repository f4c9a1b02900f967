package learn

import "github.com/strata-logic/strata/logic"

// A lex walk proves each level's least violation count with a solver call
// that fails (at most one fewer is impossible), and a covered example's β
// with another. Many of those facts follow from unit propagation alone,
// which costs far less than a call:
//
//   - a clause whose literals are all false under literals that hold in
//     every model of the walk's assumptions is violated by each of them,
//     so the number of such clauses of a level (forced) bounds its count
//     from below, and a model that reaches it needs no proof that it is
//     least;
//   - a level whose count is bounded by its forced count (tight) has every
//     other clause satisfied in every model of the assumptions: those
//     clauses join what propagation may use for the levels below and for β.
//
// A β whose negation propagation refutes is entailed. The levels whose
// bounds the refutation used are at most the tight ones, which make the
// proof's levels (see levelCore). Every shortcut only skips a solver call
// whose answer it knows, so the engine decides exactly as without it.

// maxPropHard is the largest number of hard rules that propagation uses:
// a hard rule put in CNF can have thousands of clauses, and leaving them
// out only weakens the bounds.
const maxPropHard = 256

// lexProp is what unit propagation knows about the models of a lex walk's
// assumptions.
type lexProp struct {
	val   []int8         // per atom: 1 true, −1 false, 0 unknown in some model
	cls   []logic.Clause // clauses that hold in every model
	tight uint64         // the tight levels (bit j: level j), below 64
	deep  bool           // a tight level at 64 or above: no core
	ok    bool           // false: propagation is not used
	tmp   []int8
}

// litVal returns 1 if l is true under val, −1 if false, 0 if unknown.
func litVal(val []int8, l logic.Lit) int8 {
	v := val[l.Atom()]
	if l.IsNeg() {
		return -v
	}
	return v
}

func setLit(val []int8, l logic.Lit) {
	if l.IsNeg() {
		val[l.Atom()] = -1
	} else {
		val[l.Atom()] = 1
	}
}

// reset starts p for the models of H ∪ α and, if not nil, the clause c.
func (p *lexProp) reset(n int, hard []logic.Clause, alpha []logic.Lit, c logic.Clause) {
	if cap(p.val) < n {
		p.val = make([]int8, n)
	}
	p.val = p.val[:n]
	clear(p.val)
	p.cls = p.cls[:0]
	p.tight, p.deep, p.ok = 0, false, true
	for _, l := range alpha {
		if litVal(p.val, l) < 0 {
			p.ok = false // α contradicts itself: leave it to the solver
			return
		}
		setLit(p.val, l)
	}
	if len(hard) <= maxPropHard {
		p.cls = append(p.cls, hard...)
	}
	if c != nil {
		p.cls = append(p.cls, c)
	}
	p.ok = propagate(p.val, p.cls)
}

// propagate assigns, until nothing changes, the last unknown literal of
// every clause whose other literals are false. It reports false on a
// clause with every literal false.
func propagate(val []int8, cls []logic.Clause) bool {
	for changed := true; changed; {
		changed = false
		for _, c := range cls {
			var last logic.Lit
			open := 0
			sat := false
			for _, l := range c {
				switch litVal(val, l) {
				case 1:
					sat = true
				case 0:
					open++
					last = l
				}
				if sat || open > 1 {
					break
				}
			}
			switch {
			case sat || open > 1:
			case open == 0:
				return false
			default:
				setLit(val, last)
				changed = true
			}
		}
	}
	return true
}

// forced returns the number of clauses of l that every model violates.
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

func falsified(val []int8, c logic.Clause) bool {
	for _, l := range c {
		if litVal(val, l) >= 0 {
			return false
		}
	}
	return true
}

// bound records that at most v clauses of level j (clauses l) are
// violated; if that is the forced number, the others hold in every model.
func (p *lexProp) bound(l []logic.Clause, j, v int) {
	if !p.ok || v != p.forced(l) {
		return
	}
	for _, c := range l {
		if !falsified(p.val, c) {
			p.cls = append(p.cls, c)
		}
	}
	if j < 64 {
		p.tight |= 1 << j
	} else {
		p.deep = true
	}
	// A conflict cannot happen when the assumptions are consistent; if it
	// does, propagation stops being used rather than prove anything.
	p.ok = propagate(p.val, p.cls)
}

// entails reports whether propagation proves β in every model, with the
// levels the proof used (coreOK false: not known).
func (p *lexProp) entails(beta logic.Clause) (ok bool, core uint64, coreOK bool) {
	if !p.ok {
		return false, 0, false
	}
	for _, l := range beta {
		if litVal(p.val, l) > 0 {
			return true, p.tight, !p.deep
		}
	}
	p.tmp = append(p.tmp[:0], p.val...)
	for _, l := range beta {
		if litVal(p.tmp, l) == 0 {
			setLit(p.tmp, l.Not())
		}
	}
	if propagate(p.tmp, p.cls) {
		return false, 0, false
	}
	return true, p.tight, !p.deep
}
