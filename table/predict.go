package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Prediction is a theory's answer for one row of a table.
type Prediction struct {
	Row    int    // the row's index in the table, from 0
	Line   int    // the row's line in the file
	Class  string // the predicted class value, or NoClass
	Target string // the row's class as written, "" when the table has none
	// Why, with PredictOptions.Explain, says what decided the row: for a
	// class, the learned formulas that with the row's literals entail it
	// and the level (weight) at which they do; otherwise which classes
	// were entailed (none, or several).
	Why *Why
	// Degree, with PredictOptions.Degrees, is the necessity of the
	// predicted class given the row's literals under the semantics (see
	// possibilistic.Reasoner.Decide): the highest weight λ such that the
	// formulas of weight at least λ entail it; 0 for NoClass.
	Degree float64
	// Kept holds the row's values of PredictOptions.Keep's columns, in
	// that order, as the table gives them ("" when missing).
	Kept []string
	// Degrees, with PredictOptions.Degrees, is the necessity of each class
	// given the row, in the order of the theory's classes: 0 for a class
	// not entailed.
	Degrees []ClassDegree
}

// ClassDegree is the necessity of one class given a row.
type ClassDegree struct {
	Class     string
	Necessity float64
}

// Why is the explanation of a prediction.
type Why struct {
	Level float64 // the weight of the lowest level needed (0 when no class)
	// Rules are learned formulas (weight below 1) that decide the row,
	// highest level first: a set of them that with the row's literals
	// entails the class, and under Lex every other rule of the deciding
	// level that applies to the row and concludes the class (the votes
	// for it, when the level is a level of votes).
	Rules []string
	// Against (Lex only) are the learned formulas the answer sets aside,
	// highest level first: those its preferred world violates, which at
	// the deciding level are the votes for other classes it outnumbers.
	Against  []string
	Entailed []string // the classes entailed when there is not exactly one
}

// PredictOptions say how to predict.
type PredictOptions struct {
	Semantics possibilistic.Semantics
	Label     string // the class column; empty: the one the theory's hard rules name (FromTheory)
	Explain   bool   // fill in Prediction.Why
	Degrees   bool   // fill in Prediction.Degree and Degrees
	// Keep names columns of the table whose values each prediction
	// copies (Prediction.Kept), such as an identifier to join the
	// predictions back to the rows.
	Keep []string
	Rows []int // the rows to predict, in this order (nil: all of them)
}

// Predict answers a class for every row of t: the class value c such that
// the theory entails Label=c from the row's literals under the semantics,
// for exactly one c; NoClass otherwise. The encoding of the rows is read
// from the theory's atoms (FromTheory), so any theory over comparison atoms
// can be used, learned or written by hand. Rows with the same literals are
// decided once. When ctx is done it returns ctx's error.
func Predict(ctx context.Context, th *possibilistic.Theory, t *Table, opts PredictOptions) ([]Prediction, error) {
	if th.Vocab == nil {
		th.Vocab = &logic.Vocabulary{}
	}
	e, err := FromTheory(th.Vocab, hardOf(th), opts.Label)
	if err != nil {
		return nil, err
	}
	b, err := e.Bind(t)
	if err != nil {
		return nil, err
	}
	keep := make([]*Column, len(opts.Keep))
	for i, name := range opts.Keep {
		if keep[i] = t.Column(name); keep[i] == nil {
			return nil, keepError{logic.Errorf(logic.Position{File: t.Name, Line: 1, Col: 1}, "no column %q to keep (columns: %s)", name, strings.Join(headerNames(t), ", "))}
		}
	}
	rows := opts.Rows
	if rows == nil {
		rows = allRows(t.Rows)
	}
	preds, err := predictRows(ctx, th, b, rows, opts)
	if err != nil || len(keep) == 0 {
		return preds, err
	}
	for i := range preds {
		preds[i].Kept = make([]string, len(keep))
		for j, c := range keep {
			preds[i].Kept[j] = c.Value(preds[i].Row)
		}
	}
	return preds, nil
}

// ErrKeep is what Predict's error is (errors.Is) when PredictOptions.Keep
// names a column the table does not have.
var ErrKeep = errors.New("table: no column to keep")

type keepError struct{ error }

func (e keepError) Unwrap() error        { return e.error }
func (e keepError) Is(target error) bool { return target == ErrKeep }

// Predict answers a class for rows of t (PredictOptions.Rows, or all of
// them) with the learned theory (Predict of lr.Theory, whose atoms are
// those of lr.Encoding): a row is predicted right exactly when the learner
// covers its default (TestPredictionsReadBack). Label in opts is ignored.
func (lr *Learned) Predict(ctx context.Context, t *Table, opts PredictOptions) ([]Prediction, error) {
	opts.Label = lr.Encoding.Label
	return Predict(ctx, lr.Theory, t, opts)
}

