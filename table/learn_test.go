package table

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/brute"
	"github.com/strata-logic/strata/internal/learntest"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// synthetic returns a CSV table whose class follows rules with exceptions
// on two numeric and two categorical columns, with noise and missing
// values; classes 2 or 3.
func synthetic(seed uint64, rows, classes int) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("id,x,y,colour,size,class\n")
	for i := range rows {
		x, y := r.IntN(100), r.Float64()*10
		colour := []string{"red", "green", "blue", "dark red"}[r.IntN(4)]
		size := []string{"S", "M", "L"}[r.IntN(3)]
		c := 0
		switch {
		case x > 60 && colour != "blue":
			c = 1
		case y <= 2.5 && classes > 2:
			c = 2
		case size == "L" && x > 30:
			c = 1
		}
		if r.Float64() < 0.05 {
			c = r.IntN(classes)
		}
		xs, ys := fmt.Sprint(x), fmt.Sprintf("%.2f", y)
		if r.Float64() < 0.1 {
			xs = "?"
		}
		if r.Float64() < 0.1 {
			colour = ""
		}
		fmt.Fprintf(&b, "%d,%s,%s,%q,%s,c%d\n", i, xs, ys, colour, size, c)
	}
	return b.String()
}

// TestPredictionsReadBack is the property that a learned theory written to
// its file and read back predicts every row as the learner's model does,
// and that the learner's model predicts a row right exactly when the
// learner covers the row's default.
func TestPredictionsReadBack(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(4) {
		for _, sem := range possibilistic.AllSemantics {
			classes := 2 + int(seed%2)
			tab := read(t, synthetic(seed, 150, classes), Options{})
			lr, err := Learn(ctx, tab, nil, Settings{Label: "class", Features: []string{"x", "y", "colour", "size"},
				Learning: learntest.Legacy(learn.Settings{Iterations: 8, Seed: seed, Threads: 1, Semantics: sem})}, nil)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("seed %d %s", seed, sem)
			mine, err := lr.Predict(ctx, tab, PredictOptions{Semantics: sem})
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			if err := lr.Theory.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			back, err := possibilistic.ReadText(ctx, bytes.NewReader(text.Bytes()), "back.theory", &logic.Vocabulary{})
			if err != nil {
				t.Fatalf("%s: the theory does not read back: %v\n%s", name, err, text.String())
			}
			theirs, err := Predict(ctx, back, tab, PredictOptions{Semantics: sem})
			if err != nil {
				t.Fatal(err)
			}
			covered := coveredRows(t, lr, tab, sem)
			for i := range mine {
				if mine[i].Class != theirs[i].Class {
					t.Fatalf("%s: row %d: the model predicts %s, the theory read back %s\n%s", name, i, mine[i].Class, theirs[i].Class, text.String())
				}
				if right := mine[i].Class == mine[i].Target; right != covered[i] {
					t.Fatalf("%s: row %d: predicted %s for %s, but the learner's coverage of its default is %v", name, i, mine[i].Class, mine[i].Target, covered[i])
				}
			}
		}
	}
}

// coveredRows returns, per row, whether the learner covers the row's
// default situation |~ class with lr's model.
func coveredRows(t *testing.T, lr *Learned, tab *Table, sem possibilistic.Semantics) []bool {
	b, err := lr.Encoding.Bind(tab)
	if err != nil {
		t.Fatal(err)
	}
	atoms := lr.Encoding.ClassAtoms()
	ex := &learn.Examples{}
	index := map[string]int{}
	var keys []string
	for r := range tab.Rows {
		alpha := b.Situation(r)
		k := fmt.Sprint(alpha, b.Class(r))
		keys = append(keys, k)
		if _, ok := index[k]; !ok {
			index[k] = len(ex.List)
			ex.Add(alpha, logic.Clause{logic.Pos(atoms[b.Class(r)])}, true, 1)
		}
	}
	cov := learn.Covers(lr.Hypothesis, ex, 1, sem)
	out := make([]bool, tab.Rows)
	for r, k := range keys {
		out[r] = cov[index[k]]
	}
	return out
}

