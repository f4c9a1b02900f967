package jsonview

import (
	"github.com/strata-logic/strata/defaults"
)

// Ordering is a default base's Z-ordering, as POST /api/bases and strata
// closure --json describe it beside Θ_Z.
type Ordering struct {
	Defaults   []Default `json:"defaults"`
	Background []string  `json:"background"`
	// ZOrdering holds Δ1 (the most general defaults) first.
	ZOrdering []ZLevel `json:"z_ordering"`
	Calls     int64    `json:"solver_calls"`
}

// Default is a default of a base: its index in the base, its text as
// written and as a rule, the file (on the command line) and line it was
// read from, and its Z-rank (1 for Δ1; 0 when not ranked).
type Default struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
	Rule  string `json:"rule"`
	File  string `json:"file,omitempty"`
	Line  int    `json:"line"`
	Rank  int    `json:"rank,omitempty"`
}

// ZLevel is Δj of a Z-ordering (Level j, 1-based): its weight in Θ_Z and
// the indexes of its defaults.
type ZLevel struct {
	Level    int     `json:"level"`
	Weight   float64 `json:"weight"`
	Defaults []int   `json:"defaults"`
}

// DescribeDefault describes default i of b, of Z-rank rank, without the
// file it was read from.
func DescribeDefault(b *defaults.Base, i int, rank int) Default {
	d := b.Defaults[i]
	rule := d.Antecedent.String(b.Vocab) + " |~ " + d.Consequent.String(b.Vocab)
	text := d.Text
	if text == "" {
		text = rule
	}
	return Default{Index: i, Text: text, Rule: rule, Line: d.Pos.Line, Rank: rank}
}

// DescribeOrdering describes the Z-ordering ord of its base.
func DescribeOrdering(ord *defaults.Ordering) Ordering {
	b := ord.Base
	o := Ordering{Defaults: make([]Default, len(b.Defaults)), Background: make([]string, len(b.Background)),
		ZOrdering: make([]ZLevel, len(ord.Levels)), Calls: ord.Calls}
	for i := range b.Defaults {
		o.Defaults[i] = DescribeDefault(b, i, ord.Rank(i)+1)
	}
	for i, f := range b.Background {
		o.Background[i] = f.String(b.Vocab)
	}
	ws := ord.Weights()
	for j, l := range ord.Levels {
		o.ZOrdering[j] = ZLevel{Level: j + 1, Weight: ws[j], Defaults: l}
	}
	return o
}
