package learn

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// sample draws the candidate clauses of one iteration (§4.3): defaults
// sampled from the misclassified examples (an uncovered positive α |~ β as
// it is, a covered negative α |~ β as α |~ ¬l for a random literal l of β),
// each turned into a sub-clause ¬α' ∨ β' with α' a random subset of α (of
// uniform random size) and β' a random non-empty subset of β.
func (l *Learner) sample() []logic.Clause {
	type def struct {
		alpha logic.Term
		beta  logic.Clause
	}
	var pool []def
	for i, d := range l.e.ex {
		st := &l.e.st[i]
		switch {
		case d.sign > 0 && !st.covered:
			pool = append(pool, def{d.alpha, d.beta})
		case d.sign < 0 && st.covered:
			lit := d.beta[l.rng.IntN(len(d.beta))]
			pool = append(pool, def{d.alpha, logic.Clause{lit.Not()}})
		}
	}
	k := min(l.opts.Candidates, len(pool))
	for i := range k { // partial Fisher–Yates: the first k are the sample
		j := i + l.rng.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	seen := map[string]bool{}
	var out []logic.Clause
	for _, d := range pool[:k] {
		c := l.subClause(d.alpha, d.beta)
		c, taut := logic.Normalize(c)
		if taut || len(c) == 0 {
			continue
		}
		if key := clauseKey(c); !seen[key] {
			seen[key] = true
			out = append(out, c)
		}
	}
	return out
}

func (l *Learner) subClause(alpha logic.Term, beta logic.Clause) logic.Clause {
	a := slices.Clone(alpha)
	l.rng.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
	a = a[:l.rng.IntN(len(a)+1)]
	b := slices.Clone(beta)
	l.rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	b = b[:1+l.rng.IntN(len(b))]
	c := make(logic.Clause, 0, len(a)+len(b))
	for _, x := range a {
		c = append(c, x.Not())
	}
	return append(c, b...)
}

func clauseKey(c logic.Clause) string {
	b := make([]byte, 0, 4*len(c))
	for _, l := range c {
		b = append(b, byte(l), byte(l>>8), byte(l>>16), byte(l>>24))
	}
	return string(b)
}

// simplify removes drowned levels and simplifies by unit propagation; both
// keep every answer (Θ, α) ⊢poss β, so the score does not change.
func (l *Learner) simplify(m *Model) *Model {
	t := m.Theory(l.vocab).RemoveDrowned().PropagateUnits().RemoveDrowned()
	s, err := FromTheory(t)
	if err != nil {
		return m
	}
	return s
}

// locate finds clause c in m.
func locate(m *Model, c logic.Clause) (j, i int, ok bool) {
	for j, lv := range m.Levels {
		for i, d := range lv {
			if slices.Equal(c, d) {
				return j, i, true
			}
		}
	}
	return 0, 0, false
}

// clauses lists the learned clauses, lowest level first.
func clauses(m *Model) []logic.Clause {
	var cs []logic.Clause
	for _, lv := range m.Levels {
		cs = append(cs, lv...)
	}
	return cs
}

// prune deletes, lowest level first, every clause whose removal does not
// lower the training score.
func prune(ctx context.Context, e *engine) {
	for _, c := range clauses(e.model) {
		if ctx.Err() != nil {
			break
		}
		j, i, ok := locate(e.model, c)
		if !ok {
			continue
		}
		if e.scoreRemoval(j, i) >= 0 {
			e.commitRemove(j, i)
		} else {
			e.recompile()
		}
	}
	e.recompile()
}

// reinsert moves every clause to the position where it scores best, on ties
// keeping fewer levels and then its current place.
func reinsert(ctx context.Context, e *engine) {
	for _, c := range clauses(e.model) {
		if ctx.Err() != nil {
			return
		}
		j, i, ok := locate(e.model, c)
		if !ok {
			continue
		}
		orig := e.model
		snap := e.save()
		without := orig.Remove(j, i)
		home := 2*j + 1 // where c sits now, as a position of without
		if len(without.Levels) < len(orig.Levels) {
			home = 2 * j
		}
		e.commitRemove(j, i)
		from := minPosition(without, c)
		prof := e.scoreCandidates(ctx, []logic.Clause{c})
		if ctx.Err() != nil || from < 0 {
			e.restore(orig, snap)
			return
		}
		base := e.score()
		var best choice
		for p := from; p < len(prof[0]); p++ {
			ch := choice{clause: c, pos: p, score: base + prof[0][p], levels: without.LevelsAfter(p), ok: true}
			tie := best.ok && ch.score == best.score && ch.levels == best.levels
			if ch.better(best) || tie && p == home {
				best = ch
			}
		}
		if !best.ok || best.pos == home {
			e.restore(orig, snap)
			continue
		}
		e.commitInsert(c, best.pos)
	}
}

// Final returns the best model with implied rules removed (§4.3, last
// step); this keeps every answer.
func (l *Learner) Final() *Model {
	t := l.e.model.Theory(l.vocab).RemoveImplied()
	m, err := FromTheory(t)
	if err != nil {
		return l.Model()
	}
	m.Hard = l.e.model.Hard
	return m
}
