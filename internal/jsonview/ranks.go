package jsonview

import (
	"errors"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/logic"
)

// Ranks is a default base's ranking functions κ_Z and κ_c, as POST
// /api/ranks answers and strata closure --ranks --json prints them: per
// default its Z-rank and impact, and, for a vocabulary of at most
// defaults.MaxWorldAtoms atoms, every world with its ranks. An OCF not
// described (strata closure --ocf, or a base without a c-representation:
// CError says why) leaves its fields out.
type Ranks struct {
	Atoms    []string        `json:"atoms"`
	Defaults []RankedDefault `json:"defaults"`
	// Infinite is Δ^∞ of a weakly consistent base: the defaults no Z-level
	// takes, whose antecedents the OCFs make impossible.
	Infinite []string `json:"infinite,omitempty"`
	CError   string   `json:"c_error,omitempty"`
	// Worlds is null, and WorldsError says why, beyond the limit.
	Worlds      []WorldRank `json:"worlds"`
	WorldsError string      `json:"worlds_error,omitempty"`
	// Query is the query judged by each OCF, when one was given.
	Query *RanksQuery `json:"query,omitempty"`
}

// RankedDefault is a default with its Z-rank (Rank, 1 for Δ1: κ_Z ranks a
// world at the highest Z-rank of the defaults it falsifies, 0 when it
// falsifies none) and its impact under κ_c (which ranks a world at the sum
// of the impacts of the defaults it falsifies).
type RankedDefault struct {
	Default
	Impact *int `json:"impact,omitempty"`
}

// WorldRank is a world (its true atoms; the others are false) with its
// ranks, "inf" for a world that contradicts the background knowledge, and,
// with a query, whether it verifies (α ∧ β) or falsifies (α ∧ ¬β) it.
type WorldRank struct {
	World     []string       `json:"world"`
	Z         *defaults.Rank `json:"z,omitempty"`
	C         *defaults.Rank `json:"c,omitempty"`
	Verifies  bool           `json:"verifies,omitempty"`
	Falsifies bool           `json:"falsifies,omitempty"`
}

// RanksQuery is a query judged by κ_Z and κ_c: the ranks of its
// verification and falsification, and whether the OCF accepts it. The
// worlds that decide it are its α-worlds of the least rank.
type RanksQuery struct {
	Query string      `json:"query"`
	Z     *Acceptance `json:"z,omitempty"`
	C     *Acceptance `json:"c,omitempty"`
}

// Acceptance is how an OCF judges a query (defaults.Acceptance).
type Acceptance struct {
	RankPair
	Accepted bool `json:"accepted"`
}

// NewAcceptance describes a.
func NewAcceptance(a defaults.Acceptance) *Acceptance {
	return &Acceptance{RankPair: RankPair{Verification: a.Verification, Falsification: a.Falsification}, Accepted: a.Accepted}
}

// DescribeRanks describes kz (κ_Z) and kc (κ_c) of the base of rs, one
// of them nil when not described, and with q, which worlds verify and falsify it
// (Query, the OCFs' judgements, is the caller's to set). Beyond
// defaults.MaxWorldAtoms atoms, Worlds is nil and WorldsError says why.
func DescribeRanks(rs *defaults.Reasoner, kz, kc *defaults.OCF, q *defaults.Default) (*Ranks, error) {
	var ocfs []*defaults.OCF
	for _, k := range []*defaults.OCF{kz, kc} {
		if k != nil {
			ocfs = append(ocfs, k)
		}
	}
	if len(ocfs) == 0 {
		return nil, errors.New("jsonview: DescribeRanks of no ranking function")
	}
	b := ocfs[0].Base()
	v := b.Vocab
	out := &Ranks{Atoms: v.Names(), Defaults: make([]RankedDefault, len(b.Defaults))}
	for i := range b.Defaults {
		rank := 0
		if kz != nil {
			rank = kz.Layer[i] + 1
		}
		out.Defaults[i] = RankedDefault{Default: DescribeDefault(b, i, rank)}
		if kc != nil {
			out.Defaults[i].Impact = &kc.Impacts[i]
		}
	}
	for _, d := range rs.Infinite() {
		text := d.Text
		if text == "" {
			text = d.String(v)
		}
		out.Infinite = append(out.Infinite, text)
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
	out.Worlds = make([]WorldRank, len(worlds))
	for i, rw := range worlds {
		wr := WorldRank{World: []string{}}
		ranks := rw.Ranks
		if kz != nil {
			wr.Z, ranks = &ranks[0], ranks[1:]
		}
		if kc != nil {
			wr.C = &ranks[0]
		}
		for a, t := range rw.World {
			if t {
				wr.World = append(wr.World, v.Name(logic.Atom(a)))
			}
		}
		if q != nil {
			wr.Verifies, wr.Falsifies = q.Verifies(rw.World), q.Falsifies(rw.World)
		}
		out.Worlds[i] = wr
	}
	return out, nil
}
