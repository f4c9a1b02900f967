package possibilistic

import (
	stdctx "context"

	"github.com/strata-logic/strata/logic"
)

// The …Context variants of the queries give up when their context is done:
// every solver call checks it at its own check points (between restarts,
// every 64 conflicts) and before it starts, so a query on a hard theory
// stops within moments of its deadline instead of running to the end. The
// Reasoner stays usable afterwards: the solver keeps only clauses implied
// by the theory, and the query's activation literals are retired as usual.

// stopped is the panic value with which a cancelled solver call unwinds
// the query that made it, up to the …Context entry point; a false answer
// from a cancelled call must never be read as unsatisfiable.
type stopped struct{ err error }

// solve runs the solver on the assumptions a, under the context of the
// running …Context call if there is one.
func (r *Reasoner) solve(a ...logic.Lit) bool {
	if r.stop == nil {
		return r.s.Solve(a...)
	}
	if err := r.stop.Err(); err != nil {
		panic(stopped{err})
	}
	ok, err := r.s.SolveContext(r.stop, a...)
	if err != nil {
		panic(stopped{err})
	}
	return ok
}

// under runs q with its solver calls under ctx and returns ctx's error if
// ctx ended it.
func (r *Reasoner) under(ctx stdctx.Context, q func()) (err error) {
	if ctx.Done() == nil { // never cancelled: no checks needed
		q()
		return nil
	}
	r.stop = ctx
	defer func() {
		r.stop, r.track = nil, false // track: keepAbove may not have reset it
		if p := recover(); p != nil {
			s, ok := p.(stopped)
			if !ok {
				panic(p)
			}
			err = s.err
		}
	}()
	q()
	return nil
}

// DecideContext is Decide that gives up when ctx is done, returning ctx's
// error.
func (r *Reasoner) DecideContext(ctx stdctx.Context, alpha, beta *logic.Formula) (v Verdict, err error) {
	err = r.under(ctx, func() { v = r.Decide(alpha, beta) })
	return v, err
}

// DecideUnderContext is DecideUnder that gives up when ctx is done,
// returning ctx's error.
func (r *Reasoner) DecideUnderContext(ctx stdctx.Context, s Semantics, alpha, beta *logic.Formula) (v Verdict, err error) {
	err = r.under(ctx, func() { v = r.DecideUnder(s, alpha, beta) })
	return v, err
}

// ExplainContext is Explain that gives up when ctx is done, returning
// ctx's error.
func (r *Reasoner) ExplainContext(ctx stdctx.Context, s Semantics, alpha, beta *logic.Formula) (e Explanation, err error) {
	err = r.under(ctx, func() { e = r.Explain(s, alpha, beta) })
	return e, err
}

// ConcludeUnderContext is ConcludeUnder that gives up when ctx is done,
// returning ctx's error.
func (r *Reasoner) ConcludeUnderContext(ctx stdctx.Context, s Semantics, alpha *logic.Formula) (cs []Conclusion, err error) {
	err = r.under(ctx, func() { cs = r.ConcludeUnder(s, alpha) })
	return cs, err
}

// InconsistencyContext is Inconsistency that gives up when ctx is done,
// returning ctx's error.
func (r *Reasoner) InconsistencyContext(ctx stdctx.Context, alpha *logic.Formula) (inc float64, err error) {
	err = r.under(ctx, func() { inc = r.Inconsistency(alpha) })
	return inc, err
}

// MostPlausibleWorldUnderContext is MostPlausibleWorldUnder that gives up
// when ctx is done, returning ctx's error.
func (r *Reasoner) MostPlausibleWorldUnderContext(ctx stdctx.Context, s Semantics, alpha *logic.Formula) (world []bool, ok bool, err error) {
	err = r.under(ctx, func() { world, ok = r.MostPlausibleWorldUnder(s, alpha) })
	return world, ok, err
}
