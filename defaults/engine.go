package defaults

import (
	"context"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// engine compiles a base into one incremental SAT solver. The background
// knowledge K is added for good. Each default i gets two activation
// literals, and the solver only ever sees it through them:
//
//	mat[i] → ¬αi ∨ βi   (assume it to make the default's material hold)
//	ver[i] → αi ∧ βi    (assume it to ask for a world verifying the default)
//
// A remainder R of the Z-ordering is switched on by a level selector S: for
// i ∈ R the clause ¬S ∨ ¬αi ∨ βi when the material is a clause, else
// ¬S ∨ mat[i]. Every tolerance test then assumes just S and ver[i], two
// literals, however large R is; and since the watches of a clause move off
// ¬S the first time S is assumed, later tests of the level do not even
// visit the clauses of defaults they do not touch. When the level is done
// the unit ¬S retires its clauses.
type engine struct {
	v     *logic.Vocabulary
	s     *sat.Solver
	varOf []logic.Atom // vocabulary atom → solver variable

	ds   []Default
	mat  []logic.Lit
	ver  []logic.Lit
	verF []*logic.Formula // αi ∧ βi, to check models
	matF []*logic.Formula // ¬αi ∨ βi, to count violations
	matC [][]logic.Lit    // ¬αi ∨ βi in solver literals when it is a clause, else nil
	idx  map[logic.Lit]int
	fal  map[int]logic.Lit // i → activation literal of αi ∧ ¬βi, compiled on first use

	bgSat  int8 // 0 unknown, 1 satisfiable, -1 not
	retire []logic.Lit
	world  []bool
	best   []bool // the best world of a lexicographic search

	// onSolve, when set (by tests), runs at the start of every solve,
	// including those answered at once because ctx is done.
	onSolve func()
}

func newEngine(b *Base) *engine {
	v := b.vocab()
	e := &engine{v: v, s: sat.New(), idx: map[logic.Lit]int{}}
	for a := range v.Len() {
		e.atom(logic.Atom(a))
	}
	for _, f := range b.Background {
		for _, c := range logic.CNF(f.Rename(e.atom), e.s.NewVar) {
			e.s.AddClause(c...)
		}
	}
	for _, d := range b.Defaults {
		e.addDefault(d)
	}
	return e
}

// atom maps a vocabulary atom to its solver variable, creating variables
// for atoms interned after the engine was built (by a query).
func (e *engine) atom(a logic.Atom) logic.Atom {
	for int(a) >= len(e.varOf) {
		e.varOf = append(e.varOf, e.s.NewVar())
	}
	return e.varOf[a]
}

func (e *engine) lit(l logic.Lit) logic.Lit { return logic.MkLit(e.atom(l.Atom()), l.IsNeg()) }

// guarded adds the clauses of x → f and returns x, a fresh positive literal.
func (e *engine) guarded(f *logic.Formula) logic.Lit {
	x := logic.Pos(e.s.NewVar())
	for _, c := range logic.CNF(f.Rename(e.atom), e.s.NewVar) {
		e.s.AddClause(append(c, x.Not())...)
	}
	return x
}

// addDefault compiles d and returns its index.
func (e *engine) addDefault(d Default) int {
	i := len(e.ds)
	e.ds = append(e.ds, d)
	mf, vf := d.Material(), d.Verification()
	e.matF = append(e.matF, mf)
	var mc []logic.Lit
	if c, ok := mf.AsClause(); ok {
		for _, l := range c {
			mc = append(mc, e.lit(l))
		}
	}
	e.matC = append(e.matC, mc)
	e.verF = append(e.verF, vf)
	m := e.guarded(mf)
	e.mat = append(e.mat, m)
	e.ver = append(e.ver, e.guarded(vf))
	e.idx[m] = i
	return i
}

// dropFrom forgets the defaults from index n on (the defaults a query
// added) and retires their literals.
func (e *engine) dropFrom(n int) {
	for i := n; i < len(e.ds); i++ {
		e.s.AddClause(e.mat[i].Not())
		e.s.AddClause(e.ver[i].Not())
		delete(e.idx, e.mat[i])
	}
	e.ds, e.mat, e.ver = e.ds[:n], e.mat[:n], e.ver[:n]
	e.verF, e.matF, e.matC = e.verF[:n], e.matF[:n], e.matC[:n]
}

// solve is the engine's one way to call the solver. It is where every
// computation of this package meets its context: it polls ctx before the
// call, and the solver polls it at its own check points (between restarts,
// every 64 conflicts or decisions). A false answer with an error says nothing about
// satisfiability; every caller returns the error at once, so that no
// further call is made once ctx is done.
func (e *engine) solve(ctx context.Context, as ...logic.Lit) (bool, error) {
	if e.onSolve != nil {
		e.onSolve()
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return e.s.Solve(ctx, as...)
}

// solves returns the number of solver calls made so far.
func (e *engine) solves() int64 { return e.s.Stats().Solves }

// backgroundSatisfiable reports whether K has a model.
func (e *engine) backgroundSatisfiable(ctx context.Context) (bool, error) {
	if e.bgSat == 0 {
		ok, err := e.solve(ctx)
		if err != nil {
			return false, err // not known: the call was cut short
		}
		e.bgSat = -1
		if ok {
			e.bgSat = 1
		}
	}
	return e.bgSat == 1, nil
}

// model returns the last model over the vocabulary atoms.
func (e *engine) model() []bool {
	e.world = e.world[:0]
	for a := range e.v.Len() {
		e.world = append(e.world, e.s.Value(e.atom(logic.Atom(a))))
	}
	return e.world
}

// selectLevel returns a fresh level selector S whose assumption makes the
// members' materials hold.
func (e *engine) selectLevel(members []int) logic.Lit {
	sel := logic.Pos(e.s.NewVar())
	var buf []logic.Lit
	for _, i := range members {
		if c := e.matC[i]; c != nil {
			buf = append(append(buf[:0], sel.Not()), c...)
			e.s.AddClause(buf...)
		} else {
			e.s.AddClause(sel.Not(), e.mat[i])
		}
	}
	return sel
}

// tolerated reports whether default x is tolerated by the members: one
// solver call.
func (e *engine) tolerated(ctx context.Context, members []int, x int) (bool, error) {
	sel := e.selectLevel(members)
	ok, err := e.solve(ctx, sel, e.ver[x])
	e.s.AddClause(sel.Not())
	return ok, err
}

// partition computes the Z-ordering of the members: Δ1 holds the members
// that the members tolerate, Δ2 those of the rest that the rest tolerates,
// and so on. It stops early when a non-empty remainder tolerates none of
// its members, and returns that remainder as stuck.
//
// Each level costs at most one solver call per default of the remainder: a
// default is tested with S and ver[i] assumed, and a model found for one
// default also settles every later default of the remainder that it
// verifies.
func (e *engine) partition(ctx context.Context, members []int) (levels [][]int, stuck []int, err error) {
	rem := append([]int(nil), members...)
	for len(rem) > 0 {
		sel := e.selectLevel(rem)
		tol := make([]bool, len(rem))
		for k, i := range rem {
			if tol[k] {
				continue
			}
			ok, err := e.solve(ctx, sel, e.ver[i])
			if err != nil {
				e.s.AddClause(sel.Not())
				return nil, nil, err
			}
			if !ok {
				continue
			}
			tol[k] = true
			w := e.model()
			for k2 := k + 1; k2 < len(rem); k2++ {
				if !tol[k2] && e.verF[rem[k2]].Eval(w) {
					tol[k2] = true
				}
			}
		}
		e.s.AddClause(sel.Not())
		var level, rest []int
		for k, i := range rem {
			if tol[k] {
				level = append(level, i)
			} else {
				rest = append(rest, i)
			}
		}
		if len(level) == 0 {
			return levels, rem, nil
		}
		levels = append(levels, level)
		rem = rest
	}
	return levels, nil, nil
}

// core returns a subset F of the members such that default x is not
// tolerated by F (taken from the failed assumptions of one solver call), or
// ok false when x is tolerated by the members after all.
func (e *engine) core(ctx context.Context, members []int, x int) (f []int, ok bool, err error) {
	as := make([]logic.Lit, 0, len(members)+1)
	for _, i := range members {
		as = append(as, e.mat[i])
	}
	as = append(as, e.ver[x])
	if sat, err := e.solve(ctx, as...); sat || err != nil {
		return nil, false, err
	}
	for _, l := range e.s.Failed() {
		if i, found := e.idx[l]; found {
			f = append(f, i)
		}
	}
	return f, true, nil
}

// assume compiles a formula into assumption literals: a term literal by
// literal, anything else through an activation literal that done retires.
func (e *engine) assume(dst []logic.Lit, f *logic.Formula) []logic.Lit {
	t, ok := f.AsTerm()
	if !ok {
		t, ok = logic.NNFLinear(f).AsTerm() // ¬(a ∨ b) is the term ¬a ∧ ¬b
	}
	if ok {
		for _, l := range t {
			dst = append(dst, e.lit(l))
		}
		return dst
	}
	x := e.guarded(f)
	e.retire = append(e.retire, x)
	return append(dst, x)
}

// done retires the activation literals of a query, so the solver drops
// their clauses.
func (e *engine) done() {
	for _, x := range e.retire {
		e.s.AddClause(x.Not())
	}
	e.retire = e.retire[:0]
}
