package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const penguinRules = `# the textbook base
bird -> flies
penguin -> bird
penguin -> !flies
bird -> wings
`

const birdsCLFile = `signature
  b, p, f, w
conditionals
birds{
  (f|b), (!f|p), (b|p), (w|b)
}
`

func TestClosure(t *testing.T) {
	rules := writeFile(t, "penguins.rules", penguinRules)
	out, errs, code := strata(t, "", "closure", rules)
	want := `# Z-ordering of 4 defaults: 2 levels, 4 solver calls
# Δ1 (weight 0.3):
#   ` + rules + `:2: bird -> flies
#   ` + rules + `:5: bird -> wings
# Δ2 (weight 0.7):
#   ` + rules + `:3: penguin -> bird
#   ` + rules + `:4: penguin -> !flies
0.7: !penguin | bird
0.7: !penguin | !flies

0.3: !bird | flies
0.3: !bird | wings
`
	if code != 0 || errs != "" || out != want {
		t.Fatalf("closure: exit %d, stderr %q, output\n%s\nwant\n%s", code, errs, out, want)
	}
	// The output is a theory: query decides rational closure on it.
	for q, first := range map[string]string{"penguin -> !flies": "yes", "penguin -> wings": "no", "red, bird -> flies": "yes"} {
		got, _, _ := strata(t, out, "query", "-", q)
		if !strings.HasPrefix(got, first+"\n") {
			t.Errorf("query %q on the closure: %q, want %s", q, got, first)
		}
	}
	file := filepath.Join(t.TempDir(), "out.theory")
	if _, errs, code := strata(t, penguinRules, "closure", "-", "-o", file); code != 0 {
		t.Fatalf("closure -o: %d %s", code, errs)
	}
	if data, err := os.ReadFile(file); err != nil || !strings.HasSuffix(string(data), "0.3: !bird | flies\n0.3: !bird | wings\n") {
		t.Errorf("closure -o wrote %q (%v)", data, err)
	}
	// A .cl base, by extension and sniffed on stdin; background knowledge.
	cl := writeFile(t, "birds.cl", birdsCLFile)
	for _, args := range [][]string{{"closure", cl}, {"closure", "-"}} {
		out, errs, code := strata(t, birdsCLFile, args...)
		if code != 0 || !strings.Contains(out, "#   "+strings.Replace(args[1], "-", "<stdin>", 1)+":5: (!f|p)\n") {
			t.Errorf("%v: exit %d, %q, %q", args, code, out, errs)
		}
	}
	hard := writeFile(t, "hard.rules", "!penguin, bird\n")
	out, _, code = strata(t, "bird -> flies\npenguin -> !flies\n", "closure", "-", "--background", hard)
	if code != 0 || !strings.Contains(out, "1: !penguin | bird\n") || !strings.Contains(out, "# Δ2 (weight 0.7):\n#   <stdin>:2: penguin -> !flies") {
		t.Errorf("closure --background:\n%s", out)
	}
}

func TestEntails(t *testing.T) {
	rules := writeFile(t, "penguins.rules", penguinRules)
	cases := []struct {
		query       string
		p, rat, lex string
	}{
		{"penguin -> !flies", "yes", "yes", "yes"},
		{"penguin |~ bird", "yes", "yes", "yes"},
		{"bird, red -> flies", "no", "yes", "yes"},
		{"penguin -> wings", "no", "no", "yes"},
		{"penguin -> flies", "no", "no", "no"},
		{"(!f|p)", "no", "no", "no"}, // unknown atoms f and p
	}
	for _, c := range cases {
		for sem, want := range map[string]string{"p": c.p, "rational": c.rat, "lex": c.lex} {
			out, errs, code := strata(t, "", "entails", "--relation", sem, rules, c.query)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if code != 0 || errs != "" || lines[0] != want || len(lines) < 2 {
				t.Errorf("entails --relation %s %q: exit %d, stderr %q, output %q; want %s first, then why", sem, c.query, code, errs, out, want)
			}
		}
	}
	out, _, _ := strata(t, "", "entails", "--relation", "p", rules, "penguin -> !flies")
	if !strings.Contains(out, rules+":4: penguin -> !flies") {
		t.Errorf("System P should name the clashing default:\n%s", out)
	}
	out, _, _ = strata(t, "", "entails", "--relation", "lex", rules, "penguin -> flies")
	if !strings.Contains(out, "(Δ2: 0, Δ1: 1)") || !strings.Contains(out, "!flies, penguin, wings") {
		t.Errorf("lex explanation:\n%s", out)
	}

	cl := writeFile(t, "birds.cl", birdsCLFile)
	clq := writeFile(t, "birds.clq", "(f|p),\n(w|p),\n(b|p)\n")
	for sem, want := range map[string]string{
		"p":        "no\t(f|p)\nno\t(w|p)\nyes\t(b|p)\n",
		"rational": "no\t(f|p)\nno\t(w|p)\nyes\t(b|p)\n",
		"lex":      "no\t(f|p)\nyes\t(w|p)\nyes\t(b|p)\n",
	} {
		out, errs, code := strata(t, "", "entails", "--relation", sem, cl, "--queries", clq)
		if code != 0 || out != want {
			t.Errorf("--queries under %s: exit %d %q, got\n%s\nwant\n%s", sem, code, errs, out, want)
		}
	}
	qrules := writeFile(t, "q.rules", "penguin -> wings\n\npenguin -> bird\n")
	out, _, _ = strata(t, penguinRules, "entails", "--relation", "lex", "-", "--queries", qrules)
	if out != "yes\tpenguin -> wings\nyes\tpenguin -> bird\n" {
		t.Errorf("--queries with a rule file: %q", out)
	}
	hard := writeFile(t, "hard.rules", "!penguin | bird\n")
	out, _, _ = strata(t, "bird -> flies\npenguin -> !flies\n", "entails", "-", "--background", hard, "penguin, !bird -> flies")
	if !strings.HasPrefix(out, "yes\npenguin & !bird contradicts the background knowledge") {
		t.Errorf("vacuous query: %q", out)
	}
}

