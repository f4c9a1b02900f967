package mln

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/strata-logic/strata/logic"
)

// pllData is the pseudo-log-likelihood of a table under a network of
// conjunctive features, as a function of the weights. For a row x and a
// variable i, log P(xᵢ | x₋ᵢ) = log σ(zᵢ) with zᵢ = Σⱼ wⱼ aⱼ, where aⱼ is +1
// or -1 when flipping xᵢ away from its observed value switches feature j off
// or on, and 0 when it leaves it alone. A feature is switched only when all
// its other literals hold, so each (row, variable) pair touches few
// features; identical patterns {(j, aⱼ)} are stored once with a count.
type pllData struct {
	start []int32   // pattern p has entries start[p] .. start[p+1]-1
	feat  []int32   // feature of each entry
	sign  []float64 // aⱼ of each entry
	count []float64 // how many (row, variable) pairs have pattern p
}

// newPLLData builds the patterns of data for the given features, each a
// term over the table's columns.
func newPLLData(features []logic.Term, data *Table) *pllData {
	d := &pllData{start: []int32{0}}
	index := map[string]int32{}
	nf := make([]int32, len(features))
	perVar := make([][]int32, data.Cols) // entries as feature<<1 | (a < 0)
	var key []byte
	for r := 0; r < data.Rows(); r++ {
		row := data.Row(r)
		for i := range perVar {
			perVar[i] = perVar[i][:0]
		}
		for j, f := range features {
			nf[j] = 0
			for _, l := range f {
				if !l.Holds(row) {
					nf[j]++
				}
			}
			if nf[j] > 1 {
				continue
			}
			for _, l := range f {
				holds := l.Holds(row)
				if nf[j] == 0 || !holds {
					e := int32(j) << 1
					if !holds {
						e |= 1
					}
					perVar[l.Atom()] = append(perVar[l.Atom()], e)
				}
			}
		}
		for _, es := range perVar {
			key = key[:0]
			for _, e := range es { // features come in increasing order
				key = binary.LittleEndian.AppendUint32(key, uint32(e))
			}
			p, ok := index[string(key)]
			if !ok {
				p = int32(len(d.count))
				index[string(key)] = p
				for _, e := range es {
					d.feat = append(d.feat, e>>1)
					d.sign = append(d.sign, 1-2*float64(e&1))
				}
				d.start = append(d.start, int32(len(d.feat)))
				d.count = append(d.count, 0)
			}
			d.count[p]++
		}
	}
	return d
}

// value returns Σ log P(xᵢ | x₋ᵢ) over all rows and variables, and adds its
// gradient to grad when grad is not nil.
func (d *pllData) value(w, grad []float64) float64 {
	total := 0.0
	for p, c := range d.count {
		z := 0.0
		lo, hi := d.start[p], d.start[p+1]
		for k := lo; k < hi; k++ {
			z += w[d.feat[k]] * d.sign[k]
		}
		total += c * logSigmoid(z)
		if grad != nil {
			g := c * sigmoid(-z)
			for k := lo; k < hi; k++ {
				grad[d.feat[k]] += g * d.sign[k]
			}
		}
	}
	return total
}

// logSigmoid returns log σ(z) = -log(1 + e^-z) without overflow.
func logSigmoid(z float64) float64 {
	if z > 0 {
		return -math.Log1p(math.Exp(-z))
	}
	return z - math.Log1p(math.Exp(z))
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// PLL returns the pseudo-log-likelihood per variable of the table under the
// network, (1/(rows·vars)) Σ_rows Σ_i log P(xᵢ | x₋ᵢ), in nats; higher is
// better. The table's columns are the network's atoms in order. Networks of
// weighted conjunctions (the learned ones) are evaluated through their
// features; others through the scores of the two values of each variable.
func PLL(n *Network, data *Table) (float64, error) {
	if data.Cols != n.NumAtoms() {
		return 0, fmt.Errorf("mln: the table has %d columns and the network %d atoms: its columns must be the network's atoms", data.Cols, n.NumAtoms())
	}
	if data.Rows() == 0 {
		return 0, errors.New("mln: empty table")
	}
	features, weights, ok := conjunctions(n)
	if ok {
		return newPLLData(features, data).value(weights, nil) / float64(data.Rows()*data.Cols), nil
	}
	total := 0.0
	w := make([]bool, data.Cols)
	for r := 0; r < data.Rows(); r++ {
		copy(w, data.Row(r))
		s, hard := n.Score(w)
		if !hard {
			return math.Inf(-1), nil
		}
		for i := range w {
			w[i] = !w[i]
			t, hardFlip := n.Score(w)
			w[i] = !w[i]
			if hardFlip {
				total += logSigmoid(s - t)
			}
		}
	}
	return total / float64(data.Rows()*data.Cols), nil
}

// conjunctions returns the features and weights of a network whose
// formulas are all weighted conjunctions of literals.
func conjunctions(n *Network) ([]logic.Term, []float64, bool) {
	fs := make([]logic.Term, len(n.Formulas))
	ws := make([]float64, len(n.Formulas))
	for i, f := range n.Formulas {
		t, ok := f.F.AsTerm()
		if f.Hard || !ok {
			return nil, nil, false
		}
		fs[i], ws[i] = t, f.Weight
	}
	return fs, ws, true
}

// IndependentPLL returns the pseudo-log-likelihood per variable of test
// under the model of independent variables fitted to train (marginals with
// Laplace smoothing), the baseline a learned network has to beat.
func IndependentPLL(train, test *Table) (float64, error) {
	if train.Cols != test.Cols || test.Rows() == 0 {
		return 0, errors.New("mln: tables of different widths, or an empty test table")
	}
	logp := make([][2]float64, train.Cols)
	for i := range logp {
		n1 := 0
		for r := 0; r < train.Rows(); r++ {
			if train.Row(r)[i] {
				n1++
			}
		}
		p := (float64(n1) + 1) / (float64(train.Rows()) + 2)
		logp[i] = [2]float64{math.Log(1 - p), math.Log(p)}
	}
	total := 0.0
	for r := 0; r < test.Rows(); r++ {
		for i, x := range test.Row(r) {
			if x {
				total += logp[i][1]
			} else {
				total += logp[i][0]
			}
		}
	}
	return total / float64(test.Rows()*test.Cols), nil
}
