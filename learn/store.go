package learn

import (
	"sync"

	"github.com/strata-logic/strata/logic"
)

// This file keeps what the two general coverage engines share: the
// examples' states and stored worlds under the current hypothesis (store),
// the clause masks that test stored worlds, and the snapshots that take an
// engine back to a saved hypothesis.

const slots = 12 // worlds kept per example

type exState struct {
	b       int32
	t       int32 // valid when tValid
	tValid  bool
	covered bool
	n       uint8 // worlds stored
	next    uint8 // round-robin victim
	lv      [slots]int32
	bf      [slots]bool // world falsifies β
	// Cores, as sets of levels (bit j: level j), valid when the flag is
	// set: coreB the levels of an unsatisfiable core of the cut at b−1 with
	// α, coreT of the cut at b with α and ¬β (covered). Removing a clause
	// of a level outside a core keeps what the core proves, so the
	// example's answer stands without a solver call (see removalKeeps).
	coreB, coreT     uint64
	coreBOK, coreTOK bool
}

// store is what the general coverage engines keep: the layout, the
// examples' states under the current hypothesis and their stored worlds,
// and the common part of the workers that decide them.
type store struct {
	layout
	st     []exState
	worlds []uint64 // example i, slot s at ((i*slots)+s)*words
	hyp    *Hypothesis
	common []*worker // each of the engine's workers' (hire)
	spare  snapshot  // the memory of the last save
	// logging is set from save to restore or forget: keep logs what it
	// overwrites.
	logging bool
	// betaMasks holds each example's β as a clause mask: pos then neg,
	// words each (see betaMask).
	betaMasks []uint64
	negBetas  []logic.Lit // the examples' negated βs (negBeta)
	hs        hardSubsumer
	// gatoms holds each group's atoms (groupAtoms, free.go).
	gaOnce sync.Once
	gatoms []uint64
	// ent holds what propagation derives from H ∪ α per group
	// (entailed.go).
	ent entailedSet
}

func (e *store) examples() *layout       { return &e.layout }
func (e *store) hypothesis() *Hypothesis { return e.hyp }
func (e *store) covers(i int) bool       { return e.st[i].covered }

// init numbers the examples group after group.
func (e *store) init(nAtoms int, ex *Examples, hard []logic.Clause) {
	e.layout.init(nAtoms, ex, true)
	for i := range e.ex {
		e.ex[i].negBeta = e.negBeta(i)
	}
	e.betaMasks = make([]uint64, 0, 2*e.words*len(e.ex))
	for _, d := range e.ex {
		k := e.mask(d.beta)
		e.betaMasks = append(append(e.betaMasks, k.pos...), k.neg...)
	}
	e.st = make([]exState, len(e.ex))
	e.worlds = make([]uint64, len(e.ex)*slots*e.words)
	e.hyp = &Hypothesis{Hard: hard}
}

// negBeta returns the negation of example i's β, the literals of all of
// the general engines' examples in one array.
func (e *store) negBeta(i int) []logic.Lit {
	if e.negBetas == nil {
		n := 0
		for _, x := range e.src {
			n += len(x.Beta)
		}
		e.negBetas = make([]logic.Lit, 0, n)
	}
	start := len(e.negBetas)
	for _, l := range e.ex[i].beta {
		e.negBetas = append(e.negBetas, l.Not())
	}
	return e.negBetas[start:len(e.negBetas):len(e.negBetas)]
}

// clauseMask is a clause as bit masks over the atoms of a world: a world
// (as stored, one bit per atom) satisfies the clause if it shares a bit
// with pos or misses one of neg. The scoring scans test one candidate
// against thousands of stored worlds, a few words each instead of a loop
// over literals.
type clauseMask struct{ pos, neg []uint64 }

// mask returns c's mask; c's atoms must be below e.n.
func (e *store) mask(c logic.Clause) clauseMask {
	k := clauseMask{pos: make([]uint64, e.words), neg: make([]uint64, e.words)}
	for _, l := range c {
		a := l.Atom()
		if l.IsNeg() {
			k.neg[a>>6] |= 1 << (a & 63)
		} else {
			k.pos[a>>6] |= 1 << (a & 63)
		}
	}
	return k
}

// betaMask returns example i's β as a clause mask.
func (e *store) betaMask(i int) clauseMask {
	o := 2 * e.words * i
	return clauseMask{pos: e.betaMasks[o : o+e.words], neg: e.betaMasks[o+e.words : o+2*e.words]}
}

// holds reports whether world m satisfies the clause.
func (k *clauseMask) holds(m []uint64) bool {
	for i, w := range m {
		if w&k.pos[i]|^w&k.neg[i] != 0 {
			return true
		}
	}
	return false
}

func holds(c []logic.Lit, m []uint64) bool {
	for _, l := range c {
		a := l.Atom()
		if (m[a>>6]>>(a&63)&1 == 1) != l.IsNeg() {
			return true
		}
	}
	return false
}

// lowestSatisfied returns the smallest j ≤ from such that m satisfies every
// clause of levels j..from−1.
func lowestSatisfied(levels [][]logic.Clause, m []uint64, from int) int {
	for j := from - 1; j >= 0; j-- {
		for _, c := range levels[j] {
			if !holds(c, m) {
				return j + 1
			}
		}
	}
	return 0
}

func (e *store) slot(i, s int) []uint64 {
	o := (i*slots + s) * e.words
	return e.worlds[o : o+e.words]
}

// snapshot is the examples' states (and under linear and lex their
// decisions) saved with a hypothesis.
type snapshot struct {
	st  []exState
	dec [][]int32
}

// save returns the examples' states. The snapshot reuses the memory of the
// previous one (re-insertion saves once per clause, megabytes each time on
// large example sets), so it is valid until the next save. The stored
// worlds, most of the memory, are not copied: until restore or forget,
// keep notes in its worker's undo log what each one it overwrites held.
func (e *store) save() snapshot {
	s := snapshot{st: append(e.spare.st[:0], e.st...), dec: e.spare.dec}
	e.spare = s
	e.forget()
	e.logging = true
	return s
}

// forget stops logging overwritten worlds: the last snapshot will not be
// restored.
func (e *store) forget() {
	e.logging = false
	for _, w := range e.common {
		w.undoAt, w.undoM = w.undoAt[:0], w.undoM[:0]
	}
}

// restoreStates returns to hypothesis m and the example states saved with
// it, and stops logging.
func (e *store) restoreStates(m *Hypothesis, s snapshot) {
	e.hyp = m
	copy(e.st, s.st)
	for _, w := range e.common {
		// Latest first, so that a slot overwritten twice ends as saved.
		for n := len(w.undoAt) - 1; n >= 0; n-- {
			o := int(w.undoAt[n]) * e.words
			copy(e.worlds[o:o+e.words], w.undoM[n*e.words:(n+1)*e.words])
		}
	}
	e.forget()
}

// score returns Σ over covered examples of +count (positive) or −count
// (negative): covered positives minus covered negatives, the quantity the
// learner maximises (it differs from the accuracy by a constant).
func (e *store) score() int64 {
	var s int64
	for i := range e.ex {
		if e.st[i].covered {
			s += e.ex[i].sign * e.ex[i].weight
		}
	}
	return s
}

// covered returns whether the current hypothesis covers each example, in
// the order of the Examples the engine was built from.
func (e *store) covered() []bool {
	out := make([]bool, len(e.ex))
	for i := range e.ex {
		out[e.orig[i]] = e.st[i].covered
	}
	return out
}
