package learn

import (
	"context"
	"math"

	"github.com/strata-logic/strata/logic"
)

// choice is a clause with the position at which inserting it scores best.
type choice struct {
	clause logic.Clause
	pos    int
	score  int64 // score of the hypothesis after insertion
	levels int   // number of levels after insertion
	ok     bool
}

// better orders choices as the paper does: higher training accuracy, then
// fewer levels (structural risk minimisation), then the shorter clause.
// Earlier choices win remaining ties, which keeps runs deterministic.
func (c choice) better(d choice) bool {
	switch {
	case !d.ok:
		return c.ok
	case !c.ok:
		return false
	case c.score != d.score:
		return c.score > d.score
	case c.levels != d.levels:
		return c.levels < d.levels
	}
	return len(c.clause) < len(d.clause)
}

// minPosition returns the lowest position at which c is not redundant: a
// clause of the hypothesis that subsumes c at level i makes c implied at every
// position up to 2i+1 (the possibility distribution would not change). It
// returns −1 when a hard rule subsumes c, so that no position helps.
func minPosition(m *Hypothesis, c logic.Clause, hs *hardSubsumer) int {
	if hs.of(m.Hard).subsumes(c) {
		return -1
	}
	for j := len(m.Levels) - 1; j >= 0; j-- {
		for _, d := range m.Levels[j] {
			if d.Subsumes(c) {
				return 2*j + 2
			}
		}
	}
	return 0
}

// minPosition is the drowning engine's minPosition.
func (e *drowning) minPosition(m *Hypothesis, c logic.Clause) int { return minPosition(m, c, &e.hs) }

// minPosition is minPosition without drowning. Under linear and lex a
// clause subsumed at some level still changes answers at lower positions,
// so only a hard rule that subsumes c (c holds in every world considered)
// or the same clause already in the hypothesis (which would be counted
// twice) rules it out.
func (e *drowningFree) minPosition(m *Hypothesis, c logic.Clause) int {
	return minPositionFree(m, c, &e.hs)
}

// minPositionFree is drowningFree's minPosition.
func minPositionFree(m *Hypothesis, c logic.Clause, hs *hardSubsumer) int {
	if hs.of(m.Hard).subsumes(c) {
		return -1
	}
	if _, _, ok := locate(m, c); ok {
		return -1
	}
	return 0
}

// bestOf scores every candidate at every position of the engine's current
// hypothesis and returns the best choice. It reports false if ctx was
// cancelled.
func bestOf(ctx context.Context, e coverage, cands []logic.Clause) (choice, bool) {
	return bestAbove(ctx, e, cands, math.MinInt64)
}

// bestAbove is bestOf for a caller that has no use for a choice changing
// the score by less than need: it may then return a worse choice than the
// best, or none, but it returns the best whenever that changes the score
// by need or more. Candidates that cannot reach need (or the best gain
// found so far) are not scored (see scoreAbove).
func bestAbove(ctx context.Context, e coverage, cands []logic.Clause, need int64) (choice, bool) {
	h, base := e.hypothesis(), e.score()
	from := make([]int, len(cands))
	for ci, c := range cands {
		from[ci] = e.minPosition(h, c)
	}
	profiles := e.scoreAbove(ctx, cands, from, need, -1)
	if ctx.Err() != nil {
		return choice{}, false
	}
	var best choice
	for ci, c := range cands {
		if profiles[ci] == nil {
			continue
		}
		for p := from[ci]; p < len(profiles[ci]); p++ {
			ch := choice{clause: c, pos: p, score: base + profiles[ci][p], levels: h.LevelsAfter(p), ok: true}
			if ch.better(best) {
				best = ch
			}
		}
	}
	return best, true
}

// hardSubsumer answers whether a hard rule subsumes a clause by looking at
// the hard rules whose first literal the clause has, instead of at every
// hard rule: a table's hard rules are thousands of two-literal clauses, and
// minimising a candidate of hundreds of literals asks for each of its
// sub-clauses. Clauses are sorted (logic.Normalize).
type hardSubsumer struct {
	hard    []logic.Clause
	byFirst [][]int32 // per literal: the hard rules it is the first literal of
	empty   bool      // an empty hard rule subsumes everything
	marked  []bool    // per literal: in the clause asked about (scratch)
}

// of returns s indexed for hard, indexing it again when hard is another
// slice than the last one.
func (s *hardSubsumer) of(hard []logic.Clause) *hardSubsumer {
	if s.byFirst != nil && sameSlice(hard, s.hard) {
		return s
	}
	s.hard, s.byFirst, s.empty = hard, [][]int32{}, false
	for i, h := range hard {
		if len(h) == 0 {
			s.empty = true
			continue
		}
		for int(h[0]) >= len(s.byFirst) {
			s.byFirst = append(s.byFirst, nil)
		}
		s.byFirst[h[0]] = append(s.byFirst[h[0]], int32(i))
	}
	return s
}

// subsumes reports whether some hard rule subsumes c.
func (s *hardSubsumer) subsumes(c logic.Clause) bool {
	if s.empty {
		return true
	}
	found := false
	for _, l := range c {
		if int(l) < len(s.byFirst) && len(s.byFirst[l]) > 0 {
			found = true
			break
		}
	}
	if !found {
		return false // no hard rule starts with a literal of c
	}
	for _, l := range c {
		for int(l) >= len(s.marked) {
			s.marked = append(s.marked, false)
		}
		s.marked[l] = true
	}
	defer func() {
		for _, l := range c {
			s.marked[l] = false
		}
	}()
	for _, l := range c {
		if int(l) >= len(s.byFirst) {
			continue
		}
	hard:
		for _, i := range s.byFirst[l] {
			for _, x := range s.hard[i][1:] {
				if int(x) >= len(s.marked) || !s.marked[x] {
					continue hard
				}
			}
			return true
		}
	}
	return false
}
