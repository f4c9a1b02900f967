package server

// The JSON views of loaded theories and default bases.

import (
	"context"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/possibilistic"
)

// theoryView is a theory as the API shows it: the store's id (empty for Θ_Z
// inside a base), its kind and name, the theory's view and its text.
type theoryView struct {
	ID   string `json:"id,omitempty"`
	Kind string `json:"kind"`
	Name string `json:"name"`
	jsonview.Theory
	Text string `json:"text"`
}

// newTheoryView describes th. Its inconsistency level takes the solver,
// which gives up with ctx's error when ctx is done.
func newTheoryView(ctx context.Context, th *possibilistic.Theory, kind, name string) (*theoryView, error) {
	t, err := jsonview.NewTheory(ctx, th)
	if err != nil {
		return nil, err
	}
	return &theoryView{Kind: kind, Name: name, Theory: *t, Text: th.String()}, nil
}

// baseView is a default base with its Z-ordering and Θ_Z.
type baseView struct {
	ID     string `json:"id,omitempty"`
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Format string `json:"format"`
	Block  string `json:"block,omitempty"`
	jsonview.Ordering
	// Theory is Θ_Z; its levels are highest first, so Δk comes first.
	Theory *theoryView `json:"theory"`
}

func newBaseView(ctx context.Context, b *defaults.Base, ord *defaults.Ordering, thetaZ *possibilistic.Theory, name, format string) (*baseView, error) {
	tv, err := newTheoryView(ctx, thetaZ, kindTheory, "Θ_Z of "+name)
	if err != nil {
		return nil, err
	}
	return &baseView{Kind: kindBase, Name: name, Format: format, Block: b.Name, Ordering: jsonview.DescribeOrdering(ord), Theory: tv}, nil
}
