package server

import (
	"bytes"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/table"
)

// tableRequest is a table to learn from instead of examples, as strata
// learn --table reads it: CSV text with a header (table) or a file
// (table_path), the class column, and optionally the feature columns and
// the numeric ones (null: inferred; [] : none).
type tableRequest struct {
	Table     string    `json:"table"`
	TablePath string    `json:"table_path"`
	Label     string    `json:"label"`
	Features  []string  `json:"features"`
	Numeric   *[]string `json:"numeric"`
}

func (t tableRequest) given() bool { return t.Table != "" || t.TablePath != "" }

// tableData reads a request's table and returns the learner's problem of
// all its rows (table.NewProblem): the encoding is fit on every row, so a
// validation phase's held-out part shares the cut points of the rows it is
// held out from.
func (s *Server) tableData(req learnRequest, seed uint64) (v *logic.Vocabulary, train, test *learn.Examples, hard []logic.Clause, err error) {
	tr := req.tableRequest
	switch {
	case req.Pos != "" || req.PosPath != "" || req.Neg != "" || req.NegPath != "" || req.Hard != "" || req.HardPath != "" ||
		req.TestPos != "" || req.TestPosPath != "" || req.TestNeg != "" || req.TestNegPath != "":
		return nil, nil, nil, nil, badRequest("table", "a table is learned from alone: give no examples or hard rules with it")
	case tr.Label == "":
		return nil, nil, nil, nil, badRequest("label", "learning from a table needs label, its class column")
	}
	data, name, err := s.read("table", source{Text: tr.Table, Path: tr.TablePath})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	opts := table.Options{Categorical: []string{tr.Label}}
	if tr.Numeric != nil {
		opts.Numeric = append([]string{}, *tr.Numeric...)
	}
	t, err := table.Read(bytes.NewReader(data), name, opts)
	if err != nil {
		return nil, nil, nil, nil, inputError("table", err)
	}
	features := tr.Features
	if features == nil {
		features, _ = table.DefaultFeatures(t, tr.Label, "")
	}
	e, p, err := table.NewProblem(t, nil, tr.Label, features, seed)
	if err != nil {
		return nil, nil, nil, nil, inputError("table", err)
	}
	return e.Vocab, p.Train, nil, p.Hard, nil
}
