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
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// manyValues returns a table with categorical columns of more values than
// pairwiseMax (so that LearnerHard says "at most one" by a ladder), a
// numeric column, missing values, and a class of three values that
// follows rules with exceptions, with noise.
func manyValues(seed uint64, rows int) string {
	r := rand.New(rand.NewPCG(seed, 9))
	var b strings.Builder
	b.WriteString("country,job,x,class\n")
	countries := []string{"us", "mx", "ca", "de", "fr", "in", "cn", "br"}
	jobs := []string{"a", "b", "c", "d", "e", "f", "g"}
	for range rows {
		c, j, x := r.IntN(len(countries)), r.IntN(len(jobs)), r.IntN(50)
		class := "low"
		switch {
		case c < 2 && x > 30:
			class = "high"
		case j == 3 || j == 5:
			class = "mid"
		case x > 40:
			class = "high"
		}
		if r.Float64() < 0.08 {
			class = []string{"low", "mid", "high"}[r.IntN(3)]
		}
		cs, js, xs := countries[c], jobs[j], fmt.Sprint(x)
		if r.Float64() < 0.1 {
			cs = "?"
		}
		if r.Float64() < 0.1 {
			js = ""
		}
		if r.Float64() < 0.05 {
			xs = "?"
		}
		fmt.Fprintf(&b, "%s,%s,%s,%s\n", cs, js, xs, class)
	}
	return b.String()
}

// TestLadderSameAnswers is the differential test of LearnerHard against
// Hard: over the encoding's atoms the two have the same worlds (brute
// force), a reasoner gives every situation (missing values included) the
// same answers with either under every semantics, and the learner learns
// the same theory with either, for the same seed.
func TestLadderSameAnswers(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(3) {
		tab := read(t, manyValues(seed, 300), Options{})
		features := []string{"country", "job", "x"}
		e, err := Fit(tab, "class", features, allRows(tab.Rows))
		if err != nil {
			t.Fatal(err)
		}
		pairwise, ladder := e.Hard(), e.LearnerHard()
		if len(ladder) >= len(pairwise) {
			t.Fatalf("the ladder has %d clauses, pairwise %d: no column took it", len(ladder), len(pairwise))
		}
		// Same worlds over each column's atoms, by brute force over the
		// atoms of one column and its auxiliary atoms.
		for _, f := range e.Features {
			if len(f.values) <= pairwiseMax {
				continue
			}
			sameWorldsOverValues(t, e, f)
		}
		// The same answers from a reasoner, on random theories over the
		// encoding's atoms, for every row's situation.
		b, err := e.Bind(tab)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 77))
		var atoms []logic.Atom
		for _, f := range e.Features {
			atoms = append(atoms, f.values...)
			atoms = append(atoms, f.cuts...)
		}
		classes := e.ClassAtoms()
		for trial := range 8 {
			soft := randomRules(rng, atoms, classes)
			withPair, withLadder := theoryOf(e.Vocab, soft, pairwise), theoryOf(e.Vocab, soft, ladder)
			rp, err := possibilistic.NewReasoner(ctx, withPair)
			if err != nil {
				t.Fatal(err)
			}
			rl, err := possibilistic.NewReasoner(ctx, withLadder)
			if err != nil {
				t.Fatal(err)
			}
			for row := 0; row < tab.Rows; row += 3 {
				alpha := b.Situation(row)
				for _, sem := range possibilistic.AllSemantics {
					for _, c := range classes {
						x, err1 := rp.EntailsClause(ctx, sem, alpha, logic.Clause{logic.Pos(c)})
						y, err2 := rl.EntailsClause(ctx, sem, alpha, logic.Clause{logic.Pos(c)})
						if err1 != nil || err2 != nil || x != y {
							t.Fatalf("seed %d trial %d row %d %s %s: pairwise %v, ladder %v (%v %v)\n%s", seed, trial, row, sem,
								e.Vocab.Name(c), x, y, err1, err2, withPair)
						}
					}
				}
			}
		}
		// The learner learns the same theory with either.
		for _, sem := range possibilistic.AllSemantics {
			p, err := NewProblem(tab, nil, Settings{Label: "class", Features: features, Learning: learn.Settings{Seed: seed}})
			if err != nil {
				t.Fatal(err)
			}
			s := learn.Settings{Iterations: 6, Seed: seed, Threads: 1, Semantics: sem, Patience: learn.Never}
			e := p.Encodings[0]
			run := func(hard []logic.Clause) string {
				q := p.Learn
				q.Hard = hard
				res, err := learn.Learn(ctx, q, s, nil)
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				res.Theory.WriteText(&buf)
				return buf.String()
			}
			if a, b := run(e.Hard()), run(e.LearnerHard()); a != b {
				t.Fatalf("seed %d %s: pairwise learns\n%s\nthe ladder\n%s", seed, sem, a, b)
			}
		}
	}
}

