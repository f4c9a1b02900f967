package learn

import (
	"slices"
	"sync"

	"github.com/strata-logic/strata/logic"
)

// A candidate that shares a literal with what unit propagation derives from
// H ∪ α (H: the hard rules) holds in every world of H ∪ α: every cut, with
// or without it, has the same worlds with α, so inserting it at any
// position, or removing it, changes no answer of α's examples, under every
// semantics. On a table α states the row's descriptors, and the hard rules
// ("at most one value", the order of a column's thresholds) then settle
// every other descriptor: a candidate ¬α' ∨ β' drawn from another row
// holds in every world of α unless α fulfils all of α', so scoring skips
// most antecedents without reading their states or stored worlds.
// TestEntailedSkipsNothing checks that the skipped groups change nothing
// when candidates are scored, TestDrowningFreeMatchesBruteForce when a
// clause is inserted or removed under linear and lex.

// entailedSet holds, per literal, the antecedent groups from whose H ∪ α
// unit propagation derives it, as a bit set over the groups (gwords words
// each; a group whose H ∪ α propagation refutes, which no world satisfies,
// is in every set): a candidate matters only for the groups in none of
// its literals' sets (active).
type entailedSet struct {
	mu     sync.Mutex
	hard   []logic.Clause // the hard rules the sets were derived with
	ok     bool           // byLit holds them
	byLit  []uint64
	gwords int
}

// maxEntailedBytes bounds the sets of entailedFor: two bits per atom and
// antecedent, 500 MB for a million distinct rows over 2,000 atoms. Above
// it every antecedent is scored, which learns the same theory more slowly
// (TestEntailedFallback). A variable for that test.
var maxEntailedBytes = 256 << 20

// entailedFor makes e.ent hold the sets for the hard rules of h, deriving
// them when they were derived for other rules, and reports whether they
// can be used (every literal of the hard rules is an atom's).
func (e *store) entailedFor(h *Hypothesis) bool {
	s := &e.ent
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byLit != nil && (sameSlice(s.hard, h.Hard) || slices.EqualFunc(s.hard, h.Hard, slices.Equal)) {
		s.hard = h.Hard // the same rules: later checks compare one pointer
		return s.ok
	}
	s.hard, s.ok = h.Hard, false
	s.gwords = (len(e.groups) + 63) / 64
	if 2*e.n*s.gwords*8 > maxEntailedBytes {
		s.byLit = nil
		return false
	}
	s.byLit = make([]uint64, 2*e.n*s.gwords)
	occ := make([][]int32, 2*e.n)
	var units []logic.Clause // the rules of at most one literal, which propagate from the start
	for id, c := range h.Hard {
		if len(c) <= 1 {
			units = append(units, c)
		}
		for _, l := range c {
			if l < 0 || int(l) >= 2*e.n {
				return false
			}
			occ[l.Not()] = append(occ[l.Not()], int32(id))
		}
	}
	// Each worker derives the literals of the groups of its words of the
	// sets (64 groups a word), so that no two workers write to one word
	// and one value per atom is all a worker holds: a value per atom and
	// group would take four times the memory of the sets themselves.
	parallel(e.common, func(w *worker) {
		val := make([]int8, e.n)
		var queue []logic.Lit
		for k := w.id; k < s.gwords; k += len(e.common) {
			for g := k << 6; g < min((k+1)<<6, len(e.groups)); g++ {
				clear(val)
				refuted := !closeUnder(val, &queue, h.Hard, units, occ, e.ex[e.groups[g][0]].alpha)
				queue = queue[:0]
				bit := uint64(1) << (g & 63)
				for a, v := range val {
					l := logic.Pos(logic.Atom(a))
					switch {
					case refuted: // no world: every literal holds in all of them
						s.byLit[int(l)*s.gwords+k] |= bit
						s.byLit[int(l.Not())*s.gwords+k] |= bit
					case v > 0:
						s.byLit[int(l)*s.gwords+k] |= bit
					case v < 0:
						s.byLit[int(l.Not())*s.gwords+k] |= bit
					}
				}
			}
		}
	})
	s.ok = true
	return true
}

// closeUnder sets in val the literals unit propagation derives from alpha
// and the hard rules (occ: per literal, the rules containing its negation;
// units: the rules of at most one literal), and reports false on a
// conflict.
func closeUnder(val []int8, queue *[]logic.Lit, hard, units []logic.Clause, occ [][]int32, alpha []logic.Lit) bool {
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
	for _, c := range units {
		if !examine(c) {
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

// active returns into buf the groups for which propagation derives no
// literal of c, as a bit set over the groups: the only ones where inserting
// c may change an answer. It returns nil when every group may: when no
// group derives a literal of c, or entailedFor has not made the sets for
// the current hard rules.
func (e *store) active(c logic.Clause, buf []uint64) []uint64 {
	s := &e.ent
	if !s.ok {
		return nil
	}
	buf = slices.Grow(buf[:0], s.gwords)[:s.gwords]
	clear(buf)
	for _, l := range c {
		if l < 0 || int(l) >= 2*e.n {
			continue // an atom outside the masks: propagation knows nothing of it
		}
		d := s.byLit[int(l)*s.gwords : (int(l)+1)*s.gwords]
		for k, v := range d {
			buf[k] |= v
		}
	}
	none := true
	for k := range buf {
		none = none && buf[k] == 0
		buf[k] = ^buf[k]
	}
	if none {
		return nil // a plain loop over the groups is quicker
	}
	if r := len(e.groups) % 64; r != 0 {
		buf[len(buf)-1] &= 1<<r - 1
	}
	return buf
}

// mayChange reports whether group gi is in the worker's active set w.act
// (nil: every group is).
func (w *possWorker) mayChange(gi int) bool {
	return w.act == nil || w.act[gi>>6]>>(gi&63)&1 == 1
}

// removedUnchanged renumbers the state of an example once clause c of
// level j is removed (emptied: the level went with it), where c holds in
// every world of H ∪ α: every cut keeps its worlds with α (the level's
// other clauses stay in it), so the boundary, the answer and the threshold
// stand, and a core stays a core without level j (if j held c alone,
// c follows from H ∪ α). A boundary or threshold
// of j+1 or j, when level j held c alone, would make the cuts at j and j+1,
// which have the same worlds, differ; neither happens. The stored worlds'
// levels are the caller's.
func removedUnchanged(st *exState, j int, emptied bool) {
	if !emptied {
		return
	}
	st.b = int32(removedBoundary(int(st.b), j, emptied))
	if int(st.t) > j {
		st.t--
	}
	st.coreB = dropLevel(st.coreB, j) // without level j
	st.coreT = dropLevel(st.coreT, j)
}
