package server

// The JSON views of loaded theories and default bases.

import (
	"context"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// theoryView is a theory as the API shows it: levels highest first.
type theoryView struct {
	ID            string      `json:"id,omitempty"`
	Kind          string      `json:"kind"`
	Name          string      `json:"name"`
	Atoms         []string    `json:"atoms"`
	Levels        []levelView `json:"levels"`
	Inconsistency float64     `json:"inconsistency"`
	Formulas      int         `json:"formulas"`
	Literals      int         `json:"literals"`
	Text          string      `json:"text"`
}

// levelView is one level; "level" fields elsewhere in the API index the
// levels array, highest first, as possibilistic numbers levels.
type levelView struct {
	Weight   float64  `json:"weight"`
	Formulas []string `json:"formulas"`
}

// newTheoryView describes th. Its inconsistency level takes the solver,
// which gives up with ctx's error when ctx is done.
func newTheoryView(ctx context.Context, th *possibilistic.Theory, kind, name string) (*theoryView, error) {
	rs, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		return nil, err
	}
	inc, err := rs.Inconsistency(ctx, logic.True())
	if err != nil {
		return nil, err
	}
	tv := &theoryView{Kind: kind, Name: name, Atoms: th.Vocab.Names(), Inconsistency: inc, Text: th.String()}
	tv.Formulas, tv.Literals = th.Size()
	for _, l := range th.Levels {
		lv := levelView{Weight: l.Weight, Formulas: make([]string, len(l.Formulas))}
		for j, f := range l.Formulas {
			lv.Formulas[j] = f.String(th.Vocab)
		}
		tv.Levels = append(tv.Levels, lv)
	}
	return tv, nil
}

// baseView is a default base with its Z-ordering and Θ_Z.
type baseView struct {
	ID         string        `json:"id,omitempty"`
	Kind       string        `json:"kind"`
	Name       string        `json:"name"`
	Format     string        `json:"format"`
	Block      string        `json:"block,omitempty"`
	Defaults   []defaultView `json:"defaults"`
	Background []string      `json:"background"`
	// ZOrdering holds Δ1 (the most general defaults) first.
	ZOrdering []zLevelView `json:"z_ordering"`
	Calls     int64        `json:"solver_calls"`
	// Theory is Θ_Z; its levels are highest first, so Δk comes first.
	Theory *theoryView `json:"theory"`
}

// defaultView is a default of a base: its index in the base, the line it
// was read from and its Z-rank (1 for Δ1; 0 when not ranked).
type defaultView struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
	Rule  string `json:"rule"`
	Line  int    `json:"line"`
	Rank  int    `json:"rank,omitempty"`
}

type zLevelView struct {
	Level    int     `json:"level"`
	Weight   float64 `json:"weight"`
	Defaults []int   `json:"defaults"`
}

func describeDefault(b *defaults.Base, i int, rank int) defaultView {
	d := b.Defaults[i]
	text := d.Text
	rule := d.Antecedent.String(b.Vocab) + " |~ " + d.Consequent.String(b.Vocab)
	if text == "" {
		text = rule
	}
	return defaultView{Index: i, Text: text, Rule: rule, Line: d.Pos.Line, Rank: rank}
}

func newBaseView(ctx context.Context, b *defaults.Base, ord *defaults.Ordering, thetaZ *possibilistic.Theory, name, format string) (*baseView, error) {
	bv := &baseView{Kind: kindBase, Name: name, Format: format, Block: b.Name, Calls: ord.Calls}
	for i := range b.Defaults {
		bv.Defaults = append(bv.Defaults, describeDefault(b, i, ord.Rank(i)+1))
	}
	for _, f := range b.Background {
		bv.Background = append(bv.Background, f.String(b.Vocab))
	}
	ws := ord.Weights()
	for j, l := range ord.Levels {
		bv.ZOrdering = append(bv.ZOrdering, zLevelView{Level: j + 1, Weight: ws[j], Defaults: l})
	}
	tv, err := newTheoryView(ctx, thetaZ, kindTheory, "Θ_Z of "+name)
	if err != nil {
		return nil, err
	}
	bv.Theory = tv
	return bv, nil
}
