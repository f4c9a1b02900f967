package eval

import (
	"context"
	"fmt"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Binary is a theory's score on positive defaults (which it should cover)
// and negative ones (which it should not).
type Binary struct {
	TruePositives, FalseNegatives int // positives covered, not covered
	TrueNegatives, FalsePositives int // negatives not covered, covered
	// Levels holds the counts of every level of the theory, indexed as
	// the theory's Levels (0 is the highest, as a theory file lists them).
	Levels []Level
}

// Level counts what one level of a theory does on a set of defaults.
type Level struct {
	// DecidesPos and DecidesNeg count the covered positive and negative
	// defaults that this level decides: it is the lowest level needed to
	// entail β (possibilistic.Verdict.Level).
	DecidesPos, DecidesNeg int
	// SetAside counts the defaults whose evidence α sets the level aside
	// under the semantics (possibilistic.Verdict.SetAside): under poss the
	// level is drowned, under linear skipped, under lex some of its
	// formulas are violated by the preferred worlds of α.
	SetAside int
}

// Examples returns the number of defaults scored.
func (b *Binary) Examples() int {
	return b.TruePositives + b.FalseNegatives + b.TrueNegatives + b.FalsePositives
}

// Accuracy returns the share of defaults classified right (0 without
// defaults).
func (b *Binary) Accuracy() float64 {
	return ratio(b.TruePositives+b.TrueNegatives, b.Examples())
}

// Precision returns the share of covered defaults that are positive (0
// when none is covered).
func (b *Binary) Precision() float64 {
	return ratio(b.TruePositives, b.TruePositives+b.FalsePositives)
}

// Recall returns the share of positive defaults that are covered (0
// without positives).
func (b *Binary) Recall() float64 {
	return ratio(b.TruePositives, b.TruePositives+b.FalseNegatives)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Defaults decides every default of pos and neg with r under sem and
// counts the answers, and per level of r's theory what it decides and how
// often it is set aside. It stops with ctx's error when ctx is done.
func Defaults(ctx context.Context, r *possibilistic.Reasoner, sem possibilistic.Semantics, pos, neg []logic.Rule) (*Binary, error) {
	b := &Binary{Levels: make([]Level, r.Levels())}
	for set, rules := range [][]logic.Rule{pos, neg} {
		for i, rule := range rules {
			vd, err := r.Decide(ctx, sem, rule.Antecedent, rule.Consequent)
			if err != nil {
				return nil, fmt.Errorf("eval: default %d of %d: %w", i+1, len(rules), err)
			}
			b.add(vd, set == 0)
		}
	}
	return b, nil
}

// add counts one decided default, positive or not.
func (b *Binary) add(vd possibilistic.Verdict, positive bool) {
	for _, j := range vd.SetAside {
		b.Levels[j].SetAside++
	}
	switch {
	case vd.Entailed && positive:
		b.TruePositives++
	case vd.Entailed:
		b.FalsePositives++
	case positive:
		b.FalseNegatives++
	default:
		b.TrueNegatives++
	}
	if !vd.Entailed || vd.Level < 0 || vd.Level >= len(b.Levels) {
		return
	}
	if positive {
		b.Levels[vd.Level].DecidesPos++
	} else {
		b.Levels[vd.Level].DecidesNeg++
	}
}
