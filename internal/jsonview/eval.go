package jsonview

import (
	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/possibilistic"
)

// Eval is the evaluation of a theory on defaults, as POST /api/eval answers
// it and strata eval --json prints it.
type Eval struct {
	Semantics string  `json:"semantics"`
	Accuracy  float64 `json:"accuracy"`
	Examples  int     `json:"examples"`
	TP        int     `json:"true_positives"`
	FN        int     `json:"false_negatives"`
	FP        int     `json:"false_positives"`
	TN        int     `json:"true_negatives"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	// Levels, highest first: how many covered examples each level decides
	// and how many examples have evidence that sets it aside.
	Levels []EvalLevel `json:"levels"`
}

// EvalLevel is what one level of the theory does in an evaluation.
type EvalLevel struct {
	Weight     float64 `json:"weight"`
	Formulas   int     `json:"formulas"`
	DecidesPos int     `json:"decides_pos"`
	DecidesNeg int     `json:"decides_neg"`
	// SetAside counts the examples whose evidence sets the level aside
	// under the semantics (eval.Level): drowns it under poss.
	SetAside int `json:"set_aside"`
}

// NewEval describes b, the evaluation of th under sem.
func NewEval(th *possibilistic.Theory, sem possibilistic.Semantics, b *eval.Binary) *Eval {
	ev := &Eval{Semantics: sem.String(), Accuracy: b.Accuracy(), Examples: b.Examples(),
		TP: b.TruePositives, FN: b.FalseNegatives, FP: b.FalsePositives, TN: b.TrueNegatives,
		Precision: b.Precision(), Recall: b.Recall(), Levels: make([]EvalLevel, len(th.Levels))}
	for i, l := range th.Levels {
		c := b.Levels[i]
		ev.Levels[i] = EvalLevel{Weight: l.Weight, Formulas: len(l.Formulas), DecidesPos: c.DecidesPos, DecidesNeg: c.DecidesNeg, SetAside: c.SetAside}
	}
	return ev
}
