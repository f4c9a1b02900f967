package defaults

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// falsifier returns an activation literal whose assumption makes default i
// falsified (αi ∧ ¬βi), compiling it on first use.
func (e *engine) falsifier(i int) logic.Lit {
	if e.fal == nil {
		e.fal = map[int]logic.Lit{}
	}
	x, ok := e.fal[i]
	if !ok {
		x = e.guarded(e.ds[i].Violation())
		e.fal[i] = x
	}
	return x
}

// minimalViolations enumerates the inclusion-minimal sets of members
// falsified by some world satisfying the assumptions as: the minimal
// correction sets of the members' materials. It calls fn with each set (in
// member order) and a world that falsifies exactly that set of members,
// and stops when fn returns false or an error.
//
// Each set is found by taking any remaining world and growing the set of
// members it satisfies to a maximal one, one solver call per member it
// falsifies; the set is then blocked ("one of X holds", behind a guard
// literal retired at the end), which excludes exactly its supersets. A
// world found under the blocks falsifies no superset of a known set, and
// so does each world grown from it, so every set produced is minimal among
// all the worlds of as, and every minimal set is produced once.
func (e *engine) minimalViolations(ctx context.Context, as []logic.Lit, members []int, fn func(set []int, w []bool) (bool, error)) error {
	return e.moreViolations(ctx, as, members, nil, fn)
}

// moreViolations is minimalViolations resumed: known are minimal sets
// already produced (by an enumeration that ctx cut short), which are
// blocked first and not produced again. Blocking a minimal set excludes its
// supersets only, so the rest of the enumeration is what it would have been.
func (e *engine) moreViolations(ctx context.Context, as []logic.Lit, members []int, known [][]int, fn func(set []int, w []bool) (bool, error)) error {
	g := logic.Pos(e.s.NewVar())
	defer e.s.AddClause(g.Not())
	base := append(slices.Clone(as), g)
	block := func(set []int) {
		c := []logic.Lit{g.Not()}
		for _, i := range set {
			c = append(c, e.mat[i])
		}
		e.s.AddClause(c...)
	}
	for _, set := range known {
		if len(set) == 0 {
			return nil // the empty set is the only minimal one
		}
		block(set)
	}
	for {
		sat, err := e.solve(ctx, base...)
		if err != nil || !sat {
			return err // nil when every set is found
		}
		w, err := e.grow(ctx, base, members, slices.Clone(e.model()))
		if err != nil {
			return err
		}
		var set []int
		for _, i := range members {
			if !e.matF[i].Eval(w) {
				set = append(set, i)
			}
		}
		more, err := fn(set, w)
		if err != nil || !more || len(set) == 0 {
			return err
		}
		block(set)
	}
}

// grow extends the set of members that w satisfies to a maximal one among
// the worlds of as, and returns a world satisfying it.
func (e *engine) grow(ctx context.Context, as []logic.Lit, members []int, w []bool) ([]bool, error) {
	held := make([]bool, len(members))
	sat := slices.Clone(as)
	for k, i := range members {
		if e.matF[i].Eval(w) {
			held[k] = true
			sat = append(sat, e.mat[i])
		}
	}
	for k, i := range members {
		if held[k] {
			continue
		}
		ok, err := e.solve(ctx, append(sat, e.mat[i])...)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		w = append(w[:0], e.model()...)
		for k2, i2 := range members {
			if !held[k2] && e.matF[i2].Eval(w) {
				held[k2] = true
				sat = append(sat, e.mat[i2])
			}
		}
	}
	return w, nil
}

// fixLevel returns the assumptions that make the worlds falsify exactly
// the set of the level's members.
func (e *engine) fixLevel(dst []logic.Lit, level, set []int) []logic.Lit {
	for _, i := range level {
		if slices.Contains(set, i) {
			dst = append(dst, e.falsifier(i))
		} else {
			dst = append(dst, e.mat[i])
		}
	}
	return dst
}
