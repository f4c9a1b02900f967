package defaults

import (
	"context"
	"fmt"

	"github.com/strata-logic/strata/logic"
)

// RankedWorld is a world (one truth value per atom of the vocabulary) with
// its rank under each of several OCFs.
type RankedWorld struct {
	World []bool
	Ranks []Rank
}

// TooManyWorldsError is the error of RankWorlds on a vocabulary of more
// than MaxWorldAtoms atoms.
type TooManyWorldsError struct{ Atoms int }

func (e *TooManyWorldsError) Error() string {
	return fmt.Sprintf("%d atoms: the ranks of every world are listed for at most %d atoms (%d worlds)",
		e.Atoms, MaxWorldAtoms, 1<<MaxWorldAtoms)
}

// RankWorlds returns every world of the vocabulary of the OCFs' base with
// its rank under each OCF, in the order of logic.ForEachWorld, or a
// *TooManyWorldsError when the vocabulary has more than MaxWorldAtoms
// atoms. The OCFs must rank the same base.
func RankWorlds(ocfs ...*OCF) ([]RankedWorld, error) {
	if len(ocfs) == 0 {
		return nil, nil
	}
	b := ocfs[0].Base()
	for _, k := range ocfs[1:] {
		if k.Base() != b {
			return nil, fmt.Errorf("defaults: RankWorlds of OCFs of different bases")
		}
	}
	n := b.vocab().Len()
	if n > MaxWorldAtoms {
		return nil, &TooManyWorldsError{Atoms: n}
	}
	out := make([]RankedWorld, 0, 1<<n)
	logic.ForEachWorld(n, func(w []bool) bool {
		rw := RankedWorld{World: append([]bool(nil), w...), Ranks: make([]Rank, len(ocfs))}
		for i, k := range ocfs {
			rw.Ranks[i] = k.RankWorld(w)
		}
		out = append(out, rw)
		return true
	})
	return out, nil
}

// Verifies reports whether world w verifies the default: it satisfies
// α ∧ β.
func (d Default) Verifies(w []bool) bool { return d.Antecedent.Eval(w) && d.Consequent.Eval(w) }

// Falsifies reports whether world w falsifies the default: it satisfies
// α ∧ ¬β.
func (d Default) Falsifies(w []bool) bool { return d.Antecedent.Eval(w) && !d.Consequent.Eval(w) }

// Acceptance is how an OCF judges a conditional (β|α): the ranks of its
// verification α ∧ β and of its falsification α ∧ ¬β. The OCF accepts it
// when the first is lower, or α is impossible (both Infinite).
type Acceptance struct {
	Verification, Falsification Rank
	Accepted                    bool
}

// Acceptance returns the ranks κ(α ∧ β) and κ(α ∧ ¬β) of the conditional
// and whether the OCF accepts it (as Accepts). The worlds that decide it
// are the α-worlds of rank min(κ(α ∧ β), κ(α ∧ ¬β)) = κ(α). It fails
// with ctx's error when ctx is done first.
func (k *OCF) Acceptance(ctx context.Context, d Default) (Acceptance, error) {
	ab, err := k.RankFormula(ctx, d.Verification())
	if err != nil {
		return Acceptance{}, err
	}
	anb, err := k.RankFormula(ctx, d.Violation())
	if err != nil {
		return Acceptance{}, err
	}
	return Acceptance{Verification: ab, Falsification: anb, Accepted: anb == Infinite || ab < anb}, nil
}
