package mln

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln/maxsat"
)

// maxDecimals is the finest decimal scale used for integer costs: weights
// with more decimals are rounded to 10⁻⁹.
const maxDecimals = 9

// Compiled is a network turned into a weighted MaxSAT problem with integer
// costs. Variables 0 .. Atoms-1 are the network's atoms; the rest are
// auxiliary variables naming formulas that are neither clauses nor terms.
//
// Real weights become integers by a decimal scale: the weight w, read as the
// shortest decimal that denotes it (what the file says, e.g. 1.234567), costs
// round(|w|·Scale) with Scale = 10^d, d the largest number of decimals of a
// weight (at most 9). When every weight has at most 9 decimals, as those of
// the networks strata learns (6 decimals), the integer cost of every world is
// exactly Scale times its real cost: no rounding happens, Exact is true, and
// the most probable worlds are the same. Otherwise RoundingBound bounds
// |integer cost / Scale − real cost| for every world.
type Compiled struct {
	Problem       *maxsat.Problem
	Atoms         int
	Scale         float64
	Exact         bool
	RoundingBound float64
}

// Compile turns n into a MaxSAT problem: hard formulas become hard clauses
// (through logic.CNF, with auxiliary atoms where distribution would blow
// up); a weighted formula f becomes the soft constraint f (w > 0) or ¬f
// (w < 0) as a clause or a term when its negation normal form is one, and
// otherwise a soft unit clause on a fresh atom y with the hard clauses of
// y → f (or y → ¬f), so that every world pays exactly the formula's cost.
func Compile(n *Network) (*Compiled, error) {
	if err := n.Check(); err != nil {
		return nil, err
	}
	scale, exact, err := costScale(n)
	if err != nil {
		return nil, err
	}
	p := &maxsat.Problem{NumVars: n.NumAtoms()}
	fresh := func() logic.Atom { p.NumVars++; return logic.Atom(p.NumVars - 1) }
	c := &Compiled{Problem: p, Atoms: n.NumAtoms(), Scale: scale, Exact: exact}
	for _, f := range n.Formulas {
		if f.Hard {
			p.Hard = append(p.Hard, logic.CNF(f.F, fresh)...)
			continue
		}
		real := math.Abs(f.Weight) * scale
		cost := int64(math.Round(real))
		c.RoundingBound += math.Abs(float64(cost)-real) / scale
		if cost == 0 {
			continue
		}
		g := f.F
		if f.Weight < 0 {
			g = logic.Not(g)
		}
		if !g.Has(logic.OpIff) { // nested biconditionals double the NNF per level
			g = logic.NNF(g)
		}
		if t, ok := g.AsTerm(); ok {
			p.Soft = append(p.Soft, maxsat.Soft{Lits: t, Term: true, Cost: cost})
		} else if cl, ok := g.AsClause(); ok {
			p.Soft = append(p.Soft, maxsat.Soft{Lits: cl, Cost: cost})
		} else {
			y := fresh()
			p.Soft = append(p.Soft, maxsat.Soft{Lits: []logic.Lit{logic.Pos(y)}, Cost: cost})
			p.Hard = append(p.Hard, logic.CNF(logic.Or(logic.Not(logic.AtomF(y)), g), fresh)...)
		}
	}
	if exact {
		c.RoundingBound = 0
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("mln: %w", err)
	}
	return c, nil
}

// costScale picks 10^d for the largest number d of decimals of a weight
// (capped at maxDecimals), and reports whether every weight is then an
// integer. When the total cost at that scale does not fit comfortably in an
// int64, it refuses: a coarser scale would round the small weights, perhaps
// to 0, so that the answers for them would depend on an unrelated huge
// weight.
func costScale(n *Network) (float64, bool, error) {
	d, total := 0, 0.0
	small, large := math.Inf(1), 0.0
	for _, f := range n.Formulas {
		if f.Hard {
			continue
		}
		w := f.Weight
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return 0, false, fmt.Errorf("mln: weight %v is not a finite number", w)
		}
		d = max(d, decimals(w))
		total += math.Abs(w)
		if w != 0 {
			small, large = min(small, math.Abs(w)), max(large, math.Abs(w))
		}
	}
	exact := d <= maxDecimals
	d = min(d, maxDecimals)
	if total*math.Pow10(d) > 1<<60 {
		return 0, false, fmt.Errorf("mln: weights from %g to %g (total %g) need %d decimals, "+
			"and at that precision the total cost does not fit in 64-bit integer costs; "+
			"a coarser scale would round the small weights, so MAP refuses (scale the weights down or drop the smallest)",
			small, large, total, d)
	}
	return math.Pow10(d), exact, nil
}

// decimals returns the number of digits after the point of the shortest
// decimal that denotes w.
func decimals(w float64) int {
	s := strconv.FormatFloat(math.Abs(w), 'e', -1, 64) // d.ddddde±x
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	digits := len(strings.Replace(mant, ".", "", 1)) - 1
	return max(digits-e, 0)
}

// Cost returns the real cost of world w: the sum of the weights of the
// positive formulas it falsifies and of |w| for the negative ones it
// satisfies. It equals Σ wᵢ⁺ − Score(w).
func (n *Network) Cost(w []bool) float64 {
	c := 0.0
	for _, f := range n.Formulas {
		if f.Hard {
			continue
		}
		holds := f.F.Eval(w)
		if f.Weight > 0 && !holds || f.Weight < 0 && holds {
			c += math.Abs(f.Weight)
		}
	}
	return c
}
