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

func init() {
	methods["table.degrees"] = tableDegrees
	methods["table.answers"] = tableAnswers
}

// Until package table gives per-class degrees of its predictions, these
// two ask the theory's reasoner about the rows as table.Predict reads them
// (table.FromTheory, Binding.Situation).

// degreesAnswer holds, per row and class (in the order of Classes), the
// necessity under the semantics of the class, N(label=c | row), and of its
// negation, N(label!=c | row), as possibilistic.Reasoner.Decide gives them.
type degreesAnswer struct {
	Classes  []string    `json:"classes"`
	Holds    [][]float64 `json:"holds"`
	Excluded [][]float64 `json:"excluded"`
}

// rowsOf reads the request's theory and table and returns the situations
// of the table's rows with the theory's encoding and reasoner.
type rowsOf struct {
	th  *possibilistic.Theory
	t   *table.Table
	e   *table.Encoding
	b   *table.Binding
	rs  *possibilistic.Reasoner
	sem possibilistic.Semantics
}

// readRows decodes a predictRequest and reads its rows.
func readRows(ctx context.Context, req []byte) (*rowsOf, predictRequest, error) {
	var r predictRequest
	if err := decode(req, &r); err != nil {
		return nil, r, err
	}
	sem, th, t, err := r.load(ctx)
	if err != nil {
		return nil, r, err
	}
	rw, err := bindRows(ctx, th, t, r.Label, sem)
	return rw, r, err
}

func bindRows(ctx context.Context, th *possibilistic.Theory, t *table.Table, label string, sem possibilistic.Semantics) (*rowsOf, error) {
	var hard []logic.Clause
	for _, f := range th.Cut(math.Nextafter(1, 0)) { // the formulas of weight 1
		if c, ok := f.AsClause(); ok {
			hard = append(hard, c)
		}
	}
	e, err := table.FromTheory(th.Vocab, hard, label)
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
	return &rowsOf{th: th, t: t, e: e, b: b, rs: rs, sem: sem}, nil
}

// each calls f once per distinct situation of the rows (all of them when
// rows is nil), with the index in rows of the first row that has it, and
// same for every later row with a situation seen before.
func (rw *rowsOf) each(rows []int, f func(i int, alpha logic.Term) error, same func(i, first int)) error {
	if rows == nil {
		rows = make([]int, rw.t.Rows)
		for i := range rows {
			rows[i] = i
		}
	}
	done := map[string]int{}
	var key strings.Builder
	for i, row := range rows {
		alpha := rw.b.Situation(row)
		key.Reset()
		for _, l := range alpha {
			fmt.Fprintf(&key, "%d,", l)
		}
		if j, ok := done[key.String()]; ok {
			same(i, j)
			continue
		}
		done[key.String()] = i
		if err := f(i, alpha); err != nil {
			return err
		}
	}
	return nil
}

// tableDegrees answers the degrees of every class for every row.
func tableDegrees(ctx context.Context, req []byte) (any, error) {
	rw, _, err := readRows(ctx, req)
	if err != nil {
		return nil, err
	}
	atoms := rw.e.ClassAtoms()
	a := degreesAnswer{Classes: rw.e.Classes, Holds: make([][]float64, rw.t.Rows), Excluded: make([][]float64, rw.t.Rows)}
	err = rw.each(nil, func(row int, alpha logic.Term) error {
		given := logic.TermF(alpha)
		for _, c := range atoms {
			yes, err := rw.rs.Decide(ctx, rw.sem, given, logic.AtomF(c))
			if err != nil {
				return err
			}
			no, err := rw.rs.Decide(ctx, rw.sem, given, logic.Not(logic.AtomF(c)))
			if err != nil {
				return err
			}
			a.Holds[row] = append(a.Holds[row], yes.Necessity)
			a.Excluded[row] = append(a.Excluded[row], no.Necessity)
		}
		return nil
	}, func(row, first int) { a.Holds[row], a.Excluded[row] = a.Holds[first], a.Excluded[first] })
	if err != nil {
		return nil, err
	}
	return a, nil
}

// answersAnswer is table.Predict's class of every row (null: none, or
// several) and the necessity with which the theory entails it.
type answersAnswer struct {
	Classes   []*string `json:"classes"`
	Necessity []float64 `json:"necessity"`
}

// tableAnswers answers every row's class, as table.Predict does, with its
// necessity.
func tableAnswers(ctx context.Context, req []byte) (any, error) {
	rw, r, err := readRows(ctx, req)
	if err != nil {
		return nil, err
	}
	return rw.answers(ctx, r.Label, nil)
}

// answers answers the rows (all of them when rows is nil), in their order.
func (rw *rowsOf) answers(ctx context.Context, label string, rows []int) (*answersAnswer, error) {
	preds, err := table.Predict(ctx, rw.th, rw.t, table.PredictOptions{Semantics: rw.sem, Label: label, Rows: rows})
	if err != nil {
		return nil, err
	}
	a := &answersAnswer{Classes: make([]*string, len(preds)), Necessity: make([]float64, len(preds))}
	atoms := rw.e.ClassAtoms()
	err = rw.each(rows, func(row int, alpha logic.Term) error {
		p := preds[row]
		if p.Class == table.NoClass {
			return nil
		}
		a.Classes[row] = &p.Class
		for i, c := range rw.e.Classes {
			if c == p.Class {
				v, err := rw.rs.Decide(ctx, rw.sem, logic.TermF(alpha), logic.AtomF(atoms[i]))
				a.Necessity[row] = v.Necessity
				return err
			}
		}
		return nil
	}, func(row, first int) { a.Classes[row], a.Necessity[row] = a.Classes[first], a.Necessity[first] })
	if err != nil {
		return nil, err
	}
	return a, nil
}
