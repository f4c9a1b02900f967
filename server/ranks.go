package server

// The ranking functions of a default base: κ_Z and a minimal
// c-representation κ_c, as strata closure --ranks prints them.

import (
	"context"
	"errors"
	"net/http"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
)

type ranksRequest struct {
	target
	// Query, when given, is judged by each OCF, and the worlds say
	// whether they verify or falsify it.
	Query string `json:"query"`
}

// ranksView is a base's κ_Z and κ_c: per default its Z-level and impact,
// and, for a vocabulary of at most defaults.MaxWorldAtoms atoms, every
// world with its two ranks. A base without a c-representation (or whose
// κ_c the time budget did not reach) has CError instead of impacts and
// κ_c ranks.
type ranksView struct {
	Atoms    []string          `json:"atoms"`
	Defaults []rankDefaultView `json:"defaults"`
	CError   string            `json:"c_error,omitempty"`
	// Worlds is null, and WorldsError says why, beyond the limit.
	Worlds      []worldRankView `json:"worlds"`
	WorldsError string          `json:"worlds_error,omitempty"`
	// Query is the query judged by each OCF, when one was given.
	Query *ranksQueryView `json:"query,omitempty"`
}

// rankDefaultView is a default with its Z-rank (Rank, 1 for Δ1: κ_Z ranks
// a world at the highest Z-rank of the defaults it falsifies, 0 when it
// falsifies none) and its impact under κ_c (which ranks a world at the sum
// of the impacts of the defaults it falsifies).
type rankDefaultView struct {
	jsonview.Default
	Impact *int `json:"impact,omitempty"`
}

// worldRankView is a world (its true atoms; the others are false) with
// its ranks, "inf" for a world that contradicts the background knowledge,
// and, with a query, whether it verifies (α ∧ β) or falsifies (α ∧ ¬β) it.
type worldRankView struct {
	World     []string       `json:"world"`
	Z         defaults.Rank  `json:"z"`
	C         *defaults.Rank `json:"c,omitempty"`
	Verifies  bool           `json:"verifies,omitempty"`
	Falsifies bool           `json:"falsifies,omitempty"`
}

// ranksQueryView is a query judged by κ_Z and κ_c: the ranks of its
// verification and falsification, and whether the OCF accepts it. The
// worlds that decide it are its α-worlds of the least rank.
type ranksQueryView struct {
	Query string          `json:"query"`
	Z     acceptanceView  `json:"z"`
	C     *acceptanceView `json:"c,omitempty"`
}

type acceptanceView struct {
	jsonview.RankPair
	Accepted bool `json:"accepted"`
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
func (e *entry) ranks(ctx context.Context, w *worker, query string) (*ranksView, error) {
	var q *defaults.Default
	if query != "" {
		d, err := defaults.ParseQuery(w.vocab, query)
		if err != nil {
			return nil, inputError("query", err)
		}
		q = &d
	}
	kz := w.defs.SystemZ()
	ocfs := []*defaults.OCF{kz}
	out := &ranksView{Atoms: w.vocab.Names()}
	if q != nil {
		a, err := kz.Acceptance(ctx, *q)
		if err != nil {
			return nil, err
		}
		out.Query = &ranksQueryView{Query: query, Z: viewAcceptance(a)}
	}
	kc, err := w.defs.CRepresentation(ctx)
	switch {
	case errors.Is(err, defaults.ErrNoCRepresentation):
		out.CError = err.Error()
	case err != nil && ctx.Err() != nil:
		out.CError = "κ_c was not found within the request's time budget"
	case err != nil:
		return nil, err
	default:
		ocfs = append(ocfs, kc)
		if q != nil {
			a, err := kc.Acceptance(ctx, *q)
			if err != nil && ctx.Err() != nil {
				out.CError = "the query was not judged by κ_c within the request's time budget"
				ocfs = ocfs[:1]
				break
			}
			if err != nil {
				return nil, err
			}
			av := viewAcceptance(a)
			out.Query.C = &av
		}
	}
	b := kz.Base()
	for i := range b.Defaults {
		dv := rankDefaultView{Default: jsonview.DescribeDefault(b, i, kz.Layer[i]+1)}
		if len(ocfs) > 1 {
			dv.Impact = &kc.Impacts[i]
		}
		out.Defaults = append(out.Defaults, dv)
	}
	worlds, err := defaults.RankWorlds(ocfs...)
	var tm *defaults.TooManyWorldsError
	if errors.As(err, &tm) {
		out.WorldsError = err.Error()
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	out.Worlds = make([]worldRankView, len(worlds))
	for i, rw := range worlds {
		wv := worldRankView{World: []string{}, Z: rw.Ranks[0]}
		if len(rw.Ranks) > 1 {
			wv.C = &rw.Ranks[1]
		}
		for a, t := range rw.World {
			if t {
				wv.World = append(wv.World, w.vocab.Name(logic.Atom(a)))
			}
		}
		if q != nil {
			wv.Verifies, wv.Falsifies = q.Verifies(rw.World), q.Falsifies(rw.World)
		}
		out.Worlds[i] = wv
	}
	return out, nil
}

func viewAcceptance(a defaults.Acceptance) acceptanceView {
	return acceptanceView{RankPair: jsonview.RankPair{Verification: a.Verification, Falsification: a.Falsification}, Accepted: a.Accepted}
}
