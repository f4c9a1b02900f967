package main

// The JSON that --json prints. Each view has the field names of the
// server's answer to the same question (docs/api.md), so that a script
// reads the command line's JSON and the API's alike; TestInterfacesAgree
// compares them.

import (
	"context"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// answerJSON is a decided query, as POST /api/query answers it.
type answerJSON struct {
	Query     string `json:"query"`
	Answer    string `json:"answer"`
	Entailed  bool   `json:"entailed"`
	Semantics string `json:"semantics"`
	// DecidingLevel indexes the theory's levels, highest first; null when
	// β is not entailed or follows from α alone.
	DecidingLevel  *int            `json:"deciding_level"`
	DecidingWeight float64         `json:"deciding_weight"`
	Inconsistency  float64         `json:"inconsistency"`
	Explanation    explanationJSON `json:"explanation"`
}

type explanationJSON struct {
	Text           string        `json:"text"`
	Entailing      []formulaJSON `json:"entailing"`
	Drowned        []int         `json:"drowned"`
	SetAside       []formulaJSON `json:"set_aside"`
	PartlySetAside []int         `json:"partly_set_aside,omitempty"`
	Violations     []int         `json:"violations,omitempty"`
	Counter        []string      `json:"counter_world,omitempty"`
}

// formulaJSON points at a formula of the theory: its level (highest
// first) and its index in the level.
type formulaJSON struct {
	Level   int    `json:"level"`
	Index   int    `json:"index"`
	Formula string `json:"formula"`
}

// newAnswerJSON describes the explained answer e to query.
func newAnswerJSON(v *logic.Vocabulary, query string, e possibilistic.Explanation) answerJSON {
	vd := e.Verdict
	a := answerJSON{Query: query, Answer: yesNo(vd.Entailed), Entailed: vd.Entailed, Semantics: vd.Semantics.String(),
		DecidingWeight: vd.Necessity, Inconsistency: vd.Inconsistency}
	if vd.Entailed && vd.Level >= 0 {
		level := vd.Level
		a.DecidingLevel = &level
	}
	x := explanationJSON{Text: e.Reason(), Entailing: []formulaJSON{}, Drowned: []int{}, SetAside: []formulaJSON{}, Violations: vd.Violations}
	switch {
	case vd.Semantics == possibilistic.Lex:
		x.PartlySetAside = vd.SetAside
	case len(vd.SetAside) > 0:
		x.Drowned = vd.SetAside
	}
	ref := func(f possibilistic.FormulaRef) formulaJSON {
		return formulaJSON{Level: f.Level, Index: f.Index, Formula: f.Formula.String(v)}
	}
	for _, f := range e.Support {
		x.Entailing = append(x.Entailing, ref(f))
	}
	for _, f := range vd.Formulas {
		x.SetAside = append(x.SetAside, ref(f))
	}
	for i, t := range e.Counter {
		x.Counter = append(x.Counter, v.LitString(logic.MkLit(logic.Atom(i), !t)))
	}
	a.Explanation = x
	return a
}

// conclusionsJSON lists the plausible conclusions of evidence, as POST
// /api/conclusions answers.
type conclusionsJSON struct {
	Given         string           `json:"given"`
	Semantics     string           `json:"semantics"`
	Inconsistency float64          `json:"inconsistency"`
	Conclusions   []conclusionJSON `json:"conclusions"`
}

type conclusionJSON struct {
	Literal   string  `json:"literal"`
	Necessity float64 `json:"necessity"`
}

// theoryJSON is a theory with its size and inconsistency level, as POST
// /api/theories describes it (without the server's id and text).
type theoryJSON struct {
	Atoms         []string    `json:"atoms"`
	Levels        []levelJSON `json:"levels"`
	Inconsistency float64     `json:"inconsistency"`
	Formulas      int         `json:"formulas"`
	Literals      int         `json:"literals"`
}

type levelJSON struct {
	Weight   float64  `json:"weight"`
	Formulas []string `json:"formulas"`
}

// newTheoryJSON describes th; its inconsistency level takes the solver.
func newTheoryJSON(ctx context.Context, th *possibilistic.Theory) (*theoryJSON, error) {
	rs, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		return nil, err
	}
	inc, err := rs.Inconsistency(ctx, logic.True())
	if err != nil {
		return nil, err
	}
	return describeTheory(th, inc), nil
}

// describeTheory describes th, whose inconsistency level is inc.
func describeTheory(th *possibilistic.Theory, inc float64) *theoryJSON {
	tj := &theoryJSON{Atoms: th.Vocab.Names(), Levels: []levelJSON{}, Inconsistency: inc}
	tj.Formulas, tj.Literals = th.Size()
	for _, l := range th.Levels {
		lj := levelJSON{Weight: l.Weight, Formulas: make([]string, len(l.Formulas))}
		for j, f := range l.Formulas {
			lj.Formulas[j] = f.String(th.Vocab)
		}
		tj.Levels = append(tj.Levels, lj)
	}
	return tj
}

// evalJSON is the evaluation of a theory on defaults, as POST /api/eval
// answers it.
type evalJSON struct {
	Semantics string  `json:"semantics"`
	Accuracy  float64 `json:"accuracy"`
	Examples  int     `json:"examples"`
	TP        int     `json:"true_positives"`
	FN        int     `json:"false_negatives"`
	FP        int     `json:"false_positives"`
	TN        int     `json:"true_negatives"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	// Levels, highest first: the covered examples each decides and the
	// examples whose evidence sets it aside (drowns it, under poss).
	Levels []evalLevelJSON `json:"levels"`
}

type evalLevelJSON struct {
	Weight     float64 `json:"weight"`
	Formulas   int     `json:"formulas"`
	DecidesPos int     `json:"decides_pos"`
	DecidesNeg int     `json:"decides_neg"`
	SetAside   int     `json:"set_aside"`
}

func newEvalJSON(th *possibilistic.Theory, sem possibilistic.Semantics, b *eval.Binary) evalJSON {
	ej := evalJSON{Semantics: sem.String(), Accuracy: b.Accuracy(), Examples: b.Examples(),
		TP: b.TruePositives, FN: b.FalseNegatives, FP: b.FalsePositives, TN: b.TrueNegatives,
		Precision: b.Precision(), Recall: b.Recall(), Levels: []evalLevelJSON{}}
	for i, l := range th.Levels {
		s := b.Levels[i]
		ej.Levels = append(ej.Levels, evalLevelJSON{Weight: l.Weight, Formulas: len(l.Formulas), DecidesPos: s.DecidesPos, DecidesNeg: s.DecidesNeg, SetAside: s.SetAside})
	}
	return ej
}
