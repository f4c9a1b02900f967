package mln

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln/maxsat"
)

// Engine answers MAP queries on one network. An engine is not safe for
// concurrent use; make one per goroutine. A query whose context is done
// before it is answered returns the context's error; the engine stays
// usable.
type Engine interface {
	// MAP returns a most probable world of the evidence over the network's
	// atoms (for an approximate engine, the best one it found) and its
	// integer cost; ok is false when no world satisfies the evidence and the
	// hard formulas. The world is valid until the next call.
	MAP(ctx context.Context, evidence logic.Term) (world []bool, cost int64, ok bool, err error)
	// AtMost reports whether some world of the evidence costs at most bound
	// (for an approximate engine: whether it found one).
	AtMost(ctx context.Context, evidence logic.Term, bound int64) (bool, error)
	// Compiled returns the MaxSAT form of the network the engine solves.
	Compiled() *Compiled
}

// Entailment is the answer to a MAP-entailment query (M, α) ⊢MAP β.
type Entailment int8

const (
	// NotEntailed: some most probable world of α falsifies β.
	NotEntailed Entailment = iota
	// Entailed: every most probable world of α satisfies β.
	Entailed
	// NoWorld: no world satisfies α and the hard formulas, so α entails
	// every β vacuously; a caller labelling examples drops α instead.
	NoWorld
)

// Holds reports whether β follows, vacuously included.
func (a Entailment) Holds() bool { return a != NotEntailed }

// String returns "no", "yes" or "no world satisfies the evidence".
func (a Entailment) String() string {
	switch a {
	case Entailed:
		return "yes"
	case NoWorld:
		return "no world satisfies the evidence"
	}
	return "no"
}

// Entails decides MAP entailment (M, α) ⊢MAP β for a literal β: every most
// probable world of α satisfies β. It holds exactly when the best cost of
// α ∧ ¬β is strictly worse than the best cost of α; when no world satisfies
// α the answer is NoWorld. With an approximate engine the costs are the best
// ones found, so the answer is a noisy label, which is all the learner needs.
func Entails(ctx context.Context, e Engine, alpha logic.Term, beta logic.Lit) (Entailment, error) {
	if int(beta.Atom()) >= e.Compiled().Atoms || beta < 0 {
		return NotEntailed, fmt.Errorf("mln: conclusion atom %d outside the network", beta.Atom())
	}
	world, cost, ok, err := e.MAP(ctx, alpha)
	if err != nil {
		return NotEntailed, err
	}
	if !ok {
		return NoWorld, nil
	}
	yes, err := entailsGiven(ctx, e, alpha, beta, world, cost)
	if yes {
		return Entailed, err
	}
	return NotEntailed, err
}

// entailsGiven is Entails once a best world of α and its cost are known.
func entailsGiven(ctx context.Context, e Engine, alpha logic.Term, beta logic.Lit, world []bool, cost int64) (bool, error) {
	if int(beta.Atom()) >= len(world) || beta < 0 {
		return false, fmt.Errorf("mln: conclusion atom %d outside the network", beta.Atom())
	}
	if !beta.Holds(world) {
		return false, nil // a best world of α falsifies β
	}
	q := append(append(make(logic.Term, 0, len(alpha)+1), alpha...), beta.Not())
	tie, err := e.AtMost(ctx, q, cost)
	return !tie && err == nil, err
}

// Exact is the exact MAP engine, a portfolio of three exact MaxSAT solvers
// from package maxsat. When the network's interaction graph has an
// elimination order of width at most 16 (learned networks do:
// 10 for Plants, 4 for NLTCS), every query goes to bucket elimination,
// whose time does not depend on the weights: branch and bound and the
// core-guided solver took minutes on some Plants queries whose costs are
// close together. Otherwise branch and bound, which answers most queries of
// small networks in well under a millisecond, gets 5000 search
// nodes, and the core-guided OLL solver takes the queries it cannot finish.
type Exact struct {
	c  *Compiled
	bb *maxsat.Exact
	ve *maxsat.Elimination // nil when the network is too wide
	cg *maxsat.CoreGuided
	// Outcomes of branch and bound so far: when it runs out of nodes on
	// most queries, the engine goes straight to the core-guided solver,
	// trying branch and bound again on one query in 32.
	bbWins, bbLosses, queries int
}

// branchNodes is the node budget of branch and bound before an Exact engine
// hands a query to bucket elimination or the core-guided solver.
const branchNodes = 5000

// eliminationWidth is the largest width of an elimination order for which
// an Exact engine uses bucket elimination; its tables hold up to
// 2^(eliminationWidth+1) costs.
const eliminationWidth = 16

