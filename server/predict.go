package server

import (
	"bytes"
	"context"
	"errors"
	"net/http"

	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/table"
)

// predictRequest is a theory and the rows of a table to answer, as strata
// predict --table takes them: CSV text with a header (table) or a file
// (table_path); the class column (label; empty: the one the theory's hard
// rules name), the semantics and whether to explain each answer.
type predictRequest struct {
	target
	Table     string `json:"table"`
	TablePath string `json:"table_path"`
	Label     string `json:"label"`
	Semantics string `json:"semantics"`
	Explain   bool   `json:"explain"`
}

// handlePredict answers the class of every row of a table with a theory
// (table.Predict), as strata predict --json prints it.
func (s *Server) handlePredict(w http.ResponseWriter, r *http.Request) {
	var req predictRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.compute(r.Context(), func(ctx context.Context) (any, error) {
		if req.Table == "" && req.TablePath == "" {
			return nil, badRequest("table", "predict needs a table (table: CSV text, or table_path)")
		}
		e, err := s.resolve(ctx, req.target)
		if err != nil {
			return nil, err
		}
		if e.kind != kindTheory {
			return nil, badRequest("theory_id", "predict answers with a theory; load Θ_Z of the base as a theory first")
		}
		sem, err := theorySemantics(req.Semantics)
		if err != nil {
			return nil, err
		}
		data, name, err := s.read("table", source{Text: req.Table, Path: req.TablePath})
		if err != nil {
			return nil, err
		}
		// Reading the rows interns their atoms: a stored theory's
		// vocabulary is shared, so predict works on a copy.
		th := e.theory.Clone()
		th.Vocab = th.Vocab.Clone()
		t, err := table.Read(bytes.NewReader(data), name, table.Options{Numeric: table.NumericColumns(th.Vocab)})
		if err != nil {
			return nil, inputError("table", err)
		}
		preds, err := table.Predict(ctx, th, t, table.PredictOptions{Semantics: sem, Label: req.Label, Explain: req.Explain})
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, err
		case errors.Is(err, table.ErrClassColumn):
			return nil, inputError("label", err)
		case err != nil:
			return nil, inputError("table", err)
		}
		return jsonview.NewPredictions(t.Name, sem, preds), nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
