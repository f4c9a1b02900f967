package mln

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/strata-logic/strata/logic"
	"gonum.org/v1/gonum/optimize"
)

// LearnOptions configure Learn; zero fields take the defaults.
type LearnOptions struct {
	// MaxDepth bounds the length of a tree path (default 2), so features
	// have at most MaxDepth+1 literals. Deeper trees fit the data a little
	// better (test PLL per variable on Plants: -0.164 at depth 2, -0.146 at
	// 3, -0.135 at 6) but make exact MAP far harder: at depth 3 a Plants
	// query takes seconds, at 6 minutes.
	MaxDepth int
	// MinLeaf is the fewest training rows in a leaf (default 20).
	MinLeaf int
	// Penalty is the least gain in conditional log-likelihood (nats) that a
	// split must bring; default ½·ln(rows), the BIC price of the one
	// parameter a split adds.
	Penalty float64
	// L2 is the precision 1/σ² of the Gaussian prior on the weights
	// (default 1).
	L2 float64
	// Iterations bounds the L-BFGS iterations (default 500).
	Iterations int
	// Workers is the number of trees grown at once (default 2).
	Workers int
	// Progress, when set, is told how many of the table's variables have
	// their tree, then how many L-BFGS iterations have run.
	Progress func(stage string, done, total int)
}

func (o *LearnOptions) defaults(rows int) {
	if o.MaxDepth <= 0 {
		o.MaxDepth = 2
	}
	if o.MinLeaf <= 0 {
		o.MinLeaf = 20
	}
	if o.Penalty <= 0 {
		o.Penalty = 0.5 * math.Log(float64(max(rows, 2)))
	}
	if o.L2 <= 0 {
		o.L2 = 1
	}
	if o.Iterations <= 0 {
		o.Iterations = 500
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.Progress == nil {
		o.Progress = func(string, int, int) {}
	}
}

// weightDecimals is the precision of learned weights. Six decimals keep
// the network's log-probabilities to about 10⁻⁶ per feature, and make every
// weight an exact multiple of 10⁻⁶, so that Compile's integer costs are the
// real costs exactly (Compiled.Exact).
const weightDecimals = 6

// Learn learns a Markov network from a binary table in the manner of Lowd and
// Davis's DTSL (ICDM 2010): for each variable a probabilistic decision tree
// over the other variables (see LearnOptions for the split rule); each
// root-to-leaf path C of the tree for xᵢ becomes the conjunctive feature
// C ∧ xᵢ; the weights maximise the pseudo-log-likelihood of the table with
// a Gaussian prior, by L-BFGS with the analytic gradient. The atoms are
// named a1 ... an after the columns.
func Learn(data *Table, o LearnOptions) (*Network, error) {
	if data.Rows() == 0 || data.Cols == 0 {
		return nil, errors.New("mln: cannot learn from an empty table")
	}
	o.defaults(data.Rows())
	features, init := treeFeatures(data, o)
	w, err := fitWeights(features, init, data, o)
	if err != nil {
		return nil, err
	}
	net := &Network{Vocab: logic.NewVocabulary(data.Names()...)}
	for j, f := range features {
		if w[j] != 0 {
			net.Formulas = append(net.Formulas, Formula{F: logic.TermF(f), Weight: w[j]})
		}
	}
	return net, nil
}

// treeFeatures grows the trees and returns their distinct features, with
// each one's initial weight: the smoothed log-odds of its target at its
// leaf.
func treeFeatures(data *Table, o LearnOptions) ([]logic.Term, []float64) {
	p := treeParams{maxDepth: o.MaxDepth, minLeaf: o.MinLeaf, penalty: o.Penalty}
	cols := newColumns(data)
	leaves := make([][]leaf, data.Cols)
	var wg sync.WaitGroup
	var mu sync.Mutex
	next, done := 0, 0
	for range min(o.Workers, data.Cols) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				t := next
				next++
				mu.Unlock()
				if t >= data.Cols {
					return
				}
				leaves[t] = growTree(cols, data.Cols, data.Rows(), t, p)
				mu.Lock()
				done++
				o.Progress("trees", done, data.Cols)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	var features []logic.Term
	var init []float64
	seen := map[string]bool{}
	for t, ls := range leaves {
		for _, lf := range ls {
			f, _ := logic.Normalize(append(slices.Clone(lf.path), logic.Pos(logic.Atom(t))))
			key := fmt.Sprint(f)
			if seen[key] {
				continue
			}
			seen[key] = true
			features = append(features, f)
			init = append(init, math.Log((float64(lf.n1)+1)/(float64(lf.n0)+1)))
		}
	}
	return features, init
}

// fitWeights maximises PLL(w) - L2/2·|w|² by L-BFGS from init and rounds
// the result to weightDecimals.
func fitWeights(features []logic.Term, init []float64, data *Table, o LearnOptions) ([]float64, error) {
	d := newPLLData(features, data)
	obj := newObjective(d, o.L2, float64(data.Rows()))
	iter := 0
	prob := optimize.Problem{
		Func: obj.f,
		Grad: obj.grad,
		Status: func() (optimize.Status, error) {
			iter++
			o.Progress("weights", min(iter, o.Iterations), o.Iterations)
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		GradientThreshold: 1e-6,
		MajorIterations:   o.Iterations,
		Converger:         &optimize.FunctionConverge{Relative: 1e-9, Iterations: 20},
	}
	res, err := optimize.Minimize(prob, init, settings, &optimize.LBFGS{})
	if err != nil && res == nil {
		return nil, fmt.Errorf("mln: weight learning: %w", err)
	}
	scale := math.Pow10(weightDecimals)
	w := make([]float64, len(res.X))
	for j, x := range res.X {
		w[j] = math.Round(x*scale) / scale
	}
	return w, nil
}

// objective is the negated, row-averaged penalised pseudo-log-likelihood,
// caching the gradient computed with the value at the same point.
type objective struct {
	d     *pllData
	l2    float64
	rows  float64
	lastX []float64
	lastF float64
	lastG []float64
}

func newObjective(d *pllData, l2, rows float64) *objective {
	return &objective{d: d, l2: l2, rows: rows}
}

func (o *objective) eval(x []float64) {
	if o.lastX != nil && slices.Equal(o.lastX, x) {
		return
	}
	if o.lastG == nil {
		o.lastG = make([]float64, len(x))
	}
	for j := range o.lastG {
		o.lastG[j] = 0
	}
	pll := o.d.value(x, o.lastG)
	sq := 0.0
	for j, w := range x {
		sq += w * w
		o.lastG[j] = (-o.lastG[j] + o.l2*w) / o.rows
	}
	o.lastF = (-pll + o.l2*sq/2) / o.rows
	o.lastX = append(o.lastX[:0], x...)
}

func (o *objective) f(x []float64) float64 {
	o.eval(x)
	return o.lastF
}

func (o *objective) grad(g, x []float64) {
	o.eval(x)
	copy(g, o.lastG)
}
