package defaults

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// System W (Komo and Beierle 2022) compares worlds by ξ^j(ω), the set of
// defaults of layer Δj of the Z-partition that ω falsifies: ω <_w ω' iff
// for some layer m, ξ^i(ω) = ξ^i(ω') for every layer i above m and
// ξ^m(ω) ⊊ ξ^m(ω'). α |~w β iff every α ∧ ¬β-world has an α ∧ β-world
// below it; as <_w is a strict partial order on finitely many worlds, that
// is: every <_w-minimal α-world satisfies β.
//
// The minimal α-worlds are found layer by layer from the top. A world is
// minimal only if its falsified set in the top layer Δk is an
// inclusion-minimal one among the α-worlds; worlds with different minimal
// sets there are incomparable, and those sharing one are compared by the
// layers below. So the minimal α-worlds are the union, over the minimal
// sets X of Δk, of the minimal worlds among the α-worlds that falsify
// exactly X of Δk, recursively down to Δ1, below which all the worlds left
// share their whole vector and are all minimal. The search descends only
// where α ∧ ¬β is still possible: a branch whose worlds all satisfy β is
// settled at once, and a branch whose worlds all falsify β yields a
// counter-world by following any one path to the bottom.

func (r *Reasoner) systemW(ctx context.Context, a *Answer) error {
	e := r.e
	defer e.done()
	as := e.assume(nil, a.Query.Antecedent)
	if ok, err := e.solve(ctx, as...); err != nil || !ok {
		a.Vacuous, a.Entailed = err == nil, err == nil
		return err
	}
	ws := &wSearch{e: e, levels: r.sets}
	ws.yes = e.assume(nil, a.Query.Consequent)
	ws.no = e.assume(nil, logic.Not(a.Query.Consequent))
	calls := e.solves()
	ok, err := ws.node(ctx, as, len(ws.levels)-1)
	if err != nil {
		return fmt.Errorf("System W stopped after %d branches of minimal falsified sets and %d solver calls: %w", ws.branches, e.solves()-calls, err)
	}
	a.Entailed, a.Branches = ok, ws.branches
	if !ok {
		a.Counter = ws.counter
	}
	return nil
}

type wSearch struct {
	e        *engine
	levels   [][]int
	yes, no  []logic.Lit // assumptions for β and for ¬β
	counter  []bool
	branches int
}

// node decides whether every minimal world among those of h (worlds whose
// falsified sets are fixed above layer j) satisfies β.
func (ws *wSearch) node(ctx context.Context, h []logic.Lit, j int) (bool, error) {
	e := ws.e
	if ok, err := e.solve(ctx, append(slices.Clone(h), ws.no...)...); err != nil || !ok {
		return err == nil, err
	}
	if j < 0 {
		ws.branches++
		ws.counter = slices.Clone(e.model())
		return false, nil
	}
	if ok, err := e.solve(ctx, append(slices.Clone(h), ws.yes...)...); err != nil || !ok {
		if err != nil {
			return false, err
		}
		return false, ws.descend(ctx, h, j)
	}
	ok := true
	err := e.minimalViolations(ctx, h, ws.levels[j], func(set []int, _ []bool) (bool, error) {
		sub, err := ws.node(ctx, e.fixLevel(slices.Clone(h), ws.levels[j], set), j-1)
		ok = sub
		return sub, err
	})
	return ok, err
}

// descend finds a minimal world among those of h, all of which falsify β,
// by fixing one minimal falsified set per layer.
func (ws *wSearch) descend(ctx context.Context, h []logic.Lit, j int) error {
	e := ws.e
	for ; j >= 0; j-- {
		var first []int
		err := e.minimalViolations(ctx, h, ws.levels[j], func(set []int, _ []bool) (bool, error) {
			first = set
			return false, nil
		})
		if err != nil {
			return err
		}
		h = e.fixLevel(slices.Clone(h), ws.levels[j], first)
	}
	ws.branches++
	if ok, err := e.solve(ctx, h...); err != nil || !ok {
		if err != nil {
			return err
		}
		panic("defaults: System W lost the worlds of a branch")
	}
	ws.counter = slices.Clone(e.model())
	return nil
}

func (a Answer) wReason(b *strings.Builder, alpha, beta string) {
	if a.Entailed {
		fmt.Fprintf(b, "every preferred world of %s under System W satisfies %s (%d branches of minimal falsified sets explored)", alpha, beta, a.Branches)
		return
	}
	fmt.Fprintf(b, "some preferred world of %s under System W falsifies %s", alpha, beta)
	if a.Counter != nil {
		v := a.ord.Base.vocab()
		var parts []string
		for j := len(a.ord.Levels) - 1; j >= 0; j-- {
			var names []string
			for _, i := range a.ord.Levels[j] {
				if !a.ord.Base.Defaults[i].Material().Eval(a.Counter) {
					names = append(names, a.ord.Base.Defaults[i].Describe(v))
				}
			}
			if len(names) > 0 {
				parts = append(parts, fmt.Sprintf("%s: %s", levelName(j), strings.Join(names, "; ")))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(b, "; it falsifies %s", strings.Join(parts, " | "))
		} else {
			b.WriteString("; it falsifies no default")
		}
	}
}
