package main

import (
	"context"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

func init() { methods["table.predict"] = predictTable }

type predictRequest struct {
	tableRequest
	Theory    string `json:"theory"`
	Label     string `json:"label"`
	Semantics string `json:"semantics"`
	Explain   bool   `json:"explain"`
}

// predictAnswer is table.Predict's answer per row, in the rows' order:
// the class, null when the theory entails no single class, and with
// Explain what decided it.
type predictAnswer struct {
	Classes []*string `json:"classes"`
	Why     []*why    `json:"why,omitempty"`
}

// why is table.Why, named as strata predict --explain --json names it.
type why struct {
	Level    float64  `json:"level"`
	Rules    []string `json:"rules"`
	Against  []string `json:"against"`
	Entailed []string `json:"entailed"`
}

// predictTable is table.Predict of the request's theory on its table, read
// with the theory's threshold columns as numbers (as strata predict reads
// a table).
func predictTable(ctx context.Context, req []byte) (any, error) {
	var r predictRequest
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	sem, th, t, err := r.load(ctx)
	if err != nil {
		return nil, err
	}
	preds, err := table.Predict(ctx, th, t, table.PredictOptions{Semantics: sem, Label: r.Label, Explain: r.Explain})
	if err != nil {
		return nil, err
	}
	a := predictAnswer{Classes: make([]*string, len(preds))}
	for i, p := range preds {
		if p.Class != table.NoClass {
			a.Classes[i] = &p.Class
		}
		if r.Explain {
			a.Why = append(a.Why, &why{Level: p.Why.Level, Rules: nonNil(p.Why.Rules), Against: nonNil(p.Why.Against), Entailed: nonNil(p.Why.Entailed)})
		}
	}
	return a, nil
}

// load reads the request's semantics, theory and table, the table with
// the theory's threshold columns as numbers.
func (r predictRequest) load(ctx context.Context) (possibilistic.Semantics, *possibilistic.Theory, *table.Table, error) {
	sem, err := possibilistic.ParseSemantics(r.Semantics)
	if err != nil {
		return sem, nil, nil, err
	}
	th, err := readTheory(ctx, r.Theory)
	if err != nil {
		return sem, nil, nil, err
	}
	t, err := r.read(table.NumericColumns(th.Vocab))
	return sem, th, t, err
}

// readTheory reads a theory in the text format, named "theory" in errors.
func readTheory(ctx context.Context, text string) (*possibilistic.Theory, error) {
	return possibilistic.ReadText(ctx, strings.NewReader(text), "theory", &logic.Vocabulary{})
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
