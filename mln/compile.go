package mln

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln/maxsat"
)

// maxTotalCost bounds the sum of a network's integer costs, so that the
// solvers' sums of costs never overflow an int64.
const maxTotalCost = 1 << 60

// Compiled is a network turned into a weighted MaxSAT problem with integer
// costs. Variables 0 .. Atoms-1 are the network's atoms; the rest are
// auxiliary variables naming formulas that are neither clauses nor terms.
//
// Real weights become integers by a decimal scale: the weight w, read as the
// shortest decimal that denotes it (what the file says, e.g. 1.234567), costs
// |w|·10^Decimals, with Decimals the largest number of decimals of a weight,
// which makes every cost an integer exactly. The integer cost of every world
// is then exactly Scale times its real cost, and the most probable worlds are
// the same: nothing is rounded (TestCompileExactWeights).
type Compiled struct {
	Problem  *maxsat.Problem
	Atoms    int
	Decimals int     // the costs are the weights times 10^Decimals
	Scale    float64 // 10^Decimals, as near as a float64 gets
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
	costs, d, err := integerCosts(n)
	if err != nil {
		return nil, err
	}
	p := &maxsat.Problem{NumVars: n.NumAtoms()}
	fresh := func() logic.Atom { p.NumVars++; return logic.Atom(p.NumVars - 1) }
	c := &Compiled{Problem: p, Atoms: n.NumAtoms(), Decimals: d, Scale: math.Pow10(d)}
	for i, f := range n.Formulas {
		if f.Hard {
			p.Hard = append(p.Hard, logic.CNF(f.F, fresh)...)
			continue
		}
		cost := costs[i]
		if cost == 0 {
			continue
		}
		g := f.F
		if f.Weight < 0 {
			g = logic.Not(g)
		}
		g = logic.NNFLinear(g)
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
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("mln: %w", err)
	}
	return c, nil
}

// integerCosts returns the cost of every weighted formula of n (0 for the
// hard ones): |w|·10^d exactly, for the smallest d that makes every weight
// an integer. When the total cost at that scale does not fit comfortably in
// an int64, it refuses: a coarser scale would round the weights, the small
// ones perhaps to 0, so that the most probable worlds could change (with
// 0.0000000014 a and 0.0000000006 !a, rounding to 9 decimals ties a with
// !a).
func integerCosts(n *Network) (costs []int64, d int, err error) {
	type decimal struct {
		mant uint64 // the significant digits of |w|
		exp  int    // |w| = mant·10^exp
	}
	ws := make([]decimal, len(n.Formulas))
	small, large, total := math.Inf(1), 0.0, 0.0
	for i, f := range n.Formulas {
		if f.Hard {
			continue
		}
		w := f.Weight
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, 0, fmt.Errorf("mln: weight %v is not a finite number", w)
		}
		if w == 0 {
			continue
		}
		ws[i].mant, ws[i].exp = shortestDecimal(math.Abs(w))
		d = max(d, -ws[i].exp)
		small, large, total = min(small, math.Abs(w)), max(large, math.Abs(w)), total+math.Abs(w)
	}
	refuse := func() error {
		return fmt.Errorf("mln: weights from %g to %g (total %g) need %d decimals, "+
			"and at that precision the total cost does not fit in 64-bit integer costs; "+
			"a coarser scale would round the small weights, so MAP refuses (scale the weights down or drop the smallest)",
			small, large, total, d)
	}
	costs = make([]int64, len(n.Formulas))
	var sum uint64
	for i, w := range ws {
		if w.mant == 0 {
			continue
		}
		c := w.mant
		for range w.exp + d { // |w|·10^d = mant·10^(exp+d), exp+d ≥ 0
			if c > maxTotalCost/10 {
				return nil, 0, refuse()
			}
			c *= 10
		}
		if sum += c; c > maxTotalCost || sum > maxTotalCost {
			return nil, 0, refuse()
		}
		costs[i] = int64(c)
	}
	return costs, d, nil
}

// shortestDecimal returns the shortest decimal that denotes w > 0 as
// mant·10^exp, mant without trailing zeros.
func shortestDecimal(w float64) (mant uint64, exp int) {
	s := strconv.FormatFloat(w, 'e', -1, 64) // d.ddddde±x
	m, e, _ := strings.Cut(s, "e")
	x, _ := strconv.Atoi(e)
	digits := strings.Replace(m, ".", "", 1)
	exp = x - (len(digits) - 1)
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits, exp = digits[:len(digits)-1], exp+1
	}
	mant, _ = strconv.ParseUint(digits, 10, 64) // at most 17 digits
	return mant, exp
}

// decimals returns the number of digits after the point of the shortest
// decimal that denotes w.
func decimals(w float64) int {
	if w == 0 || math.IsNaN(w) || math.IsInf(w, 0) {
		return 0
	}
	_, exp := shortestDecimal(math.Abs(w))
	return max(-exp, 0)
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
