package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mlnTable is a small table in which a2 copies a1 and a3 negates a2 in most
// rows, so that MAP entailment has something to say.
func mlnTable() string {
	rows := []string{"1,1,0,1", "1,1,0,0", "0,0,1,1", "0,0,1,0", "1,1,0,1", "0,0,1,0", "1,0,1,1", "0,1,0,0"}
	var b strings.Builder
	for i := 0; i < 40; i++ {
		b.WriteString(rows[i%len(rows)] + "\n")
	}
	return b.String()
}

func TestMLNCommands(t *testing.T) {
	table := writeFile(t, "small.data", mlnTable())
	dir := t.TempDir()
	net := filepath.Join(dir, "small.mln")
	out, errs, code := strata(t, "", "mln", "learn", table, "-o", net, "--test", table, "--min-leaf", "2")
	if code != 0 || !strings.Contains(out, "4 atoms") || !strings.Contains(out, "test pseudo-log-likelihood") {
		t.Fatalf("learn: %d %q %q", code, out, errs)
	}
	out, errs, code = strata(t, "", "mln", "map", net, "--given", "a1")
	if code != 0 || !strings.HasPrefix(out, "a most probable world") || !strings.Contains(out, "true: a1 a2") {
		t.Fatalf("map: %d %q %q", code, out, errs)
	}
	mapOut := out
	out, _, code = strata(t, "", "mln", "map", net, "--given", "a1", "--entails", "a2")
	if code != 0 || !strings.HasPrefix(out, "yes\n") {
		t.Fatalf("entails a2: %d %q", code, out)
	}
	out, _, code = strata(t, "", "mln", "map", net, "--given", "a1", "--entails", "!a2")
	if code != 0 || !strings.HasPrefix(out, "no\n") {
		t.Fatalf("entails !a2: %d %q", code, out)
	}
	out, _, code = strata(t, "", "mln", "map", net, "--given", "a1", "--map", "approx", "--flips", "500")
	if code != 0 || !strings.Contains(out, "true: a1 a2") {
		t.Fatalf("map --map approx: %d %q", code, out)
	}
	wcnf := filepath.Join(dir, "small.wcnf")
	if _, errs, code = strata(t, "", "mln", "convert", net, wcnf); code != 0 {
		t.Fatalf("convert: %q", errs)
	}
	out2, _, code := strata(t, "", "mln", "map", wcnf, "--given", "a1")
	if code != 0 || out2 == "" || strings.Split(out2, "\n")[1] != strings.Split(mapOut, "\n")[1] {
		t.Fatalf("map on the WCNF: %d %q", code, out2)
	}
	ex := filepath.Join(dir, "ex")
	out, errs, code = strata(t, "", "mln", "examples", net, "-o", ex, "--train-examples", "30", "--test-examples", "20", "--max-evidence", "2")
	if code != 0 || !strings.Contains(out, "train: ") {
		t.Fatalf("examples: %d %q %q", code, out, errs)
	}
	lines := 0
	for _, name := range []string{"train.defaults", "train.nondefaults", "test.defaults", "test.nondefaults"} {
		b, err := os.ReadFile(filepath.Join(ex, name))
		if err != nil {
			t.Fatal(err)
		}
		lines += strings.Count(string(b), "\n")
	}
	if lines != 50 {
		t.Fatalf("%d examples written, want 50", lines)
	}
}

