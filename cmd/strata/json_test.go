package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/internal/shared"
)

// jsonOf runs a command with --json and returns the one JSON object it
// prints, failing the test unless the command succeeds, prints exactly one
// object on stdout, and writes formulas as they are written ("a -> b",
// never "a -\u003e b").
func jsonOf(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, errs, code := strata(t, "", args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	if strings.Contains(out, `\u00`) {
		t.Errorf("%v: JSON escapes text:\n%s", args, out)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v: not a JSON object (%v):\n%s", args, err, out)
	}
	if dec.More() {
		t.Fatalf("%v: more than one JSON document:\n%s", args, out)
	}
	return v
}

// field follows a path of keys and indexes into a decoded JSON value.
func field(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// TestJSON checks the --json of every command that prints a result, on
// the built-in examples: one object, its main fields, the same answer as
// the text.
func TestJSON(t *testing.T) {
	ex := t.TempDir()
	if _, errs, code := strata(t, "", "examples", ex); code != 0 {
		t.Fatal(errs)
	}
	p := func(name string) string { return filepath.Join(ex, name) }

	v := jsonOf(t, "show", "--json", p("penguin.theory"))
	if field(v, "levels", 0, "formulas", 0) != "!penguin | bird" || field(v, "inconsistency") != 0.0 || field(v, "formulas") != 3.0 {
		t.Errorf("show --json: %v", v)
	}
	v = jsonOf(t, "query", "--json", "--semantics", "lex", p("wings.theory"), "penguin -> wings")
	if field(v, "answer") != "yes" || field(v, "semantics") != "lex" || field(v, "query") != "penguin -> wings" {
		t.Errorf("query --json: %v", v)
	}

	v = jsonOf(t, "closure", "--json", p("penguins.rules"))
	if field(v, "z_ordering", 1, "level") != 2.0 || field(v, "defaults", 2, "text") != "penguin -> !flies" || field(v, "defaults", 2, "line") != 3.0 ||
		field(v, "theory", "levels", 0, "formulas", 1) != "!penguin | !flies" {
		t.Errorf("closure --json: %v", v)
	}
	// With -o FILE the file gets the theory and stdout the JSON.
	theta := filepath.Join(t.TempDir(), "theta.theory")
	w := jsonOf(t, "closure", "--json", p("penguins.rules"), "-o", theta)
	text, _, _ := strata(t, "", "closure", p("penguins.rules"))
	if b, err := os.ReadFile(theta); err != nil || string(b) != text || field(w, "solver_calls") != field(v, "solver_calls") {
		t.Errorf("closure --json -o FILE: %v %q", err, b)
	}
	v = jsonOf(t, "closure", "--ranks", "--ocf", "z", "--json", p("birds.cl"))
	if field(v, "worlds", 1, "z") != 1.0 || field(v, "worlds", 1, "c") != nil || field(v, "defaults", 0, "rank") != 1.0 {
		t.Errorf("closure --ranks --json: %v", v)
	}
	v = jsonOf(t, "entails", "--json", "--relation", "lex", p("penguins.rules"), "penguin -> wings")
	if field(v, "answer") != "yes" || field(v, "semantics") != "lex" || !strings.Contains(field(v, "explanation", "text").(string), "violate") {
		t.Errorf("entails --json: %v", v)
	}
	v = jsonOf(t, "entails", "--json", "--relation", "c", p("birds.cl"), "--queries", p("birds.clq"))
	if field(v, "semantics") != "c" || field(v, "queries", 1, "answer") != "yes" || field(v, "queries", 0, "query") != "(f|p)" {
		t.Errorf("entails --queries --json: %v", v)
	}

	v = jsonOf(t, "eval", "--json", p("penguin.theory"), "--pos", p("penguins.rules"), "--neg", p("penguins.rules"))
	if field(v, "examples") != 8.0 || field(v, "accuracy") != 0.5 || len(field(v, "levels").([]any)) != 2 {
		t.Errorf("eval --json: %v", v)
	}
	out := filepath.Join(t.TempDir(), "learned.theory")
	v = jsonOf(t, "learn", "--json", "--pos", p("animals/train.defaults"), "--neg", p("animals/train.nondefaults"),
		"--test-pos", p("animals/test.defaults"), "--test-neg", p("animals/test.nondefaults"), "--iterations", "5", "-o", out)
	if field(v, "iterations") != 5.0 || field(v, "test_accuracy") == nil || field(v, "theory", "levels") == nil || field(v, "queries") != nil {
		t.Errorf("learn --json: %v", v)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "\n") {
		t.Errorf("learn --json -o FILE: the theory file: %v", err)
	}
	v = jsonOf(t, "learn", "--json", "--iterations", "40", "--folds", "3")
	if field(v, "validation", "folds") != 3.0 || field(v, "queries", 0, "query") != "penguin -> !flies" || field(v, "test_accuracy") == nil {
		t.Errorf("learn --json on the built-in example: %v", v)
	}
	if _, errs, code := strata(t, "", "learn", "--json", "-o", "-"); code != 2 || !strings.Contains(errs, "both write standard output") {
		t.Errorf("learn --json -o -: exit %d %q", code, errs)
	}
	clauses := writeFile(t, "clauses", "!penguin | bird\n!penguin | !flies\n!bird | flies\n")
	v = jsonOf(t, "stratify", "--json", clauses, "--pos", p("penguins.rules"), "--neg", writeFile(t, "neg", "penguin -> flies\n"))
	if len(field(v, "levels").([]any)) < 2 {
		t.Errorf("stratify --json: %v", v)
	}

	table := writeFile(t, "small.data", mlnTable())
	net := filepath.Join(t.TempDir(), "small.mln")
	v = jsonOf(t, "mln", "learn", table, "-o", net, "--test", table, "--min-leaf", "2", "--json")
	if field(v, "atoms") != 4.0 || field(v, "test_pll") == nil || field(v, "rows") != 40.0 {
		t.Errorf("mln learn --json: %v", v)
	}
	v = jsonOf(t, "mln", "map", net, "--given", "a1", "--json")
	if field(v, "world", 0) != "a1" || field(v, "solver") != "exact" || field(v, "queries") != 1.0 {
		t.Errorf("mln map --json: %v", v)
	}
	v = jsonOf(t, "mln", "map", net, "--given", "a1", "--entails", "a2", "--json")
	if field(v, "answer") != "yes" || field(v, "entailed") != true {
		t.Errorf("mln map --entails --json: %v", v)
	}
	v = jsonOf(t, "mln", "map", net, "--given", "a1, !a1", "--entails", "a2", "--json")
	if field(v, "answer") != "no world" || field(v, "entailed") != true {
		t.Errorf("mln map --json, contradictory evidence: %v", v)
	}
	v = jsonOf(t, "mln", "examples", net, "-o", t.TempDir(), "--train-examples", "20", "--test-examples", "10", "--json")
	if n := field(v, "train", "positive").(float64) + field(v, "train", "negative").(float64); n != 20 {
		t.Errorf("mln examples --json: %v", v)
	}
	var stdout bytes.Buffer
	if code := run([]string{"mln", "learn", table, "-o", "-", "--min-leaf", "2"}, strings.NewReader(""), &stdout, new(bytes.Buffer)); code != 0 ||
		!strings.Contains(stdout.String(), "a1") {
		t.Errorf("mln learn -o -: exit %d:\n%s", code, stdout.String())
	}

	calls := filepath.Join(t.TempDir(), "calls")
	v = jsonOf(t, "crowd", "table", p("calls.csv"), "-o", calls, "--annotator", "team", "--answer", "call", "--json")
	if field(v, "splits", 0, "manifest", "domain") != "table" || field(v, "splits", 0, "output") != calls {
		t.Errorf("crowd table --json: %v", v)
	}
	v = jsonOf(t, "crowd", "eval", calls, p("penguin.theory"), "--json")
	if field(v, "domain") != "table" || field(v, "majority", "accuracy") == nil || field(v, "theory", "confusion", "labels") == nil {
		t.Errorf("crowd eval --json: %v", v)
	}
}

// TestBenchJSON runs the quick MAP experiment with --json.
func TestBenchJSON(t *testing.T) {
	data := shared.Data(t, "debd/nltcs/nltcs.train.data")
	v := jsonOf(t, "bench", "map", "--quick", "--weka=false", "--xgboost=false", "-o", t.TempDir(), "--data", data,
		"--train-examples", "60", "--test-examples", "40", "--semantics-list", "poss", "--json")
	if field(v, "rows", 0, "name") != "NLTCS" || field(v, "rows", 0, "theories", 0, "semantics") != "poss" ||
		field(v, "rows", 0, "baselines", 0, "accuracy") != nil {
		t.Errorf("bench map --json: %v", v)
	}
}

// TestOutputDash checks that -o - is standard output wherever a command
// writes a file, and an error where it writes a directory; no file named
// "-" is ever written.
func TestOutputDash(t *testing.T) {
	ex := t.TempDir()
	if _, errs, code := strata(t, "", "examples", ex); code != 0 {
		t.Fatal(errs)
	}
	p := func(name string) string { return filepath.Join(ex, name) }
	t.Chdir(t.TempDir())
	same := [][]string{
		{"learn", "--iterations", "3"},
		{"learn", "--table", p("loans.csv"), "--label", "decision", "--iterations", "3"},
		{"closure", p("penguins.rules")},
		{"closure", "--ranks", p("birds.cl")},
		{"stratify", writeFile(t, "clauses", "!penguin | bird\n!bird | flies\n"), "--pos", p("penguins.rules"), "--neg", writeFile(t, "neg", "penguin -> flies\n")},
	}
	for _, args := range same {
		want, _, code := strata(t, "", args...)
		got, errs, code2 := strata(t, "", append(args, "-o", "-")...)
		if code != 0 || code2 != 0 || got != want {
			t.Errorf("%v -o -: exit %d %q, stdout\n%s\nwant\n%s", args, code2, errs, got, want)
		}
	}
	table := writeFile(t, "small.data", mlnTable())
	net, errs, code := strata(t, "", "mln", "learn", table, "-o", "-", "--min-leaf", "2")
	if code != 0 || !strings.Contains(net, "a1") || !strings.Contains(errs, "network on standard output: 4 atoms") {
		t.Errorf("mln learn -o -: exit %d %q\n%s", code, errs, net)
	}
	conv, _, code := strata(t, net, "mln", "convert", "-", "-")
	if code != 0 || conv != net {
		t.Errorf("mln convert - -: exit %d\n%s\nwant\n%s", code, conv, net)
	}
	for _, args := range [][]string{
		{"crowd", "table", p("calls.csv"), "-o", "-", "--annotator", "team", "--answer", "call"},
		{"mln", "examples", writeFile(t, "n.mln", net), "-o", "-"},
		{"bench", "crowd", "-o", "-"},
	} {
		if _, errs, code := strata(t, "", args...); code != 2 || !strings.Contains(errs, "-o -") {
			t.Errorf("%v: exit %d %q; want a usage error", args, code, errs)
		}
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("a file named - was written")
	}
}

// TestDemoExamplesJSON: demo --json gives the theory strata show --json
// gives and, for each of its queries, the command and the answer that
// command gives with --json (and the text demo the answer it prints); examples --json lists the files it wrote,
// each as the text listing does.
func TestDemoExamplesJSON(t *testing.T) {
	ex := filepath.Join(t.TempDir(), "examples")
	v := jsonOf(t, "examples", ex, "--json")
	files, _ := field(v, "files").([]any)
	names, _ := exampleNames()
	if field(v, "dir") != ex || len(files) != len(names) || field(v, "files", 0, "about") != exampleAbout[names[0]] {
		t.Errorf("examples --json: %v", v)
	}
	for i, n := range names {
		if p := field(v, "files", i, "path"); p != filepath.ToSlash(filepath.Join(ex, n)) {
			t.Errorf("file %d: %v, want %s", i, p, n)
		}
	}
	t.Chdir(filepath.Dir(ex))
	demo := jsonOf(t, "demo", "--json")
	if show := jsonOf(t, "show", "examples/penguin.theory", "--json"); !reflect.DeepEqual(field(demo, "theory"), field(show, "theory")) && !reflect.DeepEqual(field(demo, "theory", "levels"), field(show, "levels")) {
		t.Errorf("demo's theory %v, show's %v", field(demo, "theory"), show)
	}
	qs, _ := field(demo, "queries").([]any)
	if len(qs) != len(demoQueries) {
		t.Fatalf("demo --json: %d queries, want %d", len(qs), len(demoQueries))
	}
	for i, q := range demoQueries {
		want := jsonOf(t, "query", "examples/penguin.theory", q, "--json")
		if cmd := field(demo, "queries", i, "command"); cmd != demoCommand(q) || !reflect.DeepEqual(field(demo, "queries", i, "answer"), any(want)) {
			t.Errorf("query %q: demo says %v\n%v, strata query --json %v", q, cmd, field(demo, "queries", i, "answer"), want)
		}
	}
	// The text: each query's answer is what the command shown prints.
	text, _, _ := strata(t, "", "demo")
	for _, q := range demoQueries {
		out, _, _ := strata(t, "", "query", "examples/penguin.theory", q)
		if !strings.Contains(text, "$ "+demoCommand(q)+"\n"+out+"\n") {
			t.Errorf("demo's answer to %q is not the command's:\n%s", q, out)
		}
	}
	want := jsonOf(t, "query", "examples/penguin.theory", "--given", demoGiven, "--json")
	got, _ := field(demo, "conclusions").(map[string]any)
	delete(got, "command")
	if !reflect.DeepEqual(any(got), any(want)) {
		t.Errorf("demo's conclusions %v, strata query --given --json %v", got, want)
	}
}

// TestJSONHasNoNullsOnEmptyInputs runs the commands that print JSON on the
// degenerate inputs (an empty theory or base, evidence nothing follows
// from, a most probable world with no true atom) and checks that no list
// comes back null: "atoms": [], "world": []. Only the documented nulls are
// allowed (deciding_level when nothing decides).
func TestJSONHasNoNullsOnEmptyInputs(t *testing.T) {
	empty := writeFile(t, "empty.theory", "")
	rules := writeFile(t, "empty.rules", "")
	pos, neg := writeFile(t, "p.defaults", "a -> b\n"), writeFile(t, "n.defaults", "a -> !b\n")
	net := writeFile(t, "false.mln", "a\nb\n-1 a\n-2 b\n") // the all-false world is the most probable
	clauses := writeFile(t, "clauses", "!a | b\n")
	for _, args := range [][]string{
		{"show", "--json", empty},
		{"show", "--json", "--simplify", empty},
		{"query", "--json", empty, "a"},
		{"query", "--json", "--semantics", "lex", empty, "a & !a -> b"},
		{"query", "--json", empty, "--given", "a"},
		{"query", "--json", empty, "--given", "a, !a"},
		{"entails", "--json", rules, "a -> b"},
		{"entails", "--json", "--relation", "p", rules, "a -> b"},
		{"entails", "--json", "--relation", "lex", rules, "a -> b"},
		{"entails", "--json", "--relation", "w", rules, "a -> b"},
		{"entails", "--json", "--relation", "c", rules, "a -> b"},
		{"closure", "--json", rules},
		{"closure", "--json", "--ranks", rules},
		{"eval", "--json", empty, "--pos", pos, "--neg", neg},
		{"stratify", "--json", clauses, "--pos", pos, "--neg", neg},
		{"mln", "map", "--json", net},
		{"mln", "map", "--json", net, "--entails", "a"},
	} {
		if ns := jsonview.Nulls(jsonOf(t, args...), "deciding_level"); len(ns) > 0 {
			t.Errorf("%v: null at %s", args, strings.Join(ns, ", "))
		}
	}
	// A world's fields are all there, however many are zero.
	v := jsonOf(t, "mln", "map", "--json", net)
	if w, ok := v["world"].([]any); !ok || len(w) != 0 || v["log_weight"] != 0.0 || v["cost"] != 0.0 || v["atoms"] != 2.0 {
		t.Errorf("mln map --json of the all-false world: %v", v)
	}
}
