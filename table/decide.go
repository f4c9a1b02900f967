package table

import (
	"context"
	"runtime"
	"slices"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// decideRows returns, for each of rows, the index in Classes of the one
// class the theory entails from the row's literals under sem, or −1 when it
// entails none or several, deciding them as the learner decides its
// examples (learn.Covers) instead of a query per row and class: a row's
// literals fix every atom but the class, so each row is a few worlds to
// evaluate. ok is false, with nothing decided, when a formula of th is not
// one clause (a rule α → β is one), as the learner's hypotheses are; the
// caller then asks the reasoner. A row whose literals contradict the hard
// rules entails every class for the reasoner and none for the learner:
// either way it has no one class.
func decideRows(ctx context.Context, th *possibilistic.Theory, b *Binding, rows []int, sem possibilistic.Semantics) (classes []int, ok bool, err error) {
	h, ok := hypothesisOf(th)
	if !ok {
		return nil, false, nil
	}
	atoms := b.e.ClassAtoms()
	betas := make([]logic.Clause, len(atoms))
	for c, a := range atoms {
		betas[c] = logic.Clause{logic.Pos(a)}
	}
	// One query per distinct situation and class, in the order of the
	// situations' first rows.
	ex := &learn.Examples{}
	at := make([]int32, len(rows)) // per row: its situation
	index := map[uint64][]int32{}  // hash of a situation -> its situations
	var sits []logic.Term
	var buf logic.Term
	for i, r := range rows {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		buf = b.situation(r, buf[:0])
		k := buf.Hash()
		s := int32(-1)
		for _, x := range index[k] {
			if slices.Equal(sits[x], buf) {
				s = x
				break
			}
		}
		if s < 0 {
			s = int32(len(sits))
			alpha := slices.Clone(buf)
			sits = append(sits, alpha)
			index[k] = append(index[k], s)
			for _, beta := range betas {
				ex.List = append(ex.List, learn.Example{Alpha: alpha, Beta: beta, Positive: true, Count: 1})
			}
		}
		at[i] = s
	}
	covered := learn.Covers(h, ex, runtime.GOMAXPROCS(0), sem)
	classes = make([]int, len(rows))
	for i := range rows {
		classes[i] = -1
		for c := range atoms {
			if covered[int(at[i])*len(atoms)+c] {
				if classes[i] >= 0 {
					classes[i] = -1
					break
				}
				classes[i] = c
			}
		}
	}
	return classes, true, ctx.Err()
}

// hypothesisOf returns th as a hypothesis of the learner, when every
// formula of it is one clause or a rule α → β (α a conjunction, β a
// disjunction of literals); a tautology is left out, as it holds in every
// world.
func hypothesisOf(th *possibilistic.Theory) (*learn.Hypothesis, bool) {
	h := &learn.Hypothesis{}
	for _, l := range slices.Backward(th.Levels) { // the hypothesis's levels are lowest first
		var cs []logic.Clause
		for _, f := range l.Formulas {
			c, ok, taut := clauseOf(f)
			if !ok {
				return nil, false
			}
			if !taut {
				cs = append(cs, c)
			}
		}
		if l.Weight >= 1 {
			h.Hard = append(h.Hard, cs...)
		} else if len(cs) > 0 {
			h.Levels = append(h.Levels, cs)
		}
	}
	return h, true
}

// clauseOf returns the clause a formula is, if it is one clause or a rule
// α → β; taut when it is a tautology.
func clauseOf(f *logic.Formula) (c logic.Clause, ok, taut bool) {
	switch {
	case f.Op == logic.OpTrue:
		return nil, true, true
	case f.Op == logic.OpImplies:
		a, okA := f.Args[0].AsTerm()
		b, okB := f.Args[1].AsClause()
		if !okA || !okB {
			return nil, false, false
		}
		c = make(logic.Clause, 0, len(a)+len(b))
		for _, l := range a {
			c = append(c, l.Not())
		}
		c, taut = logic.Normalize(append(c, b...))
		return c, true, taut
	}
	c, ok = f.AsClause()
	return c, ok, false
}
