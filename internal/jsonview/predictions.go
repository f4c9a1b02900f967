package jsonview

import (
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

// Predictions are a theory's answers for the rows of a table, as strata
// predict --json prints them and POST /api/predict answers them.
type Predictions struct {
	Table     string `json:"table"`
	Semantics string `json:"semantics"`
	// Warnings say what reading the table changed in its header (a
	// repeated column name renamed), each with its file, line and column.
	Warnings    []string     `json:"warnings,omitempty"`
	Predictions []Prediction `json:"predictions"`
}

// Prediction is the answer for one row.
type Prediction struct {
	Line int `json:"line"`
	// Columns holds the row's values of the kept columns
	// (table.PredictOptions.Keep), by name.
	Columns   map[string]string `json:"columns,omitempty"`
	Predicted string            `json:"predicted"`
	// Degree is the necessity of the predicted class given the row, and
	// Degrees that of each class, with table.PredictOptions.Degrees.
	Degree  *float64      `json:"degree,omitempty"`
	Degrees []ClassDegree `json:"degrees,omitempty"`
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

// ClassDegree is the necessity of one class given a row.
type ClassDegree struct {
	Class  string  `json:"class"`
	Degree float64 `json:"degree"`
}

// NewPredictions describes preds, the predictions of the rows of t under
// sem, whose kept columns are keep (table.PredictOptions.Keep).
func NewPredictions(t *table.Table, sem possibilistic.Semantics, keep []string, preds []table.Prediction) *Predictions {
	out := &Predictions{Table: t.Name, Semantics: sem.String(), Predictions: make([]Prediction, len(preds))}
	for _, w := range t.Warnings {
		out.Warnings = append(out.Warnings, w.Error())
	}
	for i, p := range preds {
		pj := Prediction{Line: p.Line, Predicted: p.Class, Target: p.Target}
		if len(keep) > 0 {
			pj.Columns = make(map[string]string, len(keep))
			for j, k := range keep {
				pj.Columns[k] = p.Kept[j]
			}
		}
		if p.Degrees != nil {
			degree := p.Degree
			pj.Degree = &degree
			for _, d := range p.Degrees {
				pj.Degrees = append(pj.Degrees, ClassDegree{Class: d.Class, Degree: d.Necessity})
			}
		}
		if p.Why != nil {
			level := p.Why.Level
			pj.Level, pj.Rules, pj.Against, pj.Entailed = &level, p.Why.Rules, p.Why.Against, p.Why.Entailed
		}
		out.Predictions[i] = pj
	}
	return out
}
