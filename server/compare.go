package server

// One query under every semantics at once.

import (
	"context"
	"errors"
	"net/http"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/possibilistic"
)

type compareRequest struct {
	target
	Query string `json:"query"`
	// Explain, when false, leaves the explanations out (default true).
	Explain *bool `json:"explain"`
}

// compareView is a query answered under every semantics: those of a
// theory (possibilistic.AllSemantics) or of a default base
// (defaults.AllSemantics, from the most cautious), each answer as POST
// /api/query gives it, or with its error in its place (a base without a
// c-representation, a semantics the time budget did not reach).
type compareView struct {
	Query   string        `json:"query"`
	Kind    string        `json:"kind"`
	Answers []*answerView `json:"answers"`
	// Agree says whether every semantics answered, and alike.
	Agree bool `json:"agree"`
}

// compareSemantics returns the names of the semantics that compare asks
// on e, in order.
func (e *entry) compareSemantics() []string {
	var names []string
	if e.kind == kindBase {
		for _, s := range defaults.AllSemantics {
			names = append(names, s.String())
		}
		return names
	}
	for _, s := range possibilistic.AllSemantics {
		names = append(names, s.String())
	}
	return names
}

// handleCompare answers a query under every semantics of the theory or
// base, each by the library's reasoner for that semantics, as POST
// /api/query would one at a time. A malformed query is one error for the
// request.
func (s *Server) handleCompare(w http.ResponseWriter, r *http.Request) {
	var req compareRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	explain := req.Explain == nil || *req.Explain
	v, err := s.computeQuery(r.Context(), req.target, func(ctx context.Context, e *entry) (any, error) {
		out := &compareView{Query: req.Query, Kind: e.kind, Agree: true}
		for _, name := range e.compareSemantics() {
			q, err := e.querier(name)
			if err != nil {
				return nil, err
			}
			v, err := e.with(ctx, e.usage(name, explain), func(w *worker) (any, error) {
				return q(ctx, w, req.Query, explain)
			})
			var a *answerView
			var ae *apiError
			switch {
			case err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()):
				a = &answerView{Answer: jsonview.Answer{Query: req.Query, Semantics: name}, Error: notAnswered(ctx.Err())}
			case errors.As(err, &ae) && ae.Field == "query":
				return nil, err // malformed: the same under every semantics
			case errors.Is(err, defaults.ErrNoCRepresentation):
				a = &answerView{Answer: jsonview.Answer{Query: req.Query, Semantics: name},
					Error: &apiError{Status: http.StatusUnprocessableEntity, Field: "base", Message: err.Error()}}
			case err != nil:
				return nil, err
			default:
				a = v.(*answerView)
			}
			out.Answers = append(out.Answers, a)
			if a.Error != nil || a.Entailed != out.Answers[0].Entailed || out.Answers[0].Error != nil {
				out.Agree = false
			}
		}
		return out, nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
