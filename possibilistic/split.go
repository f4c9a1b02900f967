package possibilistic

import "github.com/strata-logic/strata/logic"

// form is a compiled formula of a level.
type form struct {
	f      *logic.Formula
	clause logic.Clause // in vocabulary atoms; nil when f is not a clause
	sel    logic.Lit    // f_i once split, s_j before
	dup    bool         // a repeat of an earlier formula of the level
	orig   int          // the index of its first occurrence in the level
}

// holds reports whether the formula holds in a world over the vocabulary.
func (fm *form) holds(w []bool) bool {
	if fm.clause != nil {
		return fm.clause.Holds(w)
	}
	return fm.f.Eval(w)
}

// splitLevel gives every distinct formula of level j, when it has several,
// its own selector f_i, on a copy of its clauses guarded by ¬f_i, for the
// queries that keep part of a level (lex, explanations). The copies are
// added on the first such query of the level only: a selector per formula
// in the level clauses themselves would make every poss query decide them,
// about twice as slow. A level of one formula uses s_j. Assuming s_j sets
// every f_i of the level, and assuming the level's off literal clears them,
// so that a level taken whole or left out costs the solver no decisions.
func (r *Reasoner) splitLevel(j int) {
	if r.hasOff[j] || r.distinct[j] < 2 {
		return
	}
	r.off[j], r.hasOff[j] = logic.Pos(r.s.NewVar()), true
	fs := r.forms[j]
	for i := range fs {
		fm := &fs[i]
		if fm.dup {
			fm.sel = fs[fm.orig].sel
			continue
		}
		fm.sel = logic.Pos(r.s.NewVar())
		r.guard(fm.f, fm.sel)
		r.s.AddClause(r.sel[j].Not(), fm.sel)
		r.s.AddClause(r.off[j].Not(), fm.sel.Not())
	}
}

// hashFormula returns a hash of f's structure: equal formulas (Equal)
// hash alike, so that finding a formula's earlier occurrences in a level
// takes a map look-up instead of a scan of the level, which made compiling
// a level of n formulas cost n² comparisons.
func hashFormula(f *logic.Formula) uint64 {
	const prime = 1099511628211 // FNV-1a's
	h := uint64(14695981039346656037)
	mix := func(x uint64) { h = (h ^ x) * prime }
	var walk func(g *logic.Formula)
	walk = func(g *logic.Formula) {
		mix(uint64(g.Op))
		mix(uint64(uint32(g.Atom)))
		mix(uint64(g.K))
		mix(uint64(len(g.Args)))
		for _, a := range g.Args {
			walk(a)
		}
	}
	walk(f)
	return h
}