func TestMLNErrors(t *testing.T) {
	table := writeFile(t, "bad.data", "0,1\n0,x\n")
	net := writeFile(t, "n.mln", "a1\na2\n1.5 a1 ^ a2\n")
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"mln", "learn", table}, 2, "learn needs -o"},
		{[]string{"mln", "learn", table, "-o", filepath.Join(t.TempDir(), "x.mln")}, 1, "bad.data:2:3: expected 0 or 1"},
		{[]string{"mln", "examples", net, "-o", t.TempDir(), "--map", "fast"}, 2, `invalid argument "fast" for "--map" flag: want exact or approx`},
		// A negative count must not slice the list of slowest queries.
		{[]string{"mln", "examples", net, "-o", t.TempDir(), "--slowest", "-1"}, 2, "--slowest -1: give a whole number of at least 0"},
		{[]string{"mln", "map", net, "--given", "a1 | a2"}, 1, "not a conjunction of literals"},
		{[]string{"mln", "map", net, "--given", "a1", "--entails", "a1 & a2"}, 1, "not a literal"},
		// Text after '->' is not dropped silently; unknown atoms are refused.
		{[]string{"mln", "map", net, "--given", "a1 -> a2"}, 1, "not a conjunction of literals"},
		{[]string{"mln", "map", net, "--given", "a1, zz"}, 1, "zz is not an atom of the network"},
		{[]string{"mln", "map", net, "--given", "a1", "--entails", "zz"}, 1, "not a literal on an atom of the network"},
		{[]string{"mln", "map", writeFile(t, "bad.mln", "a1\n1.5 a1 ^\n")}, 1, "bad.mln:2:9: expected formula"},
	}
	for _, c := range cases {
		_, errs, code := strata(t, "", c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
	}
}

// A huge weight must not round a small one away,
// and impossible evidence must be named as such under --entails too.
func TestMLNMapDefects(t *testing.T) {
	huge := writeFile(t, "r.mln", "a\nc\n0.0004 a\n0.0003 !a\n1e15 c\n")
	_, errs, code := strata(t, "", "mln", "map", huge, "--given", "c", "--entails", "a")
	if code != 1 || !strings.Contains(errs, "need 4 decimals") || !strings.Contains(errs, "would round the small weights") {
		t.Errorf("1e15 next to 0.0004: exit %d, stderr %q; want a refusal naming the reason", code, errs)
	}
	small := writeFile(t, "s.mln", "a\nc\n0.0004 a\n0.0003 !a\n1 c\n")
	if out, _, code := strata(t, "", "mln", "map", small, "--given", "c", "--entails", "a"); code != 0 || !strings.HasPrefix(out, "yes\n") {
		t.Errorf("1 next to 0.0004: exit %d, %q", code, out)
	}
	x := writeFile(t, "x.mln", "a\nb\n!a.\n1 b\n")
	for _, beta := range []string{"b", "!b"} {
		out, errs, code := strata(t, "", "mln", "map", x, "--given", "a", "--entails", beta)
		if code != 0 || !strings.HasPrefix(out, "no world satisfies the evidence\n") {
			t.Errorf("--entails %s from impossible evidence: exit %d, %q %q", beta, code, out, errs)
		}
	}
	out, _, code := strata(t, "", "mln", "map", x, "--given", "!a", "--entails", "b", "--timeout", "1m")
	if code != 0 || !strings.HasPrefix(out, "yes\n") || !strings.Contains(out, "slowest query: ") {
		t.Errorf("--entails b from possible evidence: exit %d, %q", code, out)
	}
}

// Budgets: a query that runs out fails map, and makes examples leave the
// example unlabelled and unwritten.
func TestMLNBudgets(t *testing.T) {
	table := writeFile(t, "small.data", mlnTable())
	dir := t.TempDir()
	net := filepath.Join(dir, "small.mln")
	if _, errs, code := strata(t, "", "mln", "learn", table, "-o", net, "--min-leaf", "2"); code != 0 {
		t.Fatal(errs)
	}
	_, errs, code := strata(t, "", "mln", "map", net, "--given", "a1", "--timeout", "1ns")
	if code != 1 || !strings.Contains(errs, "ran out of its budget (--timeout 1ns)") {
		t.Errorf("map --timeout 1ns: exit %d, %q", code, errs)
	}
	ex := filepath.Join(dir, "ex")
	out, errs, code := strata(t, "", "mln", "examples", net, "-o", ex, "--train-examples", "30", "--test-examples", "20", "--query-timeout", "1ns")
	if code != 0 || !strings.Contains(out, "train: 0 positive, 0 negative, 30 not labelled") ||
		!strings.Contains(out, "test: 0 positive, 0 negative, 20 not labelled") || !strings.Contains(out, "(out of budget)") {
		t.Fatalf("examples --query-timeout 1ns: %d %q %q", code, out, errs)
	}
	for _, name := range []string{"train.defaults", "train.nondefaults", "test.defaults", "test.nondefaults"} {
		if b, err := os.ReadFile(filepath.Join(ex, name)); err != nil || len(b) != 0 {
			t.Errorf("%s: %q %v; want an empty file", name, b, err)
		}
	}
	out, _, code = strata(t, "", "mln", "examples", net, "-o", ex, "--train-examples", "30", "--test-examples", "20", "--timeout", "1m")
	if code != 0 || strings.Contains(out, "not labelled") || !strings.Contains(out, "slowest query: ") {
		t.Fatalf("examples --timeout 1m: %d %q", code, out)
	}
}