// sameWorldsOverValues checks by brute force that the worlds of the ladder
// over f's values, projected on them, are those of the pairwise clauses:
// the assignments of at most one true value.
func sameWorldsOverValues(t *testing.T, e *Encoding, f Feature) {
	t.Helper()
	local := map[logic.Atom]logic.Atom{}
	for i, a := range f.values {
		local[a] = logic.Atom(i)
	}
	n := len(f.values)
	var cs []logic.Clause
	for _, c := range atMostOneLadder(f.values, logic.Fresh(e.Vocab, "m")) {
		var d logic.Clause
		for _, l := range c {
			a, ok := local[l.Atom()]
			if !ok {
				a = logic.Atom(len(local)) // an auxiliary atom, numbered after the values
				local[l.Atom()] = a
			}
			d = append(d, logic.MkLit(a, l.IsNeg()))
		}
		cs = append(cs, d)
	}
	for mask := range 1 << n {
		var fix []logic.Clause
		ones := 0
		for i := range n {
			on := mask>>i&1 == 1
			if on {
				ones++
			}
			fix = append(fix, logic.Clause{logic.MkLit(logic.Atom(i), !on)})
		}
		if got := brute.Satisfiable(len(local), append(slices.Clone(cs), fix...)); got != (ones <= 1) {
			t.Fatalf("%s: %d values true: the ladder satisfiable %v", f.Column, ones, got)
		}
	}
}

// randomRules returns a few random rules over the atoms, each concluding
// a class or its negation, at random levels.
func randomRules(rng *rand.Rand, atoms, classes []logic.Atom) [][]logic.Clause {
	levels := make([][]logic.Clause, 1+rng.IntN(3))
	for i := range levels {
		for range 1 + rng.IntN(4) {
			var c logic.Clause
			for range 1 + rng.IntN(3) {
				c = append(c, logic.MkLit(atoms[rng.IntN(len(atoms))], rng.IntN(2) == 0))
			}
			c = append(c, logic.MkLit(classes[rng.IntN(len(classes))], rng.IntN(3) == 0))
			if c, taut := logic.Normalize(c); !taut {
				levels[i] = append(levels[i], c)
			}
		}
	}
	return levels
}

func theoryOf(v *logic.Vocabulary, levels [][]logic.Clause, hard []logic.Clause) *possibilistic.Theory {
	return (&learn.Hypothesis{Levels: levels, Hard: hard}).Theory(v)
}

