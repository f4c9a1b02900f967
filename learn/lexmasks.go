package learn

// This file holds a hypothesis's clauses as bit masks, level by level, for
// counting the violations of the worlds of a lex pool (lexpool.go).

// levelMasks is a hypothesis's clauses as masks, level by level: a pool's
// vectors count thousands of clauses against a world of a few words.
type levelMasks struct {
	hyp      *Hypothesis
	words    int
	pos, neg []uint64 // clause c at c·words
	end      []int    // per level, the index past its last clause
}

// masksOf returns m's masks; a worker keeps those of the last two hypotheses
// it asked for (the current hypothesis and the one a commit or trial removal
// decides).
func (w *freeWorker) masksOf(m *Hypothesis) *levelMasks {
	mk := &w.sx.masks
	if mk[0].hyp == m {
		return &mk[0]
	}
	mk[0], mk[1] = mk[1], mk[0]
	lm := &mk[0]
	if lm.hyp == m {
		return lm
	}
	words := w.f.words
	lm.hyp, lm.words = m, words
	lm.pos, lm.neg, lm.end = lm.pos[:0], lm.neg[:0], lm.end[:0]
	for _, l := range m.Levels {
		for _, c := range l {
			o := len(lm.pos)
			lm.pos = append(lm.pos, make([]uint64, words)...)
			lm.neg = append(lm.neg, make([]uint64, words)...)
			for _, x := range c {
				a := x.Atom()
				if x.IsNeg() {
					lm.neg[o+int(a>>6)] |= 1 << (a & 63)
				} else {
					lm.pos[o+int(a>>6)] |= 1 << (a & 63)
				}
			}
		}
		lm.end = append(lm.end, len(lm.pos)/words)
	}
	return lm
}

// count returns the number of clauses of level j that m violates.
func (lm *levelMasks) count(m []uint64, j int) int32 {
	c := 0
	if j > 0 {
		c = lm.end[j-1]
	}
	n := int32(0)
	for ; c < lm.end[j]; c++ {
		if lm.violates(m, c) {
			n++
		}
	}
	return n
}

// violates reports whether m falsifies clause c.
func (lm *levelMasks) violates(m []uint64, c int) bool {
	o := c * lm.words
	for t, x := range m {
		if x&lm.pos[o+t]|^x&lm.neg[o+t] != 0 {
			return false
		}
	}
	return true
}

// meets reports whether m violates exactly dec[l] clauses of every level l.
func (lm *levelMasks) meets(m []uint64, dec []int32) bool {
	for j := range lm.end {
		if lm.count(m, j) != dec[j] {
			return false
		}
	}
	return true
}

// vector writes into v the number of clauses of each level that the world
// m violates.
func (lm *levelMasks) vector(m []uint64, v []int32) {
	for j := range lm.end {
		v[j] = lm.count(m, j)
	}
}
