package main

import (
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
		{[]string{"mln", "map", net, "--given", "a1 | a2"}, 1, "not a conjunction of literals"},
		{[]string{"mln", "map", net, "--given", "a1", "--entails", "a1 & a2"}, 1, "not a literal"},
		// Text after '->' used to be dropped silently; unknown atoms were accepted.
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
