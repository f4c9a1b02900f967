package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

// groupTable returns a CSV table of n rows with a group column g (twelve
// groups), two numeric columns, a categorical one and a class of three
// values with noise.
func groupTable(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 5))
	var b strings.Builder
	b.WriteString("g,x,y,colour,class\n")
	for range n {
		x, y, c := r.IntN(100), float64(r.IntN(1000))/100, []string{"red", "green", "blue"}[r.IntN(3)]
		class := "c"
		switch {
		case x > 50 && c != "blue" || y < 2:
			class = "a"
		case x > 20:
			class = "b"
		}
		if r.IntN(12) == 0 {
			class = []string{"a", "b", "c"}[r.IntN(3)]
		}
		fmt.Fprintf(&b, "g%d,%d,%g,%s,%s\n", r.IntN(12), x, y, c, class)
	}
	return b.String()
}

// TestLearnTableAgreesEverywhere: strata learn --table, the server's
// learning run on the same table and table.Learn write byte for byte the
// same theory for the same request: with no flags (table.Learn with zero
// settings, the table's defaults in the library's zero value), and with a
// group column, several encodings to choose among, restarts, pruning and
// the other semantics.
func TestLearnTableAgreesEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("learns a dozen theories")
	}
	url := newAPIServer(t)
	csv := groupTable(300, 4)
	path := writeFile(t, "g.csv", csv)
	tab, err := table.Read(strings.NewReader(csv), path, table.Options{Categorical: []string{"class", "g"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flags  []string
		fields map[string]any
		lib    table.Settings
	}{
		{nil, nil, table.Settings{}},
		{[]string{"--group", "g", "--folds", "3", "--restarts", "3", "--iterations", "20", "--seed", "2"},
			map[string]any{"group": "g", "folds": 3, "restarts": 3, "iterations": 20, "seed": 2},
			table.Settings{Group: "g", Learning: learn.Settings{Folds: 3, Restarts: 3, Iterations: 20, Seed: 2}}},
		{[]string{"--group", "g", "--validation", "0.3", "--variants", "mdl,cuts>=3+unequal", "--semantics", "linear", "--prune"},
			map[string]any{"group": "g", "validation": 0.3, "variants": "mdl,cuts>=3+unequal", "semantics": "linear", "prune": true},
			table.Settings{Group: "g", Variants: []table.Variant{{}, {MinCuts: 3, Literals: table.Literals{Unequal: true}}},
				Learning: learn.Settings{Validation: 0.3, Semantics: possibilistic.Linear, Prune: true}}},
		{[]string{"--group", "g", "--folds", "4", "--choose", "paired", "--semantics", "lex", "--grow", "0", "--tally=false", "--iterations", "25"},
			map[string]any{"group": "g", "folds": 4, "choose": "paired", "semantics": "lex", "grow": 0, "tally": false, "iterations": 25},
			table.Settings{Group: "g", Learning: learn.Settings{Folds: 4, Rule: learn.Paired, Semantics: possibilistic.Lex, Grow: learn.None, Tally: learn.SwitchOff, Iterations: 25}}},
	} {
		out := writeFile(t, "out.theory", "")
		if _, errs, code := strata(t, "", append([]string{"learn", "--table", path, "--label", "class", "-o", out}, c.flags...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.flags, code, errs)
		}
		cli, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		body := map[string]any{"table": csv, "label": "class"}
		for k, v := range c.fields {
			body[k] = v
		}
		served := learnOnServer(t, url, body)
		s := c.lib
		s.Label = "class"
		lr, err := table.Learn(context.Background(), tab, nil, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		lib := lr.Theory.String()
		if string(cli) != lib || served != lib {
			t.Errorf("%v: strata learn --table\n%s\nthe server\n%s\ntable.Learn\n%s", c.flags, cli, served, lib)
		}
		if c.lib.Group != "" && lr.Selection == nil {
			t.Errorf("%v: nothing chosen on held-out groups: the case shows little", c.flags)
		}
	}
}

// TestLearnHardAgreesEverywhere: strata learn, the server's learning run
// and learn.Learn write byte for byte the same theory for defaults with a
// hard rule whose clausal form names subformulas by auxiliary atoms, each
// stating the rule as it was written, without and with held-out parts and
// restarts.
func TestLearnHardAgreesEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("learns six theories")
	}
	url := newAPIServer(t)
	dnf, _ := dnfHard(8)
	pos, neg := hardExamples(8, 80, 3)
	paths := []string{writeFile(t, "p.rules", pos), writeFile(t, "n.rules", neg), writeFile(t, "h.rules", dnf)}
	for _, c := range []struct {
		flags  []string
		fields map[string]any
		lib    learn.Settings
	}{
		{[]string{"--iterations", "10"}, map[string]any{"iterations": 10}, learn.Settings{Iterations: 10}},
		{[]string{"--folds", "3", "--restarts", "2", "--iterations", "12", "--semantics", "lex", "--seed", "5"},
			map[string]any{"folds": 3, "restarts": 2, "iterations": 12, "semantics": "lex", "seed": 5},
			learn.Settings{Folds: 3, Restarts: 2, Iterations: 12, Semantics: possibilistic.Lex, Seed: 5}},
	} {
		out := writeFile(t, "out.theory", "")
		args := append([]string{"learn", "--pos", paths[0], "--neg", paths[1], "--hard", paths[2], "-o", out}, c.flags...)
		if _, errs, code := strata(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.flags, code, errs)
		}
		cli, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		body := map[string]any{"pos": pos, "neg": neg, "hard": dnf}
		for k, v := range c.fields {
			body[k] = v
		}
		served := learnOnServer(t, url, body)
		p := hardProblem(t, pos, neg, dnf)
		res, err := learn.Learn(context.Background(), p, c.lib, nil)
		if err != nil {
			t.Fatal(err)
		}
		lib := res.Theory.String()
		if string(cli) != lib || served != lib {
			t.Errorf("%v: strata learn\n%s\nthe server\n%s\nlearn.Learn\n%s", c.flags, cli, served, lib)
		}
		if p.HardRules == nil || strings.Contains(lib, "_h") || !strings.Contains(lib, "1: a0 & b0 | a1 & b1 |") {
			t.Errorf("%v: the hard rule is not stated as written:\n%s", c.flags, lib)
		}
	}
}

// hardProblem reads positive and negative defaults and hard rules as
// strata learn and the server do.
func hardProblem(t *testing.T, pos, neg, hard string) learn.Problem {
	t.Helper()
	v := &logic.Vocabulary{}
	train := &learn.Examples{}
	for i, text := range []string{pos, neg} {
		ds, err := defaults.ReadRules(strings.NewReader(text), "rules", v)
		if err != nil {
			t.Fatal(err)
		}
		rules, err := defaults.ClausalRules(ds, v)
		if err != nil {
			t.Fatal(err)
		}
		if err := train.AddRules(rules, i == 0, v, "rules"); err != nil {
			t.Fatal(err)
		}
	}
	fs, err := defaults.ReadClauses(strings.NewReader(hard), "hard", v)
	if err != nil {
		t.Fatal(err)
	}
	p := learn.Problem{Vocab: v, Train: train}
	var named bool
	if p.Hard, named, err = learn.HardClauses(v, fs); err != nil {
		t.Fatal(err)
	}
	if named {
		p.HardRules = fs
	}
	return p
}
