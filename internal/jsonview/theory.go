package jsonview

import (
	"context"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Theory is a theory with its size and inconsistency level: the fields of
// POST /api/theories beside the server's id, kind, name and text.
type Theory struct {
	Atoms         []string `json:"atoms"`
	Levels        []Level  `json:"levels"`
	Inconsistency float64  `json:"inconsistency"`
	Formulas      int      `json:"formulas"`
	Literals      int      `json:"literals"`
}

// Level is one level of a theory; "level" fields elsewhere index the
// levels array, highest first.
type Level struct {
	Weight   float64  `json:"weight"`
	Formulas []string `json:"formulas"`
}

// NewTheory describes th. Its inconsistency level takes the solver, which
// gives up with ctx's error when ctx is done.
func NewTheory(ctx context.Context, th *possibilistic.Theory) (*Theory, error) {
	rs, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		return nil, err
	}
	inc, err := rs.Inconsistency(ctx, logic.True())
	if err != nil {
		return nil, err
	}
	return DescribeTheory(th, inc), nil
}

// DescribeTheory describes th, whose inconsistency level is inc.
func DescribeTheory(th *possibilistic.Theory, inc float64) *Theory {
	t := &Theory{Atoms: th.Vocab.Names(), Levels: make([]Level, len(th.Levels)), Inconsistency: inc}
	t.Formulas, t.Literals = th.Size()
	for i, l := range th.Levels {
		lv := Level{Weight: l.Weight, Formulas: make([]string, len(l.Formulas))}
		for j, f := range l.Formulas {
			lv.Formulas[j] = f.String(th.Vocab)
		}
		t.Levels[i] = lv
	}
	return t
}
