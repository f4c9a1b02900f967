package learn

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// MaxExact is the largest theory Separate accepts: the search visits up to
// 4^|T| pairs of subsets.
const MaxExact = 24

// ErrNoSeparation reports that no stratification covers every positive
// example and no negative one.
var ErrNoSeparation = errors.New("no separating stratification exists")

// SeparateProgress is the work Separate has done: it examines at most
// MaxCuts pairs (T, T') of a set of formulas T and a subset T' (3^n for n
// formulas, since every T is searched through once), each costing at most
// one solver call per example.
type SeparateProgress struct {
	Cuts, MaxCuts int64
	Calls         int64 // solver calls
}

// progressEvery is how many cuts Separate examines between two
// looks at its context and two progress reports.
const progressEvery = 1 << 12

// MaxSeparateCuts is the most pairs (T, T') Separate examines for n
// formulas: 3^n.
func MaxSeparateCuts(n int) int64 {
	c := int64(1)
	for range n {
		c *= 3
	}
	return c
}

// Separate is the exact parameter learner of the paper's appendix
// (Stratify-Separable): it returns a stratification of the formulas t,
// lowest level first, that covers every positive default and no negative
// one, with the hard formulas above all levels, or ErrNoSeparation.
//
// The search refines the top of the stratification: a set T is split into a
// non-empty bottom level and the set T' above it, which must entail, with
// α, every remaining positive example (or be inconsistent with its α) and
// must not cover any negative. Positives consistent with T' are then
// covered; the others recurse into T'. The positives that remain at T are
// exactly those inconsistent with T, so failures are memoised on T alone,
// and every solver answer is cached, which gives the appendix theorem's bound
// (O(2^|T|·|S|) solver calls).
//
// Unlike the pseudo-code in the paper, the loop ranges over proper subsets
// T' ⊊ T (T' = T would recurse on the same arguments forever), and the
// negatives are also checked against the whole theory before the search.
//
// Separate stops with ctx's error when ctx is done, and calls progress
// (when not nil) every few thousand cuts and at the end.
func Separate(ctx context.Context, t []*logic.Formula, pos, neg []logic.Rule, hard []*logic.Formula, progress func(SeparateProgress)) ([][]*logic.Formula, error) {
	if len(t) > MaxExact {
		return nil, fmt.Errorf("exact stratification of %d formulas: at most %d (the search is exponential; use the greedy stratifier)", len(t), MaxExact)
	}
	x := newExact(t, pos, neg, hard)
	x.ctx, x.progress = ctx, progress
	x.work.MaxCuts = MaxSeparateCuts(len(t))
	defer x.report()
	full := uint32(1)<<len(t) - 1
	for i := range neg {
		if x.covers(full, len(pos)+i) {
			return nil, ErrNoSeparation
		}
	}
	var rem []int
	for i := range pos {
		switch {
		case !x.consistent(full, i):
			rem = append(rem, i)
		case !x.entails(full, i):
			return nil, ErrNoSeparation
		}
	}
	masks, ok := x.impl(full, rem)
	if x.err != nil {
		return nil, fmt.Errorf("exact stratification stopped after %d of at most %d cuts: %w", x.work.Cuts, x.work.MaxCuts, x.err)
	}
	if !ok {
		return nil, ErrNoSeparation
	}
	levels := make([][]*logic.Formula, len(masks))
	for j, m := range masks {
		for i := range t {
			if m&(1<<i) != 0 {
				levels[j] = append(levels[j], t[i])
			}
		}
	}
	return levels, nil
}

type exactQ struct {
	s       *sat.Solver
	sel     []logic.Lit
	alpha   []logic.Lit // activation literal of α, per example
	negBeta []logic.Lit // activation literal of ¬β, per example
	cache   []map[uint32]uint8
	closed  map[uint32]bool
	nPos    int
	assume  []logic.Lit

	ctx      context.Context
	err      error // ctx's error, once it is done
	progress func(SeparateProgress)
	work     SeparateProgress
}

// report passes the work done to the progress callback.
func (x *exactQ) report() {
	if x.progress != nil {
		x.progress(x.work)
	}
}

// tick counts a cut and, every progressEvery cuts, reports and looks at
// the context; it returns false once the context is done.
func (x *exactQ) tick() bool {
	x.work.Cuts++
	if x.work.Cuts%progressEvery == 0 {
		if err := x.ctx.Err(); err != nil {
			x.err = err
			return false
		}
		x.report()
	}
	return true
}