// NewExact compiles n for exact MAP inference.
func NewExact(n *Network) (*Exact, error) {
	c, err := Compile(n)
	if err != nil {
		return nil, err
	}
	bb, err := maxsat.NewExact(c.Problem)
	if err != nil {
		return nil, err
	}
	bb.NodeLimit = branchNodes
	cg, err := maxsat.NewCoreGuided(c.Problem)
	if err != nil {
		return nil, err
	}
	ve, err := maxsat.NewElimination(c.Problem, eliminationWidth)
	if errors.Is(err, maxsat.ErrTooWide) {
		ve, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &Exact{c: c, bb: bb, ve: ve, cg: cg}, nil
}

// Compiled implements Engine.
func (e *Exact) Compiled() *Compiled { return e.c }

// Effort returns the branch-and-bound nodes and the SAT calls of the
// core-guided solver spent by all queries so far.
func (e *Exact) Effort() (nodes, satCalls int64) { return e.bb.Nodes, e.cg.SATCalls }

// MAP implements Engine.
func (e *Exact) MAP(ctx context.Context, evidence logic.Term) ([]bool, int64, bool, error) {
	if err := e.c.checkEvidence(evidence); err != nil {
		return nil, 0, false, err
	}
	var cost int64
	var ok bool
	err := maxsat.ErrNodeLimit
	model := e.bb.Model
	if e.ve == nil && e.tryBranch() {
		cost, ok, err = e.bb.Solve(ctx, evidence, math.MaxInt64)
		e.record(err)
	}
	if errors.Is(err, maxsat.ErrNodeLimit) {
		if e.ve != nil {
			cost, ok, err = e.ve.Solve(ctx, evidence, math.MaxInt64)
			model = e.ve.Model
		} else {
			cost, ok, err = e.cg.Solve(ctx, evidence, math.MaxInt64)
			model = e.cg.Model
		}
	}
	if err != nil || !ok {
		return nil, 0, false, err
	}
	return model()[:e.c.Atoms], cost, true, nil
}

// AtMost implements Engine.
func (e *Exact) AtMost(ctx context.Context, evidence logic.Term, bound int64) (bool, error) {
	if err := e.c.checkEvidence(evidence); err != nil {
		return false, err
	}
	if bound == math.MaxInt64 {
		bound--
	}
	if e.ve == nil && e.tryBranch() {
		_, ok, err := e.bb.Solve(ctx, evidence, bound+1)
		if e.record(err); !errors.Is(err, maxsat.ErrNodeLimit) {
			return ok, err
		}
	}
	if e.ve != nil {
		_, ok, err := e.ve.Solve(ctx, evidence, bound+1)
		return ok, err
	}
	return e.cg.Exists(ctx, evidence, bound+1)
}

// tryBranch reports whether the next query should start with branch and
// bound.
func (e *Exact) tryBranch() bool {
	e.queries++
	return e.bbLosses < 16 || e.bbLosses <= 4*e.bbWins || e.queries%32 == 0
}

func (e *Exact) record(err error) {
	switch {
	case errors.Is(err, maxsat.ErrNodeLimit):
		e.bbLosses++
	case err == nil:
		e.bbWins++
	}
}

func (c *Compiled) checkEvidence(t logic.Term) error {
	for _, l := range t {
		if l < 0 || int(l.Atom()) >= c.Atoms {
			return fmt.Errorf("mln: evidence atom %d outside the network's %d atoms", l.Atom(), c.Atoms)
		}
	}
	return nil
}

// WalkOptions configure MaxWalkSAT; zero fields take the defaults.
type WalkOptions struct {
	Flips int     // flips per try (default 100000)
	Tries int     // restarts (default 1)
	Noise float64 // probability of a random flip (default 0.2)
	Seed  uint64  // random seed (runs are reproducible)
}

// Approx is the approximate MAP engine: MaxWalkSAT on the compiled network.
type Approx struct {
	c *Compiled
	w *maxsat.WalkSAT
}

// NewApprox compiles n for approximate MAP inference with MaxWalkSAT.
func NewApprox(n *Network, o WalkOptions) (*Approx, error) {
	c, err := Compile(n)
	if err != nil {
		return nil, err
	}
	w, err := maxsat.NewWalkSAT(c.Problem, rand.New(rand.NewPCG(o.Seed, 0x6d6c6e)))
	if err != nil {
		return nil, err
	}
	if o.Flips > 0 {
		w.Flips = o.Flips
	}
	if o.Tries > 0 {
		w.Tries = o.Tries
	}
	if o.Noise > 0 {
		w.Noise = o.Noise
	}
	return &Approx{c: c, w: w}, nil
}

// Compiled implements Engine.
func (a *Approx) Compiled() *Compiled { return a.c }

// Flips returns the number of flips of all queries so far.
func (a *Approx) Flips() int64 { return a.w.NumFlips }

// MAP implements Engine.
func (a *Approx) MAP(ctx context.Context, evidence logic.Term) ([]bool, int64, bool, error) {
	if err := a.c.checkEvidence(evidence); err != nil {
		return nil, 0, false, err
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, false, err
	}
	cost, ok, err := a.w.Solve(evidence)
	if err != nil || !ok {
		return nil, 0, false, err
	}
	return a.w.Model()[:a.c.Atoms], cost, true, nil
}

// AtMost implements Engine.
func (a *Approx) AtMost(ctx context.Context, evidence logic.Term, bound int64) (bool, error) {
	if err := a.c.checkEvidence(evidence); err != nil {
		return false, err
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	cost, ok, err := a.w.Solve(evidence)
	return ok && cost <= bound, err
}

// Reseed restarts the engine's random generator from seed: Generate reseeds an
// engine that has this method for every evidence formula.
func (a *Approx) Reseed(seed uint64) { a.w.Rand = rand.New(rand.NewPCG(seed, 0x6d6c6e)) }
