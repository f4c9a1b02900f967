package mln

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// randTable draws rows where each variable copies its predecessor with
// probability 0.8, so that there is structure to learn.
func randTable(r *rand.Rand, rows, cols int) *Table {
	t := &Table{}
	row := make([]bool, cols)
	for i := 0; i < rows; i++ {
		for j := range row {
			if j > 0 && r.Float64() < 0.8 {
				row[j] = row[j-1]
			} else {
				row[j] = r.IntN(2) == 0
			}
		}
		t.Append(row)
	}
	return t
}

func randTerms(r *rand.Rand, n, m int) []logic.Term {
	fs := make([]logic.Term, m)
	for i := range fs {
		perm := r.Perm(n)
		for _, a := range perm[:1+r.IntN(3)] {
			fs[i] = append(fs[i], logic.MkLit(logic.Atom(a), r.IntN(2) == 0))
		}
	}
	return fs
}

func TestGradientFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	data := randTable(r, 200, 6)
	fs := randTerms(r, 6, 15)
	obj := newObjective(newPLLData(fs, data), 0.7, float64(data.Rows()))
	w := make([]float64, len(fs))
	for i := range w {
		w[i] = r.NormFloat64()
	}
	g := make([]float64, len(w))
	obj.grad(g, w)
	const h = 1e-6
	for j := range w {
		wp := append([]float64(nil), w...)
		wm := append([]float64(nil), w...)
		wp[j] += h
		wm[j] -= h
		fd := (obj.f(wp) - obj.f(wm)) / (2 * h)
		if math.Abs(fd-g[j]) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Fatalf("feature %d: analytic gradient %v, finite difference %v", j, g[j], fd)
		}
	}
}

// TestPLLAgainstScores compares the feature-pattern PLL with the definition:
// log P(xᵢ | x₋ᵢ) from the scores of the row and of the row with xᵢ flipped.
func TestPLLAgainstScores(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	data := randTable(r, 100, 7)
	net := &Network{Vocab: logic.NewVocabulary(data.Names()...)}
	for _, f := range randTerms(r, 7, 20) {
		net.Formulas = append(net.Formulas, Formula{F: logic.TermF(f), Weight: r.NormFloat64()})
	}
	got, err := PLL(net, data)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for i := 0; i < data.Rows(); i++ {
		w := append([]bool(nil), data.Row(i)...)
		s, _ := net.Score(w)
		for v := range w {
			w[v] = !w[v]
			s2, _ := net.Score(w)
			w[v] = !w[v]
			want += math.Log(math.Exp(s) / (math.Exp(s) + math.Exp(s2)))
		}
	}
	want /= float64(data.Rows() * data.Cols)
	if math.Abs(got-want) > 1e-9 {
		t.Fatalf("PLL %v, from scores %v", got, want)
	}
	// The generic path (a formula that is not a conjunction) agrees too.
	net.Formulas = append(net.Formulas, Formula{F: logic.Or(logic.AtomF(0), logic.AtomF(1)), Weight: 0})
	if g2, _ := PLL(net, data); math.Abs(g2-want) > 1e-9 {
		t.Fatalf("generic PLL %v, want %v", g2, want)
	}
}

func TestLearnSynthetic(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	train, test := randTable(r, 3000, 8), randTable(r, 1000, 8)
	net, err := Learn(train, LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pll, _ := PLL(net, test)
	ind, _ := IndependentPLL(train, test)
	if pll <= ind+0.1 {
		t.Fatalf("learned PLL %v is not clearly above the independent model's %v", pll, ind)
	}
	c, err := Compile(net)
	if err != nil || c.Decimals > weightDecimals {
		t.Fatalf("learned weights need %d decimals, not %d: %v", c.Decimals, weightDecimals, err)
	}
	for _, f := range net.Formulas {
		if f.F.Size() > 3 {
			t.Fatalf("feature %s is longer than depth 2 allows", f.F.String(net.Vocab))
		}
	}
	if _, err := Learn(&Table{}, LearnOptions{}); err == nil {
		t.Fatal("learned from an empty table")
	}
}
