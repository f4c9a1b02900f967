package table

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/learntest"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// decideTable writes a random table of numeric and categorical columns,
// some values missing, some categorical values unseen in the first rows
// (a row of another table), and a class of two to four values.
func decideTable(r *rand.Rand, cols, rows int) string {
	var b strings.Builder
	for c := range cols {
		fmt.Fprintf(&b, "f%d,", c)
	}
	b.WriteString("class\n")
	classes := 2 + r.IntN(3)
	for range rows {
		for c := range cols {
			switch {
			case r.IntN(10) == 0:
				b.WriteString("?")
			case c%2 == 0:
				fmt.Fprintf(&b, "%d", r.IntN(20))
			default:
				fmt.Fprintf(&b, "v%d", r.IntN(4))
			}
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "k%d\n", r.IntN(classes))
	}
	return b.String()
}

// TestDecideRowsAgreesWithReasoner: deciding rows as the learner decides
// its examples gives, for every row, the one class the reasoner entails
// (or none), for learned theories and for theories written by hand with
// rules, under every semantics, on rows the theory was not learned from
// (unseen values, missing values).
func TestDecideRowsAgreesWithReasoner(t *testing.T) {
	r := rand.New(rand.NewPCG(48, 7))
	for iter := range 60 {
		sem := possibilistic.AllSemantics[iter%3]
		cols := 2 + r.IntN(3)
		text := decideTable(r, cols, 40+r.IntN(40))
		tb, err := Read(strings.NewReader(text), "t.csv", Options{})
		if err != nil {
			t.Fatal(err)
		}
		lr, err := Learn(context.Background(), tb, nil, Settings{Label: "class", Learning: learntest.Legacy(learn.Settings{Seed: uint64(iter), Iterations: 6, Semantics: sem, Threads: 1})}, nil)
		if err != nil {
			t.Fatal(err)
		}
		th := lr.Theory
		if iter%4 == 3 {
			// A rule by hand beside the learned ones, over atoms the
			// learner has.
			v := th.Vocab
			var lits []logic.Lit
			for a := range v.Len() {
				if !lr.Encoding.IsAuxiliary(logic.Atom(a)) {
					lits = append(lits, logic.MkLit(logic.Atom(a), r.IntN(2) == 0))
				}
			}
			cond := logic.TermF(logic.Term{lits[r.IntN(len(lits))]})
			concl := logic.AtomF(lr.Encoding.ClassAtoms()[0])
			th.Add(logic.Implies(cond, concl), 0.3)
		}
		other, err := Read(strings.NewReader(decideTable(r, cols, 50)), "u.csv", Options{Numeric: NumericColumns(th.Vocab)})
		if err != nil {
			t.Fatal(err)
		}
		e, err := FromTheory(th.Vocab, hardOf(th), "class")
		if err != nil {
			t.Fatal(err)
		}
		b, err := e.Bind(other)
		if err != nil {
			t.Fatal(err)
		}
		rows := allRows(other.Rows)
		got, ok, err := decideRows(context.Background(), th, b, rows, sem)
		if err != nil || !ok {
			t.Fatalf("#%d: not decided: %v", iter, err)
		}
		rs, err := possibilistic.NewReasoner(context.Background(), th)
		if err != nil {
			t.Fatal(err)
		}
		for i, row := range rows {
			want := -1
			for c, a := range e.ClassAtoms() {
				yes, err := rs.EntailsClause(context.Background(), sem, b.Situation(row), logic.Clause{logic.Pos(a)})
				if err != nil {
					t.Fatal(err)
				}
				if yes {
					if want >= 0 {
						want = -2
						break
					}
					want = c
				}
			}
			if want == -2 {
				want = -1
			}
			if got[i] != want {
				t.Fatalf("#%d %v: row %d: class %d, the reasoner's %d\n%s", iter, sem, row, got[i], want, th)
			}
		}
	}
}

// TestDecideRowsRefusesFormulas: a formula that is not one clause or rule
// leaves the rows to the reasoner.
func TestDecideRowsRefusesFormulas(t *testing.T) {
	v := &logic.Vocabulary{}
	th, err := possibilistic.ReadText(context.Background(), strings.NewReader("1: class=a | class=b\n1: !class=a | !class=b\n0.5: (x<=1 & y=v) | class=a\n"), "t.theory", v)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := hypothesisOf(th); ok {
		t.Fatal("a formula of two clauses was taken as one")
	}
}
