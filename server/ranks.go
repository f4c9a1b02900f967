package server

// The ranking functions of a default base: κ_Z and a minimal
// c-representation κ_c, as strata closure --ranks prints them.

import (
	"context"
	"errors"
	"net/http"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
)

type ranksRequest struct {
	target
	// Query, when given, is judged by each OCF, and the worlds say
	// whether they verify or falsify it.
	Query string `json:"query"`
}

func (s *Server) handleRanks(w http.ResponseWriter, r *http.Request) {
	var req ranksRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.computeQuery(r.Context(), req.target, func(ctx context.Context, e *entry) (any, error) {
		if e.kind != kindBase {
			return nil, badRequest("theory_id", "ranks are those of a default base; %s is a theory", e.name)
		}
		return e.with(ctx, 0, func(w *worker) (any, error) { return e.ranks(ctx, w, req.Query) })
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// ranks computes the view of the base's OCFs on worker w: κ_Z first, then
// κ_c, which may fail (no c-representation, or the budget ran out while
// its branch and bound searched) without failing κ_Z's part.
func (e *entry) ranks(ctx context.Context, w *worker, query string) (*jsonview.Ranks, error) {
	var q *defaults.Default
	if query != "" {
		d, err := defaults.ParseQuery(w.vocab, query)
		if err != nil {
			return nil, inputError("query", err)
		}
		release, err := holdCells(ctx, e.inflight, d.Antecedent, d.Consequent)
		if err != nil {
			return nil, err
		}
		defer release()
		q = &d
	}
	kz := w.defs.SystemZ()
	var judged *jsonview.RanksQuery
	if q != nil {
		a, err := kz.Acceptance(ctx, *q)
		if err != nil {
			return nil, err
		}
		judged = &jsonview.RanksQuery{Query: query, Z: jsonview.NewAcceptance(a)}
	}
	cErr := ""
	kc, err := w.defs.CRepresentation(ctx)
	switch {
	case errors.Is(err, defaults.ErrNoCRepresentation):
		cErr, kc = err.Error(), nil
	case err != nil && ctx.Err() != nil:
		cErr, kc = "κ_c was not found within the request's time budget", nil
	case err != nil:
		return nil, err
	case q != nil:
		a, err := kc.Acceptance(ctx, *q)
		if err != nil && ctx.Err() != nil {
			cErr, kc = "the query was not judged by κ_c within the request's time budget", nil
			break
		}
		if err != nil {
			return nil, err
		}
		judged.C = jsonview.NewAcceptance(a)
	}
	out, err := jsonview.DescribeRanks(w.defs, kz, kc, q)
	if err != nil {
		return nil, err
	}
	out.CError, out.Query = cErr, judged
	return out, nil
}
