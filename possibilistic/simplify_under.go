package possibilistic

import (
	"context"
	"fmt"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// Simplify, RemoveDrowned and PropagateUnits and RemoveImplied as they stand
// keep the answers of Poss only. Under Linear and Lex a drowned level can be
// kept (Θ = {(a, 0.9), (¬a, 0.8), (b, 0.5)} entails b under both, not once
// the level of b, below inc(Θ) = 0.8, is removed), and a formula that a
// higher one subsumes or implies matters as soon as the evidence sets the
// higher one aside: {(a, 0.9), (a ∨ c, 0.5)} entails c given ¬a. What stays
// safe is what the certain formulas (weight 1) imply, since every world
// either semantics considers satisfies them.

// SimplifyUnder returns a simplification of t that keeps every answer under
// s, for every evidence and conclusion:
//
//   - Poss: Simplify.
//   - Linear and Lex: a theory whose certain formulas are inconsistent
//     becomes {(⊥, 1)}; the units of weight 1 are propagated (only they,
//     and under Lex only to remove the clauses they subsume);
//     a formula that the other certain formulas entail is removed; under
//     Linear a formula that the certain formulas and the other formulas of
//     its level entail is removed too, and so is a level inconsistent with
//     the certain formulas, which linear revision always skips; under Lex a
//     formula inconsistent with the certain formulas, which every world
//     violates, is removed, which lowers every world's count by one.
//
// The results of Linear and Lex have the same most plausible worlds, but
// explanations may name other levels (indices shift when a level goes) or
// counts.
func (t *Theory) SimplifyUnder(s Semantics) (*Theory, error) {
	switch s {
	case Poss:
		return t.Simplify(), nil
	case Linear, Lex:
	default:
		return nil, fmt.Errorf("simplify: invalid semantics %d", uint8(s))
	}
	if t.certainInconsistent() {
		u := &Theory{Vocab: t.Vocab}
		u.Add(logic.False(), 1)
		return u, nil
	}
	// Under Lex the certain units only remove the clauses they subsume,
	// which every world considered satisfies: no count changes.
	u := t.propagateUnits(true, s == Linear)
	certain := func(o *entry) bool { return o.weight == 1 }
	if s == Linear {
		u = u.removeImplied(func(e, o *entry) bool { return certain(o) || o.weight == e.weight })
	} else {
		u = u.removeImplied(func(_, o *entry) bool { return certain(o) })
	}
	return u.removeContradicted(s == Linear), nil
}

// certainInconsistent reports whether the formulas of weight 1 have no model.
func (t *Theory) certainInconsistent() bool {
	return len(t.Levels) > 0 && t.Levels[0].Weight == 1 && t.inconsistency() == 1
}

// removeContradicted removes each formula below weight 1 (whole level, for
// levels) that is inconsistent with the formulas of weight 1.
func (t *Theory) removeContradicted(levels bool) *Theory {
	s := sat.New()
	for range t.vocab().Len() {
		s.NewVar()
	}
	soft := 0 // the first level below weight 1
	if len(t.Levels) > 0 && t.Levels[0].Weight == 1 {
		for _, f := range t.Levels[0].Formulas {
			for _, c := range logic.CNF(f, s.NewVar) {
				s.AddClause(c...)
			}
		}
		soft = 1
	}
	consistent := func(fs ...*logic.Formula) bool {
		x := logic.Pos(s.NewVar())
		for _, f := range fs {
			for _, c := range logic.CNF(f, s.NewVar) {
				s.AddClause(append(c, x.Not())...)
			}
		}
		ok, _ := s.Solve(context.Background(), x) // a context never done: no error
		s.AddClause(x.Not())
		return ok
	}
	u := &Theory{Vocab: t.Vocab}
	for j, l := range t.Levels {
		if j >= soft && levels && !consistent(l.Formulas...) {
			continue
		}
		for _, f := range l.Formulas {
			if j >= soft && !levels && !consistent(f) {
				continue
			}
			u.Add(f, l.Weight)
		}
	}
	return u
}
