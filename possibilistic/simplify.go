package possibilistic

import (
	"container/heap"
	"context"
	"slices"

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
	inc := t.inconsistency()
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

// entry is a formula of a theory being simplified, with the weight of its
// level.
type entry struct {
	weight float64
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

// entries lists the theory's formulas level by level, lowest level first,
// each with its clause when it is one.
func (t *Theory) entries() []*entry {
	var es []*entry
	for _, l := range slices.Backward(t.Levels) {
		for _, f := range l.Formulas {
			e := &entry{weight: l.Weight, f: f}
			if c, ok := f.AsClause(); ok {
				e.clause = c
			}
			es = append(es, e)
		}
	}
	return es
}

// propagateUnits propagates every unit, or only the units of weight 1, and
// shortens clauses or only removes the subsumed ones.
func (t *Theory) propagateUnits(certainOnly, shorten bool) *Theory {
	es := t.entries()
	unit := func(u *entry) bool {
		return u.clause != nil && len(u.clause) <= 1 && (!certainOnly || u.weight == 1)
	}
	propagate(es, unit, shorten)
	return rebuild(t, es)
}

// propagate applies the entries of es that unit accepts (units and empty
// clauses) until none applies, in the order of passes over es in which each
// unit, as it is then, is applied to every entry at its level or below: the
// order that decides which of two clashing units survives. A unit subsumes
// the clauses that contain its literal and, when shorten is set, removes
// its negation from the others. Instead of the passes it keeps a queue of
// the entries that are units or empty, keyed by the pass and position at
// which a pass would reach them, and finds the entries a unit touches
// through the occurrences of its literal, so that it takes time near-linear
// in the theory rather than units × entries.
func propagate(es []*entry, unit func(*entry) bool, shorten bool) {
	occ := map[logic.Lit][]int{}
	q := &unitQueue{}
	queued := make([]int64, len(es)) // the key each entry is queued at, -1 none
	push := func(i int, pass int64) {
		if k := pass*int64(len(es)) + int64(i); queued[i] != k {
			queued[i] = k
			heap.Push(q, k)
		}
	}
	for i, e := range es {
		queued[i] = -1
		for _, l := range e.clause {
			occ[l] = append(occ[l], i)
		}
		if unit(e) {
			push(i, 0)
		}
	}
	for q.Len() > 0 {
		k := heap.Pop(q).(int64)
		pass, i := k/int64(len(es)), int(k%int64(len(es)))
		u := es[i]
		if u.gone || !unit(u) {
			continue
		}
		// An entry changed here is reached later in this pass when it comes
		// after u, else in the next one.
		next := func(j int) int64 {
			if j > i {
				return pass
			}
			return pass + 1
		}
		if len(u.clause) == 0 {
			for j, e := range es {
				if j != i && !e.gone && e.weight <= u.weight {
					e.gone = true
				}
			}
			continue
		}
		l := u.clause[0]
		for _, j := range occ[l] {
			if e := es[j]; j != i && !e.gone && e.weight <= u.weight && e.clause.Contains(l) {
				e.gone = true
			}
		}
		if !shorten {
			continue
		}
		for _, j := range occ[l.Not()] {
			if e := es[j]; j != i && !e.gone && e.weight <= u.weight && e.clause.Contains(l.Not()) {
				e.clause = e.clause.Without(l.Not())
				e.f = logic.ClauseF(e.clause)
				if unit(e) {
					push(j, next(j))
				}
			}
		}
	}
}

// unitQueue is a min-heap of queue keys pass·n + position.
type unitQueue []int64

func (q unitQueue) Len() int           { return len(q) }
func (q unitQueue) Less(i, j int) bool { return q[i] < q[j] }
func (q unitQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *unitQueue) Push(x any)        { *q = append(*q, x.(int64)) }
func (q *unitQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

func rebuild(t *Theory, es []*entry) *Theory {
	u := &Theory{Vocab: t.Vocab}
	for _, e := range es {
		if !e.gone {
			u.Add(e.f, e.weight)
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
	return t.removeImplied(func(e, o *entry) bool { return o.weight >= e.weight })
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
	for _, l := range slices.Backward(t.Levels) {
		for _, f := range l.Formulas {
			e := &entry{weight: l.Weight, f: f}
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
		// A context never done: no error.
		if ok, _ := s.Solve(context.Background(), append(assume, x)...); !ok {
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

// inconsistency returns inc(Θ), the lowest λ such that the strict cut Θ_λ̄
// is consistent (0 when Θ is consistent).
func (t *Theory) inconsistency() float64 {
	r, err := NewReasoner(context.Background(), t)
	if err != nil {
		panic("possibilistic: simplify: " + err.Error())
	}
	inc, _ := r.Inconsistency(context.Background(), logic.True())
	return inc
}
