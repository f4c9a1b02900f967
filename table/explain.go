package table

import (
	"context"
	"math"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// explainer explains predictions (PredictOptions.Explain).
type explainer struct {
	r       *possibilistic.Reasoner
	hard    *possibilistic.Reasoner // the theory's formulas of weight 1 alone (Lex only)
	th      *possibilistic.Theory
	e       *Encoding
	classes []logic.Atom // the encoding's class atoms, in the order of its classes
	sem     possibilistic.Semantics
}

func newExplainer(ctx context.Context, r *possibilistic.Reasoner, th *possibilistic.Theory, e *Encoding, classes []logic.Atom, sem possibilistic.Semantics) (*explainer, error) {
	x := &explainer{r: r, th: th, e: e, classes: classes, sem: sem}
	if sem == possibilistic.Lex {
		hard := possibilistic.New(th.Vocab)
		for _, f := range th.Cut(math.Nextafter(1, 0)) {
			hard.Add(f, 1)
		}
		var err error
		if x.hard, err = possibilistic.NewReasoner(ctx, hard); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// explain says why the row of literals alpha is answered the classes
// entailed (indices into the encoding's classes).
func (x *explainer) explain(ctx context.Context, alpha logic.Term, entailed []int) (*Why, error) {
	w := &Why{}
	if len(entailed) != 1 {
		for _, c := range entailed {
			w.Entailed = append(w.Entailed, x.e.Classes[c])
		}
		return w, nil
	}
	class := x.classes[entailed[0]]
	ex, err := x.r.Explain(ctx, x.sem, logic.TermF(alpha), logic.AtomF(class))
	if err != nil {
		return nil, err
	}
	w.Level = ex.Necessity
	rules := slices.Clone(ex.Support)
	if x.sem == possibilistic.Lex && ex.Level >= 0 && x.th.Levels[ex.Level].Weight < 1 {
		votes, err := x.votes(ctx, alpha, class, ex)
		if err != nil {
			return nil, err
		}
		rules = append(rules, votes...)
		w.Against = x.learned(ex.Formulas)
	}
	w.Rules = x.learned(rules)
	return w, nil
}

// votes returns the rules of the deciding level of ex, kept by the answer
// and not in its support, that apply to the row alpha (it entails their
// conditions, given the hard rules) and conclude class (each of their
// class literals entails it, given the hard rules): under Lex each is a
// vote for the class that its support, a minimal set, need not name.
func (x *explainer) votes(ctx context.Context, alpha logic.Term, class logic.Atom, ex possibilistic.Explanation) ([]possibilistic.FormulaRef, error) {
	var out []possibilistic.FormulaRef
	for i, f := range x.th.Levels[ex.Level].Formulas {
		ref := possibilistic.FormulaRef{Level: ex.Level, Index: i, Formula: f}
		same := func(g possibilistic.FormulaRef) bool { return g.Level == ref.Level && g.Index == ref.Index }
		if slices.ContainsFunc(ex.Support, same) || slices.ContainsFunc(ex.Formulas, same) {
			continue
		}
		c, ok := logic.NNFLinear(f).AsClause() // a rule, conditions -> class, is a clause
		if !ok {
			continue
		}
		// The rule applies when the row entails the negation of each of
		// its other literals, and votes for class when each of its class
		// literals entails class: "not the other" does of two classes,
		// "a or b" does not.
		applies, concludes, other := true, false, false
		for _, l := range c {
			switch {
			case l == logic.Pos(class):
				concludes = true
			case slices.Contains(x.classes, l.Atom()):
				ok, err := x.hard.EntailsClause(ctx, possibilistic.Poss, logic.Term{l}, logic.Clause{logic.Pos(class)})
				if err != nil {
					return nil, err
				}
				concludes, other = concludes || ok, other || !ok
			default:
				ok, err := x.hard.EntailsClause(ctx, possibilistic.Poss, alpha, logic.Clause{l.Not()})
				if err != nil {
					return nil, err
				}
				applies = applies && ok
			}
			if !applies || other {
				break
			}
		}
		if applies && concludes && !other {
			out = append(out, ref)
		}
	}
	return out, nil
}

// learned returns the formulas of refs below weight 1, highest level
// first, as a theory file writes them.
func (x *explainer) learned(refs []possibilistic.FormulaRef) []string {
	refs = slices.Clone(refs)
	slices.SortStableFunc(refs, func(a, b possibilistic.FormulaRef) int { return a.Level - b.Level }) // Levels[0] is the highest
	var out []string
	for _, f := range refs {
		if x.th.Levels[f.Level].Weight < 1 {
			out = append(out, possibilistic.FormatWeight(x.th.Levels[f.Level].Weight)+": "+f.Formula.String(x.th.Vocab))
		}
	}
	return out
}
