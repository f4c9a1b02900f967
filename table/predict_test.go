package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestExplainVotes checks --explain on a level of votes under lex: the
// rules given are every rule of the deciding level that applies to the
// row and concludes its class (one directly, one as "not the other class",
// one whose condition holds by the hard rules), and the rules set aside
// are the outvoted ones (and any other the answer violates); rules that do
// not apply, or conclude no single class, are in neither.
func TestExplainVotes(t *testing.T) {
	ctx := context.Background()
	src := `1: label=a | label=b
1: label!=a | label!=b
1: colour!=red | colour!=blue

0.5: x > 2 -> label=b
0.5: y=t -> label=a
0.5: z=t -> label=a
0.5: v=t -> label!=b
0.5: colour!=red -> label=a
0.5: w=t -> label=b
0.5: u=t -> label=a | label=b

0.25: label=b
`
	th, err := possibilistic.ReadText(ctx, strings.NewReader(src), "votes.theory", &logic.Vocabulary{})
	if err != nil {
		t.Fatal(err)
	}
	tab := read(t, "x,y,z,v,w,u,colour\n3,t,t,t,f,t,blue\n", Options{Numeric: []string{"x"}})
	for _, sem := range possibilistic.AllSemantics {
		preds, err := Predict(ctx, th, tab, PredictOptions{Semantics: sem, Label: "label", Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		if sem != possibilistic.Lex {
			if len(preds[0].Why.Against) != 0 {
				t.Errorf("%s: rules set aside %q, want them only under lex", sem, preds[0].Why.Against)
			}
			continue
		}
		p := preds[0]
		if p.Class != "a" || p.Why.Level != 0.5 {
			t.Fatalf("lex: %s at %v, want a, decided at 0.5 by four votes to one", p.Class, p.Why.Level)
		}
		wantFor := []string{"0.5: y=t -> label=a", "0.5: z=t -> label=a", "0.5: v=t -> label!=b", "0.5: colour!=red -> label=a"}
		got := slices.Sorted(slices.Values(p.Why.Rules))
		if slices.Sort(wantFor); !slices.Equal(got, wantFor) {
			t.Errorf("lex: rules for a %q, want %q", got, wantFor)
		}
		// The fallback for b is set aside too: the answer violates it.
		if want := []string{"0.5: x > 2 -> label=b", "0.25: label=b"}; !slices.Equal(p.Why.Against, want) {
			t.Errorf("lex: rules set aside %q, want %q", p.Why.Against, want)
		}
	}
}

// TestErrClassColumn: every way a theory can lack a usable class column is
// ErrClassColumn to errors.Is, with its own message; a table without a
// column the theory needs is not.
func TestErrClassColumn(t *testing.T) {
	ctx := context.Background()
	tab := read(t, "x,c\n1,a\n", Options{Numeric: []string{"x"}})
	for _, c := range []struct{ theory, label, msg string }{
		{"", "", "no class column"},
		{"1: c=a | c=b\n1: d=a | d=b\n", "", "several possible class columns"},
		{"1: c=a | c=b\n", "x", "compared with a threshold"},
		{"1: c=a | c=b\n", "z", "need at least two"},
	} {
		th, err := possibilistic.ReadText(ctx, strings.NewReader(c.theory+"0.5: x > 2 -> c=a\n"), "t.theory", &logic.Vocabulary{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = Predict(ctx, th, tab, PredictOptions{Label: c.label})
		if !errors.Is(err, ErrClassColumn) || !strings.Contains(fmt.Sprint(err), c.msg) {
			t.Errorf("%q, label %q: %v, want ErrClassColumn saying %q", c.theory, c.label, err, c.msg)
		}
	}
	th, err := possibilistic.ReadText(ctx, strings.NewReader("1: c=a | c=b\n0.5: y > 2 -> c=a\n"), "t.theory", &logic.Vocabulary{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Predict(ctx, th, tab, PredictOptions{}); err == nil || errors.Is(err, ErrClassColumn) {
		t.Errorf("a table without the column y: %v, want an error that is not ErrClassColumn", err)
	}
}

// TestPredictDegrees: each class's degree is its necessity given the row
// (the weight of the lowest level that entails it, 0 when none does), the
// predicted class's degree is the level its explanation names, under every
// semantics (the row x=3, y=t entails both classes at some level: poss
// drowns the lower one, linear and lex keep the higher), and degrees change
// no prediction.
func TestPredictDegrees(t *testing.T) {
	ctx := context.Background()
	src := `1: label=a | label=b
1: label!=a | label!=b

0.75: x > 2 -> label=a
0.5: y=t -> label=b
0.25: label=b
`
	th, err := possibilistic.ReadText(ctx, strings.NewReader(src), "d.theory", &logic.Vocabulary{})
	if err != nil {
		t.Fatal(err)
	}
	tab := read(t, "x,y\n3,f\n1,t\n1,f\n3,t\n", Options{Numeric: []string{"x"}})
	want := map[possibilistic.Semantics][]string{
		// Under poss, the row x=3, y=t drowns the levels from 0.5 down and
		// keeps a at 0.75; linear and lex keep what agrees with 0.75.
		possibilistic.Poss:   {"a 0.75 [a:0.75 b:0]", "b 0.5 [a:0 b:0.5]", "b 0.25 [a:0 b:0.25]", "a 0.75 [a:0.75 b:0]"},
		possibilistic.Linear: {"a 0.75 [a:0.75 b:0]", "b 0.5 [a:0 b:0.5]", "b 0.25 [a:0 b:0.25]", "a 0.75 [a:0.75 b:0]"},
		possibilistic.Lex:    {"a 0.75 [a:0.75 b:0]", "b 0.5 [a:0 b:0.5]", "b 0.25 [a:0 b:0.25]", "a 0.75 [a:0.75 b:0]"},
	}
	for _, sem := range possibilistic.AllSemantics {
		preds, err := Predict(ctx, th, tab, PredictOptions{Semantics: sem, Label: "label", Degrees: true, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range preds {
			var ds []string
			for _, d := range p.Degrees {
				ds = append(ds, fmt.Sprintf("%s:%v", d.Class, d.Necessity))
			}
			if got := fmt.Sprintf("%s %v [%s]", p.Class, p.Degree, strings.Join(ds, " ")); got != want[sem][i] {
				t.Errorf("%s, row %d: %s, want %s", sem, i+1, got, want[sem][i])
			}
			if p.Class != NoClass && p.Degree != p.Why.Level {
				t.Errorf("%s, row %d: degree %v, explained at level %v", sem, i+1, p.Degree, p.Why.Level)
			}
		}
		plain, err := Predict(ctx, th, tab, PredictOptions{Semantics: sem, Label: "label"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range plain {
			if plain[i].Class != preds[i].Class || plain[i].Degrees != nil {
				t.Errorf("%s, row %d: without degrees %+v, with %+v", sem, i+1, plain[i], preds[i])
			}
		}
	}
}

// TestPredictKeep: the kept columns' values come with each prediction, in
// the order asked, missing as ""; a column the table lacks is an error
// naming the file and the column.
func TestPredictKeep(t *testing.T) {
	ctx := context.Background()
	th, err := possibilistic.ReadText(ctx, strings.NewReader("1: label=a | label=b\n1: label!=a | label!=b\n0.5: x > 2 -> label=a\n0.25: label=b\n"), "k.theory", &logic.Vocabulary{})
	if err != nil {
		t.Fatal(err)
	}
	tab := read(t, "id,x,note\n007,3,hi\n008,1,?\n", Options{Numeric: NumericColumns(th.Vocab)})
	preds, err := Predict(ctx, th, tab, PredictOptions{Label: "label", Keep: []string{"note", "id"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintln(preds[0].Kept, preds[0].Class, preds[1].Kept, preds[1].Class); got != "[hi 007] a [ 008] b\n" {
		t.Errorf("kept %s", got)
	}
	if _, err := Predict(ctx, th, tab, PredictOptions{Label: "label", Keep: []string{"name"}}); err == nil || err.Error() != `t.csv:1:1: no column "name" to keep (columns: id, x, note)` {
		t.Errorf("keeping a column the table lacks: %v", err)
	}
}
