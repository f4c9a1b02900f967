package jsonview

import (
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

// Predictions are a theory's answers for the rows of a table, as strata
// predict --json prints them and POST /api/predict answers them.
type Predictions struct {
	Table       string       `json:"table"`
	Semantics   string       `json:"semantics"`
	Predictions []Prediction `json:"predictions"`
}

// Prediction is the answer for one row.
type Prediction struct {
	Line      int    `json:"line"`
	Predicted string `json:"predicted"`
	// Target is the row's class, when the table has the class column.
	Target string `json:"target,omitempty"`
	// With an explanation (table.PredictOptions.Explain): the weight of
	// the level that decides the class (0 without one) and its rules,
	// under lex the rules the answer sets aside, or the classes entailed
	// when there is not exactly one.
	Level    *float64 `json:"level,omitempty"`
	Rules    []string `json:"rules,omitempty"`
	Against  []string `json:"against,omitempty"`
	Entailed []string `json:"entailed,omitempty"`
}

// NewPredictions describes preds, the predictions of the rows of the table
// named name under sem.
func NewPredictions(name string, sem possibilistic.Semantics, preds []table.Prediction) *Predictions {
	out := &Predictions{Table: name, Semantics: sem.String(), Predictions: make([]Prediction, len(preds))}
	for i, p := range preds {
		pj := Prediction{Line: p.Line, Predicted: p.Class, Target: p.Target}
		if p.Why != nil {
			level := p.Why.Level
			pj.Level, pj.Rules, pj.Against, pj.Entailed = &level, p.Why.Rules, p.Why.Against, p.Why.Entailed
		}
		out.Predictions[i] = pj
	}
	return out
}
