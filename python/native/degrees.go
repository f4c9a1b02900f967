package main

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

func init() { methods["table.degrees"] = tableDegrees }

// degreesAnswer holds, per row and class (in the order of Classes), the
// necessity under the semantics of the class, N(label=c | row), and of its
// negation, N(label!=c | row), as possibilistic.Reasoner.Decide gives them.
type degreesAnswer struct {
	Classes  []string    `json:"classes"`
	Holds    [][]float64 `json:"holds"`
	Excluded [][]float64 `json:"excluded"`
}

// tableDegrees answers the degrees of every class for every row of the
// request's table: the rows' literals as table.Predict reads them
// (table.FromTheory, Binding.Situation), each class asked of the theory's
// reasoner. Rows with the same literals are decided once.
func tableDegrees(ctx context.Context, req []byte) (any, error) {
	var r predictRequest
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	sem, err := possibilistic.ParseSemantics(r.Semantics)
	if err != nil {
		return nil, err
	}
	th, err := readTheory(ctx, r.Theory)
	if err != nil {
		return nil, err
	}
	t, err := r.read(table.NumericColumns(th.Vocab))
	if err != nil {
		return nil, err
	}
	var hard []logic.Clause
	for _, f := range th.Cut(math.Nextafter(1, 0)) { // the formulas of weight 1
		if c, ok := f.AsClause(); ok {
			hard = append(hard, c)
		}
	}
	e, err := table.FromTheory(th.Vocab, hard, r.Label)
	if err != nil {
		return nil, err
	}
	b, err := e.Bind(t)
	if err != nil {
		return nil, err
	}
	rs, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		return nil, err
	}
	atoms := e.ClassAtoms()
	a := degreesAnswer{Classes: e.Classes, Holds: make([][]float64, t.Rows), Excluded: make([][]float64, t.Rows)}
	done := map[string]int{}
	var key strings.Builder
	for row := range t.Rows {
		alpha := b.Situation(row)
		key.Reset()
		for _, l := range alpha {
			fmt.Fprintf(&key, "%d,", l)
		}
		if j, ok := done[key.String()]; ok {
			a.Holds[row], a.Excluded[row] = a.Holds[j], a.Excluded[j]
			continue
		}
		done[key.String()] = row
		given := logic.TermF(alpha)
		for _, c := range atoms {
			yes, err := rs.Decide(ctx, sem, given, logic.AtomF(c))
			if err != nil {
				return nil, err
			}
			no, err := rs.Decide(ctx, sem, given, logic.Not(logic.AtomF(c)))
			if err != nil {
				return nil, err
			}
			a.Holds[row] = append(a.Holds[row], yes.Necessity)
			a.Excluded[row] = append(a.Excluded[row], no.Necessity)
		}
	}
	return a, nil
}
