package crowd

import (
	"context"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// PredictUnder returns the action a such that (Θ, situation) |~ a under
// sem for exactly one of the actions (atoms[i] is actions[i]), or NoAction
// when none or several are entailed: the theory's answer to the
// multi-class task.
func PredictUnder(r *possibilistic.Reasoner, sem possibilistic.Semantics, situation logic.Term, actions []string, atoms []logic.Atom) string {
	pred := NoAction
	for i, a := range atoms {
		// Never done, the context makes no error; nor does sem, parsed.
		if ok, _ := r.EntailsClause(context.Background(), sem, situation, logic.Clause{logic.Pos(a)}); ok {
			if pred != NoAction {
				return NoAction
			}
			pred = actions[i]
		}
	}
	return pred
}

// EvaluateCasesUnder is EvaluateCases with entailment under sem.
func EvaluateCasesUnder(th *possibilistic.Theory, actions []string, cases []Case, sem possibilistic.Semantics) *Confusion {
	if th.Vocab == nil {
		th.Vocab = &logic.Vocabulary{}
	}
	atoms := make([]logic.Atom, len(actions))
	for i, a := range actions {
		atoms[i] = th.Vocab.Intern(a)
	}
	r := mustReasoner(th)
	c := NewConfusion(actions)
	for _, k := range cases {
		c.Add(k.Target, PredictUnder(r, sem, k.Situation, actions, atoms))
	}
	return c
}

// EvaluateDefaultsUnder is EvaluateDefaults with coverage under sem.
func EvaluateDefaultsUnder(th *possibilistic.Theory, pos, neg []logic.Rule, sem possibilistic.Semantics) Binary {
	r := mustReasoner(th)
	var b Binary
	for _, e := range pos {
		if ok, _ := r.Entails(context.Background(), sem, e.Antecedent, e.Consequent); ok {
			b.TruePositives++
		} else {
			b.FalseNegatives++
		}
	}
	for _, e := range neg {
		if ok, _ := r.Entails(context.Background(), sem, e.Antecedent, e.Consequent); ok {
			b.FalsePositives++
		} else {
			b.TrueNegatives++
		}
	}
	return b
}

// mustReasoner compiles th, whose levels its reader or Add built in order,
// under a context never done: neither can fail.
func mustReasoner(th *possibilistic.Theory) *possibilistic.Reasoner {
	r, err := possibilistic.NewReasoner(context.Background(), th)
	if err != nil {
		panic(err)
	}
	return r
}
