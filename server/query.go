package server

import (
	"cmp"
	"context"
	"errors"
	"net/http"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// target names what a request reasons with: a stored theory or base by id,
// or a theory or base given as text (parsed for this request only).
type target struct {
	TheoryID string `json:"theory_id"`
	Theory   string `json:"theory"`
	Base     string `json:"base"`
}

func (s *Server) resolve(ctx context.Context, t target) (*entry, error) {
	n := 0
	for _, x := range []string{t.TheoryID, t.Theory, t.Base} {
		if x != "" {
			n++
		}
	}
	switch {
	case n == 0:
		return nil, badRequest("theory", "give theory_id, theory (text) or base (text)")
	case n > 1:
		return nil, badRequest("theory", "give only one of theory_id, theory and base")
	case t.TheoryID != "":
		return s.lookup(t.TheoryID)
	case t.Theory != "":
		return s.parseTheory(ctx, source{Text: t.Theory})
	}
	return s.parseBase(ctx, loadRequest{source: source{Text: t.Base}})
}

type queryRequest struct {
	target
	Query     string `json:"query"`
	Semantics string `json:"semantics"`
	// Explain, when false, leaves the explanation out (default true).
	Explain *bool `json:"explain"`
}

// answerView is a decided query and, in a batch or a comparison, the
// error in the place of one that was not answered.
type answerView struct {
	jsonview.Answer
	Error *apiError `json:"error,omitempty"` // in batches only
}

func (s *Server) handleQuery(w http.ResponseWriter, r *http.Request) {
	var req queryRequest
	if err := s.decodeQuery(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	explain := req.Explain == nil || *req.Explain
	v, err := s.computeQuery(r.Context(), req.target, func(ctx context.Context, e *entry) (any, error) {
		q, err := e.querier(req.Semantics)
		if err != nil {
			return nil, err
		}
		return e.with(ctx, e.usage(req.Semantics, explain), func(w *worker) (any, error) {
			a, err := q(ctx, w, req.Query, explain)
			if err != nil {
				return nil, err
			}
			return a, nil
		})
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeAnswer(w, v.(*answerView))
}

// computeQuery finds the theory or base of t and runs fn on it under the
// time budget, in the request's goroutine: the reasoners of theories and of
// default bases (their Z-orderings and every semantics) give up soon after
// ctx is done. A theory or base given as text is parsed under the budget.
func (s *Server) computeQuery(ctx context.Context, t target, fn func(ctx context.Context, e *entry) (any, error)) (any, error) {
	var stored *entry
	if t.TheoryID != "" && t.Theory == "" && t.Base == "" {
		e, err := s.lookup(t.TheoryID)
		if err != nil {
			return nil, err
		}
		stored = e
	}
	return s.computeHere(ctx, func(ctx context.Context) (any, error) {
		e := stored
		if e == nil {
			var err error
			if e, err = s.resolve(ctx, t); err != nil {
				return nil, err
			}
		}
		return fn(ctx, e)
	})
}

type batchRequest struct {
	target
	Queries   []string `json:"queries"`
	Semantics string   `json:"semantics"`
	// Explain adds the explanation to every answer (default false).
	Explain bool `json:"explain"`
}

type batchView struct {
	Semantics string        `json:"semantics"`
	Answers   []*answerView `json:"answers"`
	Yes       int           `json:"yes"`
	No        int           `json:"no"`
	Errors    int           `json:"errors"`
	// Unanswered counts the queries left undecided when the batch ran past
	// its time budget; each carries a 503 error in its place.
	Unanswered int `json:"unanswered"`
}

// handleBatch answers many queries in one request. A malformed query gets
// its error in its place; the others are answered. The time budget covers
// the whole batch: on a theory, the queries it leaves undecided get a 503
// error in their places and the batch answers the others (on a default
// base, as for one query, the batch is answered 503).
func (s *Server) handleBatch(w http.ResponseWriter, r *http.Request) {
	var req batchRequest
	if err := s.decodeBatch(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if len(req.Queries) > s.cfg.MaxBatch {
		writeError(w, badRequest("queries", "%d queries: a batch holds at most %d", len(req.Queries), s.cfg.MaxBatch))
		return
	}
	v, err := s.computeQuery(r.Context(), req.target, func(ctx context.Context, e *entry) (any, error) {
		q, err := e.querier(req.Semantics)
		if err != nil {
			return nil, err
		}
		return e.with(ctx, e.usage(req.Semantics, req.Explain), func(w *worker) (any, error) {
			out := &batchView{Answers: make([]*answerView, len(req.Queries)), Semantics: e.semanticsName(req.Semantics)}
			for i, src := range req.Queries {
				var a *answerView
				var err error
				if s.beforeBatchQuery != nil {
					s.beforeBatchQuery(ctx, i)
				}
				if ctx.Err() == nil {
					a, err = q(ctx, w, src, req.Explain)
				} else {
					err = ctx.Err()
				}
				switch {
				case err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()):
					a = &answerView{Answer: jsonview.Answer{Query: src}, Error: notAnswered(ctx.Err())}
					out.Unanswered++
				case err != nil:
					a = &answerView{Answer: jsonview.Answer{Query: src}, Error: inputError("query", err)}
					out.Errors++
				case a.Entailed:
					out.Yes++
				default:
					out.No++
				}
				out.Answers[i] = a
			}
			return out, nil
		})
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeBatch(w, v.(*batchView))
}

// notAnswered is the error in the place of a query of a batch that ran
// past its time budget before deciding it.
func notAnswered(err error) *apiError {
	e := budgetError(err)
	e.Field = "query"
	e.Message = "not answered: " + e.Message
	return e
}

// querier returns the function answering one query on e under the named
// semantics: possibilistic.ParseSemantics names those of a theory (poss by
// default), defaults.ParseSemantics those of a default base (rational by
// default), so that new semantics of either package are served as soon as
// they are parsed.
func (e *entry) querier(name string) (func(ctx context.Context, w *worker, query string, explain bool) (*answerView, error), error) {
	if e.kind == kindBase {
		if name == "" {
			name = "rational"
		}
		sem, err := defaults.ParseSemantics(name)
		if err != nil {
			return nil, inputError("semantics", err)
		}
		return func(ctx context.Context, w *worker, query string, explain bool) (*answerView, error) {
			return e.decideBase(ctx, w, sem, query, explain)
		}, nil
	}
	sem, err := theorySemantics(name)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, w *worker, query string, explain bool) (*answerView, error) {
		rule, err := logic.ParseQuery(w.vocab, query)
		if err != nil {
			return nil, inputError("query", err)
		}
		release, err := holdCells(ctx, e.inflight, rule.Antecedent, rule.Consequent)
		if err != nil {
			return nil, err
		}
		defer release()
		return e.decideTheory(ctx, w, sem, query, rule, explain)
	}, nil
}

// semanticsName returns the name of the semantics name (checked by
// querier) as answers give it: the default's when it is empty (poss for a
// theory, rational for a base), and the canonical name of another spelling.
func (e *entry) semanticsName(name string) string {
	if e.kind == kindBase {
		if s, err := defaults.ParseSemantics(cmp.Or(name, "rational")); err == nil {
			return s.String()
		}
		return name
	}
	if s, err := theorySemantics(name); err == nil {
		return s.String()
	}
	return name
}

// theorySemantics parses the semantics of a query on a theory (poss when
// empty) and checks that this build decides it.
func theorySemantics(name string) (possibilistic.Semantics, error) {
	sem := possibilistic.Poss
	if name != "" {
		var err error
		if sem, err = possibilistic.ParseSemantics(name); err != nil {
			return sem, inputError("semantics", err)
		}
	}
	return sem, nil
}

// decideBase answers a query on a default base.
func (e *entry) decideBase(ctx context.Context, w *worker, sem defaults.Semantics, query string, explain bool) (*answerView, error) {
	q, err := defaults.ParseQuery(w.vocab, query)
	if err != nil {
		return nil, inputError("query", err)
	}
	release, err := holdCells(ctx, e.inflight, q.Antecedent, q.Consequent)
	if err != nil {
		return nil, err
	}
	defer release()
	var a defaults.Answer
	if explain {
		a, err = w.defs.Explain(ctx, sem, q)
	} else {
		a, err = w.defs.Decide(ctx, sem, q)
	}
	if err != nil {
		return nil, err
	}
	out := &answerView{}
	out.SetDefaults(query, a)
	if !explain {
		return out, nil
	}
	x := &jsonview.Explanation{}
	x.SetDefaults(a, e.ord, w.vocab, w.litString)
	out.Explanation = x
	return out, nil
}
