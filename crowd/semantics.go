package crowd

import (
	"fmt"

	"github.com/strata-logic/strata/dataset"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// EvaluateCasesUnder is EvaluateCases with entailment under sem. Linear and
// lex are decided by the learner's coverage engine, which needs a theory of
// clauses.
func EvaluateCasesUnder(th *possibilistic.Theory, actions []string, cases []Case, sem possibilistic.Semantics) (*Confusion, error) {
	if sem == possibilistic.Poss {
		return EvaluateCases(th, actions, cases), nil
	}
	if th.Vocab == nil {
		th.Vocab = &logic.Vocabulary{}
	}
	atoms := make([]logic.Atom, len(actions))
	for i, a := range actions {
		atoms[i] = th.Vocab.Intern(a)
	}
	m, err := learn.FromTheory(th)
	if err != nil {
		return nil, fmt.Errorf("crowd: %s semantics: %w", sem, err)
	}
	ex := &learn.Examples{}
	for _, k := range cases {
		for _, a := range atoms {
			ex.List = append(ex.List, learn.Example{Alpha: k.Situation, Beta: logic.Clause{logic.Pos(a)}, Positive: true, Count: 1})
		}
	}
	covered := learn.Covers(m, ex, 0, sem)
	c := NewConfusion(actions)
	for i, k := range cases {
		pred, n := dataset.NoAction, 0
		for j := range atoms {
			if covered[i*len(atoms)+j] {
				pred, n = actions[j], n+1
			}
		}
		if n != 1 {
			pred = dataset.NoAction
		}
		c.Add(k.Target, pred)
	}
	return c, nil
}

// EvaluateDefaultsUnder is EvaluateDefaults with coverage under sem; linear
// and lex need a theory of clauses and defaults with a conjunction of
// literals before the arrow and a clause after it.
func EvaluateDefaultsUnder(th *possibilistic.Theory, pos, neg []logic.Rule, sem possibilistic.Semantics) (Binary, error) {
	if sem == possibilistic.Poss {
		return EvaluateDefaults(th, pos, neg), nil
	}
	m, err := learn.FromTheory(th)
	if err != nil {
		return Binary{}, fmt.Errorf("crowd: %s semantics: %w", sem, err)
	}
	ex := &learn.Examples{}
	for _, r := range append(append([]logic.Rule(nil), pos...), neg...) {
		alpha, beta, ok := r.Clausal()
		if !ok {
			return Binary{}, fmt.Errorf("crowd: %s semantics: default %s is not a conjunction of literals -> a clause", sem, r.String(th.Vocab))
		}
		ex.List = append(ex.List, learn.Example{Alpha: alpha, Beta: beta, Positive: true, Count: 1})
	}
	var b Binary
	for i, c := range learn.Covers(m, ex, 0, sem) {
		switch {
		case i < len(pos) && c:
			b.TruePositives++
		case i < len(pos):
			b.FalseNegatives++
		case c:
			b.FalsePositives++
		default:
			b.TrueNegatives++
		}
	}
	return b, nil
}
