package server

import (
	"context"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// decideTheory answers (Θ, α) ⊢ β under sem. With explain it adds what
// possibilistic.Reasoner.Explain says: a minimal set of formulas that with α
// entail β, the levels (and, under lex, the formulas) the evidence set
// aside, or a preferred world of α that falsifies β.
func (e *entry) decideTheory(ctx context.Context, w *worker, sem possibilistic.Semantics, query string, rule logic.Rule, explain bool) (*answerView, error) {
	var ex possibilistic.Explanation
	var err error
	if explain {
		ex, err = w.poss.ExplainContext(ctx, sem, rule.Antecedent, rule.Consequent)
	} else {
		ex.Verdict, err = w.poss.DecideUnderContext(ctx, sem, rule.Antecedent, rule.Consequent)
	}
	if err != nil {
		return nil, err
	}
	vd := ex.Verdict
	th := e.theory
	// The answer and its explanation are allocated together: two objects
	// fewer per query for the collector, whose cycles lengthen the tail
	// latency under many concurrent clients.
	a, ax := new(answerView), (*answerExplained)(nil)
	if explain {
		ax = new(answerExplained)
		a = &ax.answer
	}
	*a = answerView{Query: query, Answer: yesNo(vd.Entailed), Entailed: vd.Entailed, Semantics: sem.String(),
		DecidingWeight: vd.Necessity, Inconsistency: vd.Inconsistency}
	if vd.Entailed && vd.Level >= 0 && vd.Level < len(th.Levels) {
		a.level = viewLevel(th, vd.Level)
		a.DecidingLevel = &a.level
	}
	if !explain {
		return a, nil
	}
	t := e.texts()
	given := rule.Antecedent.Op != logic.OpTrue
	text := explainText(t, rule.Antecedent.String(w.vocab), rule.Consequent.String(w.vocab), given, ex)
	x := &ax.explanation
	*x = explanation{Text: text, Entailing: []formulaRef{}, Drowned: []int{}, SetAside: []formulaRef{}}
	if sem != possibilistic.Lex && len(vd.SetAside) > 0 {
		x.Drowned = make([]int, 0, len(vd.SetAside))
	}
	if len(ex.Support) > 0 {
		x.Entailing = make([]formulaRef, 0, len(ex.Support))
	}
	for _, j := range vd.SetAside {
		if sem == possibilistic.Lex {
			x.PartlySetAside = append(x.PartlySetAside, viewLevel(th, j))
		} else {
			x.Drowned = append(x.Drowned, viewLevel(th, j))
		}
	}
	for _, f := range ex.Support {
		x.Entailing = append(x.Entailing, formulaRef{Level: viewLevel(th, f.Level), Index: f.Index, Formula: t.formulas[f.Level][f.Index]})
	}
	for _, f := range vd.Formulas {
		x.SetAside = append(x.SetAside, formulaRef{Level: viewLevel(th, f.Level), Index: f.Index, Formula: t.formulas[f.Level][f.Index]})
	}
	if vd.Violations != nil {
		x.Violations = make([]int, len(vd.Violations))
		for j, n := range vd.Violations {
			x.Violations[viewLevel(th, j)] = n
		}
	}
	if len(ex.Counter) > 0 {
		x.Counter = make([]string, len(ex.Counter))
		for i, t := range ex.Counter {
			x.Counter[i] = w.litString(logic.MkLit(logic.Atom(i), !t))
		}
	}
	a.Explanation = x
	return a, nil
}

// explainText says why in words: under poss those of strata query, then
// what the evidence set aside and which formulas entail β.
func explainText(t *texts, alpha, beta string, given bool, ex possibilistic.Explanation) string {
	vd := ex.Verdict
	var b strings.Builder
	b.Grow(128 + len(alpha) + len(beta) + 64*len(ex.Support))
	if vd.Semantics == possibilistic.Poss {
		verdictText(&b, t, alpha, beta, given, vd)
	} else {
		switch {
		case vd.Entailed:
			n := t.weight(vd.Necessity)
			b.WriteString("level " + n + ": " + alpha + ", with the formulas of weight >= " + n +
				" that " + vd.Semantics.String() + " keeps, entails " + beta)
		case len(vd.SetAside) == len(t.weights) && vd.Inconsistency == 1:
			b.WriteString(alpha + " contradicts the formulas of weight 1, so only tautologies follow")
		default:
			b.WriteString(alpha + ", with the formulas " + vd.Semantics.String() + " keeps, does not entail " + beta)
		}
	}
	if len(vd.SetAside) > 0 {
		verb := "drowned"
		switch vd.Semantics {
		case possibilistic.Linear:
			verb = "skipped"
		case possibilistic.Lex:
			verb = "partly set aside"
		}
		b.WriteString("\nlevels " + verb + " by the evidence: ")
		for i, j := range vd.SetAside {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(t.weights[j])
		}
	}
	if len(ex.Support) > 0 {
		b.WriteString("\nformulas that with α entail β: ")
		for i, f := range ex.Support {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(t.formulas[f.Level][f.Index])
		}
	}
	return b.String()
}

// verdictText says why, in the words of strata query.
func verdictText(b *strings.Builder, t *texts, alpha, beta string, given bool, vd possibilistic.Verdict) {
	inc := t.weight(vd.Inconsistency)
	subject := func(formulas string) string {
		if !given {
			return "the formulas " + formulas
		}
		return alpha + ", with the formulas " + formulas + ","
	}
	switch {
	case vd.Entailed:
		n := t.weight(vd.Necessity)
		verb := " entail "
		if given {
			verb = " entails "
		}
		b.WriteString("level " + n + ": " + subject("of weight >= "+n) + verb + beta + " (inconsistency level " + inc + ")")
	case vd.Inconsistency == 1:
		b.WriteString(alpha + " contradicts the formulas of weight 1, so only tautologies follow (inconsistency level 1)")
	default:
		verb := " do not entail "
		if given {
			verb = " does not entail "
		}
		b.WriteString(subject("above the inconsistency level "+inc) + verb + beta)
	}
}

// answerExplained is an explained answer, allocated at once.
type answerExplained struct {
	answer      answerView
	explanation explanation
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

// texts holds a theory's formulas and level weights as text, indexed as
// its levels (lowest first), so that explanations, which name formulas and
// weights on every query, do not write them anew.
type texts struct {
	formulas [][]string
	weights  []string
	values   []float64
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
			t.weights = append(t.weights, possibilistic.FormatWeight(l.Weight))
			t.values = append(t.values, l.Weight)
		}
		e.text = t
	})
	return e.text
}

// weight returns the text of weight w.
func (t *texts) weight(w float64) string {
	for j, v := range t.values {
		if v == w {
			return t.weights[j]
		}
	}
	return possibilistic.FormatWeight(w)
}
