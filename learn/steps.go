package learn

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

// sample draws the candidate clauses of one iteration (§4.3): defaults
// sampled from the misclassified examples (an uncovered positive α |~ β as
// it is, a covered negative α |~ β as α |~ ¬l for a random literal l of β),
// each turned into a sub-clause ¬α' ∨ β' with α' a random subset of α (of
// uniform random size) and β' a random non-empty subset of β. drawn holds
// the α each candidate was drawn from. The first Settings.Grow of the
// sampled defaults also give a candidate grown by information gain (grow).
func (l *Learner) sample() (cands []logic.Clause, drawn []logic.Term) {
	pool := l.pool[:0]
	defer func() { l.pool = pool[:0] }()
	// The misclassified examples, in the examples' order, as drawn before.
	eachWrong(l.c, func(x int) {
		d, covered := l.e.data(x), l.c.covers(x)
		switch {
		case d.sign > 0 && !covered:
			pool = append(pool, def{d.alpha, d.beta})
		case d.sign < 0 && covered && len(d.beta) > 0:
			lit := d.beta[l.rng.IntN(len(d.beta))]
			pool = append(pool, def{d.alpha, logic.Clause{lit.Not()}})
		}
	})
	k := min(l.opts.Candidates, len(pool))
	for i := range k { // partial Fisher–Yates: the first k are the sample
		j := i + l.rng.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	seen := map[string]bool{}
	for _, d := range pool[:k] {
		c := l.subClause(d.alpha, d.beta)
		c, taut := logic.Normalize(c)
		if taut || len(c) == 0 {
			continue
		}
		if key := key(nil, c, true); !seen[key] {
			seen[key] = true
			cands, drawn = append(cands, c), append(drawn, d.alpha)
		}
	}
	for _, d := range pool[:min(l.opts.Grow, k)] {
		if len(d.beta) != 1 {
			continue
		}
		if c, taut := logic.Normalize(l.grow(d.alpha, d.beta[0])); !taut {
			if key := key(nil, c, true); !seen[key] {
				seen[key] = true
				cands, drawn = append(cands, c), append(drawn, d.alpha)
			}
		}
	}
	return cands, drawn
}

// def is a default sampled from a misclassified example.
type def struct {
	alpha logic.Term
	beta  logic.Clause
}

// wrongLister is an engine that lists its misclassified examples without
// a look at the others.
type wrongLister interface {
	eachWrong(fn func(x int))
}

// eachWrong calls fn on every example of e, as e numbers it, that e's
// hypothesis misclassifies (a positive it does not cover, a negative it
// covers), in the order of the examples e was built from.
func eachWrong(e coverage, fn func(x int)) {
	if w, ok := e.(wrongLister); ok {
		w.eachWrong(fn)
		return
	}
	x := e.examples()
	for _, i := range x.index {
		if e.covers(int(i)) != (x.data(int(i)).sign > 0) {
			fn(int(i))
		}
	}
}

func (l *Learner) subClause(alpha logic.Term, beta logic.Clause) logic.Clause {
	a := slices.Clone(alpha)
	l.rng.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
	a = a[:l.rng.IntN(len(a)+1)]
	b := slices.Clone(beta)
	l.rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	if len(b) > 0 { // α |~ false has no literal to keep
		b = b[:1+l.rng.IntN(len(b))]
	}
	c := make(logic.Clause, 0, len(a)+len(b))
	for _, x := range a {
		c = append(c, x.Not())
	}
	return append(c, b...)
}

// simplify removes drowned levels and simplifies by unit propagation; both
// keep every answer (Θ, α) ⊢poss β, so the score does not change. Neither
// keeps the answers of linear or lex, whose hypotheses it returns as they are.
func (l *Learner) simplify(m *Hypothesis) *Hypothesis {
	if l.opts.Semantics != possibilistic.Poss {
		return m
	}
	t := m.Theory(l.vocab).RemoveDrowned().PropagateUnits().RemoveDrowned()
	s, err := FromTheory(t)
	if err != nil {
		return m
	}
	return s
}

// locate finds clause c in m.
func locate(m *Hypothesis, c logic.Clause) (j, i int, ok bool) {
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
func clauses(m *Hypothesis) []logic.Clause {
	var cs []logic.Clause
	for _, lv := range m.Levels {
		cs = append(cs, lv...)
	}
	return cs
}

// prune deletes, lowest level first, every clause whose removal does not
// lower the training score.
func prune(ctx context.Context, e coverage) {
	for _, c := range clauses(e.hypothesis()) {
		if ctx.Err() != nil {
			break
		}
		j, i, ok := locate(e.hypothesis(), c)
		if !ok {
			continue
		}
		if e.removalHarmless(j, i) {
			e.commitRemove(j, i)
		} else {
			e.recompile()
		}
	}
	e.recompile()
}

// reinsert moves every clause to the position where it scores best, on ties
// keeping fewer levels and then its current place.
func reinsert(ctx context.Context, e coverage) {
	for _, c := range clauses(e.hypothesis()) {
		if ctx.Err() != nil {
			return
		}
		orig := e.hypothesis()
		j, i, ok := locate(orig, c)
		if !ok {
			continue
		}
		without := orig.Remove(j, i)
		from := e.minPosition(without, c)
		if from < 0 { // a hard rule subsumes c: no position changes anything
			continue
		}
		// Staying is always a choice, even where c is implied at home (a
		// clause of its level subsumes it, so home < from): a move must
		// beat the current hypothesis, never just the other positions.
		stay := choice{clause: c, pos: home(orig, j), score: e.score(), levels: len(orig.Levels), ok: true}
		if mv, ok := e.(mover); ok {
			base, prof := mv.scoreMove(j, i)
			if ctx.Err() != nil {
				return
			}
			if best := bestMove(stay, without, from, base, prof); best.pos != stay.pos {
				e.commitRemove(j, i)
				e.commitInsert(c, best.pos)
			}
			continue
		}
		snap := e.save()
		e.commitRemove(j, i)
		base := e.score()
		// A move must at least tie staying somewhere else: c is scored only
		// until no other position can (its profile is then nil).
		prof := e.scoreAbove(ctx, []logic.Clause{c}, []int{from}, stay.score-base, stay.pos)
		if ctx.Err() != nil {
			e.restore(orig, snap)
			return
		}
		if prof[0] == nil {
			e.restore(orig, snap)
			continue
		}
		if best := bestMove(stay, without, from, base, prof[0]); best.pos == stay.pos {
			e.restore(orig, snap)
			continue
		}
		best := bestMove(stay, without, from, base, prof[0])
		e.forget()
		e.commitInsert(c, best.pos)
	}
}

// mover is an engine that answers re-insertion's question, the score of
// the hypothesis without a clause and the clause's profile there, without
// committing the removal.
type mover interface {
	scoreMove(j, i int) (base int64, prof []int64)
}

// bestMove returns the best place for the clause of stay in the hypothesis
// without it, whose score is base and where the clause's profile is prof,
// from position from on: stay itself unless a place beats it.
func bestMove(stay choice, without *Hypothesis, from int, base int64, prof []int64) choice {
	best := stay
	for p := from; p < len(prof); p++ {
		if ch := (choice{clause: stay.clause, pos: p, score: base + prof[p], levels: without.LevelsAfter(p), ok: true}); ch.better(best) {
			best = ch
		}
	}
	return best
}

// home returns where the j-th level's clause c sits in m, as a position of
// m without c: in its level if the level keeps other clauses, else as the
// level it alone makes up.
func home(m *Hypothesis, j int) int {
	if len(m.Levels[j]) > 1 {
		return 2*j + 1
	}
	return 2 * j
}

// Final returns the best hypothesis with implied rules removed (§4.3, last
// step); this keeps every answer of poss. Under linear and lex a rule
// implied by others may still count (lex counts violations; linear may skip
// the level of the rules that imply it), so Final is then the best hypothesis.
func (l *Learner) Final() *Hypothesis {
	if l.opts.Semantics != possibilistic.Poss {
		return l.Hypothesis()
	}
	return removeImplied(l.c.hypothesis(), l.e.n)
}

// removeImplied drops, lowest level first, every learned clause that the
// other clauses of its level and above, with the hard rules, entail: the
// possibility distribution stays the same. It is RemoveImplied of the
// hypothesis's theory restricted to the learned levels: the hard rules come last
// there, so that examining them (thousands, for a hard rule put in CNF) is
// wasted work.
func removeImplied(m *Hypothesis, nAtoms int) *Hypothesis {
	s := sat.New()
	for range nAtoms {
		s.NewVar()
	}
	for _, c := range m.Hard {
		s.AddClause(c...)
	}
	sel := make([][]logic.Lit, len(m.Levels))
	for j, lv := range m.Levels {
		for _, c := range lv {
			a := logic.Pos(s.NewVar())
			sel[j] = append(sel[j], a)
			s.AddClause(append(slices.Clone(c), a.Not())...)
		}
	}
	out := &Hypothesis{Hard: m.Hard}
	gone := make([][]bool, len(m.Levels))
	for j, lv := range m.Levels {
		gone[j] = make([]bool, len(lv))
	}
	for j, lv := range m.Levels {
		var kept []logic.Clause
		for i, c := range lv {
			var assume []logic.Lit
			for k := j; k < len(m.Levels); k++ {
				for x, a := range sel[k] {
					if !(k == j && x == i) && !gone[k][x] {
						assume = append(assume, a)
					}
				}
			}
			if ok, _ := s.Solve(context.Background(), append(assume, c.Negate()...)...); !ok {
				gone[j][i] = true
				continue
			}
			kept = append(kept, c)
		}
		if len(kept) > 0 {
			out.Levels = append(out.Levels, kept)
		}
	}
	return out
}
