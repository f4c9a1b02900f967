package main

// The JSON that --json prints: the views of package jsonview, which the
// server prints too (docs/api.md), so that a script reads the command
// line's JSON and the API's alike; TestInterfacesAgree compares them.

import (
	"context"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// answerJSON is the explained answer e to query, as POST /api/query
// answers it.
func answerJSON(v *logic.Vocabulary, query string, e possibilistic.Explanation) *jsonview.Answer {
	a := &jsonview.Answer{}
	a.SetVerdict(query, e.Verdict)
	a.Explanation = &jsonview.Explanation{}
	a.Explanation.SetPossibilistic(e, func(f possibilistic.FormulaRef) string { return f.Formula.String(v) }, v.LitString)
	return a
}

// closureJSON is a default base's Z-ordering and Θ_Z, as POST /api/bases
// describes them (without the server's id, kind, name and text), with the
// file each default was read from.
type closureJSON struct {
	jsonview.Ordering
	// Theory is Θ_Z, highest level first (Δk first).
	Theory *jsonview.Theory `json:"theory"`
}

func newClosureJSON(ctx context.Context, ord *defaults.Ordering) (*closureJSON, error) {
	cj := &closureJSON{Ordering: jsonview.DescribeOrdering(ord)}
	for i := range cj.Defaults {
		cj.Defaults[i].File = ord.Base.Defaults[i].Pos.File
	}
	var err error
	cj.Theory, err = jsonview.NewTheory(ctx, ord.Theory())
	return cj, err
}
