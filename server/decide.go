package server

import (
	"context"

	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// decideTheory answers (Θ, α) ⊢ β under sem. With explain it adds what
// possibilistic.Reasoner.Explain says, in its words (Explanation.Reason)
// and as indexes: a minimal set of formulas that with α entail β, the
// levels (and, under lex, the formulas) the evidence set aside, or a
// preferred world of α that falsifies β. The theory's levels and the view's
// are numbered alike, highest first.
func (e *entry) decideTheory(ctx context.Context, w *worker, sem possibilistic.Semantics, query string, rule logic.Rule, explain bool) (*answerView, error) {
	var ex possibilistic.Explanation
	var err error
	if explain {
		ex, err = w.poss.Explain(ctx, sem, rule.Antecedent, rule.Consequent)
	} else {
		ex.Verdict, err = w.poss.Decide(ctx, sem, rule.Antecedent, rule.Consequent)
	}
	if err != nil {
		return nil, err
	}
	// The answer and its explanation are allocated together: two objects
	// fewer per query for the collector, whose cycles lengthen the tail
	// latency under many concurrent clients.
	if !explain {
		a := new(answerView)
		a.SetVerdict(query, ex.Verdict)
		return a, nil
	}
	ax := new(answerExplained)
	ax.answer.SetVerdict(query, ex.Verdict)
	t := e.texts()
	ax.explanation.SetPossibilistic(ex, func(f possibilistic.FormulaRef) string { return t.formulas[f.Level][f.Index] }, w.litString)
	ax.answer.Explanation = &ax.explanation
	return &ax.answer, nil
}

// answerExplained is an explained answer, allocated at once.
type answerExplained struct {
	answer      answerView
	explanation jsonview.Explanation
}

// litString returns the text of l in w's vocabulary. The negative
// literals' texts are kept, since a counter-world names every atom of the
// vocabulary on each query that is not entailed.
func (w *worker) litString(l logic.Lit) string {
	if !l.IsNeg() {
		return w.vocab.Name(l.Atom())
	}
	a := int(l.Atom())
	if a < 0 || a >= w.vocab.Len() {
		return w.vocab.LitString(l) // a name not interned: not kept
	}
	if a >= len(w.negNames) {
		w.negNames = append(w.negNames, make([]string, a+1-len(w.negNames))...)
	}
	if w.negNames[a] == "" {
		w.negNames[a] = w.vocab.LitString(l)
	}
	return w.negNames[a]
}

// texts holds a theory's formulas as text, indexed as its levels, so that
// explanations, which name formulas on every query, do not write them
// anew.
type texts struct {
	formulas [][]string
}

// texts returns e's texts, made when first needed.
func (e *entry) texts() *texts {
	e.textOnce.Do(func() {
		t := &texts{formulas: make([][]string, len(e.theory.Levels))}
		for j, l := range e.theory.Levels {
			t.formulas[j] = make([]string, len(l.Formulas))
			for i, f := range l.Formulas {
				t.formulas[j][i] = f.String(e.theory.Vocab)
			}
		}
		e.text = t
	})
	return e.text
}
