package learn

import (
	"context"
	"fmt"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

// ContradictoryHardError reports hard rules that no world satisfies: every
// example's evidence contradicts them, so that learning would return an
// empty theory and evaluation would call every example covered. Rules is a
// minimal subset that clashes (dropping any one of them resolves it).
type ContradictoryHardError struct {
	Vocab *logic.Vocabulary
	Rules []*logic.Formula
	Index []int            // of Rules among the rules checked, from 0
	Pos   []logic.Position // where each of Rules was read; empty when unknown
}

func (e *ContradictoryHardError) Error() string {
	if len(e.Pos) == len(e.Rules) && len(e.Rules) > 0 && e.Pos[0].String() != "" {
		parts := make([]string, len(e.Rules))
		for i, f := range e.Rules {
			parts[i] = e.Pos[i].String() + ": " + f.String(e.Vocab)
		}
		if len(parts) == 1 {
			return "the hard rules are contradictory: no world satisfies " + parts[0]
		}
		return fmt.Sprintf("the hard rules are contradictory: no world satisfies these %d together (dropping any one resolves it): %s", len(parts), strings.Join(parts, "; "))
	}
	parts := make([]string, len(e.Rules))
	for i, f := range e.Rules {
		parts[i] = fmt.Sprintf("%d (%s)", e.Index[i]+1, f.String(e.Vocab))
	}
	if len(e.Rules) == 1 {
		return "the hard rules are contradictory: no world satisfies hard rule " + parts[0]
	}
	return fmt.Sprintf("the hard rules are contradictory: no world satisfies hard rules %s together (dropping any one resolves it)", strings.Join(parts, ", "))
}

// CheckHard returns a *ContradictoryHardError when no world satisfies the
// hard rules, and nil otherwise, as closure refuses contradictory
// background knowledge. the learner checks its hard clauses with it; eval
// checks the hard rules it adds to a theory.
func CheckHard(v *logic.Vocabulary, hard []*logic.Formula) error {
	return CheckHardAt(v, hard, nil)
}

// CheckHardAt is CheckHard for hard rules read at the positions pos (one
// per rule), which the error names: file, line and formula.
func CheckHardAt(v *logic.Vocabulary, hard []*logic.Formula, pos []logic.Position) error {
	clash, _ := sat.Clash(context.Background(), hard) // a context never done: no error
	if clash == nil {
		return nil
	}
	e := &ContradictoryHardError{Vocab: v}
	for _, i := range clash {
		e.Rules, e.Index = append(e.Rules, hard[i]), append(e.Index, i)
		if i < len(pos) {
			e.Pos = append(e.Pos, pos[i])
		}
	}
	return e
}

// HardClauses returns the clauses of hard rules as the learner takes them
// (Problem.Hard), checking that they are consistent (CheckHard). A rule
// whose clausal form would be large (distributing (a0 & b0) | … | (an &
// bn) gives 2^(n+1) clauses) gets auxiliary atoms naming its subformulas
// (logic.ClausesNamed), interned in v, and named reports it: the problem's
// HardRules should then be fs, so that theories state the rules as
// written. The auxiliary atoms occur only in hard clauses, which are
// satisfiable together with any evidence exactly when the rules are, so no
// answer over the other atoms changes.
func HardClauses(v *logic.Vocabulary, fs []*logic.Formula) (cs []logic.Clause, named bool, err error) {
	if err := CheckHard(v, fs); err != nil {
		return nil, false, err
	}
	cs, named = logic.ClausesNamed(v, fs, "h")
	return cs, named, nil
}

// WithHardRules returns th with its weight-1 level, the hard rules the
// learner saw as clauses (HardClauses), replaced by the hard rules as
// written, hard (th itself when hard is nil): the auxiliary atoms that
// name their subformulas are the learner's business, not the reader's.
func WithHardRules(th *possibilistic.Theory, hard []*logic.Formula) *possibilistic.Theory {
	if hard == nil {
		return th
	}
	out := possibilistic.New(th.Vocab)
	for _, l := range th.Levels {
		if l.Weight < 1 {
			for _, f := range l.Formulas {
				out.Add(f, l.Weight)
			}
		}
	}
	for _, f := range hard {
		out.Add(f, 1)
	}
	return out
}
