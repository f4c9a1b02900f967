package jsonview

import (
	"context"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Answer is a decided query, as POST /api/query answers it and strata
// query --json prints it.
type Answer struct {
	Query     string `json:"query"`
	Word      string `json:"answer"` // "yes" or "no": YesNo(Entailed)
	Entailed  bool   `json:"entailed"`
	Semantics string `json:"semantics"`
	// Degrees are the answer's levels and weights: a theory's under every
	// semantics, a default base's under rational closure (those of Θ_Z).
	// Nil, and left out of the JSON, under the semantics of a base that
	// have none.
	*Degrees
	Explanation *Explanation `json:"explanation,omitempty"`

	degrees Degrees // where Degrees points, sparing an allocation per answer
}

// Degrees are the weights and levels of a possibilistic answer.
type Degrees struct {
	// DecidingLevel indexes the theory's levels (highest first): the
	// lowest level needed to entail β, whose weight is the necessity of β
	// given α. Null when β is not entailed, or follows from α alone
	// (then the deciding weight is 1, α's own).
	DecidingLevel  *int    `json:"deciding_level"`
	DecidingWeight float64 `json:"deciding_weight"`
	// Inconsistency is inc(Θ ∪ {(α, 1)}): the levels at or below it are
	// drowned under poss.
	Inconsistency float64 `json:"inconsistency"`

	level int // where DecidingLevel points
}

// SetVerdict makes a the answer to query whose verdict is vd, without an
// explanation.
func (a *Answer) SetVerdict(query string, vd possibilistic.Verdict) {
	*a = Answer{Query: query, Word: YesNo(vd.Entailed), Entailed: vd.Entailed, Semantics: vd.Semantics.String()}
	a.SetDegrees(vd)
}

// SetDegrees sets a's degrees to those of vd: its necessity and
// inconsistency level, and its level when β is entailed and not by α
// alone.
func (a *Answer) SetDegrees(vd possibilistic.Verdict) {
	a.degrees = Degrees{DecidingWeight: vd.Necessity, Inconsistency: vd.Inconsistency}
	if vd.Entailed && vd.Level >= 0 {
		a.degrees.level = vd.Level
		a.degrees.DecidingLevel = &a.degrees.level
	}
	a.Degrees = &a.degrees
}

// YesNo is the answer word of an entailment.
func YesNo(entailed bool) string {
	if entailed {
		return "yes"
	}
	return "no"
}

// Explanation says why: a minimal set of formulas that, with α, entail β,
// and the levels or formulas the evidence set aside: whole levels under
// poss (drowned) and linear (skipped), single formulas under lex (SetAside,
// with the levels they belong to in PartlySetAside and, per level, the
// least number of violated formulas in Violations). Level indexes are those
// of the theory's levels (highest first). For a default base, ZLevels are
// Δ1, Δ2, … (1-based), the defaults are indexes into the base's, and
// Violations (lexicographic closure) holds Δ1 first, as defaults.Answer
// does.
type Explanation struct {
	Text           string       `json:"text"`
	Entailing      []FormulaRef `json:"entailing"`
	Drowned        []int        `json:"drowned"`
	SetAside       []FormulaRef `json:"set_aside"`
	PartlySetAside []int        `json:"partly_set_aside,omitempty"`

	DecidingZLevel int       `json:"deciding_z_level,omitempty"`
	DrownedZLevels []int     `json:"drowned_z_levels,omitempty"`
	Clash          []Default `json:"clash,omitempty"`
	Violations     []int     `json:"violations,omitempty"`
	Counter        []string  `json:"counter_world,omitempty"`
	// NegZLevel (System P, not entailed) is the Z-level (1-based) of
	// α |~ ¬β in the Z-ordering of Δ ∪ {α |~ ¬β}.
	NegZLevel int `json:"neg_z_level,omitempty"`
	// Impacts (c-inference, not entailed) are the impacts, one per default
	// of the base, of a c-representation that does not accept the query,
	// and Ranks its ranks of α ∧ β and α ∧ ¬β.
	Impacts []int     `json:"impacts,omitempty"`
	Ranks   *RankPair `json:"ranks,omitempty"`
}

// SetPossibilistic makes x the explanation e of an answer on a theory,
// naming a formula by formula (its text) and a literal of the counter-world
// by lit.
func (x *Explanation) SetPossibilistic(e possibilistic.Explanation, formula func(possibilistic.FormulaRef) string, lit func(logic.Lit) string) {
	vd := e.Verdict
	*x = Explanation{Text: e.Reason(), Entailing: []FormulaRef{}, Drowned: []int{}, SetAside: []FormulaRef{}, Violations: vd.Violations}
	switch {
	case vd.Semantics == possibilistic.Lex:
		x.PartlySetAside = vd.SetAside
	case len(vd.SetAside) > 0:
		x.Drowned = vd.SetAside
	}
	if len(e.Support) > 0 {
		x.Entailing = make([]FormulaRef, 0, len(e.Support))
	}
	for _, f := range e.Support {
		x.Entailing = append(x.Entailing, FormulaRef{Level: f.Level, Index: f.Index, Formula: formula(f)})
	}
	for _, f := range vd.Formulas {
		x.SetAside = append(x.SetAside, FormulaRef{Level: f.Level, Index: f.Index, Formula: formula(f)})
	}
	if len(e.Counter) > 0 {
		x.Counter = make([]string, len(e.Counter))
		for i, t := range e.Counter {
			x.Counter[i] = lit(logic.MkLit(logic.Atom(i), !t))
		}
	}
}

// FormulaRef points at one formula of a theory: its level (highest first)
// and its index in the level.
type FormulaRef struct {
	Level   int    `json:"level"`
	Index   int    `json:"index"`
	Formula string `json:"formula"`
}

// RankPair is κ(α ∧ β) and κ(α ∧ ¬β) under an OCF, "inf" for no world.
type RankPair struct {
	Verification  defaults.Rank `json:"verification"`
	Falsification defaults.Rank `json:"falsification"`
}

// Conclusions are the plausible conclusions of evidence α, as POST
// /api/conclusions answers and strata query --given --json prints them.
type Conclusions struct {
	Conclusions   []Conclusion `json:"conclusions"`
	Given         string       `json:"given"`
	Inconsistency float64      `json:"inconsistency"`
	Semantics     string       `json:"semantics"`
}

// Conclusion is a literal that follows from the evidence, with its
// necessity.
type Conclusion struct {
	Literal   string  `json:"literal"`
	Necessity float64 `json:"necessity"`
}

// Conclude lists the plausible conclusions of α under sem, with the
// inconsistency level of α; v names the literals.
func Conclude(ctx context.Context, rs *possibilistic.Reasoner, v *logic.Vocabulary, sem possibilistic.Semantics, alpha *logic.Formula) (*Conclusions, error) {
	cs, err := rs.Conclude(ctx, sem, alpha)
	if err != nil {
		return nil, err
	}
	inc, err := rs.Inconsistency(ctx, alpha)
	if err != nil {
		return nil, err
	}
	out := &Conclusions{Conclusions: make([]Conclusion, len(cs)), Given: alpha.String(v), Inconsistency: inc, Semantics: sem.String()}
	for i, c := range cs {
		out.Conclusions[i] = Conclusion{Literal: v.LitString(c.Lit), Necessity: c.Necessity}
	}
	return out, nil
}
