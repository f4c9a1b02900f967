package table

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/learntest"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

// TestFoldsOwnCuts checks that every held-out part of NewProblem is
// encoded with the cut points and values of its own training rows alone:
// the thresholds its examples and held-out situations mention are the
// cuts of those rows (Cuts), not those of all the training rows; and that
// the validation problem's hard rules order them all.
func TestFoldsOwnCuts(t *testing.T) {
	tab := read(t, synthetic(11, 400, 3), Options{})
	features := []string{"x", "y", "colour", "size"}
	rows := allRows(tab.Rows)
	differ := false
	for _, folds := range []int{1, 4} {
		l := learn.Settings{Seed: 5, Folds: folds}
		if folds == 1 {
			l.Validation = 0.3
		}
		s := Settings{Label: "class", Features: features, Learning: l}
		pl, err := NewPlan(tab, nil, s)
		if err != nil {
			t.Fatal(err)
		}
		p := struct {
			Encoding   *Encoding
			Folds      []learn.Fold
			Validation learn.Problem
		}{pl.problem.Encodings[0], pl.Folds(), learn.Problem{Vocab: pl.Folds()[0].Vocab, Hard: pl.Folds()[0].Hard}}
		held, err := heldOut(tab, rows, s)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Folds) != len(held) || len(held) != folds {
			t.Fatalf("%d folds: %d held-out parts, %d folds in the problem", folds, len(held), len(p.Folds))
		}
		for f, h := range held {
			train := Complement(rows, h)
			own, err := Fit(tab, "class", features, train)
			if err != nil {
				t.Fatal(err)
			}
			mentioned := map[string][]float64{}
			note := func(term []logic.Lit) {
				for _, l := range term {
					if c, ok := logic.ParseComparison(p.Validation.Vocab.Name(l.Atom())); ok && c.Op == logic.OpLe {
						mentioned[c.Column] = append(mentioned[c.Column], c.Threshold())
					}
				}
			}
			for _, e := range p.Folds[f].Train.List {
				note(e.Alpha)
			}
			for _, e := range p.Folds[f].Held.Queries().List {
				note(e.Alpha)
			}
			for _, ft := range own.Features {
				got := mentioned[ft.Column]
				slices.Sort(got)
				got = slices.Compact(got)
				if !slices.Equal(got, ft.Cuts) {
					t.Fatalf("%d folds, part %d, %s: the examples mention cuts %v, its training rows give %v", folds, f+1, ft.Column, got, ft.Cuts)
				}
				all := p.Encoding.feature(ft.Column)
				if !slices.Equal(all.Cuts, ft.Cuts) {
					differ = true
				}
			}
		}
		// The validation problem's hard rules order every part's
		// thresholds of a column: x <= a -> x <= b for a < b.
		checkChain(t, p.Validation, "x")
	}
	if !differ {
		t.Error("every held-out part has the cuts of all the rows: the test shows nothing")
	}
}

// checkChain checks that the hard rules of p say x <= a -> x <= b for
// every two thresholds a < b of the column that p's vocabulary has.
func checkChain(t *testing.T, p learn.Problem, col string) {
	t.Helper()
	type cut struct {
		at logic.Atom
		t  float64
	}
	var cuts []cut
	for a := range p.Vocab.Len() {
		if c, ok := logic.ParseComparison(p.Vocab.Name(logic.Atom(a))); ok && c.Column == col && c.Op == logic.OpLe {
			cuts = append(cuts, cut{logic.Atom(a), c.Threshold()})
		}
	}
	slices.SortFunc(cuts, func(a, b cut) int { return cmp.Compare(a.t, b.t) })
	next := map[logic.Atom]logic.Atom{}
	for _, c := range p.Hard {
		if len(c) == 2 && c[0].IsNeg() != c[1].IsNeg() {
			lo, hi := c[0], c[1]
			if !lo.IsNeg() {
				lo, hi = hi, lo
			}
			next[lo.Atom()] = hi.Atom()
		}
	}
	for i := 1; i < len(cuts); i++ {
		if next[cuts[i-1].at] != cuts[i].at {
			t.Fatalf("no hard rule %s <= %v -> %s <= %v", col, cuts[i-1].t, col, cuts[i].t)
		}
	}
	if len(cuts) < 2 {
		t.Fatalf("%d thresholds of %s", len(cuts), col)
	}
}

