package possibilistic

import (
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// The simplifications below never change any answer (Θ, α) ⊢poss β (but
// may change linear and lex answers: see SimplifyUnder). Unit
// propagation and implied-rule removal even keep the possibility
// distribution π unchanged; removing drowned levels changes π only on worlds
// that no evidence can make most plausible.

// RemoveDrowned returns t without the levels of weight at most inc(Θ). Adding
// evidence can only raise the inconsistency level, so those levels are below
// the cut of every query. A theory inconsistent at weight 1 entails nothing
// under any evidence; it becomes {(⊥, 1)}, which says just that.
func (t *Theory) RemoveDrowned() *Theory {
	inc := NewReasoner(t).Inconsistency(logic.True())
	u := &Theory{Vocab: t.Vocab}
	if inc == 1 {
		u.Add(logic.False(), 1)
		return u
	}
	for _, l := range t.Levels {
		if l.Weight > inc {
			u.Levels = append(u.Levels, Level{Weight: l.Weight, Formulas: append([]*logic.Formula(nil), l.Formulas...)})
		}
	}
	return u
}

type entry struct {
	level  int
	clause logic.Clause // nil for a non-clausal formula
	f      *logic.Formula
	gone   bool
}

// PropagateUnits simplifies the clauses of t with its unit clauses by
// possibilistic unit resolution: a unit (l, a) subsumes every clause
// (l ∨ c, b) with b ≤ a, and shortens every clause (¬l ∨ c, b) with b ≤ a to
// (c, b). An empty clause (⊥, b) subsumes everything of weight at most b.
// Both steps leave π unchanged, since any world that the removed part
// violates also violates the unit at a weight at least as high.
func (t *Theory) PropagateUnits() *Theory { return t.propagateUnits(false, true) }

// propagateUnits propagates every unit, or only the units of weight 1, and
// shortens clauses or only removes the subsumed ones.
func (t *Theory) propagateUnits(certainOnly, shorten bool) *Theory {
	var es []*entry
	for j, l := range t.Levels {
		for _, f := range l.Formulas {
			e := &entry{level: j, f: f}
			if c, ok := f.AsClause(); ok {
				e.clause = c
			}
			es = append(es, e)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, u := range es {
			if u.gone || u.clause == nil || len(u.clause) > 1 ||
				certainOnly && t.Levels[u.level].Weight != 1 {
				continue
			}
			for _, e := range es {
				if e == u || e.gone || e.level > u.level {
					continue
				}
				if len(u.clause) == 0 {
					e.gone = true
					changed = true
					continue
				}
				if e.clause == nil {
					continue
				}
				l := u.clause[0]
				switch {
				case e.clause.Contains(l):
					e.gone = true
					changed = true
				case shorten && e.clause.Contains(l.Not()):
					e.clause = e.clause.Without(l.Not())
					e.f = logic.ClauseF(e.clause)
					changed = true
				}
			}
		}
	}
	return rebuild(t, es)
}

func rebuild(t *Theory, es []*entry) *Theory {
	u := &Theory{Vocab: t.Vocab}
	for _, e := range es {
		if !e.gone {
			u.Add(e.f, t.Levels[e.level].Weight)
		}
	}
	return u
}

// RemoveImplied returns t without its implied formulas: (φ, b) goes when the
// other formulas of weight at least b entail φ, so that every world violating
// φ already violates one of them at weight b or more. Formulas are examined
// from the lowest level up, and each removal is taken into account by the
// next test.
func (t *Theory) RemoveImplied() *Theory {
	return t.removeImplied(func(e, o *entry) bool { return o.level >= e.level })
}

// removeImplied removes each formula that the other remaining formulas o
// with by(e, o) entail.
func (t *Theory) removeImplied(by func(e, o *entry) bool) *Theory {
	v := t.vocab()
	s := sat.New()
	for range v.Len() {
		s.NewVar()
	}
	var es []*entry
	var sels []logic.Lit
	for j, l := range t.Levels {
		for _, f := range l.Formulas {
			e := &entry{level: j, f: f}
			sel := logic.Pos(s.NewVar())
			for _, c := range logic.CNF(f, s.NewVar) {
				s.AddClause(append(c, sel.Not())...)
			}
			es = append(es, e)
			sels = append(sels, sel)
		}
	}
	var assume []logic.Lit
	for i, e := range es {
		assume = assume[:0]
		for k, o := range es {
			if k != i && !o.gone && by(e, o) {
				assume = append(assume, sels[k])
			}
		}
		x := logic.Pos(s.NewVar()) // activates ¬φ
		for _, c := range logic.CNF(logic.Not(e.f), s.NewVar) {
			s.AddClause(append(c, x.Not())...)
		}
		if !s.Solve(append(assume, x)...) {
			e.gone = true
			s.AddClause(sels[i].Not())
		}
		s.AddClause(x.Not())
	}
	return rebuild(t, es)
}

// Simplify removes drowned levels, propagates units, removes drowned levels
// again (propagation can derive ⊥) and removes implied formulas. Like each
// of those steps it keeps the answers of Poss only; SimplifyUnder keeps
// those of Linear or Lex.
func (t *Theory) Simplify() *Theory {
	return t.RemoveDrowned().PropagateUnits().RemoveDrowned().RemoveImplied()
}

// Inconsistency returns inc(Θ), the lowest λ such that the strict cut Θ_λ̄ is
// consistent (0 when Θ is consistent).
func (t *Theory) Inconsistency() float64 {
	return NewReasoner(t).Inconsistency(logic.True())
}
