package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func init() {
	methods["theory.open"] = openTheory
	methods["theory.query"] = queryTheory
	methods["theory.conclusions"] = theoryConclusions
	methods["base.open"] = openBase
	methods["base.query"] = queryBase
	methods["base.ranks"] = baseRanks
}

// theoryHandle is a theory compiled once for its queries.
type theoryHandle struct {
	th *possibilistic.Theory
	rs *possibilistic.Reasoner
}

type openTheoryRequest struct {
	Text string `json:"text"`
	Name string `json:"name"` // the name errors give the text ("theory" when empty)
}

// openAnswer is a compiled object's handle and its description:
// jsonview.Theory for a theory (as strata show --json gives it), the
// Z-ordering for a default base (as strata closure --json gives it).
type openAnswer struct {
	Handle int64 `json:"handle"`
	View   any   `json:"view"`
}

// openTheory reads a theory in the text format and compiles its reasoner.
func openTheory(ctx context.Context, req []byte) (any, error) {
	var r openTheoryRequest
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	th, err := possibilistic.ReadText(ctx, strings.NewReader(r.Text), cmp.Or(r.Name, "theory"), &logic.Vocabulary{})
	if err != nil {
		return nil, err
	}
	rs, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		return nil, err
	}
	inc, err := rs.Inconsistency(ctx, logic.True())
	if err != nil {
		return nil, err
	}
	return openAnswer{Handle: handles.keep(&theoryHandle{th: th, rs: rs}), View: jsonview.DescribeTheory(th, inc)}, nil
}

// queryRequest is a query of a compiled object: Query as strata query and
// strata entails take it ("α -> β", or a formula), or Alpha and Beta apart
// (evidence, a comma a conjunction, and a formula); Semantics names the
// semantics of a theory or the relation of a base.
type queryRequest struct {
	Handle    int64  `json:"handle"`
	Query     string `json:"query"`
	Alpha     string `json:"alpha"`
	Beta      string `json:"beta"`
	Semantics string `json:"semantics"`
}

// rule reads the query over v: Query, or Alpha and Beta, as the rule of
// the query text text.
func (r queryRequest) rule(v *logic.Vocabulary) (rule logic.Rule, text string, err error) {
	if r.Query != "" {
		rule, err = logic.ParseQuery(v, r.Query)
		if err != nil {
			return rule, "", fmt.Errorf("query: %w", err)
		}
		return rule, r.Query, nil
	}
	if rule.Antecedent, err = logic.ParseEvidence(v, r.Alpha); err != nil {
		return rule, "", fmt.Errorf("alpha: %w", err)
	}
	if rule.Consequent, err = logic.ParseFormula(v, r.Beta); err != nil {
		return rule, "", fmt.Errorf("beta: %w", err)
	}
	return rule, r.Alpha + " -> " + r.Beta, nil
}

// onTheory decodes a query of a theory and runs f on it with its semantics
// and the theory of its handle, alone.
func onTheory(req []byte, f func(r queryRequest, sem possibilistic.Semantics, h *theoryHandle) (any, error)) (any, error) {
	var r queryRequest
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	sem, err := possibilistic.ParseSemantics(r.Semantics)
	if err != nil {
		return nil, err
	}
	return handles.use(r.Handle, func(obj any) (any, error) {
		h, ok := obj.(*theoryHandle)
		if !ok {
			return nil, requestError{errors.New("strata: the handle is not a theory's")}
		}
		return f(r, sem, h)
	})
}

// queryTheory answers a query of a theory with its explanation, as strata
// query --json does.
func queryTheory(ctx context.Context, req []byte) (any, error) {
	return onTheory(req, func(r queryRequest, sem possibilistic.Semantics, h *theoryHandle) (any, error) {
		v := h.th.Vocab
		rule, text, err := r.rule(v)
		if err != nil {
			return nil, err
		}
		e, err := h.rs.Explain(ctx, sem, rule.Antecedent, rule.Consequent)
		if err != nil {
			return nil, err
		}
		a := &jsonview.Answer{}
		a.SetVerdict(text, e.Verdict)
		a.Explanation = &jsonview.Explanation{}
		a.Explanation.SetPossibilistic(e, func(f possibilistic.FormulaRef) string { return f.Formula.String(v) }, v.LitString)
		return a, nil
	})
}

// theoryConclusions lists the plausible conclusions of evidence, as strata
// query --given --json does.
func theoryConclusions(ctx context.Context, req []byte) (any, error) {
	return onTheory(req, func(r queryRequest, sem possibilistic.Semantics, h *theoryHandle) (any, error) {
		alpha, err := logic.ParseEvidence(h.th.Vocab, r.Alpha)
		if err != nil {
			return nil, fmt.Errorf("given: %w", err)
		}
		return jsonview.Conclude(ctx, h.rs, h.th.Vocab, sem, alpha)
	})
}

