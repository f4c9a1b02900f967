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
	a := &answerView{Query: query, Answer: yesNo(vd.Entailed), Entailed: vd.Entailed, Semantics: sem.String(),
		DecidingWeight: vd.Necessity, Inconsistency: vd.Inconsistency}
	if vd.Entailed && vd.Level >= 0 && vd.Level < len(th.Levels) {
		l := viewLevel(th, vd.Level)
		a.DecidingLevel = &l
	}
	if !explain {
		return a, nil
	}
	x := &explanation{Text: explainText(w.vocab, th, rule, ex), Entailing: []formulaRef{}, Drowned: []int{}, SetAside: []formulaRef{}}
	for _, j := range vd.SetAside {
		if sem == possibilistic.Lex {
			x.PartlySetAside = append(x.PartlySetAside, viewLevel(th, j))
		} else {
			x.Drowned = append(x.Drowned, viewLevel(th, j))
		}
	}
	for _, f := range ex.Support {
		x.Entailing = append(x.Entailing, formulaRef{Level: viewLevel(th, f.Level), Index: f.Index, Formula: f.Formula.String(w.vocab)})
	}
	for _, f := range vd.Formulas {
		x.SetAside = append(x.SetAside, formulaRef{Level: viewLevel(th, f.Level), Index: f.Index, Formula: f.Formula.String(w.vocab)})
	}
	if vd.Violations != nil {
		x.Violations = make([]int, len(vd.Violations))
		for j, n := range vd.Violations {
			x.Violations[viewLevel(th, j)] = n
		}
	}
	for i, t := range ex.Counter {
		x.Counter = append(x.Counter, w.vocab.LitString(logic.MkLit(logic.Atom(i), !t)))
	}
	a.Explanation = x
	return a, nil
}

// explainText says why in words: under poss those of strata query, then
// what the evidence set aside and which formulas entail β.
func explainText(v *logic.Vocabulary, th *possibilistic.Theory, rule logic.Rule, ex possibilistic.Explanation) string {
	vd := ex.Verdict
	var b strings.Builder
	if vd.Semantics == possibilistic.Poss {
		b.WriteString(verdictText(v, rule, vd))
	} else {
		beta := rule.Consequent.String(v)
		switch {
		case vd.Entailed:
			n := possibilistic.FormatWeight(vd.Necessity)
			b.WriteString("level " + n + ": " + rule.Antecedent.String(v) + ", with the formulas of weight >= " + n +
				" that " + vd.Semantics.String() + " keeps, entails " + beta)
		case len(vd.SetAside) == len(th.Levels) && vd.Inconsistency == 1:
			b.WriteString(rule.Antecedent.String(v) + " contradicts the formulas of weight 1, so only tautologies follow")
		default:
			b.WriteString(rule.Antecedent.String(v) + ", with the formulas " + vd.Semantics.String() + " keeps, does not entail " + beta)
		}
	}
	if len(vd.SetAside) > 0 {
		ws := make([]string, len(vd.SetAside))
		for i, j := range vd.SetAside {
			ws[i] = possibilistic.FormatWeight(th.Levels[j].Weight)
		}
		verb := "drowned"
		switch vd.Semantics {
		case possibilistic.Linear:
			verb = "skipped"
		case possibilistic.Lex:
			verb = "partly set aside"
		}
		b.WriteString("\nlevels " + verb + " by the evidence: " + strings.Join(ws, ", "))
	}
	if len(ex.Support) > 0 {
		fs := make([]string, len(ex.Support))
		for i, f := range ex.Support {
			fs[i] = f.Formula.String(v)
		}
		b.WriteString("\nformulas that with α entail β: " + strings.Join(fs, "; "))
	}
	return b.String()
}
