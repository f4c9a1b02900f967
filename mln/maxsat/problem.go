// Package maxsat solves weighted partial MaxSAT problems whose soft
// constraints are clauses or terms (conjunctions of literals), the form in
// which a propositional Markov logic network's MAP inference arrives: a
// formula with a positive weight is a soft constraint that should hold, one
// with a negative weight a soft constraint that should fail, and a learned
// network's features are conjunctions.
//
// Three solvers share the Problem: Exact, a depth-first branch and bound
// with unit propagation on the hard clauses and a lower bound from groups of
// mutually exclusive terms and from soft constraints that one variable can
// violate; CoreGuided, the OLL core-guided algorithm on strata's CDCL solver,
// for problems whose conflicts defeat the bound; and WalkSAT, the MaxWalkSAT
// local search of Kautz, Selman and Jiang, which returns the best assignment
// it meets within a budget of flips. Costs are integers, so that "equally
// probable" is an exact notion.
package maxsat

import (
	"fmt"
	"math"

	"github.com/strata-logic/strata/logic"
)

// Soft is a soft constraint: a clause, satisfied when one of its literals
// holds, or (Term true) a conjunction, satisfied when all of them hold. Cost
// is paid by every assignment that does not satisfy it.
type Soft struct {
	Lits []logic.Lit
	Term bool
	Cost int64
}

// Satisfied reports whether the constraint holds in world w.
func (s Soft) Satisfied(w []bool) bool {
	if s.Term {
		return logic.Term(s.Lits).Holds(w)
	}
	return logic.Clause(s.Lits).Holds(w)
}

// Problem is a weighted partial MaxSAT problem over variables 0..NumVars-1:
// find an assignment that satisfies every hard clause and minimises the
// total cost of the soft constraints it violates.
type Problem struct {
	NumVars int
	Hard    []logic.Clause
	Soft    []Soft
}

// Cost returns the total cost of the soft constraints that w violates, and
// whether w satisfies all hard clauses.
func (p *Problem) Cost(w []bool) (int64, bool) {
	var c int64
	for _, s := range p.Soft {
		if !s.Satisfied(w) {
			c += s.Cost
		}
	}
	for _, h := range p.Hard {
		if !h.Holds(w) {
			return c, false
		}
	}
	return c, true
}

// Check reports an error when a literal names a variable outside the
// problem, a cost is not positive, or the total cost could overflow.
func (p *Problem) Check() error {
	check := func(ls []logic.Lit) error {
		for _, l := range ls {
			if l < 0 || int(l.Atom()) >= p.NumVars {
				return fmt.Errorf("maxsat: literal %d outside the %d variables", l, p.NumVars)
			}
		}
		return nil
	}
	for _, h := range p.Hard {
		if err := check(h); err != nil {
			return err
		}
	}
	var total int64
	for _, s := range p.Soft {
		if err := check(s.Lits); err != nil {
			return err
		}
		if s.Cost <= 0 {
			return fmt.Errorf("maxsat: soft constraint with cost %d (costs must be positive)", s.Cost)
		}
		if total > math.MaxInt64/4-s.Cost {
			return fmt.Errorf("maxsat: total cost of the soft constraints overflows")
		}
		total += s.Cost
	}
	return nil
}

// TotalCost returns the sum of all soft costs, an upper bound on the cost of
// any assignment.
func (p *Problem) TotalCost() int64 {
	var t int64
	for _, s := range p.Soft {
		t += s.Cost
	}
	return t
}
