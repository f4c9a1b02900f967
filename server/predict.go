package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/table"
)

// predictRequest is a theory and the rows of a table to answer, as strata
// predict --table takes them: the table as text (table: delimited or
// ARFF) or a file (table_path: any format table.Read reads), how to read
// it (tableFormat); the class column (label; empty: the one the theory's
// hard rules name), the semantics and whether to explain each answer.
type predictRequest struct {
	target
	Table     string `json:"table"`
	TablePath string `json:"table_path"`
	tableFormat
	Label     string `json:"label"`
	Semantics string `json:"semantics"`
	Explain   bool   `json:"explain"`
	// Keep names columns whose values each prediction copies (an
	// identifier); Degrees adds each row's degree of its class and of
	// every class, as strata predict --keep and --degrees.
	Keep    []string `json:"keep"`
	Degrees bool     `json:"degrees"`
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
		o, err := req.options()
		if err != nil {
			return nil, err
		}
		// Reading the rows interns their atoms: a stored theory's
		// vocabulary is shared, so predict works on a copy.
		th := e.theory.Clone()
		th.Vocab = th.Vocab.Clone()
		o.Numeric = table.NumericColumns(th.Vocab)
		t, err := s.readTable(req.Table, req.TablePath, o)
		if err != nil {
			return nil, err
		}
		preds, err := table.Predict(ctx, th, t, table.PredictOptions{Semantics: sem, Label: req.Label, Explain: req.Explain, Keep: req.Keep, Degrees: req.Degrees})
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, err
		case errors.Is(err, table.ErrClassColumn):
			return nil, inputError("label", err)
		case errors.Is(err, table.ErrKeep):
			return nil, inputError("keep", err)
		case err != nil:
			return nil, inputError("table", err)
		}
		return jsonview.NewPredictions(t, sem, req.Keep, preds), nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