// TestLearnFoldsAndPrune learns with one held-out part and with folds and
// pruning: the selection is made, pruning reports what it did, and the
// theory predicts as its read-back copy does.
func TestLearnFoldsAndPrune(t *testing.T) {
	ctx := context.Background()
	tab := read(t, synthetic(3, 300, 3), Options{})
	for _, l := range []learn.Settings{
		{Folds: 1, Validation: 0.3},
		{Folds: 3, Prune: true},
	} {
		l.Iterations, l.Seed, l.Threads = 10, 2, 1
		l.ValidationPatience = learn.DefaultValidationPatience
		s := Settings{Label: "class", Features: []string{"x", "y", "colour", "size"}, Learning: learntest.Legacy(l)}
		lr, err := Learn(ctx, tab, nil, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("folds %d prune %v", l.Folds, l.Prune)
		if lr.Selection == nil || lr.Selection.Chosen == 0 {
			t.Fatalf("%s: no selection (%s)", name, lr.NoSelection)
		}
		if (lr.Pruning != nil) != l.Prune {
			t.Errorf("%s: pruning %+v", name, lr.Pruning)
		}
		if lr.Iterations != lr.Selection.Chosen {
			t.Errorf("%s: the final run's limit %d, chosen %d", name, lr.Iterations, lr.Selection.Chosen)
		}
	}
}

// TestExamplesAsAdd checks that Binding.Examples builds the examples that
// learn.Examples.Add builds from the same rows and draws, in the same
// order with the same multiplicities, also when every hash collides.
func TestExamplesAsAdd(t *testing.T) {
	src := synthetic(4, 500, 3)
	dups := "a,b,class\nx,1,p\nx,1,p\ny,2,q\nx,1,q\n?,?,p\n?,?,p\ny,2,q\n"
	for _, c := range []struct {
		src      string
		features []string
		label    string
	}{{src, []string{"x", "y", "colour", "size"}, "class"}, {dups, []string{"a", "b"}, "class"}, {src, []string{"colour", "size"}, "class"}} {
		tab := read(t, c.src, Options{})
		e, err := Fit(tab, c.label, c.features, allRows(tab.Rows))
		if err != nil {
			t.Fatal(err)
		}
		b, err := e.Bind(tab)
		if err != nil {
			t.Fatal(err)
		}
		want := &learn.Examples{}
		rng := rand.New(rand.NewPCG(9, 9))
		atoms := e.ClassAtoms()
		for r := range tab.Rows {
			cl := b.Class(r)
			want.Add(b.Situation(r), logic.Clause{logic.Pos(atoms[cl])}, true, 1)
			other := rng.IntN(len(atoms) - 1)
			if other >= cl {
				other++
			}
			want.Add(b.Situation(r), logic.Clause{logic.Pos(atoms[other])}, false, 1)
		}
		for _, collide := range []bool{false, true} {
			if collide {
				hashExample = func(logic.Term, logic.Lit, bool) uint64 { return 7 }
			}
			got, err := b.Examples(allRows(tab.Rows), rand.New(rand.NewPCG(9, 9)))
			hashExample = exampleHash
			if err != nil {
				t.Fatal(err)
			}
			if len(got.List) != len(want.List) {
				t.Fatalf("%d examples, Add gives %d", len(got.List), len(want.List))
			}
			for i := range got.List {
				g, w := got.List[i], want.List[i]
				if !slices.Equal(g.Alpha, w.Alpha) || !slices.Equal(g.Beta, w.Beta) || g.Positive != w.Positive || g.Count != w.Count {
					t.Fatalf("collide %v: example %d: %v, Add gives %v", collide, i, g, w)
				}
			}
			if len(got.List) == tab.Rows*2 {
				t.Logf("no duplicates in %d rows", tab.Rows)
			}
		}
	}
}

// TestVariants checks the choice among encodings on the held-out parts:
// every variant is validated, the one learned is one whose held-out
// accuracy is the highest, and variants read back as they print.
func TestVariants(t *testing.T) {
	tab := read(t, synthetic(6, 300, 3), Options{})
	vs := []Variant{{}, {MinCuts: 3}, {Literals: Literals{Nearest: true, Unequal: true}}}
	lr, err := Learn(context.Background(), tab, nil, Settings{Label: "class", Features: []string{"x", "y", "colour", "size"},
		Variants: vs, Learning: learntest.Legacy(learn.Settings{Folds: 3, ValidationPatience: 20, Iterations: 8, Seed: 4, Threads: 1})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lr.Tried) != len(vs) {
		t.Fatalf("%d variants tried", len(lr.Tried))
	}
	best := -1.0
	for i, tr := range lr.Tried {
		if tr.Variant != vs[i] || tr.Selection == nil {
			t.Fatalf("variant %d: %+v", i, tr)
		}
		best = max(best, tr.Selection.ChosenAccuracy)
	}
	if lr.Selection == nil || lr.Selection.ChosenAccuracy != best || !slices.Contains(vs, lr.Variant) {
		t.Fatalf("learned %v with held-out accuracy %v; the best is %v", lr.Variant, lr.Selection.ChosenAccuracy, best)
	}
	for _, v := range append(vs, Variant{MinCuts: 2, Literals: Literals{Unequal: true}}) {
		back, err := ParseVariant(v.String())
		if err != nil || back != v {
			t.Errorf("%+v prints %q, reads back %+v (%v)", v, v.String(), back, err)
		}
	}
	for _, bad := range []string{"", "cuts>=0", "mdl+mdl", "nearest", "mdl+nearest+nearest", "cuts>=x"} {
		if _, err := ParseVariant(bad); err == nil {
			t.Errorf("ParseVariant(%q) gave no error", bad)
		}
	}
}

// TestTooFew checks that too few rows or groups for the folds or the
// held-out share asked for is ErrTooFew, which the server reports against
// its folds or validation field, and that a table's own fault is not.
func TestTooFew(t *testing.T) {
	tab, err := Read(strings.NewReader("x,g,c\n1,a,y\n2,a,n\n3,a,y\n"), "f.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := []int{0, 1, 2}
	if _, err := Folds(tab, rows, 5, "c", "", 1); !errors.Is(err, ErrTooFew) {
		t.Errorf("5 folds of 3 rows: %v", err)
	}
	if _, err := Folds(tab, rows, 2, "c", "g", 1); !errors.Is(err, ErrTooFew) {
		t.Errorf("2 folds of 1 group: %v", err)
	}
	if _, err := HoldOut(tab, rows, 0.3, "c", "g", 1); !errors.Is(err, ErrTooFew) {
		t.Errorf("holding out 1 group of 1: %v", err)
	}
	if _, err := Folds(tab, rows, 3, "c", "", 1); err != nil {
		t.Errorf("3 folds of 3 rows: %v", err)
	}
	if _, err := Folds(tab, rows, 2, "c", "nope", 1); err == nil || errors.Is(err, ErrTooFew) {
		t.Errorf("a group column that is not there: %v", err)
	}
}

// heldOut returns the rows each held-out part of s holds out, as Folds
// and HoldOut draw them.
func heldOut(t *Table, rows []int, s Settings) ([][]int, error) {
	parts, share := s.Learning.Parts()
	return split(t, rows, parts, share, s.Label, s.Group, s.Learning.SeedOrDefault())
}
