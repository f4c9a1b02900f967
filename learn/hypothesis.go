package learn

import (
	"fmt"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
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

func isTautology(f *logic.Formula) bool {
	return len(logic.CNF(f, nil)) == 0
}
