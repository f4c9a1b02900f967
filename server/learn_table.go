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
// the numeric ones (null: inferred; [] : none); Group, Variants, Grow and
// Tally are strata learn --group, --variants, --grow and --tally (absent:
// the table's defaults).
type tableRequest struct {
	Table     string `json:"table"`
	TablePath string `json:"table_path"`
	tableFormat
	Label    string    `json:"label"`
	Features []string  `json:"features"`
	Numeric  *[]string `json:"numeric"`
	Group    string    `json:"group"`
	Variants string    `json:"variants"`
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
	case t.Group != "":
		return "group"
	case t.Variants != "":
		return "variants"
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

// tablePlan reads a request's table and returns the plan of learning all
// its rows (table.NewPlan) under settings, as strata learn --table learns
// them: with folds or validation, the held-out parts are rows (whole
// groups of the group column, or stratified by class), each with the cut
// points and values of its own training rows, scored as the task is, one
// class per held-out row; and the table.
func (s *Server) tablePlan(req learnRequest, settings learn.Settings) (*table.Plan, *table.Table, error) {
	tr := req.tableRequest
	switch {
	case req.Pos != "" || req.PosPath != "" || req.Neg != "" || req.NegPath != "" || req.Hard != "" || req.HardPath != "" ||
		req.TestPos != "" || req.TestPosPath != "" || req.TestNeg != "" || req.TestNegPath != "":
		return nil, nil, badRequest("table", "a table is learned from alone: give no examples or hard rules with it")
	case tr.Label == "":
		return nil, nil, badRequest("label", "learning from a table needs label, its class column")
	}
	ts := table.Settings{Learning: settings, Label: tr.Label, Features: tr.Features, Group: tr.Group}
	if tr.Variants != "" {
		vs, err := table.ParseVariants(tr.Variants)
		if err != nil {
			return nil, nil, badRequest("variants", "%v", err)
		}
		if ts.Variant = vs[0]; len(vs) > 1 {
			ts.Variants = vs
		}
	}
	opts, err := tr.options()
	if err != nil {
		return nil, nil, err
	}
	opts.Categorical = []string{tr.Label}
	if tr.Group != "" {
		opts.Categorical = append(opts.Categorical, tr.Group)
	}
	if tr.Numeric != nil {
		opts.Numeric = append([]string{}, *tr.Numeric...)
	}
	t, err := s.readTable(tr.Table, tr.TablePath, opts)
	if err != nil {
		return nil, nil, err
	}
	p, err := table.NewPlan(t, nil, ts)
	if err != nil {
		var se *learn.SettingsError
		if errors.As(err, &se) {
			return nil, nil, settingsError(err)
		}
		return nil, nil, inputError("table", err)
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
