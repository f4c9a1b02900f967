package learn

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// unitLevel returns, under linear and lex, a candidate that sampled
// clauses reach only one per iteration: the current hypothesis with a new
// lowest level of unit clauses, one per atom that no unit clause of the
// hypothesis or of the hard rules mentions, each the literal whose uncovered
// examples α |~ l (α not mentioning l's atom) gain the most, if they gain.
// Under lex such a level says "typically l, for each l" and costs an
// evidence that contradicts some of them only those: it is how sparse data
// ("typically every atom is false") is written, and one clause an
// iteration needs as many iterations as atoms to write it. The candidate is
// scored like any other, by the training score of the hypothesis it makes
// (score; the engine is left as it was). The learner under poss, which
// stays the paper's, has no such candidate: a level of units drowns as
// soon as the evidence contradicts one of them. It returns nil when no
// literal gains.
func unitLevel(ctx context.Context, e coverage) (m *Hypothesis, score int64) {
	x, h := e.examples(), e.hypothesis()
	has := make([]bool, x.n)
	for _, c := range h.Hard {
		if len(c) == 1 {
			has[c[0].Atom()] = true
		}
	}
	for _, lv := range h.Levels {
		for _, c := range lv {
			if len(c) == 1 {
				has[c[0].Atom()] = true
			}
		}
	}
	gain := make([]int64, 2*x.n) // per literal: 2a positive, 2a+1 negative
	for i := range x.count() {
		d := x.data(i)
		if len(d.beta) != 1 || e.covers(i) || !d.hardOK {
			continue
		}
		b := d.beta[0]
		if has[b.Atom()] || mentions(d.alpha, b.Atom()) {
			continue
		}
		k := 2 * int(b.Atom())
		if b.IsNeg() {
			k++
		}
		gain[k] += d.sign * d.weight
	}
	var level []logic.Clause
	for a := range x.n {
		pos, neg := gain[2*a], gain[2*a+1]
		switch {
		case pos > 0 && pos >= neg:
			level = append(level, logic.Clause{logic.Pos(logic.Atom(a))})
		case neg > 0:
			level = append(level, logic.Clause{logic.Pos(logic.Atom(a)).Not()})
		}
	}
	if len(level) == 0 {
		return nil, 0
	}
	m = h.Clone()
	m.Levels = append([][]logic.Clause{level}, m.Levels...)
	score = scoreWith(e, m)
	if ctx.Err() != nil {
		return nil, 0
	}
	return m, score
}

// lowestScorer is an engine that scores a hypothesis with one more level
// below its current one without committing it.
type lowestScorer interface {
	scoreLowest(level []logic.Clause) int64
}

// scoreWith returns the score of m, the engine's hypothesis with a new
// lowest level, leaving the engine as it was.
func scoreWith(e coverage, m *Hypothesis) int64 {
	if l, ok := e.(lowestScorer); ok {
		return l.scoreLowest(m.Levels[0])
	}
	orig, snap := e.hypothesis(), e.save()
	e.commit(m)
	s := e.score()
	e.restore(orig, snap)
	return s
}

// mentions reports whether the term t has a literal of atom a.
func mentions(t logic.Term, a logic.Atom) bool {
	if len(t) > 8 && strictlyIncreasing(t) {
		// A sorted term has a's literals, if any, where its positive
		// literal would go (the negative one is next to it).
		i, _ := slices.BinarySearch(t, logic.Pos(a))
		return i < len(t) && t[i].Atom() == a
	}
	for _, l := range t {
		if l.Atom() == a {
			return true
		}
	}
	return false
}
