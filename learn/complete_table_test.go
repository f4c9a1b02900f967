package learn_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/learntest"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

// randomTable writes a random table: two to five feature columns, numeric
// or categorical (up to eight values, so that some columns have the
// ladder's auxiliary atoms), some values missing, and a class of two to
// six values that rules over the features decide with noise.
func randomTable(r *rand.Rand) string {
	cols := 2 + r.IntN(4)
	rows := 20 + r.IntN(60)
	classes := 2 + r.IntN(5)
	missing := r.IntN(3) == 0
	numeric := make([]bool, cols)
	values := make([]int, cols)
	var b strings.Builder
	for c := range cols {
		numeric[c] = r.IntN(2) == 0
		values[c] = 2 + r.IntN(7)
		fmt.Fprintf(&b, "f%d,", c)
	}
	b.WriteString("class\n")
	for range rows {
		x := make([]int, cols)
		for c := range cols {
			x[c] = r.IntN(values[c])
			switch {
			case missing && r.IntN(8) == 0:
				b.WriteString("?")
			case numeric[c]:
				fmt.Fprintf(&b, "%d", x[c]*10+r.IntN(10))
			default:
				fmt.Fprintf(&b, "v%d", x[c])
			}
			b.WriteString(",")
		}
		class := (x[0] + x[1%cols]*(1+x[cols-1]%2)) % classes
		if r.IntN(10) == 0 {
			class = r.IntN(classes)
		}
		fmt.Fprintf(&b, "k%d\n", class)
	}
	return b.String()
}

// TestCompleteSameTheories learns random tables (missing values, many
// classes, thresholds, ladders) under every semantics with the engine the
// learner chooses and with the general one, and wants byte-identical
// theories and histories: the complete engine changes how fast coverage is
// decided, never what is learned.
func TestCompleteSameTheories(t *testing.T) {
	n := 1000
	if testing.Short() || raceEnabled {
		n = 60
	}
	for _, sem := range possibilistic.AllSemantics {
		r := rand.New(rand.NewPCG(uint64(sem), 4848))
		complete := 0
		defer func() {
			// The tables are drawn so that most fit the complete engine and
			// some (missing values in several numeric columns) do not.
			t.Logf("%v: %d of %d problems decided by the complete engine", sem, complete, n)
			if complete < n/2 || complete == n && n >= 500 {
				t.Errorf("%v: %d of %d problems decided by the complete engine", sem, complete, n)
			}
		}()
		for i := range n {
			text := randomTable(r)
			tb, err := table.Read(strings.NewReader(text), fmt.Sprintf("t%d.csv", i), table.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := table.Settings{Label: "class", Learning: learntest.Legacy(learn.Settings{Seed: uint64(i), Iterations: 4 + r.IntN(6), Candidates: 15,
				Semantics: sem, Threads: 1 + i%2, Grow: r.IntN(3), Tally: learn.SwitchOf(r.IntN(2) == 0), Specialise: r.IntN(2)})}
			if r.IntN(2) == 0 {
				s.Variant.Literals.Nearest = true
			}
			if r.IntN(4) == 0 {
				s.Variant.Literals.Unequal = true
			}
			if r.IntN(5) == 0 {
				s.Learning.Folds, s.Learning.Restarts = 2, 2
			}
			p, err := table.NewProblem(tb, nil, s)
			if err != nil {
				t.Fatal(err)
			}
			if l, err := learn.NewLearner(p.Learn, learn.ConfigOf(s.Learning)); err != nil {
				t.Fatal(err)
			} else if learn.UsesComplete(l) {
				complete++
			}
			got, err := table.Learn(context.Background(), tb, nil, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			s.Learning = learn.ForceGeneral(s.Learning)
			want, err := table.Learn(context.Background(), tb, nil, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := got.Theory.String(), want.Theory.String(); g != w {
				t.Fatalf("%v #%d: theories differ\ncomplete:\n%s\ngeneral:\n%s\ntable:\n%s", sem, i, g, w, text)
			}
			for k := range min(len(got.History), len(want.History)) {
				if a, b := got.History[k], want.History[k]; a.TrainAccuracy != b.TrainAccuracy || a.Literals != b.Literals {
					t.Fatalf("%v #%d: iteration %d differs: %+v, general %+v", sem, i, k+1, a, b)
				}
			}
			if len(got.History) != len(want.History) {
				t.Fatalf("%v #%d: %d iterations, general %d", sem, i, len(got.History), len(want.History))
			}
		}
	}
}
