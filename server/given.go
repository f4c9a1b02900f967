package server

// Plausible conclusions and most plausible worlds of evidence α.

import (
	"context"
	"net/http"
	"strings"

	"github.com/strata-logic/strata/defaults"
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
func (e *entry) possWorker(w *worker) *possibilistic.Reasoner {
	if w.poss == nil {
		th := &possibilistic.Theory{Vocab: w.vocab, Levels: e.theory.Levels}
		w.poss = possibilistic.NewReasoner(th)
	}
	return w.poss
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

type conclusionView struct {
	Literal   string  `json:"literal"`
	Necessity float64 `json:"necessity"`
}

func (s *Server) handleConclusions(w http.ResponseWriter, r *http.Request) {
	var req givenRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.compute(r.Context(), func(ctx context.Context) (any, error) {
		e, err := s.resolve(req.target)
		if err != nil {
			return nil, err
		}
		sem, name, err := e.givenSemantics(req.Semantics)
		if err != nil {
			return nil, err
		}
		return e.with(func(w *worker) (any, error) {
			alpha, err := parseGiven(w.vocab, req.Given)
			if err != nil {
				return nil, err
			}
			rs := e.possWorker(w)
			out := map[string]any{"given": alpha.String(w.vocab), "semantics": name, "inconsistency": rs.Inconsistency(alpha)}
			cs := []conclusionView{}
			for _, l := range rs.ConclusionsUnder(sem, alpha) {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				cs = append(cs, conclusionView{Literal: w.vocab.LitString(l), Necessity: rs.NecessityUnder(sem, alpha, logic.LitF(l))})
			}
			out["conclusions"] = cs
			return out, nil
		})
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleWorld(w http.ResponseWriter, r *http.Request) {
	var req givenRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.compute(r.Context(), func(ctx context.Context) (any, error) {
		e, err := s.resolve(req.target)
		if err != nil {
			return nil, err
		}
		sem, name, err := e.givenSemantics(req.Semantics)
		if err != nil {
			return nil, err
		}
		return e.with(func(w *worker) (any, error) {
			alpha, err := parseGiven(w.vocab, req.Given)
			if err != nil {
				return nil, err
			}
			world, ok := e.possWorker(w).MostPlausibleWorldUnder(sem, alpha)
			out := map[string]any{"given": alpha.String(w.vocab), "semantics": name, "possible": ok}
			if ok {
				lits := []string{}
				for i, t := range world {
					lits = append(lits, w.vocab.LitString(logic.MkLit(logic.Atom(i), !t)))
				}
				out["world"] = lits
				out["possibility"] = e.theory.Possibility(world[:min(len(world), e.atoms)])
			}
			return out, nil
		})
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
