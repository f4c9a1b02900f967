// Package benchgen draws the reasoning benchmark of the reasoning-core
// issue: a theory of 8 levels with 40 clauses of 1 to 4 literals over 16
// atoms, and queries α |~ β with α of up to 5 literals and β a literal. The
// Go benchmark and the SAT4j peer in bench/peer use the same draws, so their
// figures compare the same work.
package benchgen

import (
	"math/rand/v2"
	"strconv"

	"github.com/strata-logic/strata/logic"
)

// Atoms is the number of atoms of the benchmark theory.
const Atoms = 16

// Names returns the names of the benchmark's atoms, a1 to a16, in the order
// of their numbers: a vocabulary made of them gives atom i the name a(i+1),
// the names the SAT4j peer's files and the server's tests use.
func Names() []string {
	names := make([]string, Atoms)
	for i := range names {
		names[i] = "a" + strconv.Itoa(i+1)
	}
	return names
}

// Weighted is a clause with its weight.
type Weighted struct {
	Clause logic.Clause
	Weight float64
}

// Query is a conditional query (Θ, α) ⊢poss β.
type Query struct {
	Alpha logic.Term
	Beta  logic.Clause
}

func lit(r *rand.Rand) logic.Lit { return logic.MkLit(logic.Atom(r.IntN(Atoms)), r.IntN(2) == 0) }

// Theory draws the 40 clauses, spread over the weights 1/8 ... 8/8.
func Theory(r *rand.Rand) []Weighted {
	cs := make([]Weighted, 40)
	for i := range cs {
		c := make(logic.Clause, 1+r.IntN(4))
		for j := range c {
			c[j] = lit(r)
		}
		cs[i] = Weighted{Clause: c, Weight: float64(i%8+1) / 8}
	}
	return cs
}

// Queries draws n queries.
func Queries(r *rand.Rand, n int) []Query {
	qs := make([]Query, n)
	for i := range qs {
		a := make(logic.Term, r.IntN(6))
		for j := range a {
			a[j] = lit(r)
		}
		qs[i] = Query{Alpha: a, Beta: logic.Clause{lit(r)}}
	}
	return qs
}