type openBaseRequest struct {
	Text       string `json:"text"`
	Name       string `json:"name"`
	Format     string `json:"format"` // rules, cl, or "" (auto: cl for a text that begins with 'signature')
	Base       string `json:"base"`   // the base of a .cl text that holds several
	Background string `json:"background"`
	Weak       bool   `json:"weak"`
}

// openBase reads a default base, as strata entails reads RULES (a rule
// file or a .cl knowledge base, with --hard's background), and compiles its
// reasoner.
func openBase(ctx context.Context, req []byte) (any, error) {
	var r openBaseRequest
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	name := cmp.Or(r.Name, "rules")
	data := logic.TrimBOM([]byte(r.Text))
	v := &logic.Vocabulary{}
	var b *defaults.Base
	switch {
	case r.Format == "cl" || r.Format == "" && defaults.LooksLikeCL(data):
		bases, err := defaults.ReadCL(bytes.NewReader(data), name, v)
		if err != nil {
			return nil, err
		}
		if b, err = defaults.SelectBase(bases, r.Base); err != nil {
			return nil, err
		}
	case r.Format == "rules" || r.Format == "":
		if r.Base != "" {
			return nil, fmt.Errorf("base %q needs a .cl knowledge base, and %s is a rule file", r.Base, name)
		}
		ds, err := defaults.ReadRules(bytes.NewReader(data), name, v)
		if err != nil {
			return nil, err
		}
		b = &defaults.Base{Vocab: v, Defaults: ds}
	default:
		return nil, fmt.Errorf("format %q: want rules, cl or auto", r.Format)
	}
	if r.Background != "" {
		var err error
		if b.Background, b.BackgroundPos, err = defaults.ReadClausesAt(strings.NewReader(r.Background), "background", v); err != nil {
			return nil, err
		}
	}
	var rs *defaults.Reasoner
	var err error
	if r.Weak {
		rs, err = defaults.NewWeakReasoner(ctx, b)
	} else {
		rs, err = defaults.NewReasoner(ctx, b)
	}
	if err != nil {
		return nil, err
	}
	return openAnswer{Handle: handles.keep(rs), View: jsonview.DescribeOrdering(rs.Ordering())}, nil
}

// queryBase answers a query of a default base with its explanation, as
// strata entails --json does.
func queryBase(ctx context.Context, req []byte) (any, error) {
	var r queryRequest
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	rel, err := defaults.ParseSemantics(r.Semantics)
	if err != nil {
		return nil, err
	}
	return handles.use(r.Handle, func(obj any) (any, error) {
		rs, ok := obj.(*defaults.Reasoner)
		if !ok {
			return nil, requestError{errors.New("strata: the handle is not a default base's")}
		}
		v := rs.Ordering().Base.Vocab
		var q defaults.Default
		text := r.Query
		if r.Query != "" {
			if q, err = defaults.ParseQuery(v, r.Query); err != nil {
				return nil, fmt.Errorf("query: %w", err)
			}
		} else {
			rule, t, err := r.rule(v)
			if err != nil {
				return nil, err
			}
			q, text = defaults.Default{Rule: rule, Text: t}, t
		}
		if err := rs.Prepare(ctx, rel); err != nil {
			return nil, err
		}
		da, err := rs.Explain(ctx, rel, q)
		if err != nil {
			return nil, err
		}
		a := &jsonview.Answer{}
		a.SetDefaults(text, da)
		a.Explanation = &jsonview.Explanation{}
		a.Explanation.SetDefaults(da, rs.Ordering(), v, v.LitString)
		return a, nil
	})
}

type ranksRequest struct {
	Handle int64  `json:"handle"`
	Which  string `json:"which"` // z, c, or "" for both (strata closure --ranks --ocf)
}

// baseRanks describes System Z's ranking function and a minimal
// c-representation of a base, as strata closure --ranks --json does.
func baseRanks(ctx context.Context, req []byte) (any, error) {
	var r ranksRequest
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	return handles.use(r.Handle, func(obj any) (any, error) {
		rs, ok := obj.(*defaults.Reasoner)
		if !ok {
			return nil, requestError{errors.New("strata: the handle is not a default base's")}
		}
		var kz, kc *defaults.OCF
		if r.Which != "c" {
			kz = rs.SystemZ()
		}
		if r.Which != "z" {
			var err error
			if kc, err = rs.CRepresentation(ctx); err != nil {
				return nil, err
			}
		}
		return jsonview.DescribeRanks(rs, kz, kc, nil)
	})
}
