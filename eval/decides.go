package eval

import (
	"context"
	"fmt"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Decision is a default whose answer one formula of a theory decides: the
// theory answers it Covered, and the theory without the formula answers it
// the other way.
type Decision struct {
	// Index is the default's position in the positives (Positive) or in
	// the negatives given to Decides.
	Index    int
	Positive bool
	// Covered is the theory's answer, (Θ, α) ⊢ β, with the formula.
	Covered bool
}

// Right reports whether the formula makes the default's answer right: a
// positive covered, or a negative not covered.
func (d Decision) Right() bool { return d.Covered == d.Positive }

// Decisions are the defaults of a labelled set whose answers a formula
// decides.
type Decisions struct {
	// Formula is the formula, Theory.Levels[Level].Formulas[Index].
	Formula      *logic.Formula
	Level, Index int
	// List holds the decided defaults, positives first, each set in the
	// order given.
	List []Decision
	// Right and Wrong count the decided defaults whose answers the
	// formula makes right and wrong; Examples counts the defaults scored.
	Right, Wrong, Examples int
}

// Decides returns the defaults of pos (which the theory should cover) and
// neg (which it should not) whose answers under sem the formula
// th.Levels[level].Formulas[index] decides: those that the theory answers
// otherwise without it. A formula decides a default right when it makes a
// positive covered (it is needed to entail β) or keeps a negative from
// being covered (it drowns the levels, or is the exception, that would
// entail β), and wrong the other way round. A formula that other formulas
// imply decides nothing: the theory answers the same without it.
//
// The defaults' atoms must be atoms of th's vocabulary, in which queries
// intern nothing new. Identical defaults are decided once. It stops with
// ctx's error when ctx is done.
func Decides(ctx context.Context, th *possibilistic.Theory, level, index int, sem possibilistic.Semantics, pos, neg []logic.Rule) (*Decisions, error) {
	if level < 0 || level >= len(th.Levels) || index < 0 || index >= len(th.Levels[level].Formulas) {
		return nil, fmt.Errorf("eval: no formula %d in level %d of a theory of %d levels", index, level, len(th.Levels))
	}
	with, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		return nil, err
	}
	without, err := possibilistic.NewReasoner(ctx, drop(th, level, index))
	if err != nil {
		return nil, err
	}
	out := &Decisions{Formula: th.Levels[level].Formulas[index], Level: level, Index: index, Examples: len(pos) + len(neg)}
	type answers struct{ with, without bool }
	seen := map[string]answers{}
	for set, rules := range [][]logic.Rule{pos, neg} {
		for i, r := range rules {
			key := r.String(th.Vocab)
			a, ok := seen[key]
			if !ok {
				if a.with, err = with.Entails(ctx, sem, r.Antecedent, r.Consequent); err != nil {
					return nil, fmt.Errorf("eval: default %d of %d: %w", i+1, len(rules), err)
				}
				if a.without, err = without.Entails(ctx, sem, r.Antecedent, r.Consequent); err != nil {
					return nil, fmt.Errorf("eval: default %d of %d: %w", i+1, len(rules), err)
				}
				seen[key] = a
			}
			if a.with == a.without {
				continue
			}
			d := Decision{Index: i, Positive: set == 0, Covered: a.with}
			out.List = append(out.List, d)
			if d.Right() {
				out.Right++
			} else {
				out.Wrong++
			}
		}
	}
	return out, nil
}

// drop returns a copy of th without the formula
// th.Levels[level].Formulas[index], and without its level when that was
// the level's only formula. It shares th's vocabulary and formulas.
func drop(th *possibilistic.Theory, level, index int) *possibilistic.Theory {
	u := th.Clone()
	u.Levels[level].Formulas = slices.Delete(u.Levels[level].Formulas, index, index+1)
	if len(u.Levels[level].Formulas) == 0 {
		u.Levels = slices.Delete(u.Levels, level, level+1)
	}
	return u
}
