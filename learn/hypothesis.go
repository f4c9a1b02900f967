package learn

import (
	"context"
	"fmt"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

// Hypothesis is a hypothesis: a stratification of clauses, lowest level first,
// with the hard rules above every level at weight 1 (the evidence of a query
// joins them there). Positions for inserting a clause are numbered
// 0..2k for k levels: position 2j+1 is level j itself, position 2j is a new
// level just below level j (2k: a new top level under the hard rules).
type Hypothesis struct {
	Levels [][]logic.Clause
	Hard   []logic.Clause
}

// Clone returns a deep copy of the level structure (clauses are shared and
// never modified).
func (m *Hypothesis) Clone() *Hypothesis {
	c := &Hypothesis{Hard: m.Hard, Levels: make([][]logic.Clause, len(m.Levels))}
	for i, l := range m.Levels {
		c.Levels[i] = slices.Clone(l)
	}
	return c
}

// WithFallback returns m with the clause c alone at a new lowest level, or
// m itself when one of its levels holds alone c, or a unit that decides c
// in every situation (decides).
// A level below every other takes no consequence away under any
// semantics, so it changes no answer the levels above give: under Poss
// the inconsistency level it can add is its own, below every other level,
// and under Linear and Lex it only narrows the worlds the levels above
// keep. It decides a query only where they leave both answers open
// (TestWithFallbackKeepsConsequences).
func (m *Hypothesis) WithFallback(c logic.Clause) *Hypothesis {
	for _, l := range m.Levels {
		// A level that holds c beside other clauses decides nothing for
		// it: Linear sets the level aside whole, Lex weighs its clauses
		// against each other (TestWithFallbackKeepsConsequences found it).
		if len(l) == 1 && (slices.Equal(c, l[0]) || len(l[0]) == 1 && len(c) == 1 && decides(m.Hard, l[0][0], c[0])) {
			return m
		}
	}
	n := m.Clone()
	n.Levels = slices.Insert(n.Levels, 0, []logic.Clause{slices.Clone(c)})
	return n
}

// decides reports whether the hard rules entail b or its negation both
// when u holds and when it does not. A level that holds the unit u alone
// then decides b in every situation under every semantics: under Poss it
// is drowned, and a level below it with it, or u follows; under Linear it
// is kept, or set aside because the levels kept above entail not u; under
// Lex the worlds kept all satisfy u, or none can. (A binary class: u is
// one class and b the other.)
func decides(hard []logic.Clause, u, b logic.Lit) bool {
	s := sat.New()
	n := max(int(u.Atom()), int(b.Atom())) + 1
	for _, c := range hard {
		for _, l := range c {
			n = max(n, int(l.Atom())+1)
		}
	}
	for range n {
		s.NewVar()
	}
	for _, c := range hard {
		s.AddClause(slices.Clone(c)...)
	}
	ctx := context.Background()
	for _, x := range []logic.Lit{u, u.Not()} {
		yes, _ := s.Solve(ctx, x, b)
		no, _ := s.Solve(ctx, x, b.Not())
		if yes && no {
			return false
		}
	}
	return true
}

// Positions returns the number of insertion positions, 2k+1.
func (m *Hypothesis) Positions() int { return 2*len(m.Levels) + 1 }

// LevelsAfter returns the number of levels after inserting at position p.
func (m *Hypothesis) LevelsAfter(p int) int {
	if p%2 == 0 {
		return len(m.Levels) + 1
	}
	return len(m.Levels)
}

// Insert returns a copy of m with c at position p.
func (m *Hypothesis) Insert(c logic.Clause, p int) *Hypothesis {
	n := m.Clone()
	j := p / 2
	if p%2 == 1 {
		n.Levels[j] = append(n.Levels[j], c)
	} else {
		n.Levels = slices.Insert(n.Levels, j, []logic.Clause{c})
	}
	return n
}

// Remove returns a copy of m without the i-th clause of level j, dropping
// the level if it becomes empty.
func (m *Hypothesis) Remove(j, i int) *Hypothesis {
	n := m.Clone()
	n.Levels[j] = slices.Delete(n.Levels[j], i, i+1)
	if len(n.Levels[j]) == 0 {
		n.Levels = slices.Delete(n.Levels, j, j+1)
	}
	return n
}

// NumClauses returns the number of learned clauses (hard rules excluded).
func (m *Hypothesis) NumClauses() int {
	n := 0
	for _, l := range m.Levels {
		n += len(l)
	}
	return n
}

// NumLiterals returns the total length of the learned clauses.
func (m *Hypothesis) NumLiterals() int {
	n := 0
	for _, l := range m.Levels {
		for _, c := range l {
			n += len(c)
		}
	}
	return n
}

// Theory returns the hypothesis as a possibilistic theory over v.
func (m *Hypothesis) Theory(v *logic.Vocabulary) *possibilistic.Theory {
	t := possibilistic.New(v)
	ws := possibilistic.LevelWeights(len(m.Levels))
	for j, l := range m.Levels {
		for _, c := range l {
			t.AddClause(c, ws[j])
		}
	}
	for _, c := range m.Hard {
		t.AddClause(c, 1)
	}
	return t
}

// FromTheory reads a hypothesis from a theory whose formulas are clauses: the
// formulas of weight 1 are the hard rules, the other levels are learned.
func FromTheory(t *possibilistic.Theory) (*Hypothesis, error) {
	m := &Hypothesis{}
	for _, l := range slices.Backward(t.Levels) { // the hypothesis's levels are lowest first
		var cs []logic.Clause
		for _, f := range l.Formulas {
			c, ok := f.AsClause()
			if !ok {
				if f.Op == logic.OpTrue || isTautology(f) {
					continue
				}
				return nil, fmt.Errorf("formula %s is not a clause", f.String(t.Vocab))
			}
			cs = append(cs, c)
		}
		if l.Weight == 1 {
			m.Hard = append(m.Hard, cs...)
		} else if len(cs) > 0 {
			m.Levels = append(m.Levels, cs)
		}
	}
	return m, nil
}

// isTautology reports whether f holds in every world, by the solver: CNF
// without fresh atoms, distributing, can be exponential in f.
func isTautology(f *logic.Formula) bool {
	clash, _ := sat.Clash(context.Background(), []*logic.Formula{logic.Not(f)}) // a context never done: no error
	return clash != nil
}
