package main

import (
	"context"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/table"
)

func init() { methods["table.rules"] = tableRules }

type rulesRequest struct {
	Theory string `json:"theory"`
	Label  string `json:"label"`
}

// rule is a formula of a theory below weight 1 as data: a clause with a
// literal of the class column is the rule its conditions (the negations of
// its other literals) → its class literals (table.RuleForm); each
// condition and conclusion a comparison [column, operator, value] with the
// operators =, !=, <= and >. A formula that is no such rule has Formula
// alone.
type rule struct {
	Level      int         `json:"level"` // 0 is the highest
	Weight     float64     `json:"weight"`
	Formula    string      `json:"formula"`
	Conditions [][3]string `json:"conditions"`
	Conclusion [][3]string `json:"conclusion"`
}

// tableRules lists the rules of a theory learned from a table, highest
// level first.
func tableRules(ctx context.Context, req []byte) (any, error) {
	var r rulesRequest
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	th, err := readTheory(ctx, r.Theory)
	if err != nil {
		return nil, err
	}
	v := th.Vocab
	shown := table.RuleForm(th, r.Label)
	out := []rule{}
	for j, l := range th.Levels {
		if l.Weight >= 1 {
			continue
		}
		for i, f := range l.Formulas {
			ru := rule{Level: j, Weight: l.Weight, Formula: shown.Levels[j].Formulas[i].String(v), Conditions: [][3]string{}, Conclusion: [][3]string{}}
			if c, ok := logic.NNF(f).AsClause(); ok { // conditions -> class is a clause
				for _, lit := range c {
					cmp, ok := comparison(v, lit)
					switch {
					case !ok:
						ru.Conditions, ru.Conclusion = nil, nil
					case cmp[0] == r.Label:
						ru.Conclusion = append(ru.Conclusion, cmp)
					default:
						// A rule's condition is the negation of the clause's literal.
						neg, _ := comparison(v, lit.Not())
						ru.Conditions = append(ru.Conditions, neg)
					}
					if ru.Conditions == nil {
						break
					}
				}
			}
			if len(ru.Conclusion) == 0 {
				ru.Conditions, ru.Conclusion = nil, nil
			}
			out = append(out, ru)
		}
	}
	return out, nil
}

// comparison returns literal l of a comparison atom as [column, operator,
// value].
func comparison(v *logic.Vocabulary, l logic.Lit) ([3]string, bool) {
	c, ok := logic.ParseComparison(v.Name(l.Atom()))
	if !ok {
		return [3]string{}, false
	}
	op := "="
	switch {
	case c.Op == logic.OpLe && l.IsNeg():
		op = ">"
	case c.Op == logic.OpLe:
		op = "<="
	case l.IsNeg():
		op = "!="
	}
	return [3]string{c.Column, op, c.Value}, true
}
