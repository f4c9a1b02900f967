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

// Confusion is a confusion table of a multi-class task with its scores:
// Counts[t][p] rows (or situations) of target Labels[t] were answered
// Labels[p], the last label being none (eval.None). strata eval --table
// --json prints it beside the table's name, strata crowd eval --json in its
// theory's score, and a learning run on a table (GET /api/learn/{id}) once
// it has ended.
type Confusion struct {
	Accuracy float64  `json:"accuracy"`
	MacroF1  float64  `json:"macro_f1"`
	Rows     int      `json:"rows"`  // in all
	Right    int      `json:"right"` // answered their target
	Labels   []string `json:"labels"`
	Counts   [][]int  `json:"counts"`
}

// NewConfusion describes c.
func NewConfusion(c *eval.Confusion) *Confusion {
	return &Confusion{Accuracy: c.Accuracy(), MacroF1: c.MacroF1(), Rows: c.Total(), Right: c.Correct(), Labels: c.Labels, Counts: c.Counts}
}
