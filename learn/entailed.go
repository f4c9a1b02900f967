package learn

import (
	"slices"
	"sync"

	"github.com/strata-logic/strata/logic"
)

// A candidate that shares a literal with what unit propagation derives from
// H ∪ α (H: the hard rules) holds in every world of H ∪ α: every cut, with
// or without it, has the same worlds with α, so inserting it at any
// position changes no answer of α's examples, under every semantics. On a
// table α states the row's descriptors, and the hard rules ("at most one
// value", the order of a column's thresholds) then settle every other
// descriptor: a candidate ¬α' ∨ β' drawn from another row holds in every
// world of α unless α fulfils all of α', so scoring skips most antecedents
// without reading their states or stored worlds.
// TestEntailedSkipsNothing checks that the skipped groups change nothing.

// entailedSet is, per antecedent group, the literals that unit propagation
// derives from H ∪ α, as a clause mask: pos then neg, words each (all bits
// set when propagation refutes H ∪ α, which no world satisfies).
type entailedSet struct {
	mu   sync.Mutex
	hard []logic.Clause // the hard rules the masks were derived with
	ok   bool           // masks holds them
	mask []uint64
}

// entailedFor makes e.ent hold the masks for the hard rules of h, deriving
// them when they were derived for other rules, and reports whether they
// can be used (every literal of the hard rules is an atom's).
func (e *store) entailedFor(h *Hypothesis) bool {
	s := &e.ent
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mask != nil && (sameSlice(s.hard, h.Hard) || slices.EqualFunc(s.hard, h.Hard, slices.Equal)) {
		s.hard = h.Hard // the same rules: later checks compare one pointer
		return s.ok
	}
	s.hard, s.ok = h.Hard, false
	s.mask = make([]uint64, 2*e.words*len(e.groups))
	occ := make([][]int32, 2*e.n)
	for id, c := range h.Hard {
		for _, l := range c {
			if l < 0 || int(l) >= 2*e.n {
				return false
			}
			occ[l.Not()] = append(occ[l.Not()], int32(id))
		}
	}
	s.ok = true
	e.parallel(func(w *worker) {
		val := make([]int8, e.n)
		var queue []logic.Lit
		for g := w.id; g < len(e.groups); g += len(e.workers) {
			clear(val)
			queue = queue[:0]
			m := s.mask[2*e.words*g : 2*e.words*(g+1)]
			if !closeUnder(val, &queue, h.Hard, occ, e.ex[e.groups[g][0]].alpha) {
				for k := range m {
					m[k] = ^uint64(0)
				}
				continue
			}
			for a, v := range val {
				switch v {
				case 1:
					m[a>>6] |= 1 << (a & 63)
				case -1:
					m[e.words+a>>6] |= 1 << (a & 63)
				}
			}
		}
	})
	return true
}

// closeUnder sets in val the literals unit propagation derives from alpha
// and the hard rules (occ: per literal, the rules containing its negation),
// and reports false on a conflict.
func closeUnder(val []int8, queue *[]logic.Lit, hard []logic.Clause, occ [][]int32, alpha []logic.Lit) bool {
	set := func(l logic.Lit) bool {
		switch litVal(val, l) {
		case 1:
			return true
		case -1:
			return false
		}
		setLit(val, l)
		*queue = append(*queue, l)
		return true
	}
	for _, l := range alpha {
		if !set(l) {
			return false
		}
	}
	// examine derives the last open literal of a rule whose others are
	// false, and reports false when every literal is.
	examine := func(c logic.Clause) bool {
		var last logic.Lit
		open := 0
		for _, l := range c {
			switch litVal(val, l) {
			case 1:
				return true
			case 0:
				open++
				last = l
			}
		}
		switch open {
		case 0:
			return false
		case 1:
			return set(last)
		}
		return true
	}
	for _, c := range hard {
		if len(c) <= 1 && !examine(c) {
			return false
		}
	}
	for len(*queue) > 0 {
		l := (*queue)[len(*queue)-1]
		*queue = (*queue)[:len(*queue)-1]
		for _, id := range occ[l] {
			if !examine(hard[id]) {
				return false
			}
		}
	}
	return true
}

// entailedIn reports whether the clause of mask cm shares a literal with
// what propagation derives from H ∪ α for group gi: it holds in every
// world of H ∪ α. entailedFor must have reported true for the current
// hard rules.
func (e *store) entailedIn(gi int, cm *clauseMask) bool {
	m := e.ent.mask[2*e.words*gi : 2*e.words*(gi+1)]
	pos, neg := m[:e.words], m[e.words:]
	for k := range pos {
		if cm.pos[k]&pos[k]|cm.neg[k]&neg[k] != 0 {
			return true
		}
	}
	return false
}