// TestMLNMapShowsUnderscoreAtoms: a most probable world shows every atom
// the network names, one whose name starts with an underscore too; only
// the variables a WCNF file left unnamed are left out.
func TestMLNMapShowsUnderscoreAtoms(t *testing.T) {
	net := writeFile(t, "u.mln", "_x\nb\n2 _x\n1 b\n")
	if out, errs, code := strata(t, "", "mln", "map", net); code != 0 || !strings.Contains(out, "2 of 2 atoms true\ntrue: _x b\n") {
		t.Errorf("exit %d, %q %q", code, out, errs)
	}
	wcnf := writeFile(t, "u.wcnf", "c atom 1 _y\nc atom 3 b\np wcnf 3 3 10\n3 1 0\n2 2 0\n1 -3 0\n")
	if out, errs, code := strata(t, "", "mln", "map", wcnf); code != 0 || !strings.Contains(out, "1 of 2 atoms true\ntrue: _y\n") {
		t.Errorf("exit %d, %q %q", code, out, errs)
	}
}

// TestMLNLearnNamesBadTables: an empty table, or a --test table of another
// width, is an error naming the file (and, for the width, its first line)
// before any learning.
func TestMLNLearnNamesBadTables(t *testing.T) {
	five := writeFile(t, "five.data", "0,1,0,1,1\n1,0,0,1,0\n1,1,1,0,0\n")
	four := writeFile(t, "four.data", "0,1,0,1\n1,0,0,1\n")
	empty := writeFile(t, "empty.data", "")
	out := filepath.Join(t.TempDir(), "n.mln")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mln", "learn", empty, "-o", out}, empty + ": no rows to learn from"},
		{[]string{"mln", "learn", five, "-o", out, "--test", four}, "--test " + four + ":1: 4 columns, and the training table " + five + " has 5"},
		{[]string{"mln", "learn", five, "-o", out, "--test", empty}, "--test " + empty + ": no rows to score"},
	} {
		if _, errs, code := strata(t, "", c.args...); code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, errs)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: wrote the network", c.args)
		}
	}
}

// TestMLNMapIsBoundedByItsBudget: exact MAP, NP-hard, has a budget by
// default (one minute), and a query that runs out of it fails with a
// message saying what to do rather than running on.
func TestMLNMapIsBoundedByItsBudget(t *testing.T) {
	f := newRoot()
	cmd, _, err := f.Find([]string{"mln", "map"})
	if err != nil || cmd.Flags().Lookup("timeout").DefValue != "1m0s" {
		t.Fatalf("mln map --timeout defaults to %v", cmd.Flags().Lookup("timeout").DefValue)
	}
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "a%d\n", i)
	}
	for i := range 300 {
		fmt.Fprintf(&b, "%d.5 a%d v !a%d v a%d\n", i%3-1, i%30, (i*7)%30, (i*13)%30)
	}
	net := writeFile(t, "dense.mln", b.String())
	_, errs, code := strata(t, "", "mln", "map", net, "--timeout", "1ns")
	if code != 1 || !strings.Contains(errs, "MAP ran out of its budget (--timeout 1ns) after 1 queries: exact MAP is NP-hard; give a longer --timeout (0: no bound), or --map approx") {
		t.Fatalf("exit %d, %q", code, errs)
	}
}
