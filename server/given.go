package server

// Plausible conclusions and most plausible worlds of evidence α.

import (
	"context"
	"net/http"
	"strings"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

type givenRequest struct {
	target
	Given     string `json:"given"`
	Semantics string `json:"semantics"`
}

// parseGiven reads the evidence α: literals separated by ',' or any
// formula; empty is true.
func parseGiven(v *logic.Vocabulary, src string) (*logic.Formula, error) {
	if strings.TrimSpace(src) == "" {
		return logic.True(), nil
	}
	f, err := logic.ParseEvidence(v, src)
	if err != nil {
		return nil, inputError("given", err)
	}
	return f, nil
}

// possWorker returns a possibilistic reasoner for the entry: the theory's,
// or one over Θ_Z for a base (whose ⊢poss is rational closure).
func (e *entry) possWorker(ctx context.Context, w *worker) (*possibilistic.Reasoner, error) {
	if w.poss == nil {
		th := &possibilistic.Theory{Vocab: w.vocab, Levels: e.theory.Levels}
		rs, err := possibilistic.NewReasoner(ctx, th)
		if err != nil {
			return nil, err
		}
		w.poss = rs
	}
	return w.poss, nil
}

// givenSemantics parses the semantics under which the plausible
// conclusions and most plausible worlds are computed: those of a theory,
// or rational closure (⊢poss on Θ_Z) for a base.
func (e *entry) givenSemantics(name string) (possibilistic.Semantics, string, error) {
	if e.kind == kindBase {
		if name == "" {
			name = "rational"
		}
		sem, err := defaults.ParseSemantics(name)
		if err != nil {
			return 0, "", inputError("semantics", err)
		}
		if sem != defaults.Rational {
			return 0, "", &apiError{Status: http.StatusNotImplemented, Field: "semantics",
				Message: "plausible conclusions and worlds of a default base are computed under rational closure (Θ_Z) only"}
		}
		return possibilistic.Poss, sem.String(), nil
	}
	sem, err := theorySemantics(name)
	return sem, sem.String(), err
}

// handleGiven answers a request about evidence α (conclusions or worlds):
// answer runs on a pooled worker with the entry's reasoner, the semantics
// and the parsed α, and returns the answer; name is the semantics' name in
// the request's vocabulary (rational for a base).
func (s *Server) handleGiven(w http.ResponseWriter, r *http.Request,
	answer func(ctx context.Context, e *entry, w *worker, rs *possibilistic.Reasoner, sem possibilistic.Semantics, name string, alpha *logic.Formula) (any, error)) {
	var req givenRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.computeQuery(r.Context(), req.target, func(ctx context.Context, e *entry) (any, error) {
		sem, name, err := e.givenSemantics(req.Semantics)
		if err != nil {
			return nil, err
		}
		return e.with(ctx, e.usage(req.Semantics, false), func(w *worker) (any, error) {
			alpha, err := parseGiven(w.vocab, req.Given)
			if err != nil {
				return nil, err
			}
			release, err := holdCells(ctx, e.inflight, alpha)
			if err != nil {
				return nil, err
			}
			defer release()
			rs, err := e.possWorker(ctx, w)
			if err != nil {
				return nil, err
			}
			return answer(ctx, e, w, rs, sem, name, alpha)
		})
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleConclusions(w http.ResponseWriter, r *http.Request) {
	s.handleGiven(w, r, func(ctx context.Context, _ *entry, w *worker, rs *possibilistic.Reasoner, sem possibilistic.Semantics, name string, alpha *logic.Formula) (any, error) {
		c, err := jsonview.Conclude(ctx, rs, w.vocab, sem, alpha)
		if err != nil {
			return nil, err
		}
		c.Semantics = name
		return c, nil
	})
}

func (s *Server) handleWorld(w http.ResponseWriter, r *http.Request) {
	s.handleGiven(w, r, func(ctx context.Context, e *entry, w *worker, rs *possibilistic.Reasoner, sem possibilistic.Semantics, name string, alpha *logic.Formula) (any, error) {
		world, err := rs.MostPlausibleWorld(ctx, sem, alpha)
		if err != nil {
			return nil, err
		}
		out := map[string]any{"possible": world != nil, "given": alpha.String(w.vocab), "semantics": name}
		if world != nil {
			lits := []string{}
			for i, t := range world {
				lits = append(lits, w.vocab.LitString(logic.MkLit(logic.Atom(i), !t)))
			}
			out["world"] = lits
			out["possibility"] = e.theory.Possibility(world[:min(len(world), e.atoms)])
		}
		return out, nil
	})
}
