package server

import (
	"context"
	"errors"

	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

// tableRequest is a table to learn from instead of examples, as strata
// learn --table reads it: the table as text (table: delimited or ARFF) or
// a file (table_path: any format table.Read reads), how to read it
// (tableFormat), the class column, and optionally the feature columns and
// the numeric ones (null: inferred; [] : none); Grow and Tally are strata
// learn --grow and --tally (absent: table.DefaultGrow, table.DefaultTally).
type tableRequest struct {
	Table     string `json:"table"`
	TablePath string `json:"table_path"`
	tableFormat
	Label    string    `json:"label"`
	Features []string  `json:"features"`
	Numeric  *[]string `json:"numeric"`
	Grow     *int      `json:"grow"`
	Tally    *bool     `json:"tally"`
}

func (t tableRequest) given() bool { return t.Table != "" || t.TablePath != "" }

// stray returns the name of a field given without a table that has a
// meaning only with one, or "".
func (t tableRequest) stray() string {
	switch {
	case t.given():
		return ""
	case t.Label != "":
		return "label"
	case t.Features != nil:
		return "features"
	case t.Numeric != nil:
		return "numeric"
	case t.Grow != nil:
		return "grow"
	case t.Tally != nil:
		return "tally"
	case t.TableFormat != "":
		return "table_format"
	case t.Delimiter != "":
		return "delimiter"
	case t.Duplicates != "":
		return "duplicate_columns"
	}
	return ""
}

// grow returns the request's Grow, table.DefaultGrow when absent.
func (t tableRequest) grow() int {
	if t.Grow == nil {
		return table.DefaultGrow
	}
	return *t.Grow
}

// tally returns the request's Tally, table.DefaultTally when absent.
func (t tableRequest) tally() bool {
	if t.Tally == nil {
		return table.DefaultTally
	}
	return *t.Tally
}

// tableProblem reads a request's table and returns the learner's problem
// of all its rows (table.NewProblem) under the request's protocol: with
// folds or validation, the held-out parts are rows (stratified by class),
// each fold with the cut points and values of its own training rows, and
// scored as the task is, one class per held-out row; and the table. The
// protocol's settings hold the request's grow already.
func (s *Server) tableProblem(req learnRequest, proto learn.Protocol, folds int) (*table.Problem, *table.Table, error) {
	tr := req.tableRequest
	switch {
	case req.Pos != "" || req.PosPath != "" || req.Neg != "" || req.NegPath != "" || req.Hard != "" || req.HardPath != "" ||
		req.TestPos != "" || req.TestPosPath != "" || req.TestNeg != "" || req.TestNegPath != "":
		return nil, nil, badRequest("table", "a table is learned from alone: give no examples or hard rules with it")
	case tr.Label == "":
		return nil, nil, badRequest("label", "learning from a table needs label, its class column")
	case tr.Grow != nil && *tr.Grow < 0:
		return nil, nil, badRequest("grow", "grow cannot be negative (0: none)")
	}
	opts, err := tr.options()
	if err != nil {
		return nil, nil, err
	}
	opts.Categorical = []string{tr.Label}
	if tr.Numeric != nil {
		opts.Numeric = append([]string{}, *tr.Numeric...)
	}
	t, err := s.readTable(tr.Table, tr.TablePath, opts)
	if err != nil {
		return nil, nil, err
	}
	ts := table.Settings{Learner: proto.Settings, Label: tr.Label, Features: tr.Features, Folds: folds, Validation: learn.DefaultValidation}
	if req.Validation != nil {
		ts.Validation = *req.Validation
	}
	p, err := table.NewProblem(t, nil, ts)
	if err != nil {
		field := "table"
		if errors.Is(err, table.ErrTooFew) {
			field = map[bool]string{true: "validation", false: "folds"}[folds == 1]
		}
		return nil, nil, inputError(field, err)
	}
	return p, t, nil
}

// confusionView is a theory's answers for the rows of a table against
// their classes (table.Evaluate), as strata eval --table --json prints
// them; or, without them, Error says why there are none.
type confusionView struct {
	*jsonview.Confusion
	Error string `json:"error,omitempty"`
}

// tableScore is what a table run keeps to score its final theory on the
// table's rows, class by class.
type tableScore struct {
	t     *table.Table
	label string
	sem   possibilistic.Semantics
}

// score returns the confusion table of th on the table's rows.
func (ts *tableScore) score(ctx context.Context, th *possibilistic.Theory) (*confusionView, error) {
	c, err := table.Evaluate(ctx, th, ts.t, table.PredictOptions{Semantics: ts.sem, Label: ts.label})
	if err != nil {
		return nil, err
	}
	return &confusionView{Confusion: jsonview.NewConfusion(c)}, nil
}
