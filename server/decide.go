package server

import (
	"fmt"
	"net/http"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// supported reports whether queries on a theory can be decided under sem.
func supported(sem possibilistic.Semantics) error {
	if sem != possibilistic.Poss {
		return &apiError{Status: http.StatusNotImplemented, Field: "semantics",
			Message: fmt.Sprintf("semantics %s is not available for theories in this build (poss is)", sem)}
	}
	return nil
}

// supportedGiven reports whether plausible conclusions and most plausible
// worlds can be computed under sem.
func supportedGiven(sem possibilistic.Semantics) error { return supported(sem) }

// decideTheory answers (Θ, α) ⊢ β under sem with its explanation: the
// deciding level, the levels drowned by α, and the formulas that with α
// entail β (under poss, those of the levels from the deciding level up).
func (e *entry) decideTheory(w *worker, sem possibilistic.Semantics, query string, rule logic.Rule, explain bool) *answerView {
	vd := w.poss.Decide(rule.Antecedent, rule.Consequent)
	th := e.theory
	a := &answerView{Query: query, Answer: yesNo(vd.Entailed), Entailed: vd.Entailed, Semantics: sem.String(),
		DecidingWeight: vd.Necessity, Inconsistency: vd.Inconsistency}
	if vd.Entailed {
		if i := levelOf(th, vd.Necessity); i >= 0 {
			l := viewLevel(th, i)
			a.DecidingLevel = &l
		}
	}
	if !explain {
		return a
	}
	x := &explanation{Text: verdictText(w.vocab, rule, vd), Entailing: []formulaRef{}, Drowned: []int{}, SetAside: []formulaRef{}}
	for i := len(th.Levels) - 1; i >= 0; i-- {
		l := th.Levels[i]
		switch {
		case l.Weight <= vd.Inconsistency:
			x.Drowned = append(x.Drowned, viewLevel(th, i))
		case vd.Entailed && l.Weight >= vd.Necessity:
			for j, f := range l.Formulas {
				x.Entailing = append(x.Entailing, formulaRef{Level: viewLevel(th, i), Index: j, Formula: f.String(w.vocab)})
			}
		}
	}
	a.Explanation = x
	return a
}
