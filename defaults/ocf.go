package defaults

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/strata-logic/strata/logic"
)

// Rank is a rank of an ordinal conditional function: a degree of
// disbelief, 0 for the most plausible worlds, or Infinite for worlds that
// are impossible (they contradict the background knowledge).
type Rank int64

// Infinite is the rank of impossible worlds and formulas.
const Infinite Rank = math.MaxInt64

func (k Rank) String() string {
	if k == Infinite {
		return "∞"
	}
	return strconv.FormatInt(int64(k), 10)
}

// MarshalJSON writes a finite rank as a number and Infinite as "inf".
func (k Rank) MarshalJSON() ([]byte, error) {
	if k == Infinite {
		return []byte(`"inf"`), nil
	}
	return strconv.AppendInt(nil, int64(k), 10), nil
}

// UnmarshalJSON reads what MarshalJSON writes: a number or "inf".
func (k *Rank) UnmarshalJSON(b []byte) error {
	if string(b) == `"inf"` {
		*k = Infinite
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("rank %s: want a whole number from 0, or \"inf\"", b)
	}
	*k = Rank(n)
	return nil
}

// OCF is a ranking function (ordinal conditional function, Spohn) of a
// base: κ_Z of System Z or a c-representation κ_c. Worlds that contradict
// the background knowledge (with the ¬α of Δ^∞ for a weakly consistent
// base) rank Infinite. An OCF answers through its Reasoner's solver and,
// like it, is not safe for concurrent use.
type OCF struct {
	// Kind is "z" for κ_Z, "c" for a c-representation.
	Kind string
	// Layer holds, for κ_Z, the Z-layer (0-based) of each default of the
	// base: κ_Z(ω) = 0 when ω falsifies no default, else 1 + the highest
	// layer of a default it falsifies.
	Layer []int
	// Impacts holds, for κ_c, the impact ηi of each default of the base:
	// κ_c(ω) is the sum of the impacts of the defaults ω falsifies.
	Impacts []int

	r *Reasoner
}

// SystemZ returns κ_Z, Pearl's ranking function of the base.
func (r *Reasoner) SystemZ() *OCF {
	k := &OCF{Kind: "z", r: r, Layer: make([]int, len(r.base.Defaults))}
	for i := range k.Layer {
		k.Layer[i] = r.ord.Rank(i)
	}
	return k
}

// CRepresentation returns a minimal c-representation κ_c of the base: one
// whose integer impacts have the least sum (found by branch and bound over
// the exact linear programs of CR(Δ), lp.LeastSum). It fails with
// ErrNoCRepresentation when there is none, and with ctx.Err() when ctx is
// done first.
func (r *Reasoner) CRepresentation(ctx context.Context) (*OCF, error) {
	imp, err := r.minimalImpacts(ctx)
	if err != nil {
		return nil, err
	}
	k := &OCF{Kind: "c", r: r, Impacts: make([]int, len(r.base.Defaults))}
	for p, i := range r.distinct() {
		k.Impacts[i] = int(imp[p])
	}
	r.copyDuplicateImpacts(k.Impacts)
	return k, nil
}

// Base returns the base the OCF ranks (for NewWeakReasoner, the reduced
// base whose background knowledge holds the ¬α of Δ^∞).
func (k *OCF) Base() *Base { return k.r.base }

// RankWorld returns κ(ω) for a world given as one truth value per atom of
// the base's vocabulary.
func (k *OCF) RankWorld(w []bool) Rank {
	b := k.r.base
	for _, f := range b.Background {
		if !f.Eval(w) {
			return Infinite
		}
	}
	switch k.Kind {
	case "z":
		rank := Rank(0)
		for i, d := range b.Defaults {
			if !d.Material().Eval(w) {
				rank = max(rank, Rank(k.Layer[i]+1))
			}
		}
		return rank
	default:
		var sum Rank
		for _, i := range k.r.distinct() {
			if !b.Defaults[i].Material().Eval(w) {
				sum += Rank(k.Impacts[i])
			}
		}
		return sum
	}
}

// RankFormula returns κ(f) = min{κ(ω) : ω ⊨ f}, Infinite when f has no
// world. It fails with ctx's error when ctx is done first.
func (k *OCF) RankFormula(ctx context.Context, f *logic.Formula) (Rank, error) {
	r := k.r
	e := r.e
	defer e.done()
	as := e.assume(nil, f)
	if ok, err := e.solve(ctx, as...); err != nil || !ok {
		return Infinite, err
	}
	if k.Kind == "z" {
		// The least j such that f is consistent with the layers from j up.
		levels := r.ord.Levels
		for j := 0; j < len(levels); j++ {
			h := append([]logic.Lit(nil), as...)
			for _, l := range levels[j:] {
				for _, i := range l {
					h = append(h, e.mat[i])
				}
			}
			ok, err := e.solve(ctx, h...)
			if err != nil {
				return 0, err
			}
			if ok {
				return Rank(j), nil
			}
		}
		return Rank(len(levels)), nil
	}
	best := Infinite
	err := e.minimalViolations(ctx, as, r.distinct(), func(set []int, _ []bool) (bool, error) {
		var sum Rank
		for _, i := range set {
			sum += Rank(k.Impacts[i])
		}
		best = min(best, sum)
		return true, nil
	})
	return best, err
}

// Accepts reports whether the OCF accepts the conditional (β|α):
// κ(α ∧ β) < κ(α ∧ ¬β), or α is impossible. It fails with ctx's error
// when ctx is done first.
func (k *OCF) Accepts(ctx context.Context, d Default) (bool, error) {
	a, err := k.Acceptance(ctx, d)
	return a.Accepted, err
}

// MaxWorldAtoms bounds the vocabulary size up to which RankWorlds lists
// every world with its ranks.
const MaxWorldAtoms = 12