func TestDefaultsErrors(t *testing.T) {
	dir := t.TempDir()
	rules := writeFile(t, "penguins.rules", penguinRules)
	bad := writeFile(t, "bad.rules", "bird -> flies\npenguin -> \n")
	clash := writeFile(t, "clash.rules", "a -> b\nc -> d\na -> !b\n")
	badCL := writeFile(t, "bad.cl", "signature a, b\nconditionals kb{\n  (a|b),\n  (a b)\n}\n")
	two := writeFile(t, "two.cl", "signature a conditionals one{(a|Top)} two{(!a|Top)}")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"closure", filepath.Join(dir, "none.rules")}, 1, "no such file or directory"},
		{[]string{"closure", bad}, 1, "bad.rules:2:12: expected consequent after '->'"},
		{[]string{"closure", clash}, 1, "clash.rules:1: a -> b; " + clash + ":3: a -> !b"},
		{[]string{"closure", badCL}, 1, "bad.cl:4:6: expected '|' between the consequent and the antecedent"},
		{[]string{"closure", two}, 1, "holds 2 belief bases (one, two); choose one with --base"},
		{[]string{"closure", two, "--base", "three"}, 1, "holds no belief base \"three\""},
		{[]string{"closure", rules, "--base", "x"}, 2, "--base needs a .cl knowledge base"},
		{[]string{"closure", rules, "--format", "xml"}, 2, "want auto, rules or cl"},
		{[]string{"closure", rules, "--background", bad}, 1, "bad.rules:2"},
		{[]string{"closure"}, 2, "takes 1 argument"},
		{[]string{"entails", rules}, 2, "needs a QUERY or --queries"},
		{[]string{"entails", rules, "a -> b", "--queries", rules}, 2, "not both"},
		{[]string{"entails", "--relation", "z+", rules, "a -> b"}, 2, `invalid argument "z+" for "--relation" flag: want p, rational, lex, w or c (see 'strata help entails')`},
		{[]string{"entails", rules, "penguin -> (flies"}, 1, "query: 1:18: expected ')'"},
		{[]string{"entails", rules, "(flies|"}, 1, "query: 1:8: expected a formula"},
		{[]string{"entails", rules, "flies"}, 1, "query: 1:6: expected '->' or '|~'"},
		{[]string{"entails", clash, "a -> b"}, 1, "inconsistent defaults"},
		{[]string{"entails", rules, "--queries", bad}, 1, "bad.rules:2:12"},
		{[]string{"entails", "-", "--queries", "-"}, 2, "cannot both be standard input"},
	}
	for _, c := range cases {
		out, errs, code := strata(t, "", c.args...)
		if code != c.code || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and one line containing %q", c.args, code, out, errs, c.code, c.want)
		}
	}
	if out, _, code := strata(t, "", "closure", two, "--base", "two"); code != 0 || !strings.Contains(out, ":1: (!a|Top)") {
		t.Errorf("--base two: %d %q", code, out)
	}
}

// TestClosureTheorySaysWhereQueryAndEntailsDiffer: with background
// knowledge, query on the closure's theory and entails agree on every
// antecedent consistent with it; on one that contradicts it, entails
// answers yes (every consequent follows) and query no (only tautologies
// follow under possibilistic entailment), each saying why, and the theory's
// comments say so.
func TestClosureTheorySaysWhereQueryAndEntailsDiffer(t *testing.T) {
	rules := writeFile(t, "r.rules", "a -> b\n")
	hard := writeFile(t, "h", "!c\n")
	th := filepath.Join(t.TempDir(), "t.theory")
	if _, errs, code := strata(t, "", "closure", rules, "--hard", hard, "-o", th); code != 0 {
		t.Fatal(errs)
	}
	data, _ := os.ReadFile(th)
	if !strings.Contains(string(data), "# entails every consequent under rational closure (strata entails) but only tautologies here") {
		t.Errorf("the theory does not say it:\n%s", data)
	}
	for q, want := range map[string][2]string{
		"a -> b":      {"yes", "yes"},
		"a -> c":      {"no", "no"},
		"a, c -> d":   {"no\na & c contradicts the formulas of weight 1, so only tautologies follow", "yes\n"},
		"c -> d":      {"no\nc contradicts the formulas of weight 1, so only tautologies follow", "yes\nc contradicts the background knowledge, so every consequent follows"},
		"c -> d | !d": {"yes", "yes"},
	} {
		got, _, _ := strata(t, "", "query", th, q)
		ent, _, _ := strata(t, "", "entails", rules, "--hard", hard, q)
		if !strings.HasPrefix(got, want[0]) || !strings.HasPrefix(ent, want[1]) {
			t.Errorf("%s: query %q, entails %q; want %q, %q", q, got, ent, want[0], want[1])
		}
	}
}