// TestLiteralsSameAnswers checks that the situations of every Literals
// form give the reasoner the same answers: with the hard rules, each form's
// situation entails every literal of the others', and random theories
// over the encoding's atoms answer every row alike under each semantics.
func TestLiteralsSameAnswers(t *testing.T) {
	ctx := context.Background()
	tab := read(t, manyValues(5, 200), Options{})
	e, err := Fit(tab, "class", []string{"country", "job", "x"}, allRows(tab.Rows))
	if err != nil {
		t.Fatal(err)
	}
	forms := []Literals{{}, {Nearest: true}, {Unequal: true}, {Nearest: true, Unequal: true}}
	binds := make([]*Binding, len(forms))
	for i, f := range forms {
		if binds[i], err = e.Bind(tab); err != nil {
			t.Fatal(err)
		}
		binds[i].Literals = f
	}
	hardOnly, err := possibilistic.NewReasoner(ctx, theoryOf(e.Vocab, nil, e.Hard()))
	if err != nil {
		t.Fatal(err)
	}
	shorter := false
	for row := range tab.Rows {
		for i := range forms {
			for j := range forms {
				a, b := binds[i].Situation(row), binds[j].Situation(row)
				if len(a) < len(b) {
					shorter = true
				}
				for _, l := range b {
					if slices.Contains(a, l) {
						continue
					}
					ok, err := hardOnly.EntailsClause(ctx, possibilistic.Poss, a, logic.Clause{l})
					if err != nil || !ok {
						t.Fatalf("row %d: %+v's situation %s does not entail %s of %+v's", row, forms[i], e.Vocab.Join(a, " & "), e.Vocab.LitString(l), forms[j])
					}
				}
			}
		}
	}
	if !shorter {
		t.Fatal("every form states the same literals: the test shows nothing")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	var atoms []logic.Atom
	for _, f := range e.Features {
		atoms = append(append(atoms, f.values...), f.cuts...)
	}
	for range 6 {
		r, err := possibilistic.NewReasoner(ctx, theoryOf(e.Vocab, randomRules(rng, atoms, e.ClassAtoms()), e.Hard()))
		if err != nil {
			t.Fatal(err)
		}
		for row := 0; row < tab.Rows; row += 4 {
			for _, sem := range possibilistic.AllSemantics {
				for _, c := range e.ClassAtoms() {
					var want bool
					for i, b := range binds {
						got, err := r.EntailsClause(ctx, sem, b.Situation(row), logic.Clause{logic.Pos(c)})
						if err != nil {
							t.Fatal(err)
						}
						if i == 0 {
							want = got
						} else if got != want {
							t.Fatalf("row %d %s %s: %+v answers %v, the full situation %v", row, sem, e.Vocab.Name(c), forms[i], got, want)
						}
					}
				}
			}
		}
	}
}

// TestTooManyClassesOrValuesAreRefused: a class column of more than
// MaxClasses values, or a categorical feature of more than MaxValues, is
// refused by Fit with a message that says how many, why and what to
// change, before any hard rule is built (10,000 classes ran out of memory,
// 1,000 ran for minutes); at the limits the table is encoded.
func TestTooManyClassesOrValuesAreRefused(t *testing.T) {
	table := func(classes, values int) *Table {
		var b strings.Builder
		b.WriteString("x,c\n")
		for i := range max(classes, values) {
			fmt.Fprintf(&b, "v%d,k%d\n", i%values, i%classes)
		}
		tab, err := Read(strings.NewReader(b.String()), "t.csv", Options{Categorical: []string{"x"}})
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	all := func(tab *Table) []int {
		rows := make([]int, tab.Rows)
		for i := range rows {
			rows[i] = i
		}
		return rows
	}
	for _, c := range []struct {
		classes, values int
		want            string
	}{
		{MaxClasses + 1, 2, `t.csv: the class column "c" has 101 values in the training rows, more than the 100 a table may have: a theory says that one class holds by a clause for every two (5,050 of them here)`},
		{2, MaxValues + 1, `t.csv: column "x" has 501 values in the training rows, more than the 500 a categorical feature may have: a theory says that at most one holds by a clause for every two (125,250 of them here); leave the column out of the features`},
		{MaxClasses, MaxValues, ""},
	} {
		tab := table(c.classes, c.values)
		_, err := Fit(tab, "c", []string{"x"}, all(tab))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%d classes, %d values: %v", c.classes, c.values, err)
		}
	}
}