const (
	qCons    = 1 // consistency known
	qConsYes = 2
	qEnt     = 4 // entailment known
	qEntYes  = 8
)

func newExact(t []*logic.Formula, pos, neg []logic.Rule, hard []*logic.Formula) *exactQ {
	x := &exactQ{s: sat.New(), closed: map[uint32]bool{}, nPos: len(pos)}
	maxAtom := logic.Atom(-1)
	note := func(f *logic.Formula) { maxAtom = max(maxAtom, f.MaxAtom()) }
	for _, f := range t {
		note(f)
	}
	for _, f := range hard {
		note(f)
	}
	for _, r := range append(append([]logic.Rule(nil), pos...), neg...) {
		note(r.Antecedent)
		note(r.Consequent)
	}
	for range int(maxAtom) + 1 {
		x.s.NewVar()
	}
	for _, f := range hard {
		for _, c := range logic.CNF(f, x.s.NewVar) {
			x.s.AddClause(c...)
		}
	}
	guarded := func(f *logic.Formula) logic.Lit {
		g := logic.Pos(x.s.NewVar())
		for _, c := range logic.CNF(f, x.s.NewVar) {
			x.s.AddClause(append(c, g.Not())...)
		}
		return g
	}
	for _, f := range t {
		x.sel = append(x.sel, guarded(f))
	}
	for _, r := range append(append([]logic.Rule(nil), pos...), neg...) {
		x.alpha = append(x.alpha, guarded(r.Antecedent))
		x.negBeta = append(x.negBeta, guarded(logic.Not(r.Consequent)))
		x.cache = append(x.cache, map[uint32]uint8{})
	}
	return x
}

func (x *exactQ) solve(mask uint32, ex int, negBeta bool) bool {
	a := x.assume[:0]
	for i, s := range x.sel {
		if mask&(1<<i) != 0 {
			a = append(a, s)
		} else {
			a = append(a, s.Not())
		}
	}
	a = append(a, x.alpha[ex])
	if negBeta {
		a = append(a, x.negBeta[ex])
	}
	x.assume = a
	x.work.Calls++
	ok, _ := x.s.Solve(context.Background(), a...)
	return ok
}

// consistent reports whether mask ∪ H ∪ α of example ex is consistent.
func (x *exactQ) consistent(mask uint32, ex int) bool {
	q := x.cache[ex][mask]
	if q&qCons == 0 {
		q |= qCons
		if x.solve(mask, ex, false) {
			q |= qConsYes
		}
		x.cache[ex][mask] = q
	}
	return q&qConsYes != 0
}

// entails reports whether mask ∪ H ∪ α of example ex entails β.
func (x *exactQ) entails(mask uint32, ex int) bool {
	q := x.cache[ex][mask]
	if q&qEnt == 0 {
		q |= qEnt
		if !x.solve(mask, ex, true) {
			q |= qEntYes
		}
		x.cache[ex][mask] = q
	}
	return q&qEntYes != 0
}

// covers reports whether mask, as the cut, covers example ex.
func (x *exactQ) covers(mask uint32, ex int) bool {
	return x.consistent(mask, ex) && x.entails(mask, ex)
}

// impl stratifies the set t so that the positives rem (all inconsistent with
// t) are covered by the levels above a bottom level, and no negative is.
func (x *exactQ) impl(t uint32, rem []int) ([]uint32, bool) {
	if t == 0 {
		return nil, len(rem) == 0
	}
	if x.closed[t] {
		return nil, false
	}
	for sub := (t - 1) & t; ; sub = (sub - 1) & t {
		if !x.tick() {
			return nil, false
		}
		if x.admissible(sub, rem) {
			var next []int
			for _, e := range rem {
				if !x.consistent(sub, e) {
					next = append(next, e)
				}
			}
			if r, ok := x.impl(sub, next); ok {
				return append([]uint32{t &^ sub}, r...), true
			}
			if x.err != nil {
				return nil, false
			}
		}
		if sub == 0 {
			break
		}
	}
	x.closed[t] = true
	return nil, false
}

// admissible checks the conditions of line 11 of the algorithm for the cut
// sub: every remaining positive is entailed (or inconsistent), and no
// negative is covered.
func (x *exactQ) admissible(sub uint32, rem []int) bool {
	for _, e := range rem {
		if x.consistent(sub, e) && !x.entails(sub, e) {
			return false
		}
	}
	for i := range len(x.cache) - x.nPos {
		if x.covers(sub, x.nPos+i) {
			return false
		}
	}
	return true
}
