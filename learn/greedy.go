package learn

import (
	"context"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// maxPasses bounds the re-insertion passes of the greedy stratifier.
const maxPasses = 10

// StratifyGreedy is greedy parameter learning for a fixed set of clauses:
// each clause in turn goes to the position where the training score is
// highest (ties: fewer levels, then lower), then every clause is re-inserted
// at its best position, pass after pass, until a pass improves nothing. The
// hard rules sit above all levels. Coverage is decided under sem.
func StratifyGreedy(ctx context.Context, clauses []logic.Clause, train *Examples, hard []logic.Clause, threads int, sem possibilistic.Semantics) *Hypothesis {
	n := int(train.MaxAtom()) + 1
	for _, c := range append(append([]logic.Clause(nil), clauses...), hard...) {
		for _, l := range c {
			n = max(n, int(l.Atom())+1)
		}
	}
	e := engineFor(n, train, hard, threads, sem, literalsOf(clauses))
	for _, c := range clauses {
		if ctx.Err() != nil {
			return e.hypothesis()
		}
		prof := e.scoreCandidates(ctx, []logic.Clause{c})
		base := e.score()
		var best choice
		for p := range prof[0] {
			ch := choice{clause: c, pos: p, score: base + prof[0][p], levels: e.hypothesis().LevelsAfter(p), ok: true}
			if ch.better(best) {
				best = ch
			}
		}
		e.commit(e.hypothesis().Insert(c, best.pos))
	}
	for range maxPasses {
		before := e.score()
		reinsert(ctx, e)
		if e.score() <= before || ctx.Err() != nil {
			break
		}
	}
	return e.hypothesis()
}

// Score returns the number of correctly classified examples of m on ex
// (with multiplicities) and the total, deciding coverage under sem.
func Score(m *Hypothesis, ex *Examples, threads int, sem possibilistic.Semantics) (correct, total int) {
	return scoreCovered(ex, Covers(m, ex, threads, sem))
}

// scoreCovered is Score of a hypothesis that covers the examples of ex
// covered says.
func scoreCovered(ex *Examples, covered []bool) (correct, total int) {
	for i, c := range covered {
		if c == ex.List[i].Positive {
			correct += ex.List[i].Count
		}
		total += ex.List[i].Count
	}
	return correct, total
}

// Covers decides, for every example of ex in order, whether m covers it
// under sem (an example whose evidence contradicts the hard rules is not
// covered).
func Covers(m *Hypothesis, ex *Examples, threads int, sem possibilistic.Semantics) []bool {
	n := int(ex.MaxAtom()) + 1
	for _, lv := range append(append([][]logic.Clause(nil), m.Levels...), m.Hard) {
		for _, c := range lv {
			for _, l := range c {
				n = max(n, int(l.Atom())+1)
			}
		}
	}
	e := engineFor(n, ex, m.Hard, threads, sem, literalsOf(m.Levels...))
	e.commit(m)
	return coveredOf(e)
}