// TestThresholdsOrdered checks that no world the reasoner can consider
// has x <= t and x > u for thresholds t < u: the hard rules rule such
// worlds out (brute force over each column's atoms), every row's
// literals respect the order, and the most plausible worlds of rows with
// missing values do too.
func TestThresholdsOrdered(t *testing.T) {
	ctx := context.Background()
	tab := read(t, synthetic(7, 600, 3), Options{})
	lr, err := Learn(ctx, tab, nil, Settings{Label: "class", Features: []string{"x", "y", "colour", "size"},
		Learning: learntest.Legacy(learn.Settings{Iterations: 10, Seed: 7, Threads: 1, Semantics: possibilistic.Lex})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := lr.Encoding
	hard := e.Hard()
	cuts := 0
	for _, f := range e.Features {
		if len(f.cuts) < 2 {
			continue
		}
		cuts += len(f.cuts)
		// The column's hard clauses over its atoms 0..k-1.
		local := map[logic.Atom]logic.Atom{}
		for i, a := range f.cuts {
			local[a] = logic.Atom(i)
		}
		var cs []logic.Clause
		for _, c := range hard {
			var d logic.Clause
			for _, l := range c {
				if a, ok := local[l.Atom()]; ok {
					d = append(d, logic.MkLit(a, l.IsNeg()))
				}
			}
			if len(d) == len(c) {
				cs = append(cs, d)
			}
		}
		for i := range f.cuts {
			for j := i + 1; j < len(f.cuts); j++ {
				test := append(slices.Clone(cs), logic.Clause{logic.Pos(logic.Atom(i))}, logic.Clause{logic.Neg(logic.Atom(j))})
				if brute.Satisfiable(len(f.cuts), test) {
					t.Fatalf("%s: a world has %s <= %v and %s > %v", f.Column, f.Column, f.Cuts[i], f.Column, f.Cuts[j])
				}
			}
		}
	}
	if cuts == 0 {
		t.Fatal("no numeric column got two cuts: the test checks nothing")
	}
	b, err := e.Bind(tab)
	if err != nil {
		t.Fatal(err)
	}
	r, err := possibilistic.NewReasoner(ctx, lr.Theory)
	if err != nil {
		t.Fatal(err)
	}
	missing := 0
	for row := range tab.Rows {
		alpha := b.Situation(row)
		checkOrdered(t, e, func(a logic.Atom) (bool, bool) {
			for _, l := range alpha {
				if l.Atom() == a {
					return !l.IsNeg(), true
				}
			}
			return false, false
		}, fmt.Sprintf("row %d's literals", row))
		if tab.Column("x").Missing(row) {
			missing++
			for _, sem := range possibilistic.AllSemantics {
				w, err := r.MostPlausibleWorld(ctx, sem, logic.TermF(alpha))
				if err != nil || w == nil {
					t.Fatalf("row %d: no world (%v)", row, err)
				}
				checkOrdered(t, e, func(a logic.Atom) (bool, bool) { return w[a], true }, fmt.Sprintf("row %d's most plausible world under %s", row, sem))
			}
		}
	}
	if missing == 0 {
		t.Fatal("no row misses x")
	}
}

// checkOrdered fails when value gives a feature's thresholds a truth that
// is not monotone (x <= t true and x <= u false for t < u).
func checkOrdered(t *testing.T, e *Encoding, value func(logic.Atom) (v, known bool), what string) {
	t.Helper()
	for _, f := range e.Features {
		seenTrue := -1
		for i, a := range f.cuts {
			v, known := value(a)
			if !known {
				continue
			}
			if v && seenTrue < 0 {
				seenTrue = i
			}
			if !v && seenTrue >= 0 {
				t.Fatalf("%s: %s <= %v but %s > %v", what, f.Column, f.Cuts[seenTrue], f.Column, f.Cuts[i])
			}
		}
	}
}

func TestCuts(t *testing.T) {
	// Separable at 3 | 4: one cut, the lower value.
	x := []float64{1, 2, 3, 3, 4, 5, 6, 6, 7, 8}
	y := []int32{0, 0, 0, 0, 1, 1, 1, 1, 1, 1}
	if got := Cuts(x, y, 2); !slices.Equal(got, []float64{3}) {
		t.Errorf("separable: cuts %v, want [3]", got)
	}
	// One class: nothing to cut.
	if got := Cuts(x, make([]int32, len(x)), 2); got != nil {
		t.Errorf("one class: cuts %v", got)
	}
	// Missing values are left out; two boundaries in 40 rows.
	x, y = nil, nil
	for i := range 60 {
		v := float64(i)
		c := int32(0)
		if i >= 20 && i < 40 {
			c = 1
		}
		x, y = append(x, v), append(y, c)
	}
	x = append(x, nanValue())
	y = append(y, 1)
	if got := Cuts(x, y, 2); !slices.Equal(got, []float64{19, 39}) {
		t.Errorf("two boundaries: cuts %v, want [19 39]", got)
	}
	// Labels drawn at random from a few rows: the MDL criterion pays for no
	// cut.
	r := rand.New(rand.NewPCG(3, 3))
	x, y = nil, nil
	for range 30 {
		x, y = append(x, r.Float64()), append(y, int32(r.IntN(2)))
	}
	if got := Cuts(x, y, 2); len(got) > 0 {
		t.Errorf("random labels: cuts %v", got)
	}
}

// TestCutsAreBoundaries checks on random data that every cut is a value of
// the data and lies between two values whose rows are not all of one class.
func TestCutsAreBoundaries(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for range 50 {
		n := 20 + r.IntN(200)
		var x []float64
		var y []int32
		for range n {
			v := float64(r.IntN(40))
			c := int32(0)
			if v > 25 || v < 8 {
				c = 1
			}
			if r.Float64() < 0.15 {
				c = int32(r.IntN(3))
			}
			x, y = append(x, v), append(y, c)
		}
		for _, c := range Cuts(x, y, 3) {
			if !slices.Contains(x, c) {
				t.Fatalf("cut %v is not a value", c)
			}
			next := 1e9
			for _, v := range x {
				if v > c && v < next {
					next = v
				}
			}
			classesAt := func(v float64) map[int32]bool {
				m := map[int32]bool{}
				for i := range x {
					if x[i] == v {
						m[y[i]] = true
					}
				}
				return m
			}
			a, b := classesAt(c), classesAt(next)
			if len(a) == 1 && len(b) == 1 {
				for k := range a {
					if b[k] {
						t.Fatalf("cut %v between two groups of class %d only", c, k)
					}
				}
			}
		}
	}
}

func nanValue() float64 { var z float64; return z / z }

// TestCutsAtLeast checks the cuts beyond MDL's: they include MDL's, are
// as many as asked where the boundary points allow, and no more.
func TestCutsAtLeast(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for trial := range 40 {
		n := 20 + r.IntN(150)
		var x []float64
		var y []int32
		for range n {
			v := float64(r.IntN(30))
			c := int32(0)
			if v > 20 || v < 5 {
				c = 1
			}
			if r.Float64() < 0.2 {
				c = int32(r.IntN(2))
			}
			x, y = append(x, v), append(y, c)
		}
		mdl := Cuts(x, y, 2)
		for _, least := range []int{1, 3, 6} {
			got := cutsAtLeast(x, y, 2, least)
			for _, c := range mdl {
				if !slices.Contains(got, c) {
					t.Fatalf("trial %d, at least %d: cuts %v lack MDL's %v", trial, least, got, c)
				}
			}
			if !slices.IsSorted(got) || len(got) != len(slices.Compact(slices.Clone(got))) {
				t.Fatalf("cuts %v not sorted and distinct", got)
			}
			boundaries := len(groupValues(x, y, 2)) - 1 // at most
			if len(got) < 1 || len(got) > max(len(mdl), least) || len(got) > boundaries {
				t.Fatalf("trial %d, at least %d: %d cuts (MDL %d)", trial, least, len(got), len(mdl))
			}
		}
	}
	// Random labels: MDL pays for nothing, at least 2 gives 2.
	x, y := []float64{1, 2, 3, 4, 5, 6, 7, 8}, []int32{0, 1, 0, 1, 1, 0, 1, 0}
	if got := cutsAtLeast(x, y, 2, 2); len(Cuts(x, y, 2)) != 0 || len(got) != 2 {
		t.Fatalf("MDL %v, at least 2: %v", Cuts(x, y, 2), got)
	}
}

// TestLearnFallback checks that a learned theory's lowest levels state
// the training classes alone from the most frequent down
// (learn.Problem.Fallback) and that they only answer rows the rules above
// them leave without a class.
func TestLearnFallback(t *testing.T) {
	ctx := context.Background()
	decided := 0
	for seed := range uint64(3) {
		for _, sem := range possibilistic.AllSemantics {
			tab := read(t, synthetic(seed, 120, 3), Options{})
			lr, err := Learn(ctx, tab, nil, Settings{Label: "class", Features: []string{"x", "y", "colour", "size"},
				Learning: learntest.Legacy(learn.Settings{Iterations: 3, Seed: seed, Threads: 1, Semantics: sem})}, nil)
			if err != nil {
				t.Fatal(err)
			}
			counts := map[string]int{}
			for r := range tab.Rows {
				counts[tab.Column("class").Value(r)]++
			}
			most := slices.MaxFunc(lr.Encoding.Classes, func(a, b string) int { return counts[a] - counts[b] })
			want := logic.Clause{logic.Pos(lr.Encoding.classAtom(most))}
			// The levels below the most frequent class's are the other
			// classes alone, less frequent lower down.
			j := slices.IndexFunc(lr.Hypothesis.Levels, func(lv []logic.Clause) bool { return len(lv) == 1 && slices.Equal(lv[0], want) })
			if j < 0 {
				t.Fatalf("seed %d %s: no level states the fallback %v alone: %v", seed, sem, want, lr.Hypothesis.Levels)
			}
			above := counts[most]
			for _, lv := range slices.Backward(lr.Hypothesis.Levels[:j]) {
				c := slices.IndexFunc(lr.Encoding.Classes, func(c string) bool {
					return len(lv) == 1 && slices.Equal(lv[0], logic.Clause{logic.Pos(lr.Encoding.classAtom(c))})
				})
				if c < 0 || counts[lr.Encoding.Classes[c]] > above {
					t.Fatalf("seed %d %s: level %v below the fallback %v is not a less frequent class alone", seed, sem, lv, want)
				}
				above = counts[lr.Encoding.Classes[c]]
			}
			// Fallbacks counts them, and the rules above them answer
			// every row they decide as the whole theory does.
			k := lr.Fallbacks()
			if k < j+1 {
				t.Fatalf("seed %d %s: Fallbacks() = %d, want at least the %d lowest levels: %v", seed, sem, k, j+1, lr.Hypothesis.Levels)
			}
			rules := &learn.Hypothesis{Hard: lr.Hypothesis.Hard, Levels: lr.Hypothesis.Levels[k:]}
			with, err := lr.Predict(ctx, tab, PredictOptions{Semantics: sem})
			if err != nil {
				t.Fatal(err)
			}
			without, err := Predict(ctx, lr.Encoding.Theory(rules), tab, PredictOptions{Semantics: sem})
			if err != nil {
				t.Fatal(err)
			}
			for i := range with {
				switch {
				case without[i].Class == NoClass && with[i].Class != NoClass:
					decided++
				case without[i].Class != with[i].Class:
					t.Fatalf("seed %d %s: row %d: the rules answer %s, with the fallback %s", seed, sem, i, without[i].Class, with[i].Class)
				}
			}
		}
	}
	if decided == 0 {
		t.Fatal("the fallback decided no row: the test checks nothing")
	}
}

// TestLearnSaturated: when every held-out row is right at the chosen
// iteration, the final run is not held to the held-out parts' iterations
// but learns until every training row is right (learn.Selection.Saturated,
// learn.Protocol.Final).
func TestLearnSaturated(t *testing.T) {
	ctx := context.Background()
	saturated := 0
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 2))
		var b strings.Builder
		b.WriteString("shape,colour,size,class\n")
		for range 300 {
			shape := []string{"round", "square", "long"}[r.IntN(3)]
			colour := []string{"red", "green", "blue"}[r.IntN(3)]
			size := []string{"S", "M", "L"}[r.IntN(3)]
			c := "no" // a rule, an exception and an exception to it
			if shape == "round" && !(colour == "blue" && size != "L") || size == "S" && colour == "green" {
				c = "yes"
			}
			fmt.Fprintf(&b, "%s,%s,%s,%s\n", shape, colour, size, c)
		}
		tab := read(t, b.String(), Options{})
		for _, sem := range possibilistic.AllSemantics {
			s := Settings{Label: "class",
				Learning: learntest.Legacy(learn.Settings{Folds: 3, Rule: learn.BestScore, Iterations: 40, Patience: 5, Seed: seed, Threads: 1, Semantics: sem})}
			lr, err := Learn(ctx, tab, nil, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			sel := lr.Selection
			if !sel.Saturated() {
				continue
			}
			saturated++
			if lr.Iterations != s.Learning.Iterations {
				t.Errorf("seed %d %s: every held-out row right at %d iterations, but the final run was limited to %d", seed, sem, sel.Chosen, lr.Iterations)
			}
			if lr.Stop == learn.StopPerfect && lr.TrainAccuracy < 1 {
				t.Errorf("seed %d %s: stopped as perfect at training accuracy %.4f", seed, sem, lr.TrainAccuracy)
			}
		}
	}
	if saturated == 0 {
		t.Fatal("no run had every held-out row right: the test checks nothing")
	}
}