// predictRows predicts rows of b's table with the theory th over b's
// encoding's vocabulary.
func predictRows(ctx context.Context, th *possibilistic.Theory, b *Binding, rows []int, opts PredictOptions) ([]Prediction, error) {
	if !opts.Explain && !opts.Degrees {
		// The classes alone: decided as the learner decides its examples,
		// when the theory's formulas are clauses and rules.
		classes, ok, err := decideRows(ctx, th, b, rows, opts.Semantics)
		if err != nil {
			return nil, err
		}
		if ok {
			out := make([]Prediction, len(rows))
			for i, row := range rows {
				out[i] = Prediction{Row: row, Line: b.t.Lines[row], Target: b.Target(row), Class: NoClass}
				if c := classes[i]; c >= 0 {
					out[i].Class = b.e.Classes[c]
				}
			}
			return out, nil
		}
	}
	atoms := b.e.ClassAtoms()
	r, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		return nil, err
	}
	var x *explainer
	if opts.Explain {
		if x, err = newExplainer(ctx, r, th, b.e, atoms, opts.Semantics); err != nil {
			return nil, err
		}
	}
	out := make([]Prediction, len(rows))
	done := map[string]int{} // situation -> index in out of the row that decided it
	var key strings.Builder
	for i, row := range rows {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		alpha := b.Situation(row)
		key.Reset()
		for _, l := range alpha {
			fmt.Fprintf(&key, "%d,", l)
		}
		p := Prediction{Row: row, Line: b.t.Lines[row], Target: b.Target(row)}
		if j, ok := done[key.String()]; ok {
			p.Class, p.Why, p.Degree, p.Degrees = out[j].Class, out[j].Why, out[j].Degree, out[j].Degrees
			out[i] = p
			continue
		}
		entailed, degrees, err := decideClasses(ctx, r, opts, b.e.Classes, atoms, alpha)
		if err != nil {
			return nil, err
		}
		p.Class, p.Degrees = NoClass, degrees
		if len(entailed) == 1 {
			p.Class = b.e.Classes[entailed[0]]
			if degrees != nil {
				p.Degree = degrees[entailed[0]].Necessity
			}
		}
		if opts.Explain {
			if p.Why, err = x.explain(ctx, alpha, entailed); err != nil {
				return nil, err
			}
		}
		done[key.String()] = i
		out[i] = p
	}
	return out, ctx.Err()
}

// decideClasses returns the classes (indices into classes, whose atoms
// are atoms) that alpha entails under opts.Semantics and, with
// opts.Degrees, the necessity of each.
func decideClasses(ctx context.Context, r *possibilistic.Reasoner, opts PredictOptions, classes []string, atoms []logic.Atom, alpha logic.Term) ([]int, []ClassDegree, error) {
	var entailed []int
	var degrees []ClassDegree
	for c, a := range atoms {
		var ok bool
		if opts.Degrees {
			v, err := r.Decide(ctx, opts.Semantics, logic.TermF(alpha), logic.ClauseF(logic.Clause{logic.Pos(a)}))
			if err != nil {
				return nil, nil, err
			}
			ok = v.Entailed
			degrees = append(degrees, ClassDegree{Class: classes[c], Necessity: v.Necessity})
		} else {
			var err error
			if ok, err = r.EntailsClause(ctx, opts.Semantics, alpha, logic.Clause{logic.Pos(a)}); err != nil {
				return nil, nil, err
			}
		}
		if ok {
			entailed = append(entailed, c)
		}
	}
	return entailed, degrees, nil
}

// NumericColumns returns the columns that v's atoms compare with a
// threshold (col <= t), the ones to read as numbers from a table a theory
// over v predicts (Options.Numeric); every other column is then read as
// categorical. It is never nil.
func NumericColumns(v *logic.Vocabulary) []string {
	out := []string{}
	for _, name := range v.Names() {
		if c, ok := logic.ParseComparison(name); ok && c.Op == logic.OpLe && !slices.Contains(out, c.Column) {
			out = append(out, c.Column)
		}
	}
	return out
}

// hardOf returns the clauses of weight 1 of a theory.
func hardOf(th *possibilistic.Theory) []logic.Clause {
	var out []logic.Clause
	for _, l := range th.Levels {
		if l.Weight < 1 {
			continue
		}
		for _, f := range l.Formulas {
			if c, ok := f.AsClause(); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

func allRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// RuleForm returns th with every formula below weight 1 that is a clause
// with a literal of the class column written as the rule it is: the
// conjunction of the negations of its other literals implies its class
// literals ("0.7: odor=c -> label=p" for the clause label=p | odor!=c),
// which is the same formula to every semantics. Hard rules and the other
// formulas are kept as they are.
func RuleForm(th *possibilistic.Theory, label string) *possibilistic.Theory {
	out := th.Clone()
	for j := range out.Levels {
		if out.Levels[j].Weight >= 1 {
			continue
		}
		for i, f := range out.Levels[j].Formulas {
			c, ok := f.AsClause()
			if !ok {
				continue
			}
			var cond logic.Term
			var concl logic.Clause
			for _, l := range c {
				if k, ok := logic.ParseComparison(th.Vocab.Name(l.Atom())); ok && k.Column == label {
					concl = append(concl, l)
				} else {
					cond = append(cond, l.Not())
				}
			}
			if len(concl) > 0 && len(cond) > 0 {
				out.Levels[j].Formulas[i] = logic.Implies(logic.TermF(cond), logic.ClauseF(concl))
			}
		}
	}
	return out
}
